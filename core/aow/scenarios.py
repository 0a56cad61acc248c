"""Scenario files of Art of War (`game = "art-of-war"`): their keys (rules, variants,
players, seed, [position]), their facts (DSL expressions, with the game's words) and no step
key of their own; the kernel's runner (core/scenario.py) does the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs

from ..errors import GameError, Location, RulesError
from ..scenario import Fact, fact_compiler, scenario_spec, step_spec
from ..schema import param
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
    """The game a scenario file sets up (recording its events), and how it starts."""
    from .setup import begin

    def beside(ref: str) -> str:
        return str(path.parent / ref) if ref.endswith(".toml") and not Path(
            ref).is_absolute() else ref

    rules = load_rules(beside(spec.rules), (*variants, *map(beside, spec.variants)))
    try:
        st = cls.new(rules, spec.players, spec.seed, start=False, log=True)
    except GameError as err:
        raise fail(str(err), "players") from None
    pos = doc.get("position", {})
    apply_position(st, pos, locate)
    st.start = {"position": pos}

    def start() -> None:
        begin(st)
    return st, start


def checker(st: War) -> Callable[[str, Any], Fact]:
    """Compiles a scenario's facts (DSL expressions) with the game's words."""
    return fact_compiler(WarScope(dict(st.rules.index)), WORDS)


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
