"""Art of War's bots: `random` (a random verb, then a random action of it, as the first
game's baseline), `heuristic`, which weighs each choice by its odds and what it stands to
win or lose, `simple` (the first heuristic, kept as a baseline: simple.py) and `ismcts`
(the search bot on top of the heuristic). Every policy is a function from a state to one
of its legal actions, made from a seed; `POLICIES` names them (simulate's `--policy`, for
this game).

The heuristic reads only what its player may know (W19): its own hand and face-down card,
the cards it has seen face up (the discard pile, the table once revealed) and the public
counts (tokens, hand sizes, the centre pile, the deck's size, the bets). The cards it has
not seen are the rest of the box; a face-down card or a card in another hand is one of
them, each alike. `tests/test_aow.py` checks that its choices do not change when what its
player cannot see is dealt anew.

How it plays (docs/art-of-war.md, "The heuristic bot"):

- It values a position as `A ln(1 + tokens) + B ln(1 + cards)` for each living player
  (0 for the dead: a token or a card is worth more the fewer are left), its own less the
  mean of the others' (`_Judge`), and takes the choice of the best expected value.
- Odds: a card's chance against the best of `m` cards drawn from those it has not seen
  (its Wise Men in hand counted: +2 each, W8). A defender holding `h` cards is modelled as
  accepting when the best of them is good enough for the bet (`theta`), else refusing; an
  attacker's card as the best of a few cards, more the more of its tokens it bet.
- A challenge: every target, every bet up to the target's tokens (a larger bet forces a
  refusal, W5, and is laid with its least useful card) and every card, against drawing a
  card or taking a token; refusing (half the bet, W6), accepting and raising likewise.
- Cards are spent by their worth: each card laid costs `kappa` times its chance against an
  unseen card, so the strongest cards, the Wise Men (kept in hand to add, W8) and the
  Dragon Slayer (while the card it kills is unseen, W12) are laid when they decide a
  challenge, and the least useful is discarded.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from operator import mul
from typing import Any, Final

from ....policies import random_policy
from ...actions import Action
from ...registry import Kind
from ..fight import DUEL
from ..registry import REG
from ..rules import Ctx
from ..state import War
from .simple import Simple, _card, _pick, simple_policy  # (the readings both bots share)

Policy = Callable[[War], Action]

class _Cards:
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


def _cards(st: War) -> _Cards:
    c = st.rules.cache.get("aow.heuristic")
    if c is None:
        if st.fight is not None:  # (ranks read with nothing on the table)
            return _Cards(_bare(st))
        c = st.rules.cache["aow.heuristic"] = _Cards(st)
    assert isinstance(c, _Cards)
    return c


def _bare(st: War) -> War:
    g = st.clone()
    g.fight = None
    return g


_unseen = Simple.unseen  # what its seat has not seen: the first heuristic's reading, W19


class _Odds:
    """What `me` has not seen, as odds: the kinds that can be held, by their chance against
    one unseen card (`q`, ascending), with their share of the unseen cards."""

    def __init__(self, st: War, me: int, cards: _Cards) -> None:
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


class _Judge:
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


class Heuristic:
    """Weighs each choice by its odds and what it stands to win or lose (see the module's
    text). Its options (`--policy heuristic:kappa=1.5`), measured in docs/art-of-war.md:

    - `a`, `b`: the weights of tokens and cards in a position's value;
    - `kappa`: what laying a card costs, times its worth (0-1);
    - `theta0`, `theta1`: the defender modelled accepts when its best card's chance
      against an unseen card is at least `theta0 + theta1 * bet / its tokens`;
    - `m0`, `m1`: the attacker modelled lays the best of `m0 + m1 * (the share of its
      tokens bet)` unseen cards;
    - `fold`: the chance a raised attacker folds;
    - `sq_in`, `sq_out`: how much of a forced refusal (W5) a richer player will take
      from it next, and it from a poorer one, the position counts;
    - `burn`: the worth of the attacker's card a refusal discards (W6);
    - `kelly`: bets weighed up to this times the share of its tokens a Kelly bettor
      stakes on its best card's odds (0: any bet up to the target's tokens).
    """

    def __init__(self, seed: int, a: float = 4.0, b: float = 8.0, kappa: float = 1.5,
                 theta0: float = 0.45, theta1: float = 0.35, m0: float = 2.0,
                 m1: float = 1.0, fold: float = 0.25, sq_in: float = 0.8,
                 sq_out: float = 0.4, burn: float = 0.8, kelly: float = 0.5) -> None:
        self.seed = seed  # (its choices are deterministic: kept for the record)
        self.a, self.b, self.kappa = a, b, kappa
        self.theta0, self.theta1, self.m0, self.m1, self.fold = theta0, theta1, m0, m1, fold
        self.sq_in, self.sq_out, self.burn, self.kelly = sq_in, sq_out, burn, kelly

    def __call__(self, st: War) -> Action:
        legal = st.legal_actions()
        if len(legal) == 1:
            return legal[0]
        pick = _handlers().get(st.wait) if st.wait is not None else None
        a = pick(self, st, legal) if pick is not None else None
        return a if a is not None else legal[0]

    def _know(self, st: War, me: int) -> tuple[_Cards, _Odds, _Judge]:
        cards = _cards(st)
        return cards, _Odds(st, me, cards), _Judge(st, me, self.a, self.b, self.sq_in,
                                                   self.sq_out)

    # ---------------------------------------------------------------- a duel, planned
    def _plans(self, st: War, me: int, o: int, odds: _Odds, judge: _Judge,
               bets: list[int], kinds: list[int]) -> list[tuple[float, int, int]]:
        """(value, bet, card) of challenging `o` with each bet and card, against the
        defender modelled (see the class's text)."""
        c = odds.cards
        mt, mh = judge.t[me], judge.h[me]
        ot, oh = judge.t[o], judge.h[o]
        wise = sum(1 for k in st.hands[me] if c.bonus[k])
        spare = (me, o)
        best = odds.best_of(max(1, oh))
        out = []
        for b in bets:
            pay = min((b + 1) // 2, ot)
            v_ref = judge.pair(mt + pay, mh - 1, o, ot - pay, oh)
            if b > ot:  # W5: only a refusal: the least useful card laid
                k = min(kinds, key=lambda k: (odds.worth(k), k))
                out.append((v_ref - self.kappa * odds.worth(k), b, k))
                continue
            theta = self.theta0 + self.theta1 * min(1.0, b / max(1, ot))
            met = [(j, p) for q, j, p in best if q >= theta]  # the cards that accept
            ev0 = (1.0 - sum(p for _, p in met)) * v_ref
            v_even = judge.pair(mt - pay, mh - 1, o, ot + pay, oh - 1)
            lose: dict[tuple[float, float], float] = {}  # by the winner's collateral
            for jt, jc in {c.coll[j] for j, _ in met}:
                lose[jt, jc] = (judge.pair(mt - b - jt, mh - 1 - jc, o, ot + b, oh)
                                + judge.hurt(spare, jt, jc))
            for k in kinds:
                row = c.beats[min(wise - (1 if c.bonus[k] else 0), 4)][k]
                ct, cc = c.coll[k]
                v_win = (judge.pair(mt + b, mh, o, ot - b - ct, oh - 1 - cc)
                         + judge.hurt(spare, ct, cc))
                ev = ev0 + sum(p * (v_win if row[j] == 1.0 else v_even if row[j]
                                    else lose[c.coll[j]]) for j, p in met)
                out.append((ev - self.kappa * odds.worth(k), b, k))
        return out

    def _bets(self, st: War, me: int, o: int, odds: _Odds, judge: _Judge, most: int,
              kinds: list[int]) -> list[int]:
        """The bets worth weighing against `o`: 1 up to `o`'s tokens, at most `kelly` times
        the share of its tokens a Kelly bettor stakes on its best card's odds against `o`'s
        best (2p - 1); and, holding more than `o`, the bet `o` may only refuse (W5)."""
        ot = judge.t[o]
        top = min(most, ot)
        if self.kelly and kinds:
            c = odds.cards
            wise = sum(1 for k in st.hands[me] if c.bonus[k])
            p = 0.0
            for k in kinds:
                win, even, _, _ = odds.vs(k, wise - (1 if c.bonus[k] else 0),
                                          max(1, judge.h[o]))
                p = max(p, win + even / 2)
            top = min(top, max(1, math.ceil(judge.t[me] * self.kelly * max(0.0, 2 * p - 1))))
        bets = list(range(1, top + 1))
        if most > ot and len(st.hands[me]) >= 2:
            bets.append(min(most, max(ot + 1, 2 * ot - 1)))
        return bets

    def _targets(self, st: War, me: int, foes: list[Action], odds: _Odds, judge: _Judge,
                 ) -> tuple[float, Action | None]:
        best: tuple[float, Action | None] = (-math.inf, None)
        kinds = sorted(set(st.hands[me]))
        mt = judge.t[me]
        for a in foes:
            o = _seat(st, a.arg)
            bets = self._bets(st, me, o, odds, judge, mt, kinds)
            for v, _, _ in self._plans(st, me, o, odds, judge, bets, kinds):
                if v > best[0]:
                    best = (v, a)
        return best

    # ---------------------------------------------------------------- the turn
    def on_turn(self, st: War, legal: list[Action]) -> Action | None:
        me = st.current
        _, odds, judge = self._know(st, me)
        mt, mh = judge.t[me], judge.h[me]
        choices: list[tuple[float, Action]] = []
        for a in legal:
            if a.verb == "draw":
                choices.append((judge.pair(mt, mh + 1, -1, 0, 0), a))
            elif a.verb == "take":
                choices.append((judge.pair(mt + 1, mh, -1, 0, 0), a))
        foes = [a for a in legal if a.verb == "challenge"]
        if foes:
            v, foe = self._targets(st, me, foes, odds, judge)
            if foe is not None:
                choices.append((v, foe))
        if not choices:
            return None
        return max(choices, key=lambda x: x[0])[1]

    def on_bet(self, st: War, legal: list[Action]) -> Action | None:
        f = st.fight
        assert f is not None
        me = st.ask
        _, odds, judge = self._know(st, me)
        kinds = sorted(set(st.hands[me]))
        most = int(legal[-1].arg or 1)
        if f.kind == DUEL:
            o = f.defender
            bets = self._bets(st, me, o, odds, judge, most, kinds)
            plans = self._plans(st, me, o, odds, judge, bets, kinds)
            return _pick(legal, max(plans)[1]) if plans else None
        # a Massacre (W14): each other player answers alone, as in a duel
        total: dict[int, float] = {}
        for o in st.order_from(me, True):
            if not st.hands[o] or not st.tokens[o]:
                continue
            each: dict[int, float] = {}
            for v, b, _ in self._plans(st, me, o, odds, judge, list(range(1, most + 1)),
                                       kinds):
                each[b] = max(each.get(b, -math.inf), v - judge.base)
            for b, v in each.items():
                total[b] = total.get(b, 0.0) + v
        if not total:
            return None
        return _pick(legal, max(total, key=lambda b: (total[b], -b)))

    def on_play(self, st: War, legal: list[Action]) -> Action | None:
        f = st.fight
        assert f is not None
        me = st.ask
        _, odds, judge = self._know(st, me)
        kinds = sorted(set(st.hands[me]))
        if f.kind == DUEL and me == f.attacker:
            plans = self._plans(st, me, f.defender, odds, judge, [f.bet], kinds)
            return _card(legal, st, max(plans)[2])
        # the defender's card, or one in a Massacre: the answer's weighing
        return _card(legal, st, self._answer(st, me, odds, judge, f.bet, kinds)[1])

    # ---------------------------------------------------------------- answers
    def _answer(self, st: War, me: int, odds: _Odds, judge: _Judge, stake: int,
                kinds: list[int], more: float = 0.0) -> tuple[float, int]:
        """(value, card) of the best card to meet a stake of `stake` with."""
        f = st.fight
        assert f is not None
        c = odds.cards
        att = f.attacker
        mt, mh = judge.t[me], judge.h[me]
        at, ah = judge.t[att], judge.h[att]
        share = f.bet / max(1, at)
        m = self.m0 + self.m1 * share + more
        rivals = 1
        if f.kind != DUEL:  # every other player still holding cards may be in it
            rivals = max(1, sum(1 for p in st.order_from(me, True)
                                if st.hands[p] or (f.card[p] >= 0)))
        wise = sum(1 for k in st.hands[me] if c.bonus[k])
        spare = (me, att)
        best: tuple[float, int] = (-math.inf, kinds[0] if kinds else -1)
        for k in kinds:
            w = wise - (1 if c.bonus[k] else 0)
            win, even, lt, lc = odds.vs(k, w, m * rivals)
            ct, cc = c.coll[k]
            pot = stake * rivals
            v_win = (judge.pair(mt + pot, mh, att, at - stake - ct, ah - 1 - cc)
                     + judge.hurt(spare, ct, cc))
            half = (stake + 1) // 2
            v_even = judge.pair(mt + half, mh - 1, att, at - half, ah - 1)
            v_lose = (judge.pair(mt - stake - lt, mh - 1 - lc, att, at + stake, ah)
                      + judge.hurt(spare, lt, lc))
            ev = win * v_win + even * v_even + (1 - win - even) * v_lose
            ev -= self.kappa * odds.worth(k)
            if ev > best[0]:
                best = (ev, k)
        return best

    def on_answer(self, st: War, legal: list[Action]) -> Action | None:
        f = st.fight
        assert f is not None
        me = st.ask
        _, odds, judge = self._know(st, me)
        kinds = sorted(set(st.hands[me]))
        if not kinds:
            return legal[0]
        att = f.attacker
        pay = min((f.bet + 1) // 2, st.tokens[me])
        # a refusal burns the attacker's card (W6), likely one of its best
        burned = judge.w * self.kappa * self.burn
        choices = [(judge.pair(judge.t[me] - pay, judge.h[me], att, judge.t[att] + pay,
                               judge.h[att] - 1) + burned, legal[0])]
        for a in legal[1:]:
            if a.verb == "accept":
                choices.append((self._answer(st, me, odds, judge, f.bet, kinds)[0], a))
            elif a.verb == "raise" and isinstance(a.arg, int):
                matched = self._answer(st, me, odds, judge, f.bet + a.arg, kinds,
                                       self.m0)[0]
                folded = judge.pair(judge.t[me] + f.bet, judge.h[me], att,
                                    judge.t[att] - f.bet, judge.h[att] - 1)
                choices.append((self.fold * folded + (1 - self.fold) * matched
                                - 0.01 * a.arg, a))
        return max(choices, key=lambda x: x[0])[1]

    def on_response(self, st: War, legal: list[Action]) -> Action | None:
        """Match a raise or fold: the raiser's card is the best of its hand."""
        f = st.fight
        assert f is not None
        me, d = st.ask, f.defender
        cards, odds, judge = self._know(st, me)
        k = f.card[me]
        mt, mh = judge.t[me], judge.h[me]
        dt, dh = judge.t[d], judge.h[d]
        wise = sum(1 for x in st.hands[me] if cards.bonus[x])
        win, even, lt, lc = odds.vs(k, wise, max(1, dh) + self.m0)
        stake = f.bet + f.raised
        ct, cc = cards.coll[k]
        half = (stake + 1) // 2
        v_match = (win * (judge.pair(mt + stake, mh, d, dt - stake - ct, dh - 1 - cc)
                          + judge.hurt((me, d), ct, cc))
                   + even * judge.pair(mt - half, mh - 1, d, dt + half, dh - 1)
                   + (1 - win - even) * (judge.pair(mt - stake - lt, mh - 1 - lc, d,
                                                    dt + stake, dh)
                                         + judge.hurt((me, d), lt, lc)))
        v_fold = judge.pair(mt - f.bet, mh - 1, d, dt + f.bet, dh)
        match = next((a for a in legal if a.verb == "match"), None)
        fold = next((a for a in legal if a.verb == "fold"), None)
        return match if match is not None and (fold is None or v_match >= v_fold) else fold

    def on_wise(self, st: War, legal: list[Action]) -> Action | None:
        """Add a Wise Man when it turns a loss or an even score into a win (all cards are
        shown now); never otherwise (W8)."""
        f = st.fight
        assert f is not None
        me = st.ask
        adds = [a for a in legal if a.verb == "add"]
        if not adds:
            return legal[-1]
        cards = st.rules.cards

        def total(p: int) -> tuple[int, int]:
            c = cards[f.card[p]]
            return c.rank(st, Ctx(p)), c.score + sum(cards[k].bonus for k in f.added[p])

        others = [total(p) for p in f.seats if p != me and f.card[p] >= 0 and not f.out[p]]
        if not others or f.out[me]:
            return legal[-1]
        mine, best = total(me), max(others)
        if mine > best:
            return legal[-1]
        need = best[1] - mine[1]
        have = sum(cards[k].bonus for k in st.hands[me])
        if mine[0] == best[0] and need < have:
            return adds[0]
        return legal[-1]

    def on_discard(self, st: War, legal: list[Action]) -> Action | None:
        me = st.ask
        _, odds, _ = self._know(st, me)
        worst = min(set(st.hands[me]), key=lambda k: (odds.worth(k), k))
        return _card(legal, st, worst)


def _squeeze(rich: float, poor: float) -> int:
    """What `rich` can make `poor` pay by a bet above `poor`'s tokens (W5, W6)."""
    if rich <= poor or poor <= 0:
        return 0
    bet = min(int(rich), max(int(poor) + 1, 2 * int(poor) - 1))
    return min((bet + 1) // 2, int(poor))


def _seat(st: War, name: Any) -> int:
    from ..registry import P

    return P.index(str(name))


_HANDLERS: dict[Kind, Callable[..., Action | None]] = {}


def _handlers() -> dict[Kind, Callable[..., Action | None]]:
    if not _HANDLERS:
        for k in REG.kinds.values():
            fn = getattr(Heuristic, f"on_{k.name}", None)
            if fn is not None:
                _HANDLERS[k] = fn
    return _HANDLERS


def heuristic_policy(seed: int, a: float = 4.0, b: float = 8.0, kappa: float = 1.5,
                     theta0: float = 0.45, theta1: float = 0.35, m0: float = 2.0,
                     m1: float = 1.0, fold: float = 0.25, sq_in: float = 0.8,
                     sq_out: float = 0.4, burn: float = 0.8, kelly: float = 0.5) -> Policy:
    """The heuristic bot (see `Heuristic`; its options as `heuristic:kappa=1.5`)."""
    return Heuristic(seed, a=a, b=b, kappa=kappa, theta0=theta0, theta1=theta1, m0=m0,
                     m1=m1, fold=fold, sq_in=sq_in, sq_out=sq_out, burn=burn, kelly=kelly)


# the decisions the search bot searches: the rest (drawing, the Wise Men, discards) are
# the heuristic's
SEARCHED: Final = ("turn", "bet", "play", "answer", "response")


def ismcts_policy(seed: int, budget: int = 128, depth: int = 400, tree: int = 2,
                  margin: float = 0.0, z: float = 1.0) -> Policy:
    """The search bot (artproject/search.py) for one player: information-set MCTS over what
    that player may know, the heuristic bot playing every seat in its simulations and
    taking the decisions it does not search. Options as the first game's ismcts; its
    simulations are cheap (games of a few turns) and its choices closer, so it searches
    more and trusts a smaller lead (docs/ai.md)."""
    from ....search import Ismcts

    return Ismcts(seed, Heuristic(seed), Heuristic(seed + 1), budget=budget, depth=depth,
                  tree=tree, margin=margin, z=z, kinds=SEARCHED)


POLICIES: Final[dict[str, Callable[..., Any]]] = {
    "random": random_policy, "heuristic": heuristic_policy, "simple": simple_policy,
    "ismcts": ismcts_policy}
