"""Scenario files for the A.R.T. game: its keys (mission, variants, cards, players,
difficulty, phase, position), its facts (DSL expressions) and its own step key, `pay_health`.
The kernel's runner (core/scenario.py) does the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ...missions import DEFAULT
from ..errors import GameError, Location, RulesError, closest
from ..loader import load_rules, scope_of
from ..registry import parse_player
from ..scenario import StepKey, Stop
from .effects import HURT, V_HURT
from .position import apply_position
from .registry import act
from .round import PHASES
from .rules import Rules

if TYPE_CHECKING:
    from .state import State

KEYS: Final = ("mission", "variants", "cards", "players", "difficulty", "phase", "position")
Fail = Callable[..., RulesError]


def setup(cls: type[State], doc: Mapping[str, Any], path: Path,
          variants: tuple[str | Path, ...], locate: Callable[[tuple[Any, ...]], Location],
          fail: Fail) -> tuple[State, Callable[[], None]]:
    """The game a scenario file sets up (recording its events), and how it starts."""
    players = doc.get("players", 2)
    difficulty, phase = doc.get("difficulty", "medium"), doc.get("phase", "mission")
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 6:
        raise fail("'players' must be 1 to 6", "players")
    if phase not in PHASES:
        raise fail(f"unknown phase {phase!r}" + closest(str(phase), PHASES)
                   + "; expected one of: " + ", ".join(PHASES), "phase")
    rules = _rules_of(doc, path, variants, fail)
    try:
        st = cls.new(rules, players, str(difficulty), doc.get("seed", 0), start=False,
                     log=True)
    except GameError as err:
        raise fail(str(err), "difficulty") from None
    pos = doc.get("position", {})
    if not isinstance(pos, dict):
        raise fail("'position' must be a table", "position")
    apply_position(st, pos, locate)
    st.start = {"phase": phase, "position": pos}
    return st, partial(st.start_round, phase)


def _rules_of(doc: Mapping[str, Any], path: Path, variants: tuple[str | Path, ...],
              fail: Fail) -> Rules:
    """The mission, its variants and card file, paths read relative to the scenario."""
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


Fact = tuple[Callable[..., Any], Any, Any, str]  # a fact, its two sides (if a comparison)


def checker(st: State) -> Callable[[str, Any], Fact]:
    """Compiles a scenario's facts (DSL expressions) against the game's rules."""
    from ...dsl import ast as a
    from ...dsl.compiler import Compiler
    from ...dsl.printer import expr as show_expr

    comp = Compiler(scope_of(st.rules))

    def compile_fact(text: str, origin: Any) -> Fact:
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


# ====================================================================== pay_health
def _payers(value: Any, st: State, fail: Fail, *path: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise fail("expected a list of strings", *path)
    out = []
    for j, text in enumerate(value):
        try:
            p = parse_player(text)
        except GameError as err:
            raise fail(str(err), *path, j) from None
        if p >= st.players:
            raise fail(f"no player {text!r} in a {st.players}-player game", *path, j)
        out.append(p)
    return tuple(out)


def _pay_health(st: State, want: tuple[int, ...], seen: int) -> list[str]:
    """`pay_health`: the health tokens paid for missing resources in this step, in order.
    Where the team names the payer (R5: a `hurt` question) the listed player pays; where
    the rules name the payer (the mover, the card's player) the payment is checked."""
    paid = _health_payments(st, seen)
    while st.wait is HURT and st.outcome is None and len(paid) < len(want):
        answer = act(V_HURT, want[len(paid)])
        try:
            st.apply(answer)
        except GameError as err:
            raise Stop(f"'{answer}' (pay_health) was refused: {err}") from None
        paid = _health_payments(st, seen)
    if list(want) == paid:
        return []
    names = ", ".join(f"p{p + 1}" for p in want) or "none"
    got = ", ".join(f"p{p + 1}" for p in paid) or "none"
    more = "; the team is still asked who pays (wait == \"hurt\")" if st.wait is HURT else ""
    return [f"expected health payments {names} (pay_health); paid: {got}{more} (a health "
            "token stands in only for a resource the van lacks, R4)"]


def _health_payments(st: State, seen: int) -> list[int]:
    """The players who paid a health token for a missing resource since log entry `seen`."""
    return [int(str(e[2])[1:]) - 1 for e in st.log[seen:] if e[1] == "health_for"]


STEPS: Final = (StepKey("pay_health", _payers, _pay_health),)
