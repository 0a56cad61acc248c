"""Kuhn poker's state: its table of fields and the hooks it gives the kernel (core/hooks.py).

The rules themselves are betting.py's steps; the kernel's machine (core/machine.py) runs
them, draws or stops at each card dealt, keeps the history and the information states.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from ..fields import HIDDEN, LIST, MACHINE, PRIVATE, PUBLIC, SHARE, Field
from ..machine import MACHINE_FIELDS, Machine
from ..tensors import Segment, one_hot, put
from . import betting, invariants
from .betting import ANSWER, DEAL, OPEN, REG, P
from .rules import DEFAULT, GAME, KuhnRules

# The game's fields, after the machine's own (see core/fields.py): how a copy takes each,
# what it is to the players (K1: each sees only their own card), its fingerprint key.
KUHN_FIELDS: Final = (
    Field("players", SHARE, PUBLIC, fp="players"),
    Field("deck", LIST, HIDDEN, fp="deck"),  # the cards not dealt, by rank
    Field("stacked", LIST, HIDDEN, fp="stacked"),  # cards a scenario deals first (last first)
    Field("hands", LIST, PRIVATE, fp="hands"),  # each player's card (-1: none yet)
    Field("stakes", LIST, PUBLIC, fp="stakes"),  # chips each put in the pot
    Field("folded", LIST, PUBLIC, fp="folded"),
    Field("turn", SHARE, PUBLIC, fp="turn"),  # whose decision it is (-1: nobody's)
    Field("bettor", SHARE, PUBLIC, fp="bettor"),  # who bet (-1: nobody yet)
    Field("winner", SHARE, PUBLIC, fp="winner"),  # who took the pot (-1: not yet)
    Field("_start", SHARE, MACHINE),  # the stacked deal a game began with (replays)
)


class Kuhn(Machine):
    """One hand of Kuhn poker. Build it with `artproject.new_game("kuhn", seed=1)`."""

    game = GAME
    PACKAGE = "artproject.core.kuhn"  # its game, scenarios modules (hooks.py)
    TOOLS = "artproject.core.kuhn.tools"  # what the tools ask of it (core/games.py)
    registry = REG
    TITLE = "Kuhn poker"
    OPTIONS: ClassVar[Mapping[str, Any]] = {"rules": DEFAULT, "players": 2}
    RULES_OPTION: ClassVar[str | None] = "rules"
    SEATINGS: ClassVar[tuple[str, ...]] = ("players",)  # each plays for themself
    UTILITY = "zero_sum"  # K4
    FIELDS = MACHINE_FIELDS + KUHN_FIELDS
    INVARIANTS = invariants.INVARIANTS
    __slots__ = tuple(f.name for f in KUHN_FIELDS)

    rules: KuhnRules
    players: int
    deck: list[int]
    stacked: list[int]
    hands: list[int]
    stakes: list[int]
    folded: list[bool]
    turn: int
    bettor: int
    winner: int
    _start: tuple[int, ...]

    @classmethod
    def new(cls, rules: KuhnRules, players: int = 2, seed: int = 0, *, log: bool = False,
            chance: str = "sample", deal: Sequence[int] = (), start: bool = True) -> Kuhn:
        """A hand of `players` from `seed`; `deal`: the cards (by rank) dealt first, p1's
        first (a scenario's); start=False: dealt when the machine first runs (`_run`)."""
        st = cls.__new__(cls)
        st.init_machine(rules, seed, log, chance == "explicit")
        st.players = players
        st.deck = list(range(len(rules.cards)))
        st.stacked = list(reversed(deal))
        st._start = tuple(deal)
        st.hands = [-1] * players
        st.stakes = [rules.ante] * players  # K1
        st.folded = [False] * players
        st.turn = st.bettor = st.winner = -1
        st.push(betting.start_betting)
        betting.deal(st)
        if start:
            st._run()
        return st

    def restart(self, log: bool) -> Kuhn:
        return type(self).new(self.rules, self.players, self.seed, log=log,
                              chance="explicit" if self.explicit else "sample", deal=self._start)

    # ------------------------------------------------------------------ the machine's hooks
    def refusal(self, action: Any) -> str | None:
        """An action of a player whose decision it is not: say whose it is."""
        why = super().refusal(action)
        if why is None and 0 <= action.player < self.players and self.turn >= 0 and (
                action.player != self.turn) and not self.is_chance_node():
            return f"{action}: it is {P[self.turn]}'s decision ({self.wait}), not theirs"
        return why

    def deciding(self) -> str:
        return P[self.turn] if self.turn >= 0 else "nobody"

    def over_text(self) -> str:
        return f"the hand is over ({self.reason})"

    def returns(self) -> list[float]:
        """What each player took from the pot less what they put in (K4); 0 while it goes on."""
        if self.winner < 0:
            return [0.0] * self.players
        pot = sum(self.stakes)
        return [float((pot if p == self.winner else 0) - s) for p, s in enumerate(self.stakes)]

    def return_range(self) -> tuple[float, float]:
        """The most a player can lose is their ante and a bet; the most they can win, every
        other player's (K4)."""
        most = self.rules.ante + self.rules.bet
        return float(-most), float((self.players - 1) * most)

    def start_view(self, player: int) -> tuple[Any, ...]:
        """What a player knows of the start: the rules and the players (never the seed)."""
        return (self.rules.name, self.players)

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` may see now: their own card, the stakes, who folded, whose turn."""
        from .views import seat_view

        return seat_view(self, player)

    # ------------------------------------------------------------------ search and learning
    def num_players(self) -> int:
        return self.players

    def derived(self) -> dict[Any, Any]:
        return self.rules.cache

    def max_game_length(self) -> int:
        return 2 * self.players  # each player checks or bets once and answers at most once

    def tensor_segments(self, kind: str) -> tuple[Segment, ...]:
        """The viewer (one-hot), their card (one-hot by rank), the chips each put in, and,
        for the information state, every betting decision so far (check/fold, bet/call)."""
        n, k = self.players, len(self.rules.cards)
        obs = (Segment("player", (n,), "the viewer (one-hot)", _write_player),
               Segment("card", (k,), "the viewer's card (one-hot by rank)", _write_card),
               Segment("stakes", (n,), "the chips each player put in, as a share of the "
                       "most one can (the ante and a bet): 0 to 1", _write_stakes))
        if kind == "observation":
            return obs
        return (*obs, Segment("betting", (2 * n, 2), "each betting decision in order: "
                              "[check or fold, bet or call]", _write_betting))

    def resample(self, players: Sequence[int], seed: int) -> Kuhn:
        """A copy `players` cannot tell from this one: the others' cards dealt anew from those
        `players` have not seen, then the copy reseeded."""
        from .views import resample

        return resample(self, players, seed)


def _write_player(st: Kuhn, v: int, out: list[float], at: int) -> None:
    one_hot(out, at, v)


def _write_card(st: Kuhn, v: int, out: list[float], at: int) -> None:
    if 0 <= v < st.players:
        one_hot(out, at, st.hands[v])


def _write_stakes(st: Kuhn, v: int, out: list[float], at: int) -> None:
    most = st.rules.ante + st.rules.bet
    put(out, at, [s / most for s in st.stakes])


def _write_betting(st: Kuhn, v: int, out: list[float], at: int) -> None:
    i = 0
    for a in st.history:
        if a.verb in (betting.V_CHECK, betting.V_FOLD, betting.V_BET, betting.V_CALL):
            out[at + 2 * i + (a.verb in (betting.V_BET, betting.V_CALL))] = 1.0
            i += 1


__all__ = ["ANSWER", "DEAL", "OPEN", "Kuhn"]
