"""artproject: a rules-as-data engine for The A.R.T. Project.

    >>> from artproject import new_game
    >>> game = new_game("japan", players=2, difficulty="medium", seed=1)
    >>> game.legal_actions()[:2]
    [Action(verb='unlock', player=-1, arg=None), Action(verb='done', player=-1, arg=None)]
"""

from .core.actions import ALLY_PAWN, TEAM, Action
from .core.errors import (
    ArtError,
    GameError,
    IllegalActionError,
    MalformedActionError,
    RulesError,
    RulesErrors,
    SaveError,
)
from .core.loader import load_rules, shipped_missions
from .core.position import apply_position, position_of
from .core.rules import Rules
from .core.saves import dumps, load_game, loads, new_game, replay, save_game
from .core.state import State

__version__ = "0.1.0"

__all__ = [
    "ALLY_PAWN",
    "TEAM",
    "Action",
    "ArtError",
    "GameError",
    "IllegalActionError",
    "MalformedActionError",
    "Rules",
    "RulesError",
    "RulesErrors",
    "SaveError",
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
