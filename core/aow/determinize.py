"""Art of War's determinizations (docs/ai.md): a copy of a game some players cannot tell
from it, what they cannot see dealt anew (`resample`, the game's `resample`: ai.py names
it). Nothing here runs during play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from .chance import BLIND as TABLE_DRAW
from .chance import DEAL, DRAW, REVEAL, TAKEN
from .fight import BLIND, V_PLAY

if TYPE_CHECKING:
    from .state import War

# the trail's entries only their drawer sees: a card dealt or drawn into a hand (W19)
PRIVATE_DRAWS: Final = (DEAL.name, DRAW.name)
Known = dict[int, Counter[int]]  # cards known, by player or by trail entry (`_seen`)


def resample(st: War, players: Sequence[int], seed: int) -> War:
    """A copy `players` together cannot tell from `st` (a determinization): the cards none
    of them can see (the other players' hands, their face-down cards not yet revealed, the
    deck and any cards put on its top) dealt anew, uniformly, hands and face-down cards
    keeping their sizes; the generator reseeded from `seed` (the draws to come). What the
    other players saw of their own cards (their draws in the trail, their face-down card
    laid) follows the new deal, so each of their information states fits it too: OpenSpiel's
    ISMCTS keys its nodes by them. Cards a hidden heir took (W17) are drawn anew with the
    dead player's draws of them: a deal play reaches (but after a share among several
    heirs, `_retrace`); cards `players` saw taken (a dead player's own) stay (`_seen`). The
    history keeps its chance outcomes: the adapters find those that reach it (openspiel.py
    `_replayed`)."""
    c = st.clone()
    c.reseed(seed)
    seats = set(players)
    hidden = [p for p in range(c.players) if p not in seats]
    down = _face_down(c, hidden)
    old = {p: [*c.hands[p], *([down[p]] if p in down else [])] for p in hidden}
    # what a dead player among `players` saw of their cards taken (W17), else nothing
    dead = any(not c.alive[p] for p in range(c.players) if p in seats)
    known, kept = _seen(c, hidden) if dead else ({}, {})
    free = {p: _less(old[p], known[p]) if known.get(p) else old[p] for p in hidden}
    fixed = {p: _less(old[p], free[p]) for p in hidden if known.get(p)}  # (known: kept)
    _retrace(c, free, _deal(c, free, fixed, down), kept)
    c.legal_cache = None
    c.renew_chance()  # (at a chance node: what it may draw now)
    return c


def _deal(st: War, free: dict[int, list[int]], fixed: dict[int, list[int]],
          down: dict[int, int]) -> dict[int, list[int]]:
    """`resample`'s deal: the hidden players' cards drawn anew (`free`) and the deck
    shuffled together, each hidden player dealt as many, their hand and face-down card
    set from those and the cards of theirs known; the rest the deck. The new cards, by
    player."""
    pool = [k for k, n in enumerate(st.deck) for _ in range(n)] + list(st.deck_top)
    for p in free:
        pool += free[p]
    _shuffle(st, pool)
    # a card played at once when drawn (a Massacre, a Fortune Teller) is never held (W1)
    held = [k for k in pool if not st.rules.cards[k].on_draw]
    pool = [k for k in pool if st.rules.cards[k].on_draw]
    new: dict[int, list[int]] = {}
    for p in free:
        new[p] = held[:len(free[p])]
        del held[:len(free[p])]
        cards = [*new[p], *fixed.get(p, ())]  # and those known
        if fixed.get(p) and p in down:  # (which is face down: unknown)
            _shuffle(st, cards)
        st.hands[p][:] = sorted(cards[:len(st.hands[p])])
        if p in down:
            _relay(st, p, cards[-1])
    _restock(st, pool + held)
    return new


def _seen(st: War, hidden: list[int]) -> tuple[Known, Known]:
    """What the players not `hidden` know of hidden hands through W17's takings: the cards
    a dead player among them held, taken by a hidden heir; what they knew of a hidden dead
    player's cards, all taken by one heir (shared by rank among several: nothing). By hidden
    player, the cards known held now (in hand or face down, until one of the kind is shown);
    by TAKEN entry (its place in the trail), those of it known."""
    known: Known = {p: Counter() for p in hidden}
    table: dict[int, list[int]] = {p: [] for p in hidden}  # a Fortune Teller's draws (W15)
    kept: Known = {}
    trail = st.trail
    for i, (_, kind, who, value) in enumerate(trail):
        if who not in known:
            continue
        if kind.name == TAKEN.name:
            dead, cards = value
            seen = Counter(cards)  # (a dead player who is not hidden: they held them)
            if dead in known:
                seen = Counter() if len(_heirs(trail, i)) > 1 else known[dead] & seen
                known[dead] = Counter()
            if seen:
                kept[i] = seen
                known[who] += seen
        elif kind.name == TABLE_DRAW.name:
            table[who].append(value)
        elif kind.name == REVEAL.name:  # shown: from the table, else from the hand
            if value in table[who]:
                table[who].remove(value)
            elif known[who][value] > 0:
                known[who][value] -= 1
    return {p: +c for p, c in known.items()}, kept  # (+: the kinds none left of gone)


def _heirs(trail: list[Any], i: int) -> list[int]:
    """The heirs of the dead player whose cards the TAKEN entry at `i` took: more than one
    where they shared them (turn.py's `_share_cards` records the shares one after the
    other)."""
    dead, j, k = trail[i][3][0], i, i + 1
    while j > 0 and trail[j - 1][1].name == TAKEN.name and trail[j - 1][3][0] == dead:
        j -= 1
    while k < len(trail) and trail[k][1].name == TAKEN.name and trail[k][3][0] == dead:
        k += 1
    return [e[2] for e in trail[j:k]]


def _less(cards: list[int], gone: Any) -> list[int]:
    """`cards` in order, but those of `gone` (a Counter or a list): as many of a kind."""
    left, out = Counter(gone), []
    for k in cards:
        left[k] -= 1
        if left[k] < 0:
            out.append(k)
    return out


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


def _retrace(st: War, old: dict[int, list[int]], new: dict[int, list[int]],
             kept: Known) -> None:
    """Each hidden player's draws in the trail (and the cards they took, W17) follow their
    new cards: the latest draws of each old card become the new ones paired with it. A card
    a hidden heir took, drawn anew, is the dead player's latest draw of it drawn anew (what
    they held at their death, taken); but the cards of a taking known stay (`kept`), and
    the dead's draws stay where one of the heirs who shared them (dealt by rank) is not
    hidden: a new hand would give that heir another share than the one they saw. (So a
    deal play reaches, but where they shared: there the new shares may not be the ones a
    new hand deals.)"""
    pending: dict[int, dict[int, list[int]]] = {}
    for p, cards in old.items():
        by = pending[p] = {}
        for was, now in zip(cards, new[p], strict=True):
            by.setdefault(was, []).append(now)

    def swap(p: int, k: int) -> int:
        left = pending[p].get(k)
        return left.pop() if left else k

    trail = st.trail

    def took(i: int, heir: int, dead: int, cards: tuple[int, ...]) -> tuple[int, ...]:
        known, out = Counter(kept[i]) if i in kept else None, []
        passes = dead in pending and all(h in pending for h in _heirs(trail, i))
        for k in cards:
            if known and known[k] > 0:  # (seen: it stays)
                known[k] -= 1
                out.append(k)
                continue
            out.append(swap(heir, k))
            if out[-1] != k and passes:
                pending[dead].setdefault(k, []).append(out[-1])
        return tuple(sorted(out))

    for i in range(len(trail) - 1, -1, -1):
        at, kind, who, value = trail[i]
        if who not in pending:
            continue
        if (kind.name in PRIVATE_DRAWS and isinstance(value, int)
                and not st.rules.cards[value].on_draw):  # played at once: shown to all
            trail[i] = (at, kind, who, swap(who, value))
        elif kind.name == TAKEN.name:  # (the dead player and the cards, turn.py)
            dead, cards = value
            trail[i] = (at, kind, who, (dead, took(i, who, dead, cards)))
