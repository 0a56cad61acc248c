"""Scenario files of Art of War (`game = "art-of-war"`): their keys (rules, variants,
players, seed, [position]), their facts (DSL expressions, with the game's words) and no step
key of their own; the kernel's runner (core/scenario.py) does the rest.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs

from ..errors import GameError, Location, RulesError
from ..scenario import SetupErrors, scenario_spec, set_position, step_spec
from ..scenario_words import SEATS, CheckWords, Fact, fact_compiler
from ..schema import param
from ..sources import scenario_ref
from .loader import DEFAULT, load_rules
from .position import apply_position
from .state import War
from .words import WORDS, WarScope

Fail = Callable[..., RulesError]
if TYPE_CHECKING:
    Position = dict[str, Any]
else:
    Position = War.POSITION_SPEC


def setup(cls: type[War], spec: Any, doc: Mapping[str, Any], path: Path,
          variants: tuple[str | Path, ...], locate: Callable[[tuple[Any, ...]], Location],
          fail: Fail) -> tuple[War, Callable[[], None]]:
    """The game a scenario file sets up (recording its events), and how it starts; every
    mistake of its position at once (SetupErrors, with a game to check the steps
    against)."""
    from .setup import begin

    rules = load_rules(scenario_ref(spec.rules, path, "rules"),
                       (*variants, *(scenario_ref(v, path, "variants") for v in spec.variants)))

    def fresh() -> War:
        return cls.new(rules, spec.players, spec.seed, start=False, log=True)

    try:
        st = fresh()
    except GameError as err:
        raise fail(str(err), "players") from None
    pos = doc.get("position", {})
    errors = set_position(st, partial(_dealt, fresh, pos.get("hands")),
                          partial(apply_position, locate=locate), pos, locate, ITEMWISE,
                          together=("hands",))
    if errors:
        raise SetupErrors(errors, fresh())
    st.start = {"position": pos}

    def start() -> None:
        begin(st)
    return st, start


# the position's lists whose items are each a card, checked on their own
ITEMWISE: Final = ("deck_top", "discard")


def _dealt(fresh: Callable[[], War], hands: Any) -> War:
    """A game to check one entry of a position on: `fresh()` with the position's hands, when
    they are right (the seeded deal's would hold cards the entry may name; the hands a
    position names go back to the deck first)."""
    st = fresh()
    if hands is not None:
        with contextlib.suppress(RulesError):  # (wrong: told as the hands' own mistake)
            apply_position(st, {"hands": hands})
    return st


def checker(st: War) -> Callable[[str, Any], Fact]:
    """Compiles a scenario's facts (DSL expressions) with the game's words and its check
    words (`CHECKS`)."""
    return fact_compiler(WarScope(dict(st.rules.index)), WORDS, st, CHECKS)


# ====================================================================== the checks' words
def _winner(st: War) -> int:
    """The winner's seat; nobody while the game goes on or when it is drawn."""
    w = st.winner()
    return w if w >= 0 else SEATS["nobody"]


def _place(st: War, player: int) -> int:
    """A seat's place in the standing (W17, W18): 1 the winner, or the last to die first."""
    return int(st.standing()[player]["place"]) if 0 <= player < st.players else 0


def _on_table(st: War) -> int:
    """The cards on the table: each one laid face down (or revealed), each Wise Man added."""
    f = st.fight
    if f is None:
        return 0
    return sum(k >= 0 for k in f.card) + sum(map(len, f.added))


def _added(st: War, player: int) -> int:
    """The Wise Men `player` added to the challenge under way (W8)."""
    f = st.fight
    return len(f.added[player]) if f is not None and 0 <= player < st.players else 0


# Words only a scenario's checks read, beside the rules' (core/aow/words.py): whose turn it
# is, the winner and the standing, and the cards on the table, so that every card's place
# can be counted mid-challenge (W1: 59 in all).
CHECKS: Final = CheckWords(
    names={"current": ("player", "st.current"), "winner": ("player", "_winner(st)"),
           "cards_on_table": ("int", "_on_table(st)"),
           "cards_in_hands": ("int", "sum(map(len, st.hands))")},
    calls={"place": ((("player",),), "int", "_place(st, {0})"),
           "added": ((("player",),), "int", "_added(st, {0})")},
    env={"_winner": _winner, "_place": _place, "_on_table": _on_table, "_added": _added})


@attrs.frozen
class _Keys:
    """The game's keys in a scenario file, among the kernel's (`scenario.scenario_spec`)."""

    rules: str = param("Art of War's rules: a shipped name or a path (relative to the "
                       "scenario)", default=DEFAULT)
    variants: tuple[str, ...] = param("variants to layer on the rules: names or paths",
                                      factory=tuple)
    players: int = param("the players (W1)", lo=2, hi=7, default=2)
    position: Position | None = param("[position]: any part of the state, below",
                                      default=None, expects="a table (below)")


ScenarioFile: Final = scenario_spec(_Keys)
StepFile: Final = step_spec(ScenarioFile)
