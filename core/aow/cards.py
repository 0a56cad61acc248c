"""Cards moving between the deck, hands, the table and the discard pile (W4, W9, W14-W17).

A hand is a sorted list of kinds (cards of one name are alike, W2); the deck and the discard
pile are counts by kind. A card drawn into a hand that is played at once when drawn (a
Massacre, a Fortune Teller: its `on_draw`, W14, W15) goes face up to the discard pile and
its text runs for its drawer instead. Discarding by choice (collateral damage, W9; a
killer's hand over the limit, W17) is a decision of the hand's owner: `discard pN CARD`,
always asked (even with one kind in hand), so that what the others see never tells
whether there was a choice.
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING, Any, Final

from ..actions import Action
from .chance import DRAW, REVEAL, draw_now, sampled, take
from .registry import CARD, PLAYER, REG, SEATS, dead_check

if TYPE_CHECKING:
    from .state import War


# ====================================================================== draws
def draw_into_hand(st: War, p: int) -> None:
    """A step: `p` draws a card into their hand (W4, W9): nothing from an empty deck."""
    if st.deck_top:  # (known: the machine's `chance` would take it at once)
        _into_hand(st, draw_now(st), p)
        return
    if st.deck == st.tab.no_cards:  # (an empty deck: a comparison, not a sum of its counts)
        return
    if st.explicit:
        st.chance(DRAW, _drawn, (p,))
        return
    _into_hand(st, sampled(st), p)  # (the machine's `chance`, sampled, at once)


def _drawn(st: War, name: Any, p: int) -> None:
    kind = st.tab.index[name]
    take(st, kind)
    _into_hand(st, kind, p)


def _into_hand(st: War, kind: int, p: int) -> None:
    """`p` has drawn a card of `kind` from the deck."""
    st.trail.append((len(st.history), DRAW, p, kind))  # (st.record, written out)
    card = st.rules.cards[kind]
    if card.on_draw:  # played at once, replaced by nothing (W14, W15)
        _played_at_once(st, card, p)
        return
    insort(st.hands[p], kind)
    if st.logging:
        st.note("draw", st.seat(p), card.name)


def _played_at_once(st: War, card: Any, p: int) -> None:
    """A card played at once when drawn (a Massacre, a Fortune Teller: its `on_draw`) goes
    face up to the discard pile and its text runs for its drawer (W14, W15)."""
    st.discard[card.index] += 1
    if st.logging:
        st.note("played_at_once", st.seat(p), card.name)
    st.push_ops(card.on_draw, st.tab.ctx[p])


def to_discard(st: War, kinds: list[int], who: int = -1) -> None:
    """Cards laid face up on the discard pile (W8): each shown, then discarded."""
    discard, trail, at = st.discard, st.trail, len(st.history)
    for k in kinds:
        if who >= 0:
            trail.append((at, REVEAL, who, k))  # (st.record, written out)
        discard[k] += 1


# ====================================================================== losses (W9)
def lose_tokens(st: War, p: int, n: int) -> None:
    """`p` loses up to `n` tokens to the centre pile (collateral damage, W9)."""
    if p < 0 or not st.alive[p]:
        return
    k = n if n < st.tokens[p] else st.tokens[p]
    st.tokens[p] -= k
    st.centre += k
    if k and st.logging:
        st.note("collateral", st.seat(p), f"{k}_tokens")


def gain_tokens(st: War, p: int, n: int) -> None:
    """`p` takes up to `n` tokens from the centre pile."""
    if p < 0 or not st.alive[p]:
        return
    k = n if n < st.centre else st.centre
    st.centre -= k
    st.tokens[p] += k


def lose_cards(st: War, p: int, n: int) -> None:
    """`p` discards `n` cards of their choice, as far as their hand goes (W9)."""
    if p < 0 or not st.alive[p]:
        return
    item, q = _DISCARD_ONES[p], st.queue  # (discard_one, (p,)), made once
    for _ in range(n):
        q.append(item)  # (st.push, written out)


def discard_one(st: War, p: int) -> None:
    """A step: `p` discards a card of their choice, if they hold one."""
    if st.hands[p]:
        st.ask = p
        st.wait = DISCARD  # (pause(DISCARD), written out)


def _legal_discard(st: War) -> list[Action]:
    p = st.ask
    row = st.tab.discards[p]
    out = []  # each kind held, once a kind, in card order (made each time: remembering the
    last = -1  # listings by hand cost more, by the clock)
    for k in st.hands[p]:
        if k != last:
            out.append(row[k])
            last = k
    return out


def _apply_discard(st: War, a: Action) -> None:
    kind, p = st.tab.index[a.arg], a.player
    st.hands[p].remove(kind)
    st.trail.append((len(st.history), REVEAL, p, kind))  # (to_discard, written out)
    st.discard[kind] += 1
    if st.logging:
        st.note("discard", st.seat(a.player), a.arg)


def trim(st: War, p: int) -> None:
    """A step: `p` discards down to the hand limit, a card at a time (W4, W17)."""
    if st.alive[p] and len(st.hands[p]) > st.tab.hand_limit:
        st.queue.append(_TRIMS[p])  # (trim, (p,)), made once
        st.ask = p  # (discard_one, written out: the hand holds a card)
        st.wait = DISCARD


_TRIMS: Final = tuple((trim, (p,)) for p in range(SEATS))  # queue items, shared
_DISCARD_ONES: Final = tuple((discard_one, (p,)) for p in range(SEATS))
V_DISCARD: Final = REG.verb("discard", PLAYER, CARD, apply=_apply_discard, check=dead_check,
                            help="discard a card of your choice, face up (collateral "
                                 "damage; a hand over the limit)")
DISCARD: Final = REG.kind("discard", _legal_discard, (V_DISCARD,),
                          "a player discards a card of their choice (W9, W17)")
