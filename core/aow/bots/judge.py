"""What a position is worth to the heuristic bot (heuristic.py): `Judge`, its own tokens and
cards against the other living players', with the deaths (W17) and the refusals a richer
player can force (W5, W6) counted.
"""

from __future__ import annotations

import math

from ..state import War


class Judge:
    """A position's value to `me`: its own `A ln(1+t) + B ln(1+h)` (0 once dead) less the
    mean of the other living players'. `value(changes)` values the position with some
    players' tokens and cards changed."""

    def __init__(self, st: War, me: int, a: float, b: float, sq_in: float = 0.0,
                 sq_out: float = 0.0) -> None:
        self.a, self.b, self.sq_in, self.sq_out = a, b, sq_in, sq_out
        self.me = me
        self.t = list(st.tokens)
        self.h = [len(x) for x in st.hands]
        f = st.fight
        if f is not None:  # stakes and face-down cards counted back to their owners
            for p in f.seats:
                self.t[p] += f.stake[p]
                if f.card[p] >= 0 and not f.revealed:
                    self.h[p] += 1
        self.alive = [p for p in range(st.players) if st.alive[p]]
        others = len(self.alive) - 1
        self.w = 1.0 / others if others > 0 else 0.0
        self.u = [self.util(self.t[p], self.h[p]) for p in range(st.players)]
        self.base = self.u[me] - self.w * sum(self.u[p] for p in self.alive if p != me)

    def util(self, t: float, h: float) -> float:
        if t <= 0 or h <= 0:
            return 0.0
        return self.a * math.log1p(t) + self.b * math.log1p(h)

    def pair(self, mt: float, mh: float, o: int, ot: float, oh: float) -> float:
        """The value with `me` at (mt, mh) and player `o` at (ot, oh); deaths pass their
        holdings to the one who killed them (W17, me or o)."""
        if o >= 0:
            if ot <= 0 < mt and mh > 0:
                mh = min(8, mh + max(0, oh))
            elif oh <= 0 < mt and mh > 0:
                mt += max(0, ot)
            if mt <= 0 < ot and oh > 0:
                oh = min(8, oh + max(0, mh))
            elif mh <= 0 < ot and oh > 0:
                ot += max(0, mt)
        if self.sq_in or self.sq_out:
            mt, ot = self._squeezed(mt, mh, o, ot, oh)
        v = self.util(mt, mh) - self.u[self.me]
        if o >= 0:
            v -= self.w * (self.util(ot, oh) - self.u[o])
        return self.base + v

    def _squeezed(self, mt: float, mh: float, o: int, ot: float, oh: float,
                  ) -> tuple[float, float]:
        """Tokens after the refusals a richer player can force (a bet above the other's
        tokens may only be refused, W5, W6): the richest other against `me` (weighed by
        `sq_in`: one of them plays next), then `me` against `o` (by `sq_out`: `o` may
        answer first)."""
        if mt <= 0 or mh <= 0:
            return mt, ot
        worst, by = 0, -1
        for p in self.alive:
            if p == self.me:
                continue
            t = ot if p == o else self.t[p]
            if (oh if p == o else self.h[p]) >= 2:
                pay = _squeeze(t, mt)
                if pay > worst:
                    worst, by = pay, p
        if worst:
            mt -= self.sq_in * worst
            if by == o:
                ot += self.sq_in * worst
        if o >= 0 and ot > 0 and oh > 0 and mh >= 2:
            pay = _squeeze(mt, ot)
            mt += self.sq_out * pay
            ot -= self.sq_out * pay
        return mt, ot

    def hurt(self, spare: tuple[int, ...], toks: float, cards: float) -> float:
        """What collateral damage of (toks, cards) to every living player but `spare` adds
        to the value, besides the pair's own."""
        gain = 0.0
        for p in self.alive:
            if p not in spare:
                gain += self.u[p] - self.util(self.t[p] - toks, self.h[p] - cards)
        return self.w * gain


def _squeeze(rich: float, poor: float) -> int:
    """What `rich` can make `poor` pay by a bet above `poor`'s tokens (W5, W6)."""
    if rich <= poor or poor <= 0:
        return 0
    bet = min(int(rich), max(int(poor) + 1, 2 * int(poor) - 1))
    return min((bet + 1) // 2, int(poor))
