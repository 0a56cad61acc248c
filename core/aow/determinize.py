"""Art of War's determinizations (docs/ai.md): a copy of a game some players cannot tell
from it, what they cannot see dealt anew (`resample`, the game's `resample`: ai.py names
it). Nothing here runs during play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from .chance import DEAL, DRAW, TAKEN
from .fight import BLIND, V_PLAY

if TYPE_CHECKING:
    from .state import War

# the trail's entries only their drawer sees: a card dealt or drawn into a hand (W19)
PRIVATE_DRAWS: Final = (DEAL.name, DRAW.name)


def resample(st: War, players: Sequence[int], seed: int) -> War:
    """A copy `players` together cannot tell from `st` (a determinization): the cards none
    of them can see (the other players' hands, their face-down cards not yet revealed, the
    deck and any cards put on its top) dealt anew, uniformly, hands and face-down cards
    keeping their sizes; the generator reseeded from `seed` (the draws to come). What the
    other players saw of their own cards (their draws in the trail, their face-down card
    laid) follows the new deal, so each of their information states fits it too: OpenSpiel's
    ISMCTS keys its nodes by them. A determinization is for search: no replay of its
    history gives it."""
    c = st.clone()
    c.reseed(seed)
    hidden = [p for p in range(c.players) if p not in set(players)]
    down = _face_down(c, hidden)
    old = {p: [*c.hands[p], *([down[p]] if p in down else [])] for p in hidden}
    pool = [k for k, n in enumerate(c.deck) for _ in range(n)] + list(c.deck_top)
    for p in hidden:
        pool += old[p]
    _shuffle(c, pool)
    # a card played at once when drawn (a Massacre, a Fortune Teller) is never held (W1)
    held = [k for k in pool if not c.rules.cards[k].on_draw]
    pool = [k for k in pool if c.rules.cards[k].on_draw]
    new: dict[int, list[int]] = {}
    for p in hidden:
        new[p] = held[:len(old[p])]
        del held[:len(old[p])]
        c.hands[p][:] = sorted(new[p][:len(c.hands[p])])
        if p in down:
            _relay(c, p, new[p][-1])
    _restock(c, pool + held)
    _retrace(c, old, new)
    c.legal_cache = None
    c.renew_chance()  # (at a chance node: what it may draw now)
    return c


def _face_down(st: War, hidden: list[int]) -> dict[int, int]:
    """The face-down cards of the hidden players, not yet revealed, by player."""
    f = st.fight
    if f is None or f.revealed or f.kind == BLIND:  # a Fortune Teller's is face up (W15)
        return {}
    return {p: f.card[p] for p in hidden if f.card[p] >= 0}


def _restock(st: War, cards: list[int]) -> None:
    """The deck (and the cards put on its top) made of `cards`, shuffled."""
    _shuffle(st, cards)
    n_top = len(st.deck_top)
    st.deck_top[:] = cards[:n_top]
    deck = [0] * len(st.deck)
    for k in cards[n_top:]:
        deck[k] += 1
    st.deck[:] = deck


def _shuffle(st: War, cards: list[int]) -> None:
    """Shuffle in place with the state's own generator (Fisher-Yates)."""
    for i in range(len(cards) - 1, 0, -1):
        j = st.next() % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def _relay(st: War, p: int, card: int) -> None:
    """The player's card laid face down is now `card`, and so is the history's last `play`
    of theirs."""
    assert st.fight is not None
    st.fight.card[p] = card
    for i in range(len(st.history) - 1, -1, -1):
        a = st.history[i]
        if a.verb == V_PLAY and a.player == p:
            st.history[i] = st.registry.act(V_PLAY, p, st.rules.cards[card].name)
            return


def _retrace(st: War, old: dict[int, list[int]], new: dict[int, list[int]]) -> None:
    """Each hidden player's draws in the trail (and the cards they took, W17) follow their
    new cards: the latest draws of each old card become the new ones paired with it."""
    pending: dict[int, dict[int, list[int]]] = {}
    for p, cards in old.items():
        by = pending[p] = {}
        for was, now in zip(cards, new[p], strict=True):
            by.setdefault(was, []).append(now)

    def swap(p: int, k: int) -> int:
        left = pending[p].get(k)
        return left.pop() if left else k

    trail = st.trail
    for i in range(len(trail) - 1, -1, -1):
        at, kind, who, value = trail[i]
        if who not in pending:
            continue
        if (kind.name in PRIVATE_DRAWS and isinstance(value, int)
                and not st.rules.cards[value].on_draw):  # played at once: shown to all
            trail[i] = (at, kind, who, swap(who, value))
        elif kind.name == TAKEN.name:  # (the dead player and the cards, turn.py)
            dead, cards = value
            trail[i] = (at, kind, who, (dead, tuple(sorted(swap(who, k) for k in cards))))
