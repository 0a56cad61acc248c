"""Set-up (W1): the cards to be dealt shuffled without the Massacres and the Fortune Teller,
six cards and six tokens to each player, six tokens in the centre pile, the rest of the
tokens out of the game; then the left-out cards shuffled back into the drawing pile, and p1
takes the first turn (W3). With explicit chance each card dealt is a chance node; a game
from a set position (scenarios) deals from its seed at once, then sets the position.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Any, Final

from ..errors import GameError, closest
from ..fields import make_copier
from ..generator import rng_state
from .chance import DEAL, take
from .rules import WarRules
from .tables import tables
from .turn import start_turn

if TYPE_CHECKING:
    from .state import War


def new(cls: type[War], rules: WarRules, players: int, seed: int, start: bool = True,
        log: bool = False, chance: str = "sample") -> War:
    """A game set up (W1); with start=True, run to the first decision (or chance node).
    Everything before the deal is the same for every seed: a copy of a template made once
    per rules and team size (`fields.make_copier`), given the seed and the modes."""
    if chance != "sample" and chance != "explicit":
        raise GameError(f"unknown chance mode {chance!r}{closest(chance, ('sample', 'explicit'))}"
                        "; expected sample or explicit")
    copier = rules.cache.get(("war-new", players)) if players.__class__ is int else None
    if copier is None:
        copier = _copier(cls, rules, players)
    st: War = copier(seed, rng_state(seed), chance == "explicit", log)
    if start and st.explicit:  # each card dealt a chance node, then the first turn
        t = st.tab  # (W1: the cards left out of the deal set aside until it is over)
        st.deck, st.aside = t.deal_deck.copy(), t.deal_aside.copy()
        st.push(start_turn)
        _deal(st)
        st._run()
        return st
    _deal_fresh(st)  # sampled, or a set position follows (then `begin`): dealt at once
    if start:
        start_turn(st)  # (st._run() of an empty work stack, written out)
        if st.outcome is not None:  # the game over at once, should the turn limit be 0
            st._over()
    return st


_GIVEN: Final = ("seed", "rng", "explicit", "logging")  # what a template's copy is given


def _copier(cls: type[War], rules: WarRules, players: int) -> Any:
    """The copier of the game before its deal (W1) for `players` players, made once and
    kept in `rules.cache`; GameError for a team size the rules do not allow."""
    low, high = rules.p("components.min_players"), rules.p("components.max_players")
    if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
        raise GameError(f"Art of War is for {low} to {high} players, not {players!r} (W1)")
    st = cls.__new__(cls)
    st.init_machine(rules, 0, False, False)
    st.players = players
    st.tab = tables(rules, players)
    st.turn, st.current, st.ask = 0, 0, -1
    st.alive = [1] * players
    st.seating = st.tab.seating(st.alive)
    st.tokens = [rules.p("setup.tokens_dealt")] * players
    st.centre = rules.p("setup.centre_tokens")
    st.out = rules.p("components.tokens") - st.centre - sum(st.tokens)
    st.hands = [[] for _ in range(players)]
    # the deck as it is once the cards left out of the deal are back in it (W1), before the
    # deal takes its cards: `_deal_fresh` deals from it (the explicit deal sets them aside)
    st.deck = [c.count for c in rules.cards]
    st.aside = [0] * len(rules.cards)
    st.deck_top, st.discard, st.deck_cards = [], [0] * len(rules.cards), None
    st.fight = None
    st.doom_cards, st.doom_tokens = [None] * players, [None] * players
    st.fated, st.deaths, st.drawn = [0] * players, [], ()
    copier = rules.cache[("war-new", players)] = make_copier(cls, cls.FIELDS, st, _GIVEN)
    return copier


def _deal(st: War) -> None:
    """W1: each player's cards, p1 to pN and round again, from the cards to be dealt; then
    the left-out cards go back into the deck (queued: with explicit chance, each card dealt
    is a chance node before the first turn)."""
    st.push(_shuffle_back)
    n = st.rules.p("setup.cards_dealt")
    for p in reversed([p for _ in range(n) for p in range(st.players)]):
        st.push(_deal_one, p)


def _deal_fresh(st: War) -> None:
    """`_deal`'s cards drawn from the seeded generator at once, as its queued steps would draw
    them with sampled chance, then `_shuffle_back`, in one pass, for a game just copied from
    its template (nothing on top of the deck, nothing played; the cards left out of the deal
    already back in the deck: it deals from `t.deal_cards`, they are not among them)."""
    t = st.tab
    # the deck's cards in card order (a new game's deck is the deal's: `_copier`): the r-th is
    # the kind chance.py's `sampled` finds for r, and it stays in order as cards
    # leave it
    cards = t.deal_cards.copy()
    deck, hands, trail, entries = st.deck, st.hands, st.trail, t.deal_entries
    # the generator's states for the whole deal at once (tables.py's `_ahead`): the same
    # draws as a step of `st.next()` a card
    b = (st.rng * t.deal_mul + t.deal_add).to_bytes(t.deal_bytes, "little")
    for (left, p), hi in zip(t.deal_steps, t.deal_his.unpack(b)):  # noqa: B905 (equal
        # lengths, by `_ahead`; strict= is a keyword call, a dict made each game)
        kind = cards.pop(hi % left)  # p1 to pN, and round again: the cards left, the seat
        deck[kind] -= 1
        hands[p].append(kind)
        trail.append(entries[p][kind])  # (0, DEAL, p, kind), made once (st.record's)
    if b:
        st.rng = int.from_bytes(b[-16:-8], "little")  # the last state
    for hand in hands:
        hand.sort()
    for k, run in t.left_runs:  # the deck's cards one by one (`sampled` draws from them):
        i = bisect_left(cards, k)  # the deal's left, and the cards left out of it (W1)
        cards[i:i] = run
    st.deck_cards = cards
    if st.logging:
        for _, _, p, kind in trail:
            st.note("deal", st.seat(p), t.names[kind])


def _deal_one(st: War, p: int) -> None:
    st.chance(DEAL, _dealt, (p,))


def _dealt(st: War, name: Any, p: int) -> None:
    kind = st.rules.index[name]
    take(st, kind)
    st.record(DEAL, p, kind)
    st.hands[p].append(kind)
    st.hands[p].sort()
    if st.logging:
        st.note("deal", st.seat(p), name)


def _shuffle_back(st: War) -> None:
    """W1: the cards left out of the deal go back into the drawing pile."""
    deck, aside, t = st.deck, st.aside, st.tab
    for k, n in t.left_out if aside == t.deal_aside else enumerate(aside):
        deck[k] += n
    st.aside = [0] * len(aside)
    st.deck_cards = None  # (worked out again at the next draw)


def begin(st: War) -> None:
    """A set position's game begins: its first turn, the machine run to its first
    decision."""
    st.push(start_turn)
    st._run()


__all__ = ["begin", "new", "rng_state"]
