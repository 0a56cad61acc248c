"""artproject: a rules-as-data engine for The A.R.T. Project.

    >>> from artproject import new_game
    >>> game = new_game("japan", players=2, difficulty="medium", seed=1)
    >>> game.legal_actions()[:2]
    [Action(verb='unlock', player=-1, arg=None), Action(verb='done', player=-1, arg=None)]
"""

from .core.actions import CHANCE, TEAM, Action
from .core.art import ALLY_PAWN, Rules, State, apply_position, new_game, position_of
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
from .core.saves import dumps, load_game, loads, replay, save_game

__version__ = "0.1.0"

__all__ = [
    "ALLY_PAWN",
    "CHANCE",
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
