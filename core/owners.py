"""Whose decision a position's actions are, for the seats (core/seats.py): the verbs whose
owner is the named player, each numbered action's owner where its verb's owner reads no
state, the actions' ids, and what is worked out for a set of legal actions (whose own they
are, their ids, a joint decision's splits), kept once per rules and player count (the same
choices come round again). Not run in play.
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final

from .actions import Action
from .hooks import GameHooks
from .registry import named_player
from .spaces import ActionSpace, Space, ids_of

if TYPE_CHECKING:
    from .machine import Machine

JOINT: Final = -1  # `own_of`: an action the team decides together (the joint seat's)
READS: Final = -2  # `own_of`: an action whose owner reads the state (worked out each time)


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


Known = tuple[int | None, tuple[int, ...], dict[Any, Any] | None, tuple[int, ...]]


def known_of(known: dict[Any, Any], key: tuple[Action, ...], owners: tuple[Any, ...],
             space: Space) -> Known:
    """What the seats keep for a position's actions (seats.py `_work_out`): (the player
    whose own actions they are, if one player's; their sorted ids; a dict for the splits of
    a joint decision among its owners, by the delegation (and the joint seat), or None
    when an owner reads the state: split each time; each id's owner, `owners`' [1]). The
    ids found in one call by the actions (`owners`' [4]: the very objects the rules give
    out, found without comparing them; another equal action by its value)."""
    ids = owners[4]
    try:
        made = sorted(itemgetter(*key)(ids)) if len(key) > 1 else [ids[a] for a in key]
    except KeyError:  # (an action the space lacks: its GameError)
        made = ids_of(space, key, "actions")
    own = itemgetter(*made)(owners[1]) if len(made) > 1 else \
        tuple([owners[1][i] for i in made])
    who = own[0] if own else -1  # (one player's own actions: the others' seats have none)
    if who < 0 or own.count(who) != len(own):
        who = None
    if len(known) >= 1 << 14:  # (a bound on what is kept)
        known.clear()
    got: Known = (who, tuple(made), None if READS in own else {}, own)
    known[key] = got
    return got


def split_of(made: tuple[int, ...], own: tuple[int, ...], turn: int | None, lead: int,
             size: int) -> tuple[int, tuple[int, ...]]:
    """(seat to act, its sorted ids) among the sorted ids `made` of several owners, each
    id's owner (`own`, in the same order) known without the state: after a delegation to
    `turn`, that player's own ids; else the joint seat `lead`'s: the joint ids and its
    own, then a delegation (`size` + q) to each other player q with own actions."""
    if turn is not None:  # (each id kept or not by its owner's look-up: one call)
        return turn, tuple(compress(made, map({turn: True}.get, own)))
    others = set(own)
    others.discard(JOINT)
    others.discard(lead)
    if not others:  # (all the joint seat's own or joint: every id)
        return lead, made
    mine = [*compress(made, map({JOINT: True, lead: True}.get, own))]
    for q in sorted(others):  # (after the numbered ids: still sorted)
        mine.append(size + q)
    return lead, tuple(mine)


def split_reading(st: Machine, legal: list[Action], turn: int | None, lead: int,
                  named: frozenset[Any], space: Space) -> tuple[int, tuple[int, ...]]:
    """`split_of` for legal actions some of whose owners read the state (`st`'s): each
    action's owner asked, action by action (`named`: the verbs a named player owns); one
    player's own actions alone are that player's to take, as `known_of` finds them."""
    joint: list[Action] = []
    own: dict[int, list[Action]] = {}
    for a in legal:
        who = (a.player if a.player >= 0 else None) if a.verb in named else owner(st, a)
        if who is None:
            joint.append(a)
        else:
            own.setdefault(who, []).append(a)
    if turn is not None:
        return turn, tuple(ids(space, own.get(turn, [])))
    if not joint and len(own) == 1:
        lead = next(iter(own))
    made = ids(space, joint + own.get(lead, []))
    made += [space.size + q for q in sorted(own) if q != lead]
    return lead, tuple(sorted(made))


def owners(game: Machine, space: ActionSpace) -> tuple[Any, ...]:
    """The rules' owners table (seats.py reads it by constant index): [0] the verbs whose
    owner is the named player; [1] each numbered action's owner when its verb's owner
    reads no state (the player it names, for a verb that is the named player's; else
    JOINT), READS when it does; [2] the joint seat when the game's class keeps the hooks'
    (which reads no state: asked once), else None (asked each time); [3] what is kept for the
    legal actions (`known_of`); [4] each numbered action's id, keyed by the space's own
    action object (the registry's, which the rules give out: a look-up with it finds its
    key by identity, with no comparison; any equal action finds it by value); [5] those
    objects."""
    cache, key = game.derived(), ("seat-owners", game.num_players())
    got = cache.get(key)
    if got is None:
        own: dict[str, Any] = {b.verb: getattr(b.verb, "owner", None)
                               for b in space.decisions.blocks}
        named = frozenset(v for v, o in own.items() if o is named_player)
        acts = tuple(map(space.decisions.action, range(space.decisions.size)))
        own_of = tuple(READS if own[a.verb] not in (None, named_player) else
                       a.player if a.verb in named and a.player >= 0 else JOINT
                       for a in acts)
        lead = game.joint_seat() if type(game).joint_seat is GameHooks.joint_seat else None
        got = cache[key] = (named, own_of, lead, {}, {a: i for i, a in enumerate(acts)},
                            acts)
    assert isinstance(got, tuple)
    return got
