"""The reveal and the settlement of a challenge (W8-W12, W14, W16), in their set order:
the face-down cards shown; the Thieves, one at a time in order of play from the attacker
(their `on_reveal`, W11); the Wise Men added from hand, round after round until every
player in the comparison passes in a row (W8); the comparison (the highest rank, then the
highest total, W12); the stakes settled (W9, W10, W14); the winning card's collateral
damage (W9); the replacement draws one at a time (W9, W16). Who took a player's last card or
token is noted for the deaths at the end of the turn (W17, turn.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..actions import Action
from . import fight
from .cards import draw_into_hand
from .chance import REVEAL
from .contest import DUEL, Fight
from .registry import CARD, PLAYER, REG, dead_check
from .rules import Ctx

if TYPE_CHECKING:
    from .state import War


def _fight(st: War) -> Fight:
    f = st.fight
    assert f is not None
    return f


# ====================================================================== the reveal (W8, W11)
def reveal(st: War) -> None:
    """Every face-down card shown; then the Thieves, the Wise Men and the comparison."""
    f = _fight(st)
    f.revealed = True
    cards, ctx, trail, at = st.rules.cards, st.tab.ctx, st.trail, len(st.history)
    items: list[tuple[Any, Any]] = []
    for p in f.seats:
        k = f.card[p]
        if k >= 0:
            trail.append((at, REVEAL, p, k))  # (st.record, written out)
            if st.logging:
                st.note("reveal", st.seat(p), cards[k].name)
            for op in cards[k].on_reveal:
                items.append((op, ctx[p]))
    q = st.queue
    q.append(_COMPARE)
    if items:
        q.append(_WISE_ROUND)
        st.push_many(items)  # W11: one at a time, in order of play from the attacker
    else:  # (queued, it would run next: every caller reveals last)
        _wise_round(st)


def in_comparison(st: War, kind: int) -> int:
    """Cards of `kind` in the comparison (face down or shown, not withdrawn): `played()`."""
    f = st.fight
    if f is None:
        return 0
    return sum(1 for p in f.seats if f.card[p] == kind and not f.out[p])


def take_back(st: War, ctx: Ctx) -> None:
    """W11: the owner takes back what is left of their stake."""
    f, p = _fight(st), ctx.player
    st.tokens[p] += f.stake[p]
    if f.stake[p] and st.logging:
        st.note("take_back", st.seat(p), f.stake[p])
    f.stake[p] = 0


def steal(st: War, ctx: Ctx, n: int) -> None:
    """W11: `n` tokens from every other stake still on the table, as far as each goes."""
    f, p = _fight(st), ctx.player
    for q in f.seats:
        k = min(n, f.stake[q]) if q != p else 0
        if k:
            f.stake[q] -= k
            st.tokens[p] += k
            if st.logging:
                st.note("steal", st.seat(p), k, st.seat(q))


def withdraw(st: War, ctx: Ctx) -> None:
    """The card leaves the comparison: its owner adds no Wise Man, draws nothing (W11)."""
    _fight(st).out[ctx.player] = 1
    if st.logging:
        st.note("withdraw", st.seat(ctx.player))


# ====================================================================== Wise Men (W8)
def _wise_round(st: War) -> None:
    """Ask the next player in the comparison to add a Wise Man or pass, round after round
    until every one has passed in a row (W8); a player with no card in hand (public) is
    not asked."""
    f = st.fight
    assert f is not None
    elig = f.eligible
    if elig is None:  # the first round, or a Wise Man added since the last
        _wise_scan(st, f)
        return
    # a pass since the last round: who may add is who might before (a pass changes no hand,
    # no stake, no card: nothing a rank worked out in play reads), the player asked last
    # among them
    n = len(elig)
    if f.wise[1] >= n:
        _rounds_over(st)
        return
    j = elig.index(st.ask) + 1
    st.ask = elig[j] if j < n else elig[0]
    f.wise[0] += 1
    st.queue.append(_WISE_ROUND)
    st.wait = WISE


def _wise_scan(st: War, f: Fight) -> None:
    """`_wise_round` working out who may add: the players still in the comparison whose card
    can win (its rank 0 or more), holding a card."""
    i, passes = f.wise
    # the next in order of play after the player asked last, who may have added their last
    # card and left the rounds: counting along those asked would skip the one after them (W8)
    order = f.seats
    last = order.index(st.ask) if i else -1
    t = st.tab
    can_win, card, out, hands = t.can_win, f.card, f.out, st.hands
    elig: list[int] = []
    after = -1
    at = 0
    for p in order:
        w = can_win[card[p]]  # (no card, -1: the last entry, 0)
        if w and not out[p] and hands[p] and (
                w == 1 or t.cards[card[p]].rank(st, t.ctx[p]) >= 0):
            elig.append(p)
            if after < 0 and at > last:
                after = p
        at += 1  # noqa: SIM113 (a plain count costs less than enumerate)
    if not elig or passes >= len(elig):
        _rounds_over(st)
        return
    f.eligible = elig  # (never changed: a copy of the challenge shares it)
    st.ask = after if after >= 0 else elig[0]
    f.wise[0] = i + 1
    st.queue.append(_WISE_ROUND)
    st.wait = WISE


def _rounds_over(st: War) -> None:
    """The Wise Men rounds are over: the comparison, queued under them by `reveal`, runs
    next (at once)."""
    q = st.queue
    if q and q[-1] is _COMPARE:
        q.pop()
        compare(st)


def _legal_wise(st: War) -> list[Action]:
    p, t = st.ask, st.tab
    hand = st.hands[p]
    out = None
    for k in t.bonus_kinds:  # each Wise Man held, once a kind, in card order
        if k in hand:
            if out is None:
                out = []
            out.append(t.adds[p][k])
    if out is None:  # (no Wise Man held: the listing made once, as it is)
        return t.pass_lists[p]
    out.append(t.pass_[p])
    return out


def _apply_add(st: War, a: Action) -> None:
    f = st.fight
    assert f is not None
    kind = st.tab.index[a.arg]
    st.hands[a.player].remove(kind)
    f.added[a.player] = [*f.added[a.player], kind]  # (a new list: see contest.NONE_ADDED)
    f.wise[1] = 0
    f.eligible = None  # (a hand changed: who may add is worked out again)
    st.trail.append((len(st.history), REVEAL, a.player, kind))  # (st.record, written out)
    if st.logging:
        st.note("add", st.seat(a.player), a.arg)
    q = st.queue  # the round that asked, queued, runs next: at once (a round trip less)
    if q and q[-1] is _WISE_ROUND:
        q.pop()
        _wise_round(st)


def _apply_pass(st: War, a: Action) -> None:
    f = st.fight
    assert f is not None
    f.wise[1] += 1
    q = st.queue  # (as after an added Wise Man)
    if q and q[-1] is _WISE_ROUND:
        q.pop()
        _wise_round(st)


# ====================================================================== the comparison
def _keyed(st: War, f: Fight) -> tuple[list[int], list[tuple[int, int]]]:
    """The players still in the comparison whose card can win (its rank 0 or more) and each
    one's place in it: the card's rank, then its total (W8, W12), in one pass."""
    t = st.tab
    cards, ctx, ranks, card, out, added = t.cards, t.ctx, t.ranks, f.card, f.out, f.added
    alive: list[int] = []
    keys: list[tuple[int, int]] = []
    for p in f.seats:
        k = card[p]
        if k >= 0 and not out[p]:
            c = cards[k]
            r = ranks[k]
            if r is None:
                r = c.rank(st, ctx[p])
            if r >= 0:
                total = c.score
                for a in added[p]:
                    total += cards[a].bonus
                alive.append(p)
                keys.append((r, total))
    return alive, keys


def _winners(st: War, f: Fight) -> tuple[int, ...]:
    """The players whose card can win (its rank 0 or more, W9) with the highest rank, then
    the highest total (W8, W12), in order of play from the attacker (W3): `_keyed`'s
    places, the best found in the same pass (no lists)."""
    t = st.tab
    cards, ctx, ranks, card, out, added = t.cards, t.ctx, t.ranks, f.card, f.out, f.added
    best_rank = best_total = 0
    winners: tuple[int, ...] = ()
    for p in f.seats:
        k = card[p]
        if k >= 0 and not out[p]:
            r = ranks[k]
            if r is None:
                r = cards[k].rank(st, ctx[p])
            if r >= 0:
                total = cards[k].score
                for a in added[p]:
                    total += cards[a].bonus
                if not winners or r > best_rank or (r == best_rank and total > best_total):
                    best_rank, best_total, winners = r, total, (p,)
                elif r == best_rank and total == best_total:
                    winners += (p,)
    return winners


def compare(st: War) -> None:
    """The highest rank and total wins (W9); even scores (W10, W14); no winner (W9)."""
    f = st.fight
    assert f is not None
    winners = _winners(st, f)
    if len(f.seats) < 2 or not winners:
        no_contest(st, ())
        return
    if st.logging:
        alive, keys = _keyed(st, f)
        st.note("compare", *(f"{st.seat(p)}={key[1]}"
                             for p, key in zip(alive, keys, strict=True)))
    if len(winners) == 1:
        _win(st, winners[0])
    elif f.kind == DUEL:
        _tie_duel(st)
    else:
        _tie_split(st, winners)


def _engaged(st: War, f: Fight) -> None:
    """Every engaged card goes face up to the discard pile (seed; W8). (Every caller closes
    the challenge next, `st.fight = None`, which takes it off the table: its stakes, once
    paid out, its face-down cards and Wise Men are left as they are on it.)"""
    discard, card, added = st.discard, f.card, f.added
    for p in f.seats:
        k = card[p]
        if k >= 0:
            discard[k] += 1  # (to_discard of what was shown: written out)
        if added[p]:
            for k in added[p]:
                discard[k] += 1


def _win(st: War, w: int) -> None:
    """W9: the winner takes every token left on the table; the winning card's collateral
    damage hits every other living player; the winner draws one card, or two with a Wise
    Man, only up to the hand limit."""
    f = st.fight
    assert f is not None
    cards = st.rules.cards
    won = sum(f.stake)
    st.tokens[w] += won
    card = cards[f.card[w]]
    draws = card.draws
    for k in f.added[w]:
        if cards[k].draws > draws:
            draws = cards[k].draws
    if st.logging:
        st.note("wins", st.seat(w), won)
    _engaged(st, f)
    if card.collateral:
        st.queue.append((replace, (w, draws)))
        close(st, (w,), st.tab.collateral[card.index])
        return
    close(st, (w,))  # (it queues nothing here: the draws, queued, would run next)
    replace(st, w, draws)


def _tie_duel(st: War) -> None:
    """W10: the defender receives half the attacker's whole stake, rounded up; each takes
    back the rest of their own; nobody draws; no collateral damage."""
    f = st.fight
    assert f is not None
    a, d = f.attacker, f.defender
    paid = (f.stake[a] + 1) // 2  # (never more than the stake: half of it, rounded up)
    st.tokens[d] += paid + f.stake[d]
    st.tokens[a] += f.stake[a] - paid
    if st.logging:
        st.note("even", st.seat(a), st.seat(d), paid)
    _engaged(st, f)
    close(st, ())


def _tie_split(st: War, winners: tuple[int, ...]) -> None:
    """W14: the tied players split the pot evenly, the remainder to the centre pile; the
    tied cards are lost; no collateral damage, no draw."""
    f = st.fight
    assert f is not None
    pot = sum(f.stake)
    share = pot // len(winners)
    for p in winners:
        st.tokens[p] += share
    st.centre += pot - share * len(winners)
    if st.logging:
        st.note("split", *(st.seat(p) for p in winners), share)
    _engaged(st, f)
    close(st, winners)


def no_contest(st: War, winners: tuple[int, ...]) -> None:
    """W9: no card can win: everyone takes back what is left of their stake."""
    f = st.fight
    assert f is not None
    tokens, stake = st.tokens, f.stake
    for p in f.seats:
        tokens[p] += stake[p]
    if st.logging:
        st.note("no_winner")
    _engaged(st, f)
    close(st, winners)


# ====================================================================== after the stakes
def close(st: War, winners: tuple[int, ...], collateral: tuple[Any, ...] = ()) -> None:
    """The challenge is settled: the winning card's collateral damage (W9: its steps queued
    for each seat, `Tables.collateral`), then note who took each last card or token (W17);
    replacement draws come after (W16)."""
    st.fight = None
    st.ask = -1
    if collateral and winners:
        q = st.queue
        q.append((doom, (winners,)))
        q += collateral[winners[0]]  # (st.push_ops of the text's steps for the first winner,
        return  # made once: tables.py)
    tokens, hands = st.tokens, st.hands  # (queued, `doom` would run next: every caller
    if 0 not in tokens and [] not in hands:  # closes last; its case of all living, none
        none = st.tab.no_doom  # doomed, written out: the lists of who took a last card or
        # token all None, kept where they are so already: a comparison costs less than two
        # new lists)
        if st.doom_cards != none:
            st.doom_cards = none.copy()
        if st.doom_tokens != none:
            st.doom_tokens = none.copy()
        return
    doom(st, winners)


def doom(st: War, winners: tuple[int, ...]) -> None:
    """W17: a living player left with no card or no token was killed by this settlement's
    winner(s) (none: no winner); a player who has some again is not."""
    hands, tokens = st.hands, st.tokens
    if 0 not in tokens and [] not in hands:  # all living (the dead hold nothing), none doomed
        none = st.tab.no_doom  # (C-level scans; the loop below, written out, as in close)
        if st.doom_cards != none:
            st.doom_cards = none.copy()
        if st.doom_tokens != none:
            st.doom_tokens = none.copy()
        return
    cards, doom_tokens = st.doom_cards, st.doom_tokens
    for p in st.seating.living:  # (the dead not walked)
        if hands[p]:
            cards[p] = None
        elif cards[p] is None:
            cards[p] = winners
        if tokens[p]:
            doom_tokens[p] = None
        elif doom_tokens[p] is None:
            doom_tokens[p] = winners


def replace(st: War, w: int, n: int) -> None:
    """The winner's replacement draws, one at a time, up to the hand limit (W9, W16): a
    Massacre or Fortune Teller drawn is resolved at once."""
    if n <= 0 or not st.alive[w] or st.fated[w] or len(st.hands[w]) >= st.tab.hand_limit:
        return
    q = st.queue
    q.append(item := (replace, (w, n - 1)))
    draw_into_hand(st, w)
    if n == 1 and q[-1] is item and st.wait is None:  # the last draw, which queued nothing:
        q.pop()  # the step queued for the next would do nothing (it runs next: dropped)


_COMPARE: Final = (compare, ())  # queue items, shared
_WISE_ROUND: Final = (_wise_round, ())
V_ADD: Final = REG.verb("add", PLAYER, CARD, apply=_apply_add, check=dead_check,
                        help="add a Wise Man (a card with a bonus) from hand, face up (W8)")
V_PASS: Final = REG.verb("pass", PLAYER, apply=_apply_pass, check=dead_check,
                         help="add nothing more (W8)")
WISE: Final = REG.kind("wise", _legal_wise, (V_ADD, V_PASS),
                       "after the reveal: add a Wise Man or pass (W8)")
fight.settle_with(reveal, close, replace, no_contest)  # (why given: fight.py, above `settle_with`)
