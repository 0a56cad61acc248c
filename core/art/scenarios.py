"""Scenario files for the A.R.T. game: its keys (mission, variants, cards, players,
difficulty, phase, position), its facts (DSL expressions) and its own step key, `pay_health`,
declared in `ScenarioFile` and `StepFile` beside the kernel's. The kernel's runner
(core/scenario.py) does the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs

from ...missions import DEFAULT
from ..errors import GameError, Location, RulesError, closest
from ..registry import parse_player
from ..scenario import (
    RuleFile,
    SetupErrors,
    StepKey,
    load_located,
    scenario_spec,
    set_position,
    step_key,
    step_spec,
)
from ..scenario_steps import Stop
from ..scenario_words import Fact, fact_compiler
from ..schema import param
from ..sources import scenario_ref
from .effects import HURT, V_HURT
from .loader import load_rules, scope_of
from .position import apply_position
from .registry import act
from .round import PHASES
from .rules import Rules
from .schema import MissionSpec
from .state import State
from .words import WORDS

Fail = Callable[..., RulesError]
if TYPE_CHECKING:
    Position = dict[str, Any]
else:  # the position's schema, made from the state's table of fields
    Position = State.POSITION_SPEC


def setup(cls: type[State], spec: Any, doc: Mapping[str, Any], path: Path,
          variants: tuple[str | Path, ...], locate: Callable[[tuple[Any, ...]], Location],
          fail: Fail) -> tuple[State, Callable[[], None]]:
    """The game a scenario file sets up (recording its events), and how it starts; every
    mistake of its difficulty and position at once (SetupErrors, with a game to check the
    steps against)."""
    rules = _rules_of(spec, path, variants, fail)
    errors: list[RulesError] = []
    difficulty = spec.difficulty
    if difficulty not in rules.difficulties:  # told, and the rest checked at the first one
        errors.append(fail(f"unknown difficulty {difficulty!r}"
                           f"{closest(difficulty, rules.difficulties)}; expected one of: "
                           f"{', '.join(rules.difficulties)}", "difficulty"))
        difficulty = next(iter(rules.difficulties))

    def start() -> State:
        return cls.new(rules, spec.players, difficulty, spec.seed, start=False, log=True)

    try:
        st = start()
    except GameError as err:
        raise fail(str(err), "difficulty") from None
    pos = doc.get("position", {})
    errors += set_position(st, start, partial(apply_position, locate=locate), pos, locate, ITEMWISE)
    if errors:
        raise SetupErrors(errors, start())
    st.start = {"phase": spec.phase, "position": pos}
    return st, partial(st.start_round, spec.phase)


# the position's lists whose items mean the same at any place, each checked on its own
ITEMWISE: Final = ("dice", "artworks", "lost", "track", "carried")


def _rules_of(spec: Any, path: Path, variants: tuple[str | Path, ...], fail: Fail) -> Rules:
    """The mission, its variants and card file, paths read relative to the scenario; a
    mistake in naming one told at its key (`load_located`)."""
    # (a server's refusal of a file not shipped is told as it is: scenario_ref's own words)
    mission = scenario_ref(spec.mission, path, "mission")
    own = [scenario_ref(v, path, "variants") for v in spec.variants]
    cards = None if spec.cards is None else scenario_ref(spec.cards, path, "cards",
                                                         toml_only=True)
    refs: list[tuple[tuple[Any, ...] | None, str]] = [
        (("mission",), mission), *((("variants", i), v) for i, v in enumerate(own)),
        *((None, str(v)) for v in variants), (("cards",), cards or "")]
    rules: Rules = load_located(partial(load_rules, mission, (*variants, *own), cards=cards),
                                refs, fail)
    return rules


def checker(st: State) -> Callable[[str, Any], Fact]:
    """Compiles a scenario's facts (DSL expressions) against the game's rules."""
    return fact_compiler(scope_of(st.rules), WORDS, st)


# ====================================================================== pay_health
def _payers(value: list[str], st: State, fail: Fail, *path: Any) -> tuple[int, ...]:
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


# ====================================================================== the files' keys
@attrs.frozen
class _Keys:
    """The game's keys in a scenario file, among the kernel's (`scenario.scenario_spec`)."""

    mission: str = param("a shipped mission's name or a path (relative to the scenario)",
                         default=DEFAULT)
    variants: tuple[str, ...] = param("variants to layer on the mission: names or paths",
                                      factory=tuple)
    cards: str | None = param("a card file to play with instead of the mission's (relative "
                              "to the scenario)", default=None)
    players: int = param("the team's size", lo=1, hi=6, default=2)
    difficulty: str = param("the difficulty, one of the mission's", default="medium")
    phase: str = param("where the round starts: mission (with the boundary before it), or "
                       "in the phase itself", choices=PHASES, default="mission")
    position: Position | None = param("[position]: any part of the state, below",
                                      default=None, expects="a table (below)")


@attrs.frozen
class _Steps:
    """The game's own step keys, among the kernel's."""

    pay_health: tuple[str, ...] | None = step_key(
        "the players who pay health for missing resources in the step, in order (R4, R5)",
        StepKey(_payers, _pay_health), expects="a list of pN")


ScenarioFile: Final = scenario_spec(_Keys, _Steps, RuleFile(
    MissionSpec, "a mission file", "play it with `artproject simulate --mission FILE`, or "
    "run a scenario on it: mission = \"FILE\" (docs/scenarios.md)"))
StepFile: Final = step_spec(ScenarioFile)
