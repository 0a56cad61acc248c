"""Art of War's heuristic bot (`--policy heuristic`): it weighs each choice by its odds
(odds.py) and what it stands to win or lose (judge.py).

The heuristic reads only what its player may know (W19): its own hand and face-down card,
the cards it has seen face up (the discard pile, the table once revealed) and the public
counts (tokens, hand sizes, the centre pile, the deck's size, the bets). The cards it has
not seen are the rest of the box; a face-down card or a card in another hand is one of
them, each alike. `tests/test_aow.py` checks that its choices do not change when what its
player cannot see is dealt anew.

How it plays (docs/art-of-war.md, "The heuristic bot"):

- It values a position as `A ln(1 + tokens) + B ln(1 + cards)` for each living player
  (0 for the dead: a token or a card is worth more the fewer are left), its own less the
  mean of the others' (`Judge`, judge.py), and takes the choice of the best expected value.
- Odds (`Odds`, odds.py): a card's chance against the best of `m` cards drawn from those
  it has not seen (its Wise Men in hand counted: +2 each, W8). A defender holding `h`
  cards is modelled as accepting when the best of them is good enough for the bet
  (`theta`), else refusing; an attacker's card as the best of a few cards, more the more of
  its tokens it bet.
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
from collections.abc import Callable
from typing import Any

from ...actions import Action
from ...registry import Kind
from ..fight import DUEL
from ..registry import REG, P
from ..state import War
from .judge import Judge
from .odds import Cards, Odds, cards_of
from .simple import _card, _pick, add_to_win  # (the readings both bots share)

Policy = Callable[[War], Action]


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

    def _know(self, st: War, me: int) -> tuple[Cards, Odds, Judge]:
        cards = cards_of(st)
        return cards, Odds(st, me, cards), Judge(st, me, self.a, self.b, self.sq_in,
                                                   self.sq_out)

    # ---------------------------------------------------------------- a duel, planned
    def _plans(self, st: War, me: int, o: int, odds: Odds, judge: Judge,
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

    def _bets(self, st: War, me: int, o: int, odds: Odds, judge: Judge, most: int,
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

    def _targets(self, st: War, me: int, foes: list[Action], odds: Odds, judge: Judge,
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
    def _answer(self, st: War, me: int, odds: Odds, judge: Judge, stake: int,
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
        return add_to_win(st, legal)

    def on_discard(self, st: War, legal: list[Action]) -> Action | None:
        me = st.ask
        _, odds, _ = self._know(st, me)
        worst = min(set(st.hands[me]), key=lambda k: (odds.worth(k), k))
        return _card(legal, st, worst)


def _seat(st: War, name: Any) -> int:
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
