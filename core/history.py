"""What a game's record tells (the machine's history of actions, its trail of chance events,
its event log): the events as text, replayed from the seed when the game did not record
them; the game played again from its start; and a player's information state. The
machine's methods of the same names call these (core/machine.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import CHANCE
from .errors import GameError

if TYPE_CHECKING:
    from .machine import Machine
    from .registry import Kind


def events(st: Machine) -> list[str]:
    """The event log as text lines (see `Machine.events`)."""
    log = st.log if st.logging else _replay_log(st)
    return [" ".join(str(x) for x in e) for e in log]


def replayed(st: Machine, log: bool = False) -> Machine:
    """The game played again from its start: every action and reseed at its place."""
    again = st.restart(log)
    seeds = sorted(st.reseeds)
    i = 0
    for n, a in enumerate(st.history):
        while i < len(seeds) and seeds[i][0] == n:
            again.reseed(seeds[i][1])
            i += 1
        again.apply(a)
    for _, seed in seeds[i:]:
        again.reseed(seed)
    return again


def _replay_log(st: Machine) -> list[tuple[Any, ...]]:
    again = st.replayed(log=True)
    if again.fingerprint() != st.fingerprint():
        raise GameError("this game did not record its events and was changed outside "
                        "its rules, so a replay cannot tell them: set it up with log=True")
    return again.log


def information_state(st: Machine, player: int) -> tuple[Any, ...]:
    """What `player` knows (see `Machine.information_state`)."""
    # a trail entry's `at` is the history's length when it happened: the same place
    # among the decisions whether chance was drawn or applied as outcomes (skipped here)
    views: list[Any] = []
    trail, j, verbs = st.trail, 0, st.registry.verbs
    for i, a in enumerate(st.history):
        while j < len(trail) and trail[j][0] <= i:
            views.append(view(st, trail[j], player))
            j += 1
        if a.player != CHANCE:
            seen = verbs[a.verb].seen  # what others learn of it (of a secret: less)
            views.append(str(a) if seen is None or a.player == player else seen(a, player))
    views += [view(st, e, player) for e in trail[j:]]
    return (st.game, st.start_view(player), player, tuple(views))


def view(st: Machine, event: tuple[int, Kind, int, Any], player: int) -> Any:
    """What `player` saw of a chance event of the trail (its kind's `view`)."""
    _, kind, who, value = event
    assert kind.view is not None
    return kind.view(st, who, value, player)


__all__ = ["events", "information_state", "replayed", "view"]
