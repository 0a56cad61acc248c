"""Art of War's first heuristic bot, kept as a baseline (`--policy simple`): it bets by the
strength of its best card with fixed thresholds and knows the special cards. Heuristic
against itself it plays a short, lopsided game (two-player games of 2.5 turns: it bets much
and the other accepts); `heuristic` (policies.py) replaced it and is measured against it in
docs/art-of-war.md. It reads only what its player may know (W19).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ...actions import Action
from ...registry import Kind
from ..fight import COLLECTIVE, DUEL
from ..registry import REG, P
from ..rules import Ctx
from ..state import War

Policy = Callable[[War], Action]


def _value(st: War, kind: int) -> float:
    """What a card in hand is worth keeping: its score; a Thief (a safe stake), a Wise Man
    (+2 and two draws) and a Dragon Slayer (while the Great Dragon is unseen) more."""
    card = st.rules.cards[kind]
    v = float(card.score)
    if card.on_reveal:
        v = 9.0  # a Thief: its owner loses nothing unless a Great Dragon is played (W11)
    if card.bonus:
        v = 8.0 + card.bonus
    if card.rank(st, Ctx(-1)) == 0 and card.score == 0:
        v = 6.0  # a Dragon Slayer, worth keeping while a Great Dragon may come
    return v


class Simple:
    """Bets by hand strength: it challenges with a strong card (or with a weak one to force
    a refusal it can pay for: a bet above the target's tokens, W5), answers by its chance of
    winning against the cards it has not seen, adds Wise Men when they turn a loss into a
    win, and discards its least useful cards."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, st: War) -> Action:
        legal = st.legal_actions()
        pick = _handlers().get(st.wait) if st.wait is not None else None
        a = pick(self, st, legal) if pick is not None else None
        return a if a is not None else legal[0]

    # ---------------------------------------------------------------- what it knows
    @staticmethod
    def unseen(st: War, me: int) -> list[int]:
        """How many cards of each kind `me` has not seen (the deck, the others' hands and
        face-down cards are among them)."""
        left = [c.count for c in st.rules.cards]
        for k in st.hands[me]:
            left[k] -= 1
        for k, n in enumerate(st.discard):
            left[k] -= n
        f = st.fight
        if f is not None:
            for p in f.seats:
                if f.card[p] >= 0 and (f.revealed or p == me):
                    left[f.card[p]] -= 1
                for k in f.added[p]:
                    left[k] -= 1
        return [max(0, n) for n in left]

    @staticmethod
    def strength(st: War, kind: int) -> int:
        """A card's place among the others (its rank, then its score), read off the card."""
        card = st.rules.cards[kind]
        if card.on_reveal:
            return -1  # a Thief never wins, but it loses nothing (W11)
        rank = card.rank(st, Ctx(-1))
        return card.score + (40 if rank > 1 else -40 if rank < 1 else 0)

    def chance(self, st: War, me: int, kind: int) -> float:
        """The chance that `kind` beats a card drawn from what `me` has not seen (a tie
        counts half); cards that never fight (played at once when drawn) left out."""
        mine = self.strength(st, kind)
        won = total = 0.0
        for k, n in enumerate(self.unseen(st, me)):
            c = st.rules.cards[k]
            if not n or c.on_draw:
                continue
            theirs = self.strength(st, k)
            if c.rank(st, Ctx(-1)) == 0 and c.score == 0:  # a Dragon Slayer: beats a dragon
                theirs = 60 if mine >= 60 else -30
            total += n
            won += n * (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
        return won / total if total else 0.5

    def best(self, st: War, me: int) -> int:
        """The strongest card in `me`'s hand."""
        return max(st.hands[me], key=lambda k: (self.strength(st, k), -k))

    # ---------------------------------------------------------------- the turn
    def on_turn(self, st: War, legal: list[Action]) -> Action | None:
        """Draw or take when short of cards or tokens, else bully a poor target, else
        challenge the poorest with a strong card, else fill the hand, else the first of
        taking, drawing and challenging."""
        me = st.current
        draw, take, foes = _verb(legal, "draw"), _verb(legal, "take"), _verb(legal, "challenge")
        first = self._short(st, me, draw, take)
        if first is None:
            first = self._bully(st, me, foes)
        if first is None:
            first = self._strike(st, me, foes)
        if first is not None:
            return first
        if len(st.hands[me]) < 5 and draw:
            return draw[0]
        return (take or draw or foes)[0]

    @staticmethod
    def _short(st: War, me: int, draw: list[Action], take: list[Action]) -> Action | None:
        """A draw with two cards or fewer in hand, else a token taken with two or fewer."""
        if len(st.hands[me]) <= 2 and draw:
            return draw[0]
        if st.tokens[me] <= 2 and take:
            return take[0]
        return None

    def _strike(self, st: War, me: int, foes: list[Action]) -> Action | None:
        """With a card likely to win (0.72), a challenge to the target with fewest tokens."""
        if not st.hands[me] or self.chance(st, me, self.best(st, me)) < 0.72 or not foes:
            return None
        return min(foes, key=lambda a: (st.tokens[P.index(str(a.arg))], str(a.arg)))

    def _bully(self, st: War, me: int, foes: list[Action]) -> Action | None:
        """A challenge the target can only refuse (a bet above its tokens, W5) and that
        costs it every token it has (W6): it dies, and its cards are ours (W17)."""
        for a in sorted(foes, key=lambda a: st.tokens[P.index(str(a.arg))]):
            t = st.tokens[P.index(str(a.arg))]
            if st.tokens[me] >= max(t + 1, 2 * t - 1) + 1 and len(st.hands[me]) >= 2:
                return a
        return None

    def on_bet(self, st: War, legal: list[Action]) -> Action | None:
        f = st.fight
        assert f is not None
        me = st.ask
        most = st.tokens[me]
        if f.kind == DUEL:
            t = st.tokens[f.defender]
            if most >= max(t + 1, 2 * t - 1) + 1 and len(st.hands[me]) >= 2:
                return _pick(legal, max(t + 1, 2 * t - 1))  # a refusal that kills (W6)
        p = self.chance(st, me, self.best(st, me))
        want = 1 if p < 0.6 else max(1, round(most * (p - 0.4)))
        return _pick(legal, min(want, most // 2) if most > 1 else 1)  # never all in

    def on_play(self, st: War, legal: list[Action]) -> Action | None:
        f = st.fight
        assert f is not None
        me = st.ask
        hand = st.hands[me]
        if f.kind == DUEL and me == f.attacker and f.bet > st.tokens[f.defender]:
            weakest = min(hand, key=lambda k: (_value(st, k), k))  # it will be refused
            return _card(legal, st, weakest)
        return _card(legal, st, self.best(st, me))

    # ---------------------------------------------------------------- answers
    def on_answer(self, st: War, legal: list[Action]) -> Action | None:
        """Refuse all in unless likely to win (0.75), raise when very likely (0.8) and the
        raise leaves two tokens, else accept when accepting is worth more than refusing."""
        f = st.fight
        assert f is not None
        me = st.ask
        if len(legal) == 1 or not st.hands[me]:
            return legal[0]
        p = self._answer_odds(st, me)
        bet = f.bet
        if bet >= st.tokens[me] and p < 0.75:
            return legal[0]  # all in: a loss is death
        if p >= 0.8:
            raised = _most_raise(legal, st.tokens[me] - bet - 2)
            if raised is not None:
                return raised
        accept = p * bet - (1 - p) * (bet + 2)  # a loss costs the bet and collateral damage
        refuse = -((bet + 1) // 2)
        if accept > refuse:
            return next(a for a in legal if a.verb == "accept")
        return legal[0]

    def _answer_odds(self, st: War, me: int) -> float:
        """The chance its best card wins the challenge: against one card in a duel, against
        each other player's in a collective challenge."""
        f = st.fight
        assert f is not None
        p = self.chance(st, me, self.best(st, me))
        if f.kind == COLLECTIVE:
            p = p ** max(1, len(st.order_from(f.attacker, True)) - 1)  # against them all
        return p

    def on_response(self, st: War, legal: list[Action]) -> Action | None:
        f = st.fight
        assert f is not None
        me = st.ask
        p = self.chance(st, me, f.card[me])
        all_in = f.raised >= st.tokens[me]
        return legal[0] if p >= (0.75 if all_in else 0.5) or len(legal) == 1 else legal[-1]

    def on_wise(self, st: War, legal: list[Action]) -> Action | None:
        return add_to_win(st, legal)

    def on_discard(self, st: War, legal: list[Action]) -> Action | None:
        me = st.ask
        worst = min(set(st.hands[me]), key=lambda k: (_value(st, k), k))
        return _card(legal, st, worst)


def add_to_win(st: War, legal: list[Action]) -> Action:
    """Add a Wise Man when it turns a loss or an even score into a win (all cards are shown
    now); never otherwise (W8): both heuristics' choice."""
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
    if not others:
        return legal[-1]
    mine, best = total(me), max(others)
    if mine > best:
        return legal[-1]
    need = best[1] - mine[1]
    have = sum(cards[k].bonus for k in st.hands[me])
    if mine[0] == best[0] and need < have:
        return adds[0]
    return legal[-1]


def _most_raise(legal: list[Action], keep: int) -> Action | None:
    """The largest raise listed that leaves two tokens at least (`keep`: the most it may
    raise so)."""
    raises = [a for a in legal if a.verb == "raise" and int(a.arg or 0) <= keep]
    return raises[-1] if raises else None


def _verb(legal: list[Action], verb: str) -> list[Action]:
    """The listed actions of `verb`."""
    return [a for a in legal if a.verb == verb]


def _pick(legal: list[Action], n: int) -> Action:
    """The listed action whose number is nearest `n`."""
    return min(legal, key=lambda a: abs(int(a.arg or 0) - n))


def _card(legal: list[Action], st: War, kind: int) -> Action | None:
    name = st.rules.cards[kind].name
    return next((a for a in legal if a.arg == name), None)


_HANDLERS: dict[Kind, Callable[..., Action | None]] = {}


def _handlers() -> dict[Kind, Callable[..., Action | None]]:
    if not _HANDLERS:
        for k in REG.kinds.values():
            fn = getattr(Simple, f"on_{k.name}", None)
            if fn is not None:
                _HANDLERS[k] = fn
    return _HANDLERS


def simple_policy(seed: int) -> Policy:
    """The first heuristic bot (see `Simple`)."""
    return Simple(seed)
