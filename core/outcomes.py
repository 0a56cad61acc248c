"""A chance node's outcomes numbered, for the seats (core/seats.py): (id, probability) of
each, by id, and each id's action. A node asks the game only for its probabilities (its
kind's `outcomes`); the ids and actions are kept, each outcome value's by the chance space
and kind (the values come round), and each list of values' (lists come round too, in some
games; in others, where a node lists what is left of a shrinking set, seldom). Not run in
play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Action

if TYPE_CHECKING:
    from .machine import Machine
    from .spaces import Space

Listed = tuple[list[tuple[int, int]], dict[int, Action], bool]

_VALUES: dict[tuple[Any, ...], dict[Any, tuple[int | None, Action]]] = {}
_LISTS: dict[tuple[Any, ...], Listed] = {}


def numbered(game: Machine, space: Space) -> tuple[list[tuple[int, float]], dict[int, Action]]:
    """At the game's chance node, (id, probability) of each outcome the chance `space`
    numbers (a game's: all), by id, and each id's action (its `chance_outcomes()`'s);
    GameError, the game's, at no chance node."""
    w = game.wait
    outs = w.outcomes(game) if w is not None and w.outcomes is not None else \
        game.chance_outcomes()  # (no chance node: the game says why)
    key = (space, w, tuple([v for v, _ in outs]))
    kept = _LISTS.get(key)  # (the values hash: they name the actions)
    if kept is None:
        kept = _listed(key, game)
    order, actions, tied = kept
    out = [(i, outs[j][1]) for i, j in order]
    if tied:  # (two outcomes of one id: by probability too)
        out.sort()
    return out, actions


def _listed(key: tuple[Any, ...], game: Machine) -> Listed:
    """The outcomes' (id, place) by id, those the space numbers, each id's action, and
    whether two share an id, for `key` (the space, the kind, the outcomes' values), made
    from each value's (kept) and kept."""
    space, kind, values = key
    one = _VALUES.get((space, kind))
    if one is None:
        if len(_VALUES) >= 1 << 8:  # (a bound on what is kept: rules made again and again)
            _VALUES.clear()
        one = _VALUES[(space, kind)] = {}
    if not one.keys() >= set(values):  # (the game's actions: each value's id and action kept)
        one.update(zip(values, [(space.id(a), a) for a, _ in game.chance_outcomes()],
                       strict=True))
    got = [one[v] for v in values]
    order = sorted((i, j) for j, (i, _) in enumerate(got) if i is not None)
    ids = {i: got[j][1] for i, j in order}
    kept = (order, ids, len(ids) < len(order))
    if len(_LISTS) >= 1 << 10:  # (a bound on what is kept)
        _LISTS.clear()
    _LISTS[key] = kept
    return kept
