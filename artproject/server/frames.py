"""The one function that makes what a connection is sent of a game (docs/server.md,
"Security model"): nothing else in the server reads a game to tell a client.

A frame is built from the kernel's hooks for one seat (NOBODY: a spectator): the game's
`view` (made from that seat's `observation`), the seat's own legal actions (`seat_actions`,
read from the same observation) and the events as the seat saw them (`seen_events`, its
`information_state`). The seed, the deck, another seat's hand or token never pass here.
"""

from __future__ import annotations

from typing import Any

from ..core.hooks import NOBODY
from ..core.machine import Machine

# A connection's place in its seat's events: how many it has been sent, and the actions and
# chance events read to make them (`seen_events`' place).
Seen = tuple[int, int, int]


def frame(game: Machine, seat: int, seen: Seen) -> tuple[dict[str, Any], Seen]:
    """What `seat` (NOBODY: a spectator) is shown of `game` now, with the events after the
    place `seen` ((0, 0, 0): all of them); and the place after them (the next frame's)."""
    count, actions, chances = seen
    events, (actions, chances) = game.seen_events(seat, (actions, chances))
    legal = [game.action_view(a) for a in game.seat_actions(seat)] if seat != NOBODY else []
    return {"version": len(game.history), "view": game.view(seat), "legal": legal,
            "events": events, "events_from": count}, (count + len(events), actions, chances)
