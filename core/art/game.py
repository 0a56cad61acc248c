"""How an A.R.T. game starts (`new_game`, the library's) and what its saves record of that
(the kernel's saves.py writes and replays the rest). Scenario files: scenarios.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from ...missions import DEFAULT
from ..errors import GameError, RulesError, SaveError
from ..games import game_class
from ..loader import load_rules
from ..saves import need
from .position import apply_position
from .round import PHASES
from .state import State

GAME: Final = State.game


def new_game(mission: str | Path = DEFAULT, players: int = 2, difficulty: str = "medium",
             seed: int = 0, variants: Iterable[str | Path] = (),
             position: Mapping[str, Any] | None = None, phase: str = "mission",
             log: bool = False, *, chance: str = "sample", game: str | None = None) -> State:
    """Start a game: a shipped mission's name or a file path, 1-6 players, a seed.

    log=True records the events as they happen (`events()` otherwise replays the game to
    tell them: right for a look now and then, slow to ask after every step).
    chance="explicit" stops at every draw and die roll as a chance node (see docs/api.md).
    `game` names the game (this one, "art-project", by default).
    """
    if game is not None and game != GAME:  # another game: its own start (GameError if unknown)
        return game_class(game).create(  # type: ignore[return-value]
            players=players, difficulty=difficulty, seed=seed, variants=variants,
            position=position, phase=phase, log=log, chance=chance)
    rules = load_rules(mission, variants)
    if phase not in PHASES:
        raise GameError(f"unknown phase {phase!r}; expected one of: {', '.join(PHASES)}")
    if position is None and phase == "mission":
        return State.new(rules, players, difficulty, seed, log=log, chance=chance)
    st = State.new(rules, players, difficulty, seed, start=False, log=log, chance=chance)
    apply_position(st, position or {})
    st.start = {"phase": phase, "position": dict(position or {})}
    st.start_round(phase)
    return st


# ====================================================================== saves
def save_header(st: State) -> dict[str, Any]:
    return {"mission": st.rules.ref or st.rules.name, "variants": list(st.rules.variants),
            "players": st.players, "difficulty": st.difficulty, "seed": st.seed}


def read_header(doc: Mapping[str, Any], name: str) -> dict[str, Any]:
    """The save's record of how the game began, checked."""
    header = {"name": name, "mission": need(doc, "mission", str, name),
              "variants": need(doc, "variants", list, name),
              "players": need(doc, "players", int, name),
              "difficulty": need(doc, "difficulty", str, name),
              "seed": need(doc, "seed", int, name), "start": doc.get("start")}
    if header["start"] is not None and not isinstance(header["start"], dict):
        raise SaveError(f"{name}: 'start' must be a table")
    return header


def from_header(h: Mapping[str, Any], chance: str) -> State:
    """The game a save began as, not yet played."""
    start = h["start"] or {}
    try:
        return new_game(h["mission"], h["players"], h["difficulty"], h["seed"], h["variants"],
                        start.get("position") if start else None,
                        start.get("phase", "mission"), chance=chance)
    except RulesError as err:
        raise SaveError(f"{h['name']}: the save's rules cannot be loaded: {err}") from None
