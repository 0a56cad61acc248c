"""The test Nim's state: its table of fields and its hooks (after core/kuhn/state.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from artproject.core.fields import LIST, PUBLIC, SHARE, Field
from artproject.core.machine import MACHINE_FIELDS, Machine
from artproject.core.tensors import Segment, one_hot, put

from . import invariants, moves
from .moves import REG, P
from .rules import DEFAULT, GAME, NimRules

NIM_FIELDS: Final = (
    Field("players", SHARE, PUBLIC, fp="players"),
    Field("heaps", LIST, PUBLIC, fp="heaps"),
    Field("turn", SHARE, PUBLIC, fp="turn"),
    Field("winner", SHARE, PUBLIC, fp="winner"),
)


class Nim(Machine):
    """A game of Nim."""

    game = GAME
    PACKAGE = "tests.nimgame"
    TOOLS = "tests.nimgame.tools"
    registry = REG
    TITLE = "Nim"
    OPTIONS: ClassVar[Mapping[str, Any]] = {"rules": DEFAULT, "players": 2}
    RULES_OPTION: ClassVar[str | None] = "rules"
    SEATINGS: ClassVar[tuple[str, ...]] = ("players",)
    UTILITY = "zero_sum"
    PERFECT_INFORMATION = True  # (nothing hidden)
    CHANCE_NODES = False  # (its coin only in the variant nim-coin: a test declares it)
    FIELDS = MACHINE_FIELDS + NIM_FIELDS
    INVARIANTS = invariants.INVARIANTS
    __slots__ = tuple(f.name for f in NIM_FIELDS)

    rules: NimRules
    players: int
    heaps: list[int]
    turn: int
    winner: int

    @classmethod
    def new(cls, rules: NimRules, players: int = 2, seed: int = 0, *, log: bool = False,
            chance: str = "sample", start: bool = True) -> Nim:
        st = cls.__new__(cls)
        st.init_machine(rules, seed, log, chance == "explicit")
        st.players = players
        st.heaps = list(rules.heaps)
        st.turn = st.winner = -1
        st.push(moves.toss)
        if start:
            st._run()
        return st

    def restart(self, log: bool) -> Nim:
        return Nim.new(self.rules, self.players, self.seed, log=log,
                       chance="explicit" if self.explicit else "sample")

    def refusal(self, action: Any) -> str | None:
        why = super().refusal(action)
        if why is None and 0 <= action.player < self.players and self.turn >= 0 and (
                action.player != self.turn) and not self.is_chance_node():
            return f"{action}: it is {P[self.turn]}'s move, not theirs"
        return why

    def deciding(self) -> str:
        return P[self.turn] if self.turn >= 0 else "nobody"

    def over_text(self) -> str:
        return f"the game is over ({self.reason})"

    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0] * self.players
        lose = -1.0 / (self.players - 1)
        return [1.0 if p == self.winner else lose for p in range(self.players)]

    def start_view(self, player: int) -> tuple[Any, ...]:
        return (self.rules.name, self.players)

    def observation(self, player: int) -> dict[str, Any]:
        from .views import seat_view

        return seat_view(self, player)

    def num_players(self) -> int:
        return self.players

    def derived(self) -> dict[Any, Any]:
        return self.rules.cache

    def max_game_length(self) -> int:
        return sum(self.rules.heaps)

    def tensor_segments(self, kind: str) -> tuple[Segment, ...]:
        n, h = self.players, len(self.rules.heaps)
        return (Segment("player", (n,), "the viewer (one-hot)", _write_player),
                Segment("turn", (n,), "whose move (one-hot)", _write_turn),
                Segment("heaps", (h,), "each heap as a share of its start", _write_heaps))

    def resample(self, players: Sequence[int], seed: int) -> Nim:
        """Nothing is hidden: a clone with a future of its own."""
        c = self.clone()
        c.renew_chance()
        c.reseed(seed)
        return c


def _write_player(st: Nim, v: int, out: list[float], at: int) -> None:
    one_hot(out, at, v)


def _write_turn(st: Nim, v: int, out: list[float], at: int) -> None:
    if st.turn >= 0:
        one_hot(out, at, st.turn)


def _write_heaps(st: Nim, v: int, out: list[float], at: int) -> None:
    put(out, at, [h / s for h, s in zip(st.heaps, st.rules.heaps, strict=True)])


__all__ = ["Nim"]
