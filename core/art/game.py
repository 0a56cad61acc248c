"""How an A.R.T. game starts (`new_game`, the library's) and what its saves record of that
(the kernel's saves.py writes and replays the rest: its keys and these, declared in
`SaveFile`). Scenario files: scenarios.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs

from ...missions import DEFAULT
from ..errors import ArtError, GameError, RulesError, SaveError, closest
from ..games import game_class, is_game
from ..saves import rules_header, save_spec, saved_rules
from ..schema import param, section
from .loader import load_rules
from .position import apply_position
from .round import PHASES
from .rules import Rules
from .setup import new
from .state import State

GAME: Final = State.game
if TYPE_CHECKING:
    Position = dict[str, Any]
else:  # the position's schema, made from the state's table of fields
    Position = State.POSITION_SPEC


def new_game(mission: str | Path | Rules | None = None, players: int = 2,
             difficulty: str = "medium", seed: int = 0, variants: Iterable[str | Path] = (),
             position: Mapping[str, Any] | None = None, phase: str = "mission",
             log: bool = False, *, chance: str = "sample", game: str | None = None,
             **options: Any) -> State:
    """Start a game: a shipped mission's name, a file path (or loaded rules), 1-6 players,
    a seed; or another game by its name (`new_game("art-of-war", players=4, seed=1)`),
    `options` its own (Kuhn poker's `deal`; GameError for one the game does not take).
    No mission: the game's own (missions/__init__.py DEFAULT for The A.R.T. Project).

    log=True records the events as they happen (`events()` otherwise replays the game to
    tell them: right for a look now and then, slow to ask after every step).
    chance="explicit" stops at every draw and die roll as a chance node (see docs/api.md).
    `game` names the game (this one, "art-project", by default).
    """
    if (mission.__class__ is str and game is None and position is None and phase == "mission"
            and not variants and not options):  # by name, with no position nor variants: kept short
        if not is_game(mission):  # a mission
            return new(State, load_rules(mission), players, difficulty, seed, True, log, chance)
        if difficulty == "medium" and mission != GAME:  # another game, the first game's
            return game_class(mission).create(  # type: ignore[return-value]  # options at
                players=players, seed=seed, log=log, chance=chance)  # their defaults
    return _start(mission, players, difficulty, seed, variants, position, phase, log, chance,
                  game, options)


def _rules_of(mission: str | Path | Rules | None, game: str, options: Mapping[str, Any],
              ) -> dict[str, Any]:
    """A mission named with another game: that game's rules, which its loader refuses when
    they are not (a board of this game, the default one too, named with game="art-of-war"
    is not Art of War); a mission's loaded rules are refused here. None, or the game's own
    name: the game's own rules."""
    if isinstance(mission, Rules):
        raise GameError(f"the rules given ({mission.name}) are a mission of The A.R.T. "
                        f"Project, not rules of the game {game!r}")
    if mission is None or mission == game:
        return {}
    if "rules" in options:
        raise GameError(f"the rules of the game {game!r} are given twice: as the first "
                        f"argument ({mission}) and as rules=")
    return {"rules": mission}


def _start(mission: str | Path | Rules | None, players: int, difficulty: str, seed: int,
           variants: Iterable[str | Path], position: Mapping[str, Any] | None, phase: str,
           log: bool, chance: str, game: str | None, options: Mapping[str, Any]) -> State:
    """`new_game` (see there), every case."""
    if game is None and isinstance(mission, str) and mission != GAME and is_game(mission):
        game, mission = mission, None  # new_game("art-of-war", players=4): that game
    if game is not None and game != GAME and game_class(game) is not State:  # another
        # game (GameError if unknown): its own start; a name of this one, or "" (the
        # default game's, as everywhere a game is named), this game's
        return game_class(game).create(  # type: ignore[return-value]
            players=players, difficulty=difficulty, seed=seed, variants=variants,
            position=position, phase=phase, log=log, chance=chance,
            **_rules_of(mission, game, options), **options)
    _check_own(options, phase)
    rules = mission if isinstance(mission, Rules) else load_rules(
        DEFAULT if mission is None else mission, variants)
    if position is None and phase == "mission":
        return new(State, rules, players, difficulty, seed, True, log, chance)  # State.new
    st = State.new(rules, players, difficulty, seed, start=False, log=log, chance=chance)
    apply_position(st, position or {})
    st.start = {"phase": phase, "position": dict(position or {})}
    st.start_round(phase)
    return st


def _check_own(options: Mapping[str, Any], phase: str) -> None:
    """GameError for an option this game does not take, or an unknown phase."""
    if options:
        import inspect  # (only to tell a wrong option: new_game's own, as its signature has them)

        takes = [p for p, v in inspect.signature(new_game).parameters.items()
                 if v.kind is not v.VAR_KEYWORD]
        raise GameError(f"The A.R.T. Project has no option {min(options)!r}"
                        f"{closest(min(options), takes)}: it takes {', '.join(takes)}")
    if phase not in PHASES:
        raise GameError(f"unknown phase {phase!r}; expected one of: {', '.join(PHASES)}")


# ====================================================================== saves
@section()
@attrs.frozen
class StartSpec:
    """How a game from a set position began: [start]."""

    phase: str = param("the phase the first round started in", choices=PHASES,
                       default="mission")
    position: Position | None = param("the position set before play "
                                      "(docs/scenarios.md)", default=None,
                                      expects="a table ([position] below)")


@attrs.frozen
class _Began:
    """How a saved game began: its keys in a save, among the kernel's (`saves.save_spec`)."""

    mission: str = param("a shipped mission's name, or its file's path relative to the save")
    variants: tuple[str, ...] = param("the variants, named the same way")
    players: int = param("the team's size", lo=1, hi=6)
    difficulty: str = param("the difficulty, one of the mission's")
    seed: int = param("the seed of the game's dice and draws", lo=-(2**63), hi=2**64 - 1,
                      expects="a whole number (64 bits)")
    start: StartSpec | None = param("[start]: the set position the game began from",
                                    default=None)


SaveFile: Final = save_spec(_Began)


def save_header(st: State, folder: Path | None) -> dict[str, Any]:
    """What a save records of how the game began: a shipped mission or variant by its
    name, any other by its path relative to `folder` (absolute without one)."""
    return {**rules_header(st.rules, folder, "missions", "mission"), "players": st.players,
            "difficulty": st.difficulty, "seed": st.seed}


def from_header(spec: Any, doc: Mapping[str, Any], name: str, folder: Path | None,
                ) -> State:
    """The game a save began as, not yet played: its rules, then its set-up or set position
    (as written: the schema has checked its shape)."""
    rules = saved_rules(load_rules, spec.mission, spec.variants, folder, name)
    start = spec.start
    try:
        if start is None:
            return new_game(rules, spec.players, spec.difficulty, spec.seed, chance=spec.chance)
        return new_game(rules, spec.players, spec.difficulty, spec.seed,
                        position=doc["start"].get("position", {}), phase=start.phase,
                        chance=spec.chance)
    except RulesError as err:  # the set position names something these rules lack
        raise SaveError(f"{name}: start.{err.path or 'position'}: {err.message}") from None
    except ArtError as err:
        raise SaveError(f"{name}: {err}") from None
