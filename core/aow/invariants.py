"""Art of War's invariants, checked after every step by `artproject verify`, scenario files
(`invariants = true`) and the state-machine tests: the 59 cards and 48 tokens conserved
across hands, deck, discard pile, table and out of the game (W1); hands within the limit
once a turn is settled (W4); the dead hold nothing (W17); bets within W5 and W7; a game
that ends has its winner or draw (W18). The kernel's framework (core/invariants.py) runs them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import Action
from ..invariants import Violation
from .chance import cards_of
from .contest import NONE_ADDED

if TYPE_CHECKING:
    from .state import War


def _tokens(st: War) -> None:
    total = st.rules.p("components.tokens")
    held = sum(st.tokens) + st.centre + st.out + st.table()
    if held != total or min([*st.tokens, st.centre, st.out]) < 0:
        raise Violation(f"{held} tokens in hands, centre, table and out of the game, not "
                        f"{total} (W1)", "centre >= 0")
    f = st.fight
    if f is not None and min(f.stake) < 0:
        raise Violation("a negative stake on the table")


def _cards(st: War) -> None:
    counts = [c.count for c in st.rules.cards]
    seen = [0] * len(counts)
    for pile in st.hands:
        for k in pile:
            seen[k] += 1
    for k in st.deck_top:
        seen[k] += 1
    f = st.fight
    for k in range(len(counts)):
        seen[k] += st.deck[k] + st.discard[k] + st.aside[k]
    if f is not None:
        for p in range(st.players):
            if f.card[p] >= 0:
                seen[f.card[p]] += 1
            for k in f.added[p]:
                seen[k] += 1
    if seen != counts or min(st.deck) < 0:
        names = st.rules.cards
        wrong = next(names[k].name for k in range(len(counts)) if seen[k] != counts[k])
        raise Violation(f"{sum(seen)} cards in play, not {sum(counts)}: {wrong} cards are "
                        "in two places or in none (W1)")


def _shared(st: War) -> None:
    """A new challenge's Wise Men added, one empty list shared by every seat, stays empty
    (a Wise Man added gives its seat a list of its own: contest.NONE_ADDED)."""
    if NONE_ADDED:
        raise Violation("the empty list of Wise Men added that new challenges share was "
                        "changed: a step appended to it in place")


def _deck_cards(st: War) -> None:
    """The deck's cards one by one (what a sampled draw picks from), when kept, are its
    counts' (a step that changes the deck otherwise clears them)."""
    if st.deck_cards is not None and st.deck_cards != cards_of(st.deck):
        raise Violation("the deck's cards one by one (what a draw picks from) are not its "
                        "counts': a step changed the deck without them")


def _seating(st: War) -> None:
    """The seating of the living the state keeps (tables.py's `Seating`) is its `alive`'s (a
    step that kills or revives without replacing it leaves the turn's listing, its end and
    the order of play reading the wrong players)."""
    if st.seating.living != tuple(p for p in range(st.players) if st.alive[p]):
        raise Violation("the seating of the living the game keeps is not who lives: a step "
                        "changed `alive` without it (W17)")


def _hands(st: War) -> None:
    if any(h != sorted(h) for h in st.hands):
        raise Violation("a hand is out of card order (its plays would be listed out of order)")
    limit = st.rules.p("components.hand_limit")
    # settled: a turn begins (the game's end needs no keeping down to the limit: W18 is
    # decided the moment the last killer stands alone)
    settled = st.fight is None and st.wait is not None and st.wait.name == "turn"
    if settled and any(len(h) > limit for h in st.hands):
        raise Violation(f"a hand holds more than {limit} cards once the turn is settled (W4)")


def _dead(st: War) -> None:
    for p in range(st.players):
        if not st.alive[p] and (st.tokens[p] or st.hands[p]):
            raise Violation(f"p{p + 1} is dead but holds tokens or cards (W17)")
        if st.alive[p] and st.outcome is None and st.wait is not None and \
                st.wait.name == "turn" and (not st.tokens[p] or not st.hands[p]):
            raise Violation(f"p{p + 1} lives on with no card or no token (W17)")


def _bets(st: War) -> None:
    f = st.fight
    if f is None:
        return
    if f.bet < 0 or (f.bet == 0 and f.kind != "blind" and f.seats[1:]):
        raise Violation(f"a bet of {f.bet} (W5: 1 or more)")
    if f.raised > st.rules.p("rules.raise_limit") * f.bet:
        raise Violation(f"a raise of {f.raised} on a bet of {f.bet} (W7: at most double)")


def _end(st: War) -> None:
    if st.outcome is None:
        if sum(st.alive) < 2:
            raise Violation("fewer than two players live but the game goes on (W18)")
        return
    if st.outcome != "draw" and st.alive.count(1) != 1:
        raise Violation(f"won by {st.outcome} with {sum(st.alive)} players alive (W18)")


INVARIANTS: Final = (_tokens, _cards, _deck_cards, _shared, _seating, _hands, _dead, _bets,
                     _end)


def _bet_in_reach(before: War, action: Action, after: War) -> None:
    """W5, W7: a bet is at most what the bettor held; a raise at most the bet again."""
    if action.verb == "bet" and isinstance(action.arg, int) and action.arg > before.tokens[
            action.player]:
        raise Violation(f"{action}: bet more than the {before.tokens[action.player]} tokens "
                        "held (W5)")
    if action.verb == "raise" and before.fight is not None and isinstance(action.arg, int) \
            and action.arg > before.rules.p("rules.raise_limit") * before.fight.bet:
        raise Violation(f"{action}: raised past double the bet (W7)")


def _turns_advance(before: War, action: Action, after: War) -> None:
    if after.turn < before.turn:
        raise Violation(f"{action}: the turn count went back")
    if after.turn > before.rules.p("rules.turn_limit"):
        raise Violation(f"{action}: past the turn limit (W18)")


STEP_CHECKS: Final = (_bet_in_reach, _turns_advance)
