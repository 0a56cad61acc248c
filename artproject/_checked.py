"""The public face's functions that start or set up a game, their arguments checked first
(core/checks.py): a wrong type or a value out of range is a GameError naming the argument,
and whatever `new_game` accepts, a save holds and loads back (a seed of 64 bits, a whole
number of players, never a bool; numpy's integers are taken as ints)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .core import checks
from .core.art import apply_position as _apply_position
from .core.art import new_game as _new_game
from .core.art import position_of as _position_of
from .core.art.loader import load_rules as _load_rules
from .core.art.rules import Rules
from .core.art.state import State
from .core.errors import GameError
from .core.games import game_class, game_tools, is_game
from .core.sources import LoadedRules
from .missions import DEFAULT


@functools.wraps(_new_game)
def new_game(mission: str | Path | Rules | None = None, players: int = 2,
             difficulty: str = "medium", seed: int = 0, variants: Iterable[str | Path] = (),
             position: Mapping[str, Any] | None = None, phase: str = "mission",
             log: bool = False, *, chance: str = "sample", game: str | None = None,
             **options: Any) -> Any:
    # the usual call is told at once by exact types (a game's start is on a search's path,
    # as apply is); any other is checked argument by argument (no mission: the game's own)
    if not (mission.__class__ is str and players.__class__ is int and players > 0
            and difficulty.__class__ is str and seed.__class__ is int
            and -(2**63) <= seed < 2**64 and variants.__class__ is tuple and not variants
            and position is None and phase.__class__ is str and log.__class__ is bool
            and chance.__class__ is str and game is None and not options):
        players, seed = _check_new(mission, players, difficulty, seed, variants, position,
                                   phase, log, chance, game)
        variants = tuple(variants)
    return _new_game(mission, players, difficulty, seed, variants, position, phase, log,
                     chance=chance, game=game, **options)


def _check_new(mission: Any, players: Any, difficulty: Any, seed: Any, variants: Any,
               position: Any, phase: Any, log: Any, chance: Any, game: Any) -> tuple[int, int]:
    """new_game's arguments, each (GameError naming the first wrong); the player count and
    the seed as ints (numpy's integers taken as theirs: a seed read from an array)."""
    if isinstance(mission, LoadedRules) and not isinstance(mission, Rules) and game is None:
        raise GameError(f"the rules given ({mission.name}) are not The A.R.T. Project's: name "
                        f"their game, new_game(rules, game=...)")
    if mission is not None and not isinstance(mission, LoadedRules):
        checks.ref(mission, "mission")
    players = checks.index(players, "players", 1)
    checks.text(difficulty, "difficulty")
    seed = checks.index(seed, "seed", *checks.SEED)
    checks.refs(variants, "variants")
    if position is not None:
        checks.mapping(position, "position")
    checks.text(phase, "phase")
    checks.flag(log, "log")
    checks.text(chance, "chance")
    if game is not None:
        checks.text(game, "game")
    return players, seed


def load_rules(mission: str | Path = DEFAULT, variants: Iterable[str | Path] = (),
               cards: str | Path | None = None, base: str | Path | None = None, *,
               game: str | None = None) -> Any:
    """A game's rules, loaded once and frozen: a shipped mission's name or a file, with
    `variants` layered on (`cards` and `base`: another deck and base rules, The A.R.T.
    Project's). Another game's by its name (`load_rules("art-of-war")`) or with `game`
    (`load_rules("my-war.toml", game="art-of-war")`), as `new_game` names them. RulesErrors
    naming file:line:col for every mistake."""
    checks.ref(mission, "mission")
    variants = checks.refs(variants, "variants")
    for name, value in (("cards", cards), ("base", base)):
        if value is not None:
            checks.ref(value, name)
    other = _other_game(mission, game)
    if other is None:
        return _load_rules(mission, variants, cards, base)
    if cards is not None or base is not None:
        raise GameError(f"cards and base are The A.R.T. Project's, not options of {other!r}")
    tools = game_tools(other)
    return tools.load_rules(tools.DEFAULT_RULES if mission == other else mission, variants)


def _other_game(mission: str | Path, game: str | None) -> str | None:
    """The game other than The A.R.T. Project whose rules `load_rules` is asked for: named by
    `game`, or by the mission's name; None for this game's."""
    if game is not None:
        checks.text(game, "game", empty=False)
        game_tools(game)  # (GameError naming the games, for one the kernel cannot play)
    elif isinstance(mission, str) and is_game(mission):
        game = mission
    return None if game is None or game_class(game) is State else game


@functools.wraps(_apply_position)
def apply_position(st: Any, pos: Mapping[str, Any], *args: Any, **kw: Any) -> None:
    _art_game(st)
    checks.mapping(pos, "the position")
    _apply_position(st, pos, *args, **kw)


@functools.wraps(_position_of)
def position_of(st: Any) -> dict[str, Any]:
    return _position_of(_art_game(st))


def _art_game(st: Any) -> Any:
    if not isinstance(st, State):
        raise GameError(f"expected a game of The A.R.T. Project (from new_game), not "
                        f"{checks.what(st)}")
    return st


__all__ = ["apply_position", "load_rules", "new_game", "position_of"]
