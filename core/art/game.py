"""The A.R.T. game as the kernel sees it: how a game starts (`new_game`), what its saves
record, and how a scenario file sets one up and checks its facts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from ...missions import DEFAULT
from ..errors import GameError, Location, RulesError, SaveError, closest
from ..games import game_class
from ..loader import load_rules
from ..saves import need
from .position import apply_position
from .round import PHASES
from .rules import Rules
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
    if game is not None and game != GAME:
        game_class(game)  # an unknown game is an error that names the games
        raise GameError(f"{game!r} does not start from a mission: start it from its own "
                        "state class")
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


# ====================================================================== scenarios
def scenario_start(doc: Mapping[str, Any], path: Path, variants: tuple[str | Path, ...],
                   locate: Callable[[tuple[Any, ...]], Location],
                   fail: Callable[..., RulesError]) -> State:
    """The game a scenario file sets up (recording its events), started."""
    rules = _scenario_rules(doc, path, variants, fail)
    players, seed = doc.get("players", 2), doc.get("seed", 0)
    difficulty, phase = doc.get("difficulty", "medium"), doc.get("phase", "mission")
    if not isinstance(players, int) or not 1 <= players <= 6:
        raise fail("'players' must be 1 to 6", "players")
    if phase not in PHASES:
        raise fail(f"unknown phase {phase!r}" + closest(str(phase), PHASES)
                   + "; expected one of: " + ", ".join(PHASES), "phase")
    try:
        st = State.new(rules, players, str(difficulty), seed, start=False, log=True)
    except GameError as err:
        raise fail(str(err), "difficulty") from None
    pos = doc.get("position", {})
    if not isinstance(pos, dict):
        raise fail("'position' must be a table", "position")
    apply_position(st, pos, locate)
    st.start = {"phase": phase, "position": pos}
    st.start_round(phase)
    return st


def _scenario_rules(doc: Mapping[str, Any], path: Path, variants: tuple[str | Path, ...],
                    fail: Callable[..., RulesError]) -> Rules:
    """The rules a scenario names: a mission, variants, a card file (paths from the file's
    folder)."""
    mission = doc.get("mission", DEFAULT)
    if not isinstance(mission, str):
        raise fail("'mission' must be a name or a path", "mission")
    if mission.endswith(".toml") and not Path(mission).is_absolute():
        mission = str(path.parent / mission)
    extra = doc.get("variants", [])
    if not isinstance(extra, list) or not all(isinstance(v, str) for v in extra):
        raise fail("'variants' must be a list of names or paths", "variants")
    variants = (*variants, *(str(path.parent / v) if v.endswith(".toml") else v for v in extra))
    cards = doc.get("cards")
    if cards is not None:
        if not isinstance(cards, str):
            raise fail("'cards' must be the path of a card file", "cards")
        cards = str(path.parent / cards) if not Path(cards).is_absolute() else cards
    return load_rules(mission, variants, cards=cards)


Check = tuple[Callable[..., Any], Any, Any, str]  # a fact, its two sides (if a comparison)


def scenario_checker(st: State) -> Callable[[str, Any], Check]:
    """Compiles a scenario's facts (DSL expressions) against the game's rules."""
    from ...dsl import ast as a
    from ...dsl.compiler import Compiler
    from ...dsl.printer import expr as show_expr
    from ..loader import scope_of

    comp = Compiler(scope_of(st.rules))

    def compile_fact(text: str, origin: Any) -> Check:
        tree = comp.parse(text, "expr", origin)
        fn = comp.expr_node(tree) if tree is not None else None
        if comp.errors or fn is None:
            raise comp.errors[0]
        left = right = None
        left_text = ""
        if isinstance(tree, a.Binary) and tree.op in ("==", "!=", "<", "<=", ">", ">="):
            left, right = comp.expr_node(tree.left), comp.expr_node(tree.right)
            left_text = show_expr(tree.left)
        return fn, left, right, left_text
    return compile_fact

