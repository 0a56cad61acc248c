"""Numbers for actions: a stable mapping between a game's actions and integers, for a given
game, rules and player count, made once from the registry's declarations.

Every verb of the registry, in the order it was declared, takes a block of ids: one per
(player, argument) pair its notation can name, the player from the verb's player slot
(TEAM when it has none), the argument from its other slot (None when it has none), each in
the order of the slot's `values(state)`. A chance verb's outcomes are numbered apart, in
the same way, from 0 (`chance_id`), as OpenSpiel numbers chance outcomes. Nothing here runs
during play: `legal_actions` and `apply` never read it; an adapter asks for ids when it
needs them, and the space is made once per rules and player count (`Machine.derived`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from .actions import CHANCE, TEAM, Action
from .errors import GameError
from .registry import Registry, Slot, Verb

if TYPE_CHECKING:
    from .machine import Machine

Key = tuple[str, int, Any]  # (verb, player, argument): an action as the space keys it


class Block:
    """One verb's ids: `first` and on, player-major, `len(players) * len(args)` of them."""

    __slots__ = ("args", "first", "players", "verb")

    def __init__(self, verb: Verb, first: int, players: tuple[int, ...],
                 args: tuple[Any, ...]) -> None:
        self.verb, self.first, self.players, self.args = verb, first, players, args

    @property
    def size(self) -> int:
        return len(self.players) * len(self.args)

    def usage(self) -> str:
        return f"chance {self.verb.usage()}" if self.players == (CHANCE,) else self.verb.usage()


class Space:
    """A numbered set of actions (the decisions, or the chance outcomes)."""

    __slots__ = ("_acts", "blocks", "firsts", "ids", "registry", "size")

    def __init__(self, registry: Registry, blocks: list[Block]) -> None:
        self.registry, self.blocks = registry, tuple(blocks)
        self.firsts = [b.first for b in blocks]
        self.size = sum(b.size for b in blocks)
        self.ids: dict[Key, int] = {}
        self._acts: list[Action | None] = [None] * self.size  # `action`'s answers, kept
        for b in blocks:
            n = len(b.args)
            for i, p in enumerate(b.players):
                for j, x in enumerate(b.args):
                    self.ids[(str(b.verb), p, x)] = b.first + i * n + j

    def id(self, action: Action) -> int | None:
        """The action's id, or None when it is not in this space."""
        i = self.ids.get(action)  # (an action equals its key, and hashes alike: seats.py)
        if i is None:
            i = self.ids.get((str(action.verb), action.player, action.arg))
        return i

    def action(self, i: int) -> Action:
        """The action numbered `i` (0 <= i < size): the registry's interned one, found once
        (an adapter's step asks for one)."""
        a = self._acts[i]
        if a is None:
            b = self.blocks[bisect_right(self.firsts, i) - 1]
            k = i - b.first
            n = len(b.args)
            a = self._acts[i] = self.registry.act(b.verb, b.players[k // n], b.args[k % n])
        return a

    def table(self) -> list[tuple[int, int, str]]:
        """(first id, last id, notation) of each verb's block, for a reader."""
        return [(b.first, b.first + b.size - 1, b.usage()) for b in self.blocks if b.size]


class ActionSpace:
    """The numeric actions of one game, rules and player count: `decisions` (ids 0 to
    `size - 1`) and `chance` (its outcomes, numbered apart from 0)."""

    __slots__ = ("chance", "decisions")

    def __init__(self, st: Machine) -> None:
        reg = st.registry
        chance_verbs = {k.verb for k in reg.kinds.values() if k.verb is not None}
        blocks: dict[bool, list[Block]] = {False: [], True: []}
        first = {False: 0, True: 0}
        for verb in reg.verbs.values():
            is_chance = verb in chance_verbs
            players, args = _domains(st, verb, CHANCE if is_chance else TEAM)
            b = Block(verb, first[is_chance], players, args)
            blocks[is_chance].append(b)
            first[is_chance] += b.size
        self.decisions = Space(reg, blocks[False])
        self.chance = Space(reg, blocks[True])

    @property
    def size(self) -> int:
        return self.decisions.size


def _domains(st: Machine, verb: Verb, nobody: int) -> tuple[tuple[int, ...], tuple[Any, ...]]:
    """A verb's players (`nobody` when its notation names none) and arguments (None when it
    takes none), from its slots' declared values."""
    players: tuple[int, ...] = (nobody,)
    args: tuple[Any, ...] = (None,)
    for slot in verb.shape:
        values = _values(st, verb, slot)
        if slot.sets_player:
            players = (nobody, *values) if slot.optional else values
        else:
            args = (None, *values) if slot.optional else values
    return players, args


def _values(st: Machine, verb: Verb, slot: Slot) -> tuple[Any, ...]:
    if slot.values is None:
        raise GameError(f"the {st.game} game's verb {verb!r} names a {slot.name} whose values "
                        "are not declared (Slot(values=...)), so it has no numeric actions")
    return tuple(slot.values(st))


SPACE_KEY: Final = "action-space"


def action_space(st: Machine) -> ActionSpace:
    """The game's numeric actions, made once per rules and player count."""
    key = (SPACE_KEY, st.num_players())
    cache = st.derived()
    space = cache.get(key)
    if space is None:
        space = cache[key] = ActionSpace(st)
    assert isinstance(space, ActionSpace)
    return space


def ids_of(space: Space, actions: Sequence[Action], what: str) -> list[int]:
    """The ids of `actions`, sorted; GameError naming an action the space lacks."""
    out = []
    for a in actions:
        i = space.id(a)
        if i is None:
            raise GameError(f"{a}: not in the game's numbered {what} (its verb's slots do not "
                            "declare this value)")
        out.append(i)
    out.sort()
    return out
