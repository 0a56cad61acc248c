"""artproject: a rules-as-data engine for The A.R.T. Project.

    >>> from artproject import new_game
    >>> game = new_game("japan", players=2, difficulty="medium", seed=1)
    >>> game.legal_actions()[:2]
    [Action(verb='unlock', player=-1, arg=None), Action(verb='done', player=-1, arg=None)]
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported: the command line starts the sooner
if TYPE_CHECKING:
    from typing import Any

    from ._checked import apply_position, load_rules, new_game, position_of
    from .core.actions import CHANCE, NOBODY, PUBLIC, TEAM, TERMINAL, Action
    from .core.art import ALLY_PAWN, Rules, State
    from .core.art.loader import shipped_missions
    from .core.errors import (
        ArtError,
        GameError,
        IllegalActionError,
        MalformedActionError,
        RulesError,
        RulesErrors,
        RulesWarning,
        SaveError,
        SaveWarning,
    )
    from .core.saves import dumps, load_game, loads, replay, save_game

__version__ = "0.1.0"

__all__ = [
    "ALLY_PAWN",
    "CHANCE",
    "NOBODY",
    "PUBLIC",
    "TEAM",
    "TERMINAL",
    "Action",
    "ArtError",
    "GameError",
    "IllegalActionError",
    "MalformedActionError",
    "Rules",
    "RulesError",
    "RulesErrors",
    "RulesWarning",
    "SaveError",
    "SaveWarning",
    "State",
    "__version__",
    "apply_position",
    "dumps",
    "load_game",
    "load_rules",
    "loads",
    "new_game",
    "position_of",
    "replay",
    "save_game",
    "shipped_missions",
]

# Each public name and the module that defines it, imported on first use: the command line
# starts (and answers --help, or a Ctrl-C in its first moment) before the engine loads.
_WHERE = {
    "ALLY_PAWN": ".core.art",
    "CHANCE": ".core.actions",
    "TEAM": ".core.actions",
    "TERMINAL": ".core.actions",
    "NOBODY": ".core.actions",
    "PUBLIC": ".core.actions",
    "Action": ".core.actions",
    "ArtError": ".core.errors",
    "GameError": ".core.errors",
    "IllegalActionError": ".core.errors",
    "MalformedActionError": ".core.errors",
    "RulesError": ".core.errors",
    "RulesErrors": ".core.errors",
    "SaveError": ".core.errors",
    "RulesWarning": ".core.errors",
    "SaveWarning": ".core.errors",
    "load_rules": "._checked",  # (the loader's, its arguments checked first)
    "shipped_missions": ".core.art.loader",
    "apply_position": "._checked",
    "position_of": "._checked",
    "Rules": ".core.art",
    "dumps": ".core.saves",
    "load_game": ".core.saves",
    "loads": ".core.saves",
    "new_game": "._checked",
    "replay": ".core.saves",
    "save_game": ".core.saves",
    "State": ".core.art",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'artproject' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(where, __name__), name)
    globals()[name] = value  # the next use is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
