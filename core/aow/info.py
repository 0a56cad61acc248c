"""What each player may know (W19): their own hand; everyone's tokens and hand sizes, the
centre pile, the discard pile (face up) and the number of cards left in the deck; the
challenge on the table with its bets, each face-down card hidden until it is revealed
(its owner knows it); every card discarded from a challenge, face up.

`observation(player)` is that, as a dict; the kernel's `information_state(player)` adds the
history: every action as that player saw it (another's face-down card: only that one was
laid, `play p2`) and each chance event and reveal as the player saw it (chance.py's views).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..actions import CHANCE
from .registry import P

if TYPE_CHECKING:
    from .state import War


def observation(st: War, player: int) -> dict[str, Any]:
    """What `player` may see now (W19)."""
    names = st.rules.cards
    seats = P[: st.players]
    return {
        "game": st.game, "players": st.players, "turn": st.turn, "current": P[st.current],
        "wait": st.wait_name(), "deciding": P[st.ask] if st.ask >= 0 else "",
        "alive": [s for p, s in enumerate(seats) if st.alive[p]],
        "tokens": dict(zip(seats, st.tokens, strict=True)),
        "hand_sizes": {s: len(h) for s, h in zip(seats, st.hands, strict=True)},
        "hand": [names[k].name for k in st.hands[player]] if 0 <= player < st.players else [],
        "centre": st.centre, "out": st.out, "deck": st.deck_size(),
        "discard": {names[k].name: n for k, n in enumerate(st.discard) if n},
        "table": table(st, player),
        "deaths": [{"turn": t, "player": P[p], "cause": c, "killers": [P[k] for k in ks]}
                   for t, p, c, ks in st.deaths],
        "outcome": st.outcome, "reason": st.reason,
        "legal": [str(a) for a in legal_for(st, player)],
    }


def table(st: War, viewer: int) -> dict[str, Any] | None:
    """The challenge under way as `viewer` sees it: bets and stakes, each card face down
    (`?`) unless revealed or theirs (W19), the Wise Men added, the cards withdrawn."""
    f = st.fight
    if f is None:
        return None
    names = st.rules.cards

    def shown(p: int) -> str:
        k = f.card[p]
        if k < 0:
            return ""
        return names[k].name if f.revealed or p == viewer else "?"

    return {"kind": f.kind, "attacker": P[f.attacker],
            "defender": P[f.defender] if f.defender >= 0 else "",
            "bet": f.bet, "raise": f.raised,
            "stakes": {P[p]: f.stake[p] for p in f.seats},
            "cards": {P[p]: shown(p) for p in f.seats if f.card[p] >= 0},
            "added": {P[p]: [names[k].name for k in f.added[p]] for p in f.seats
                      if f.added[p]},
            "withdrawn": [P[p] for p in f.seats if f.out[p]], "revealed": f.revealed}


def legal_for(st: War, player: int) -> list[Any]:
    """The legal actions `player` may see: their own (another's list would name the cards
    in their hand), none at a chance node."""
    return [a for a in st.legal_actions() if a.player == player and a.player != CHANCE]


def start_view(st: War, player: int) -> tuple[Any, ...]:
    """What `player` knows of the game's start: the rules, the players, and of a set
    position its public entries and their own hand (never the seed)."""
    if not st.start:  # (the usual start, asked at every information state: made once)
        key = ("start-view", st.players, player)
        got = st.rules.cache.get(key)
        if got is None:
            got = st.rules.cache[key] = (st.rules.name, st.rules.variants, st.players, "{}",
                                         "null")
        assert isinstance(got, tuple)
        return got
    start = st.start
    pos = dict(start.get("position", {}))
    hands = pos.pop("hands", None)
    pos.pop("deck_top", None)
    own: Any = None
    if isinstance(hands, dict):
        own = hands.get(P[player]) if 0 <= player < len(P) else None
    elif isinstance(hands, list) and 0 <= player < len(hands):
        own = hands[player]
    return (st.rules.name, st.rules.variants, st.players, json.dumps(pos, sort_keys=True),
            json.dumps(own))


def _died(st: War) -> dict[int, tuple[int, str, tuple[int, ...]]]:
    """Each dead seat's (turn, cause, killers); one dead in a set position, before any turn
    was recorded, died at turn 0 of no recorded cause."""
    died = {p: (t, c, ks) for t, p, c, ks in st.deaths}
    for p in range(st.players):
        if not st.alive[p] and p not in died:
            died[p] = (0, "", ())
    return died


def standing(st: War) -> list[dict[str, Any]]:
    """Each seat's result (see `War.standing`)."""
    died = _died(st)
    order = sorted(range(st.players), key=lambda p: (p in died, -died[p][0] if p in died
                                                     else 0))
    places: dict[int, int] = {}
    for p in order:  # players who died in the same turn share a place
        same = [q for q in places if (q in died) == (p in died) and
                (p not in died or died[q][0] == died[p][0])]
        places[p] = places[same[0]] if same else len(places) + 1
    return [{"player": P[p], "place": places[p], "won": st.outcome == P[p],
             "turn": died[p][0] if p in died else None,
             "cause": died[p][1] if p in died else "",
             "killers": [P[k] for k in died[p][2]] if p in died else []}
            for p in range(st.players)]
