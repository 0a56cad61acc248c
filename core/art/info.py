"""What a player may know (the information rules).

The rulebook: during the mission phase players may describe their cards but "may not show
their face side. You may, however, show the back side with the clues printed on it." So a
hand's faces are its owner's alone and its backs (the clue symbols) everyone's. The deck's
order is unknown to all, and so are the solo mode's cards set aside. Everything else is on
the table: board, van, track, tokens, the clue chains (played cards, face known), battles.
Where the rulebook is silent, our ruling: the discard pile is face up (cards discarded from
hands at the end of the mission phase are seen by all).

The state's table of fields (state.py) marks each field public, private or hidden; the
observation shows the public entries, the player's own hand, and of each other hand only
its size and its backs in a canonical order (sorted: never the order of card ids, which
would tell the cards apart). The information state (the kernel's, machine.py) adds the
history: every action, and each chance event as the player saw it (chance.py's views).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..actions import CHANCE
from ..fields import PUBLIC, SKIP

if TYPE_CHECKING:
    from .state import State


def backs(st: State, hand: list[int]) -> list[list[str]]:
    """The backs of a hand's cards (their clue symbols), in a canonical order."""
    sym = st.rules.symbols
    return sorted([sym[s] for s in st.tab.clues[c]] for c in hand)


def observation(st: State, player: int) -> dict[str, Any]:
    """What `player` may see: every public fact, their own hand, others' backs only."""
    out: dict[str, Any] = {"round": st.round, "phase": st.phase, "wait": st.wait_name()}
    for e in st.ENTRIES:
        if e.info == PUBLIC:
            v = e.write(st)
            if v is not SKIP:
                out[e.key] = v
    b = st.battle
    out.update({
        "threat": st.threat(), "ally_cost": st.ally_cost(), "deck": st.deck_size(),
        "set_aside": len(st.removed),
        "hand": list(st.hands[player]) if 0 <= player < st.players else [],
        "hand_sizes": {f"p{i + 1}": len(h) for i, h in enumerate(st.hands) if i != player},
        "hand_backs": {f"p{i + 1}": backs(st, h) for i, h in enumerate(st.hands)
                       if i != player},
        "battle": None if b is None else {
            "city": st.city_name(b.city), "leader": f"p{b.leader + 1}",
            "dice": dict(zip(b.labels, b.dice, strict=True)),
            "strength": st.strength(), "agents": st.agent_strength(b.city)},
        "outcome": st.outcome, "reason": st.reason,
        "legal": [str(a) for a in legal_for(st, player)],
    })
    return out


def legal_for(st: State, player: int) -> list[Any]:
    """The legal actions `player` may see: none at a chance node (its outcomes would list the
    deck), and no other player's private action (another's `play` names their cards)."""
    out = []
    for a in st.legal_actions():
        if a.player == CHANCE:
            return []
        if a.player != player and getattr(a.verb, "private", False):
            continue
        out.append(a)
    return out


def start_view(st: State, player: int) -> tuple[Any, ...]:
    """What `player` knows of the game's start: the rules, the team, the difficulty, and of
    a set position its public entries and the player's own hand (never the seed)."""
    start = st.start or {}
    pos = start.get("position", {})
    public = {e.key: pos[e.key] for e in st.ENTRIES if e.info == PUBLIC and e.key in pos}
    hands = pos.get("hands")
    own: Any = None
    if isinstance(hands, dict):
        own = hands.get(f"p{player + 1}")
    elif isinstance(hands, list) and 0 <= player < len(hands):
        own = hands[player]
    rules = st.rules
    return (rules.name, rules.variants, st.players, st.difficulty, start.get("phase"),
            json.dumps(public, sort_keys=True), json.dumps(own))
