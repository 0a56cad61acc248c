"""Art of War's static rules: its parameters and its deck, each kind of card with its score
and its powers compiled from the DSL, frozen once built. `WarRules` pickles by reference to
how it was loaded (the rules file and its variants)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import attrs

from ..sources import LoadedRules

Op = Callable[[Any, "Ctx"], None]  # a compiled step: run against a state in a context
Fn = Callable[[Any, "Ctx"], Any]  # a compiled expression


class Ctx(NamedTuple):
    """Whom a card's text runs for: the card's owner, or the winner its collateral hits
    around, or its drawer (`player` in the DSL; -1: nobody)."""

    player: int = -1


@attrs.frozen
class CardKind:
    """A kind of card (cards of one name are alike, W2): its numbers and compiled powers."""

    index: int
    name: str
    title: str
    count: int
    score: int
    deal: bool  # dealt at set-up (W1: the Massacres and the Fortune Teller are not)
    bonus: int  # added from hand after the reveal, +bonus each (W8); 0: cannot be added
    draws: int  # replacement cards for a win with it engaged (W9)
    rank: Fn  # its rank in the comparison: the highest rank wins, then the total (W12)
    collateral: tuple[Op, ...]  # run for the winner when it wins (W9)
    on_reveal: tuple[Op, ...]  # run for its owner at the reveal, in order of play (W11)
    on_draw: tuple[Op, ...]  # run for its drawer instead of going to hand (W14, W15)
    text: Mapping[str, str]  # the DSL texts as written, for display
    says: str = ""  # what it does in a player's words (display only: no rule reads it)


@attrs.frozen(eq=False)
class WarRules(LoadedRules):
    """Everything fixed for a game of Art of War: parameters, the deck, compiled powers."""

    # LOAD_AGAIN, a pickle's way back (the same files loaded again): the loader's, set there

    name: str
    title: str
    source: str
    params: Mapping[str, Any]
    cards: tuple[CardKind, ...]  # in the card file's order (the scores' order, W2)
    index: Mapping[str, int]  # a card's name -> its index
    made: tuple[Any, ...]  # every function the DSL compiler made, in order (pickles name them)
    raw: Mapping[str, Any]  # the merged rules document, for tools
    ref: str = ""  # how it was asked for: a shipped name or a file path (saves record it)
    variants: tuple[str, ...] = ()
    warnings: tuple[Any, ...] = attrs.field(default=(), eq=False, repr=False)
    cache: dict[Any, Any] = attrs.field(init=False, factory=dict, eq=False, repr=False)

    def p(self, key: str) -> Any:
        """A rule parameter by dotted name (`rules.refused_card`)."""
        return self.params[key]

    @property
    def total_cards(self) -> int:
        return sum(c.count for c in self.cards)

