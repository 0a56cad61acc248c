"""Art of War's rows for the batched environment (artproject/adapters/batched.py,
docs/ai.md "A batched environment"): the whole batch's observations, masks and seats
written a field at a time (`Plan.fill`: each field of every game read by one C-level `map`,
then a few numpy calls; a discard pile converted only when it changed), the same numbers as
the tensors' writers (ai.py; tests/test_batched.py compares them byte for byte). The game's
tools give `batch_writer` (tools.py); every decision of Art of War is one
player's own (W4-W9), so the batched environment steps its games directly. Needs numpy
(the `ai` extra): imported only by the batched environment.
"""

from __future__ import annotations

from itertools import chain, compress, repeat
from operator import attrgetter, getitem, is_not, methodcaller, ne
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..tensors import Layout


class Plan:
    """Where each number of a row goes (Art of War's observation layout, as the tensors'
    writers in ai.py lay it out), and the batch's rows written at once: each of a
    state's fields read from every game by one C-level `map` (no Python loop over the games
    but for the challenges under way), then written by a few numpy calls. The same numbers
    as the writers give, checked by tests/test_batched.py against the layout's own tensor;
    each number is an int, a flag or a 0/1 cast to float32 as numpy's conversion does."""

    def __init__(self, probe: Any, lay: Layout, width: int, acts: int,
                 ids: dict[Action, int]) -> None:
        n, k = probe.players, len(probe.rules.cards)
        at = dict(zip((s.name for s in lay.segments), lay.offsets, strict=True))
        self.n, self.k, self.width, self.acts, self.at = n, k, width, acts, at
        self.id_of = ids.__getitem__
        # the actions' ids by the action objects' own (the tables intern every action: a
        # legal action is one of these objects), sorted for numpy's search
        by_object = sorted((id(a), i) for a, i in ids.items())
        self._objects = np.array([o for o, _ in by_object], dtype=np.uint64)
        self._object_ids = np.array([i for _, i in by_object], dtype=np.int64)
        self._kept = list(ids)  # (the objects stay alive: their ids stay theirs)
        # a decision kind's column (a kind that is no decision: the scratch column, `width`)
        self.kinds = {name: at["decision"] + i for i, name in enumerate(_decision_names())}
        self.waits: dict[int, int] = {id(None): width - 1}  # by the kind object's id
        self._kinds_seen: list[Any] = []  # the kind objects in `waits` (their ids stay theirs)
        self.piles: list[Any] = []  # each row's discard pile as last written

    def fill(self, games: list[Any], obs: npt.NDArray[np.float32],
             mask: npt.NDArray[np.int8], seat_out: npt.NDArray[np.int64]) -> None:
        """Every game's row (for its seat to act), mask and seat, written in place; `obs`
        has one scratch column more than a row (where nothing's ones go). Only the rows
        whose discard pile changed are converted again (the rest of a row is written anew)."""
        n, k, at, width = self.n, self.k, self.at, obs.shape[1]
        rows = len(games)
        (waits, current, ask, turn, centre, out, alive, tokens, hands, discard, deck, top,
         fight) = zip(*map(_FIELDS, games), strict=True)
        d = at["discard"]
        obs[:, :d] = 0.0
        obs[:, d + k:] = 0.0
        self._discard(obs[:, d:d + k], discard)
        ix = np.arange(rows, dtype=np.int64)
        flat = obs.reshape(-1)
        base = ix * width
        scratch = width - 1
        cols = np.fromiter(map(self.waits.get, map(id, waits), repeat(-1)), np.int64, rows)
        if (cols < 0).any():  # a kind object not seen yet (say, unpickled): found by its name
            cols = np.asarray([self._wait_col(w, scratch) for w in waits], dtype=np.int64)
        flat[base + cols] = 1.0
        cur = np.fromiter(current, np.int64, rows)
        asked = np.fromiter(ask, np.int64, rows)
        seat = asked.copy()
        undecided = np.flatnonzero(asked < 0)  # the turn's decisions: the player's own
        if len(undecided):
            seat[undecided] = np.fromiter(
                map(methodcaller("current_player"), [games[i] for i in undecided]),
                np.int64, len(undecided))
        whose = at["whose"]
        flat[base + np.where(cur >= 0, whose + cur, scratch)] = 1.0
        flat[base + np.where(asked >= 0, whose + n + asked, scratch)] = 1.0
        flat[base + whose + 2 * n + seat] = 1.0
        flat[base + (width - 1 - 2 * n) + seat] = 1.0  # the seat's own one-hot
        c = at["counts"]
        counts = np.fromiter(chain(turn, centre, out, map(sum, deck), map(len, top)),
                             np.int64, 5 * rows).reshape(5, rows)
        counts[3] += counts[4]  # the deck's size (chance.deck_size): its cards, those on top
        obs[:, c:c + 4] = counts[:4].T
        both = np.fromiter(chain.from_iterable(chain(alive, tokens)), np.int64,
                           2 * rows * n).reshape(2, rows, n)
        obs[:, at["dead"]:at["dead"] + n] = both[0] == 0  # (0 dead, 1 alive)
        obs[:, at["tokens"]:at["tokens"] + n] = both[1]
        obs[:, at["hand_sizes"]:at["hand_sizes"] + n] = np.fromiter(
            map(len, chain.from_iterable(hands)), np.int64, rows * n).reshape(rows, n)
        own = list(map(getitem, hands, seat.tolist()))
        obs[:, at["hand"]:at["hand"] + k] = _counted(
            np.repeat(ix * k, list(map(len, own))), chain.from_iterable(own), rows * k
        ).reshape(rows, k)
        fought = list(compress(range(rows), map(is_not, fight, repeat(None))))
        if fought:
            self._fights([fight[i] for i in fought], np.asarray(fought, dtype=np.int64),
                         seat, obs, width)
        legal = list(map(methodcaller("legal_actions"), games))
        mask.fill(0)
        mask.reshape(-1)[np.repeat(ix * self.acts, list(map(len, legal)))
                         + self._action_ids(legal)] = 1
        seat_out[:] = seat

    def _action_ids(self, legal: list[list[Action]]) -> npt.NDArray[np.int64]:
        """The legal actions' ids, game after game: found by each action object's identity
        (numpy's search among the interned actions), or by the action itself where one is
        not an interned object (a game unpickled, say)."""
        objects = np.fromiter(map(id, chain.from_iterable(legal)), np.uint64)
        at = np.minimum(np.searchsorted(self._objects, objects), len(self._objects) - 1)
        if (self._objects[at] == objects).all():
            return self._object_ids[at]
        return np.fromiter(map(self.id_of, chain.from_iterable(legal)), np.int64)

    def _wait_col(self, w: Any, scratch: int) -> int:
        if w is None or w.name not in self.kinds:
            return scratch
        self.waits[id(w)] = self.kinds[w.name]  # (kept alive by `_kinds_seen`)
        self._kinds_seen.append(w)
        return self.kinds[w.name]

    def _discard(self, part: npt.NDArray[np.float32], piles: tuple[list[int], ...]) -> None:
        """The discard piles into their columns, only those that changed since the last
        call (each compared with a copy kept of it)."""
        seen = self.piles
        if len(seen) != len(piles):
            seen = self.piles = [None] * len(piles)
        changed = list(compress(range(len(piles)), map(ne, piles, seen)))
        if changed:
            part[changed] = np.array([piles[i] for i in changed], dtype=np.int64)
            for i in changed:
                seen[i] = piles[i].copy()

    def _fights(self, fs: list[Any], rows: npt.NDArray[np.int64],
                seat: npt.NDArray[np.int64], obs: npt.NDArray[np.float32],
                width: int) -> None:
        """The challenges' segments (`rows`: their games), each built as a block of its own
        (one column more: where nothing's ones go) and written at once."""
        n, k, m = self.n, self.k, len(fs)
        ch, table = self.at["challenge"], self.at["table"]
        kind, attacker, defender, bet, raised, revealed, stake, seats, out, card, added = (
            zip(*map(_FIGHT, fs), strict=True))
        size = 6 + 6 * n
        block = np.zeros((m, size + 1), dtype=np.float32)
        ar = np.arange(m, dtype=np.int64)
        flat = block.reshape(-1)
        starts = ar * (size + 1)
        who = np.fromiter(chain(attacker, defender), np.int64, 2 * m).reshape(2, m)
        flat[np.concatenate((
            starts + np.fromiter(map(_FIGHT_KINDS.__getitem__, kind), np.int64, m),
            starts + np.where(who[0] >= 0, 3 + who[0], size),
            starts + np.where(who[1] >= 0, 3 + n + who[1], size)))] = 1.0
        a = 3 + 2 * n
        shown = np.fromiter(revealed, np.bool_, m)
        block[:, a] = bet
        block[:, a + 1] = raised
        block[:, a + 2] = shown
        grids = np.fromiter(chain.from_iterable(chain(stake, out, card)), np.int64,
                            3 * m * n).reshape(3, m, n)
        block[:, a + 3:a + 3 + n] = grids[0]
        flat[np.repeat(starts + a + 3 + n, list(map(len, seats)))
             + np.fromiter(chain.from_iterable(seats), np.int64)] = 1.0
        block[:, a + 3 + 2 * n:a + 3 + 3 * n] = grids[1]
        laid = grids[2] >= 0
        block[:, a + 3 + 3 * n:a + 3 + 4 * n] = laid
        obs[rows, ch:ch + size] = block[:, :size]
        players = np.arange(n, dtype=np.int64)
        seen = laid & (shown[:, None] | (players[None, :] == seat[rows][:, None]))
        r, p = np.nonzero(seen)
        obs.reshape(-1)[rows[r] * width + table + p * k + grids[2][r, p]] = 1.0
        each = list(chain.from_iterable(added))  # (fight, player): the Wise Men added
        if any(each):  # (few: counted where they are, the rest of the segment stays 0)
            pair = np.repeat(np.arange(m * n, dtype=np.int64), list(map(len, each)))
            np.add.at(obs.reshape(-1), rows[pair // n] * width + table + n * k
                      + (pair % n) * k + np.fromiter(chain.from_iterable(each), np.int64,
                                                     len(pair)), 1.0)


# a state's fields the rows are made of, and a challenge's, each read by one C call a game
_FIELDS: Final = attrgetter("wait", "current", "ask", "turn", "centre", "out", "alive",
                            "tokens", "hands", "discard", "deck", "deck_top", "fight")
_FIGHT_KINDS: Final = {name: i for i, name in enumerate(("duel", "collective", "blind"))}
_FIGHT: Final = attrgetter("kind", "attacker", "defender", "bet", "raised", "revealed",
                           "stake", "seats", "out", "card", "added")


def _counted(starts: npt.NDArray[np.int64], values: Any, size: int) -> npt.NDArray[np.int64]:
    """How many times each of `size` places is named (`starts[j] + values[j]`)."""
    return np.bincount(starts + np.fromiter(values, np.int64, len(starts)), minlength=size)


def batch_writer(probe: Any, lay: Layout, width: int, acts: int,
                 ids: dict[Action, int]) -> Plan | None:
    """The writer of a batch's rows for the layout it knows (Art of War's observation: its
    segments in this order and shape), or None (the batched environment then writes each
    row from the game's own tensor). `width`: a row's numbers (the layout's, the seat's
    own one-hots) and one scratch column; `acts`: the adapters' number of ids; `ids`: each
    action's id."""
    n, k = probe.players, len(probe.rules.cards)
    known = (("decision", None), ("whose", (3, n)), ("counts", (4,)), ("dead", (n,)),
             ("tokens", (n,)), ("hand", (k,)), ("hand_sizes", (n,)), ("discard", (k,)),
             ("challenge", (6 + 6 * n,)), ("table", (2, n, k)))
    segs = lay.segments
    if len(segs) != len(known) or any(
            s.name != name or (shape is not None and s.shape != shape)
            for s, (name, shape) in zip(segs, known, strict=True)):
        return None
    if segs[0].size != len(_decision_names()) or width != lay.size + 2 * n + 1:
        return None
    return Plan(probe, lay, width, acts, ids)


def _decision_names() -> tuple[str, ...]:
    from .ai import decisions

    return decisions()


__all__ = ["Plan", "batch_writer"]
