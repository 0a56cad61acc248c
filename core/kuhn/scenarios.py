"""Scenario files of Kuhn poker (`game = "kuhn"`): their keys (rules, variants,
players, the cards dealt), and their facts: DSL expressions over the hand's few words
(`pot`, `stake(p1)`, `folded(p2)`, `card(p1)`, `won(p1)`, `outcome`, `wait`). The kernel's
runner (core/scenario.py) does the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, Protocol

import attrs

from ...dsl.words import Code, Sig, Words
from ..errors import GameError, Location, RulesError
from ..scenario import scenario_spec, step_spec
from ..scenario_words import Fact, fact_compiler
from ..schema import param
from ..sources import scenario_ref
from .betting import P
from .game import stacked
from .rules import DEFAULT, load_rules
from .state import Kuhn

Fail = Callable[..., RulesError]


class KuhnState(Protocol):
    """The names a scenario's facts read on a hand."""

    stakes: list[int]
    folded: list[bool]
    hands: list[int]
    outcome: str | None

    def returns(self) -> list[float]: ...


def _card(st: Kuhn, p: int) -> str:
    return st.rules.cards[st.hands[p]] if 0 <= p < st.players and st.hands[p] >= 0 else ""


def _of(xs: list[Any], p: int) -> Any:
    return xs[p] if 0 <= p < len(xs) else 0


NAMES: Final[dict[str, Code]] = {
    "pot": ("int", "sum(st.stakes)"),
    "outcome": ("str", "(st.outcome or '')"),
    "wait": ("str", "str(st.wait or '')"),
}
CALLS: Final[dict[str, Sig]] = {
    "stake": ((("player",),), "int", "_of(st.stakes, {0})"),
    "folded": ((("player",),), "bool", "bool(_of(st.folded, {0}))"),
    "won": ((("player",),), "int", "int(_of(st.returns(), {0}))"),
    "card": ((("player",),), "str", "_card(st, {0})"),
}


class KuhnWords(Words):
    """The words a Kuhn poker scenario's facts may use (it has no rule text of its own)."""

    game = "Kuhn poker"
    names = NAMES
    calls = CALLS
    hidden = frozenset({"card()"})
    players = P
    env = MappingProxyType({"_of": _of, "_card": _card})
    facade = KuhnState
    rules = "Kuhn poker's rules"


WORDS: Final = KuhnWords()


@attrs.frozen
class _Scope:
    """No names from the rules: the facts read only the words."""


def setup(cls: type[Kuhn], spec: Any, doc: Mapping[str, Any], path: Path,
          variants: tuple[str | Path, ...], locate: Callable[[tuple[Any, ...]], Location],
          fail: Fail) -> tuple[Kuhn, Callable[[], None]]:
    """The hand a scenario file sets up (recording its events), and how it starts: dealt as
    its `deal` says, then by its seed."""
    rules = load_rules(scenario_ref(spec.rules, path, "rules"),
                       (*variants, *(scenario_ref(v, path, "variants") for v in spec.variants)))
    if not rules.min_players <= spec.players <= rules.max_players:
        raise fail(f"{rules.name} is played by {rules.played_by()}, not {spec.players}",
                   "players")
    try:
        deal = stacked(rules, spec.deal, spec.players)
    except GameError as err:
        raise fail(str(err), "deal") from None
    st = cls.new(rules, spec.players, spec.seed, log=True, deal=deal, start=False)
    return st, st._run  # the deal is the hand's first work, run when the runner starts it


def checker(st: Kuhn) -> Callable[[str, Any], Fact]:
    """Compiles a scenario's facts (DSL expressions) with the game's words."""
    return fact_compiler(_Scope(), WORDS, st)


@attrs.frozen
class _Keys:
    """The game's keys in a scenario file, among the kernel's (`scenario.scenario_spec`)."""

    rules: str = param("Kuhn poker's rules: a shipped name or a path (relative to the "
                       "scenario)", default=DEFAULT)
    variants: tuple[str, ...] = param("variants to layer on the rules: names or paths",
                                      factory=tuple)
    players: int = param("the players (K1)", lo=2, hi=9, default=2)
    deal: tuple[str, ...] = param("the cards dealt, p1's first; the rest by the seed (K1)",
                                  factory=tuple, expects="a list of card names")


ScenarioFile: Final = scenario_spec(_Keys)
StepFile: Final = step_spec(ScenarioFile)
