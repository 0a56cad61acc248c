"""Chance in Art of War: the deck's draws (W1, W4, W9, W15).

The deck is a count of each kind of card (cards of one name are alike, W2, and the players
cannot tell them apart): a draw takes a kind with probability its count over the cards
left, which is the same as shuffling once. Drawn at once from the seeded generator (the
default), or, with explicit chance, each draw is a chance node whose outcomes are the
kinds left with those probabilities (certain when a scenario put a card on top). Every draw
goes into the trail, which the information rules read: a card drawn into a hand is its
drawer's to see (W19); a card played at once (a Massacre, a Fortune Teller) and a card drawn
onto the table by a Fortune Teller are everyone's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..generator import LCG_A, LCG_C, MASK
from .registry import CARD, REG, P, answer_arg, card_check

if TYPE_CHECKING:
    from .state import War


def deck_outcomes(st: War) -> list[tuple[Any, float]]:
    """The next card's chances, by name: certain from the top (scenarios), else each kind in
    proportion to its cards left."""
    names = st.rules.cards
    if st.deck_top:
        return [(names[st.deck_top[-1]].name, 1.0)]
    total = sum(st.deck)
    return [(names[k].name, n / total) for k, n in enumerate(st.deck) if n]


def deck_certain(st: War) -> bool:
    return bool(st.deck_top)


def deck_sample(st: War) -> str:
    """The card the seeded generator draws next (the state is untouched but for the
    generator), by name."""
    return st.rules.cards[_pick(st)].name


def _pick(st: War) -> int:
    """The kind drawn next, left in the deck (`take` takes it): the top card, else the r-th
    of the deck's cards one by one, in card order (the draw `sampled` makes)."""
    if st.deck_top:
        return st.deck_top[-1]
    cards = st.deck_cards
    if cards is None:
        cards = st.deck_cards = cards_of(st.deck)
    return cards[st.next() % len(cards)]


def draw_now(st: War) -> int:
    """A draw known at once (sampled chance, or a card put on top): the kind `deck_sample`
    names, taken from the deck (`take`), without naming it."""
    top = st.deck_top
    if top:
        return top.pop()
    return sampled(st)


def sampled(st: War) -> int:
    """The seeded generator's draw from the deck's counts (a card or more, nothing on top):
    the r-th card in card order, taken from the deck."""
    st.rng = z = (st.rng * LCG_A + LCG_C) & MASK  # (st.next(), written out)
    cards = st.deck_cards  # the deck's cards one by one, in card order: as many as the
    if cards is None:  # deck's counts say (invariants.py), so no sum of the counts
        cards = st.deck_cards = cards_of(st.deck)
    kind = cards.pop((z >> 32) % len(cards))
    st.deck[kind] -= 1
    return kind


def cards_of(deck: list[int]) -> list[int]:
    """The cards of a deck's counts one by one, in card order (the state's `deck_cards`)."""
    return [k for k, n in enumerate(deck) for _ in range(n)]


def take(st: War, kind: int) -> None:
    """The deck gives up a card of `kind`, drawn."""
    if st.deck_top and st.deck_top[-1] == kind:
        st.deck_top.pop()
        return
    st.deck[kind] -= 1
    if st.deck_cards is not None:
        st.deck_cards.remove(kind)


def deck_size(st: War) -> int:
    return len(st.deck_top) + sum(st.deck)


def _hand_view(st: War, who: int, kind: Any, viewer: int) -> str:
    card = st.rules.cards[kind]
    if viewer == who or card.on_draw:  # a card played at once is shown to all (W14, W15)
        return f"{P[who]} draws {card.name}"
    return f"{P[who]} draws a card"


def _deal_view(st: War, who: int, kind: Any, viewer: int) -> str:
    if viewer == who:
        return f"{P[who]} is dealt {st.rules.cards[kind].name}"
    return f"{P[who]} is dealt a card"


def _table_view(st: War, who: int, kind: Any, viewer: int) -> str:
    return f"{P[who]} draws {st.rules.cards[kind].name} onto the table"


def reveal_view(st: War, who: int, kind: Any, viewer: int) -> str:
    return f"{P[who]} shows {st.rules.cards[kind].name}"


def taken_view(st: War, who: int, taken: Any, viewer: int) -> str:
    """A killer takes the dead's cards (W17): theirs to see, a number to the others. (The
    entry's value: the dead player and the cards, turn.py's `_share_cards`.)"""
    kinds = taken[1]
    if viewer == who:
        return f"{P[who]} takes " + " ".join(st.rules.cards[k].name for k in kinds)
    return f"{P[who]} takes {len(kinds)} cards"


def _no_legal(st: War) -> list[Any]:
    return []


V_CARD: Final = REG.verb("card", CARD, apply=answer_arg, check=card_check,
                        help="chance: the card drawn")
DEAL: Final = REG.chance_kind("deal", V_CARD, "chance: a card dealt at set-up (W1)",
                              deck_outcomes, deck_sample, deck_certain, _deal_view)
DRAW: Final = REG.chance_kind("draw", V_CARD, "chance: a card drawn into a hand (W4, W9)",
                              deck_outcomes, deck_sample, deck_certain, _hand_view)
BLIND: Final = REG.chance_kind("blind", V_CARD, "chance: a card drawn onto the table by a "
                               "Fortune Teller (W15)", deck_outcomes, deck_sample,
                               deck_certain, _table_view)
# What is shown, not drawn: the trail's other entries (the information rules read them).
REVEAL: Final = REG.kind("reveal", _no_legal, (), "a card shown face up (W8, W19)",
                         view=reveal_view)
TAKEN: Final = REG.kind("taken", _no_legal, (), "a dead player's cards taken (W17)",
                        view=taken_view)
