"""Chance in the A.R.T. game: the deck's draws (R3, R20), the solo mode's cards set aside
(R24) and the dice (R14, R16).

The deck is shuffled lazily: each draw takes a card at random from those left, which is the
same as shuffling once, and the final card lies under `above` others (R3: on the last 12).
Drawn at once from the seeded generator (the default), or, with explicit chance, each draw
and roll is a chance node whose outcomes are listed with their probabilities: a draw is
uniform over the cards left (the team cannot tell them apart), certain when the final card
or a card known to lie on top (scenarios) is next; a die is uniform over its faces, certain
when a scenario forced it. Every event goes into the trail, which the information rules
read: a drawn card's face is its drawer's to see, its back (the clue symbols) everyone's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..machine import LCG_A, LCG_C, MASK
from .registry import CARD, FACE, REG, answer_arg

if TYPE_CHECKING:
    from .state import State


# ====================================================================== the deck
def deck_certain(st: State) -> bool:
    """The next card is known: a card known to lie on top (scenarios), or the final card."""
    return bool(st.deck_top) or st.above == 0


def deck_outcomes(st: State) -> list[tuple[Any, float]]:
    """The next card's chances: certain from the top (scenarios) or the final card, else
    uniform over the cards left (one card left is still drawn: the sampler draws there)."""
    if st.deck_top:
        return [(st.deck_top[-1], 1.0)]
    if st.above == 0:
        return [(st.rules.final_card, 1.0)]
    d = sorted(st.deck)
    p = 1.0 / len(d)
    return [(c, p) for c in d]


def deck_sample(st: State) -> int:
    """The card the seeded generator draws next (the state is untouched but for the
    generator): the same draw `pick` makes."""
    if st.deck_top:
        return st.deck_top[-1]
    if st.above == 0:
        return int(st.rules.final_card)
    d = st.deck
    return d[st.next() % len(d)]


def take(st: State, card: int) -> None:
    """The deck gives up `card`, drawn (see `deck_outcomes`)."""
    if st.deck_top and st.deck_top[-1] == card:
        st.deck_top.pop()
        return
    if card == st.rules.final_card and st.above == 0:
        st.above = -1
        return
    d = st.deck
    j = d.index(card)
    d[j], d[-1] = d[-1], d[j]  # as `pick` takes it: the deck's order stays the sampler's
    d.pop()
    if st.above > 0:
        st.above -= 1


def pick(st: State) -> int:
    """A card taken at random from the deck's unordered remainder."""
    d = st.deck
    st.rng = z = (st.rng * LCG_A + LCG_C) & MASK
    j = (z >> 32) % len(d)  # `next`, written out: hot
    d[j], d[-1] = d[-1], d[j]
    return d.pop()


def deck_size(st: State) -> int:
    return len(st.deck_top) + len(st.deck) + (1 if st.above >= 0 else 0)


def draw_card(st: State) -> int | None:
    """The next card of the deck (R3: the final card after `above` others), or None."""
    if st.deck_top:
        return st.deck_top.pop()
    if st.above > 0 or (st.above < 0 and st.deck):
        st.above -= st.above > 0
        return pick(st)
    if st.above == 0:
        st.above = -1
        return int(st.rules.final_card)
    return None


def _deal_view(st: State, who: int, card: Any, viewer: int) -> str:
    if card == st.rules.final_card:
        return f"p{who + 1} draws the final card"
    if viewer == who:
        return f"p{who + 1} draws {card}"
    sym = st.rules.symbols
    return f"p{who + 1} draws a card backed " + "+".join(sym[s] for s in st.tab.clues[card])


def _hidden_view(st: State, who: int, card: Any, viewer: int) -> str:
    return "a card is set aside"


# ====================================================================== the dice
def die_certain(st: State) -> bool:
    return bool(st.forced_dice)


def die_outcomes(st: State) -> list[tuple[Any, float]]:
    if st.forced_dice:
        return [(st.forced_dice[0], 1.0)]
    faces = st.tab.die_faces
    return [(f, 1.0 / faces) for f in range(1, faces + 1)]


def die_sample(st: State) -> int:
    if st.forced_dice:
        return st.forced_dice[0]
    return 1 + st.next() % st.tab.die_faces


def roll(st: State) -> int:
    """One die, from the forced results first (scenarios), then the seeded generator."""
    if st.forced_dice:
        return st.forced_dice.pop(0)
    return 1 + st.next() % st.tab.die_faces


def rolled(st: State, face: int) -> None:
    """A die's result has been taken: a forced one is used up."""
    if st.forced_dice:
        st.forced_dice.pop(0)
    st.record(DIE, -1, face)


def _die_view(st: State, who: int, face: Any, viewer: int) -> str:
    return f"die {face}"


V_CARD: Final = REG.verb("card", CARD, apply=answer_arg, help="chance: the card drawn")
V_DIE: Final = REG.verb("die", FACE, apply=answer_arg, help="chance: a die's result")
DEAL: Final = REG.chance_kind("deal", V_CARD, "chance: the card drawn into a hand",
                              deck_outcomes, deck_sample, deck_certain, _deal_view)
SET_ASIDE: Final = REG.chance_kind("set_aside", V_CARD, "chance: a card set aside (solo, R24)",
                                   deck_outcomes, deck_sample, deck_certain, _hidden_view)
DIE: Final = REG.chance_kind("die", V_DIE, "chance: a battle die's result (R14, R16)",
                             die_outcomes, die_sample, die_certain, _die_view)
