"""What a mission's compiled rule text may touch on a state: the DSL compiler's templates
(dsl/compiler.py) write Python against exactly these names, nothing else.

`RuleState` is checked two ways: mypy checks that `State` provides it (`_provides` below,
never called), and tests/test_kernel.py compiles every shipped rule file and every template
and checks that the code made reads no other name of a state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .rules import Ctx, Rules

if TYPE_CHECKING:
    from .state import State


class RuleState(Protocol):
    """The names compiled rule text reads and calls."""

    # the rules, the team, the round
    rules: Rules
    players: int
    round: int
    phase: str
    final_round: bool
    outcome: str | None
    # the board and the tokens (per resource, per player, per city)
    van: list[int]
    health: list[int]
    pawns: list[int]
    agents: list[int]
    hq: int
    artworks: list[int]
    lost: list[int]
    track: list[str]
    allies: int
    hands: list[list[int]]
    chains: list[list[int]]
    discard: list[int]
    moved: list[int]
    battle: Any  # the battle under way (battle.Battle), or None

    @property
    def every_city(self) -> tuple[int, ...]: ...

    # readings
    def threat(self) -> int: ...
    def ally_cost(self) -> int: ...
    def reserve(self, kind: str) -> int: ...
    def strength(self) -> int: ...
    def agent_strength(self, city: int) -> int: ...
    def clue_count(self, symbol: str) -> int: ...
    def artwork_at(self, c: int) -> bool: ...
    def deck_size(self) -> int: ...
    def wait_name(self) -> str: ...

    # effects (the golden rule and the others, effects.py) and the work stack
    def gain_all(self, pairs: Sequence[tuple[str, int]], ctx: Ctx) -> None: ...
    def pay_all(self, pairs: Sequence[tuple[str, int]], ctx: Ctx) -> None: ...
    def lose_all(self, pairs: Sequence[tuple[str, int]], ctx: Ctx) -> None: ...
    def place_agents(self, cities: Sequence[int], n: int, ctx: Ctx) -> None: ...
    def end_game(self, won: bool, reason: str) -> None: ...
    def push_ops(self, ops: Sequence[Any], ctx: Any) -> None: ...
    def push_many(self, items: Sequence[tuple[Any, Any]]) -> None: ...


def names() -> frozenset[str]:
    """Every name `RuleState` declares."""
    out = set(RuleState.__annotations__)
    out.update(k for k in vars(RuleState) if not k.startswith("_"))
    return frozenset(out)


def _provides(st: State) -> RuleState:  # pragma: no cover - read by mypy, never called
    return st
