"""Whose decision a position's actions are, for the seats (core/seats.py): the verbs whose
owner is the named player, the actions' ids, and what is worked out for a set of legal
actions, kept once per rules and player count (the same choices come round again). Not run
in play.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any

from .actions import Action
from .registry import named_player
from .spaces import ActionSpace, Space, ids_of

if TYPE_CHECKING:
    from .machine import Machine


def ids(space: Space, actions: list[Action]) -> list[int]:
    """`ids_of(space, actions, "actions")`, each action its own key (a named tuple equal to
    its key, hashing alike: no key made a look-up); one the space lacks: its GameError."""
    out = [*map(space.ids.get, actions)]
    if None in out:
        return ids_of(space, actions, "actions")
    out.sort()
    return out  # type: ignore[return-value]  # (no None: checked above)


def owner(st: Machine, a: Action) -> int | None:
    """The player whose own decision `a` is (its verb's `owner`), or None: a joint one."""
    own = getattr(a.verb, "owner", None)
    return None if own is None else own(st, a)


VERB, PLAYER = itemgetter(0), itemgetter(1)  # an action's verb and player


def known_of(known: dict[Any, Any], key: tuple[Action, ...], named: frozenset[Any],
             space: Space, interned: dict[int, int], team: bool) -> tuple[int | None, Any]:
    """(the player whose own actions these are, if one player's, and their sorted ids,
    also made for the team seat), kept by the actions (seats.py `_work_out`); each id
    found by the identity of the space's own action object (`interned`, see `owners`),
    else by its value."""
    players = set(map(PLAYER, key))
    who = None
    if len(players) == 1 and named.issuperset(map(VERB, key)):
        (who,) = players
        if who < 0:  # (a player's own actions only: else the joint seat's)
            who = None
    if len(known) >= 1 << 14:  # (a bound on what is kept)
        known.clear()
    ids: tuple[int, ...] | None = None
    if team or who is not None:
        found = [*map(interned.get, map(id, key))]
        ids = tuple(ids_of(space, key, "actions") if None in found
                    else sorted(found))  # type: ignore[arg-type]  # (no None: checked)
    got = known[key] = (who, ids)
    return got


def owners(game: Machine, space: ActionSpace) -> tuple[Any, ...]:
    """The verbs whose owner is the named player, those whose owner reads no state (the
    named player or none), the positions' splits kept and the actions' owner and ids kept
    (seats.py `_work_out`), and each numbered action's id by the identity of the space's
    own action object (the registry's, which the rules give out; kept here, so no other
    object has its identity while it is looked up), and those objects, for the rules."""
    cache, key = game.derived(), ("seat-owners", game.num_players())
    got = cache.get(key)
    if got is None:
        own = {b.verb: getattr(b.verb, "owner", None) for b in space.decisions.blocks}
        acts = tuple(map(space.decisions.action, range(space.decisions.size)))
        got = cache[key] = (frozenset(v for v, o in own.items() if o is named_player),
                            frozenset(v for v, o in own.items() if o in (None, named_player)),
                            {}, {}, {id(a): i for i, a in enumerate(acts)}, acts)
    assert isinstance(got, tuple)
    return got
