"""What the heuristic bot (heuristic.py) knows of the cards: what it reads off the card
file once per rules (`Cards`: each kind's comparison against each other, its collateral
damage, the Wise Man's bonus, the Dragon Slayer's prey, W2, W8, W11, W12) and, at each
decision, its odds against the cards its seat has not seen (`Odds`, W19).
"""

from __future__ import annotations

import re
from operator import mul

from ..rules import Ctx
from ..state import War
from .simple import Simple


class Cards:
    """What the heuristic reads off the card file once per rules (W2): which kinds can be
    held, each one's comparison against each other (with 0 to 4 Wise Men added to the
    first), the collateral damage each deals (tokens, cards lost by every other player),
    the Wise Man's bonus and the Dragon Slayer's prey."""

    def __init__(self, st: War) -> None:
        cards = st.rules.cards
        n = len(cards)
        self.held = [k for k, c in enumerate(cards) if not c.on_draw]
        self.never_held = [k for k, c in enumerate(cards) if c.on_draw]
        self.thief = [bool(c.on_reveal) for c in cards]
        self.bonus = [c.bonus for c in cards]
        rank = [c.rank(st, Ctx(-1)) for c in cards]
        self.slayer, self.prey = self._slayers(st, rank)
        self.coll = [_collateral(c.text.get("collateral", "")) for c in cards]
        self.beats = [[[self._beats(st, k, j, 2 * w, rank) for j in range(n)]
                       for k in range(n)] for w in range(5)]

    def _slayers(self, st: War, rank: list[int]) -> tuple[list[bool], list[int]]:
        """Each kind a slayer or not, and its prey: a card that scores nothing and ranks
        below the rest until the top card is played beats that card and loses to every
        other (W12)."""
        cards = st.rules.cards
        slayer = [rank[k] == 0 and c.score == 0 and not self.thief[k]
                  for k, c in enumerate(cards)]
        ordinary = [k for k in self.held if not self.thief[k] and not slayer[k]]
        top = max(ordinary, key=lambda k: (rank[k], cards[k].score))
        return slayer, [top if s else -1 for s in slayer]

    def _beats(self, st: War, k: int, j: int, plus: int, rank: list[int]) -> float:
        """1 if `k` (with `plus` added) wins against `j`, 0.5 even, 0 if it loses."""
        if self.thief[k]:
            return 0.5 if self.thief[j] else 0.0  # a Thief never wins (W11)
        if self.thief[j]:
            return 1.0
        if self.slayer[k] or self.slayer[j]:
            if self.slayer[k] and self.slayer[j]:
                return 0.5
            if self.slayer[k]:
                return 1.0 if j == self.prey[k] else 0.0
            return 0.0 if k == self.prey[j] else 1.0
        cards = st.rules.cards
        mine, theirs = (rank[k], cards[k].score + plus), (rank[j], cards[j].score)
        return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def _collateral(text: str) -> tuple[float, float]:
    """Tokens and cards a card's collateral damage takes from each other player, read off
    its text (an `if ... else` counts each branch half)."""
    toks = sum(int(n) for n in re.findall(r"(\d+)\s+tokens?\b", text))
    cards = sum(int(n) for n in re.findall(r"(\d+)\s+cards?\b", text))
    half = 0.5 if " else " in text else 1.0
    return toks * half, cards * half


def cards_of(st: War) -> Cards:
    c = st.rules.cache.get("aow.heuristic")
    if c is None:
        if st.fight is not None:  # (ranks read with nothing on the table)
            return Cards(_bare(st))
        c = st.rules.cache["aow.heuristic"] = Cards(st)
    assert isinstance(c, Cards)
    return c


def _bare(st: War) -> War:
    g = st.clone()
    g.fight = None
    return g


_unseen = Simple.unseen  # what its seat has not seen: the first heuristic's reading, W19


class Odds:
    """What `me` has not seen, as odds: the kinds that can be held, by their chance against
    one unseen card (`q`, ascending), with their share of the unseen cards."""

    def __init__(self, st: War, me: int, cards: Cards) -> None:
        left = _unseen(st, me)
        for k in cards.never_held:
            left[k] = 0
        pool = [(k, n) for k, n in enumerate(left) if n > 0]
        total = sum(n for _, n in pool) or 1
        self.cards, self.total = cards, total
        self.pool = pool
        self.q: list[float] = [float(sum(map(mul, row, left))) / total
                               for row in cards.beats[0]]
        self.levels = sorted(((self.q[k], k, n / total) for k, n in pool))
        self.unseen = dict(pool)

    def vs(self, k: int, wise: int, m: float) -> tuple[float, float, float, float]:
        """(win, even, tokens, cards): `k` with `wise` Wise Men to add against the best of
        `m` unseen cards, and the collateral damage of a card that beats it, on average."""
        row = self.cards.beats[min(wise, 4)][k]
        coll = self.cards.coll
        a = t = lt = lc = 0.0
        for j, n in self.pool:
            b = row[j]
            if b == 1.0:
                a += n
            elif b:
                t += n
            else:
                lt += n * coll[j][0]
                lc += n * coll[j][1]
        lost = self.total - a - t
        if lost > 0:
            lt, lc = lt / lost, lc / lost
        a, t = a / self.total, t / self.total
        win = a ** m
        return win, (a + t) ** m - win, lt, lc

    def best_of(self, h: int) -> list[tuple[float, int, float]]:
        """The best (by `q`) of `h` unseen cards: (q, kind, probability) by kind."""
        out, cum, prev = [], 0.0, 0.0
        for q, k, share in self.levels:
            cum += share
            now = min(1.0, cum) ** h
            if now > prev:
                out.append((q, k, now - prev))
            prev = now
        return out

    def worth(self, k: int) -> float:
        """What keeping `k` is worth, 0-1: its chance against an unseen card; a Wise Man
        (+2 from hand, two draws, W8-W9) and a Dragon Slayer while its prey is unseen more;
        a Thief (it loses nothing but its card, W11) a middling card."""
        c = self.cards
        if c.bonus[k]:
            return 0.9
        if c.slayer[k]:
            return 0.95 if self.unseen.get(c.prey[k], 0) else 0.0
        if c.thief[k]:
            return 0.4
        return self.q[k]

