"""Kuhn poker's invariants, checked after every decision by `artproject verify`, scenario
files (`invariants = true`) and the tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..invariants import Violation

if TYPE_CHECKING:
    from .state import Kuhn


def cards_once(st: Kuhn) -> None:
    """Every card is in the deck or in one hand, once (K1)."""
    dealt = [k for k in st.hands if k >= 0]
    if sorted(dealt + st.deck) != list(range(len(st.rules.cards))):
        raise Violation(f"the cards are not each in one place: hands {st.hands}, deck "
                        f"{st.deck} (K1)")


def stakes(st: Kuhn) -> None:
    """Each stake is the ante, or the ante and one bet (K1, K2); the returns sum to 0 (K4)."""
    r = st.rules
    for p, s in enumerate(st.stakes):
        if s not in (r.ante, r.ante + r.bet):
            raise Violation(f"p{p + 1} put {s} chips in the pot: neither the ante nor the ante "
                            "and a bet (K1, K2)")
    if sum(st.returns()) != 0:
        raise Violation(f"the returns {st.returns()} do not sum to 0 (K4)")


INVARIANTS = (cards_once, stakes)
