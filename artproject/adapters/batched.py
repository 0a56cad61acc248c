"""Many games of Art of War stepped in one call, numpy arrays in and out, for learners that
collect experience from a batch of games at once (docs/ai.md, "A batched environment").

    from artproject.adapters.batched import BatchedWar

    env = BatchedWar(256, players=2, seed=0)
    obs, mask, seat = env.reset()
    while training:
        actions = choose(obs, mask)            # one legal id a game: mask[i, actions[i]] == 1
        obs, mask, seat, rewards, dones = env.step(actions)

Each row is one game, seen by the seat to act (`seat[i]`; every decision of Art of War is
one player's own, so the seat to act is the player deciding, W4-W9). Its observation is
the same as the single-game adapters' (`Seated.tensor(seat, "observation")`: the game's
observation tensor for that player, then the seat's own segments, docs/ai.md's table),
its mask is the legal ids (the same numbering as the adapters, `mask`). `step` takes an id
a game and returns, for every game, the next observation, mask and seat, the step's
rewards (each seat's return where the game ended: +1 the winner, -1 the others; 0 while it
goes on) and whether it ended. A game that ends is reset at once (with the next seed of
its own sequence): the observation returned for it is the new game's first, `dones[i]`
and `rewards[i]` tell the end (same-step auto-reset; `last_returns` keeps the ended games'
returns, `episodes` counts them). Chance is sampled (each game's own seeded generator):
a card drawn is no decision.

The games use the engine itself (no copy of its rules): `apply` and `legal_actions` per
game, new games from the rules loaded once. The rows are written a field at a time for the
whole batch (`_Plan`: each field of every game read by one C-level `map`, then a few numpy
calls; a discard pile converted only when it changed), the same numbers as the tensors'
writers (tests/test_batched.py compares them byte for byte), which write the rows instead
if the game's layout ever differs from the one the plan knows. An illegal id raises
`IllegalActionError` naming the game and leaves every game as it was before the call.
"""

from __future__ import annotations

from itertools import chain, compress, repeat
from operator import attrgetter, getitem, is_not, methodcaller, ne
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..core.actions import Action
from ..core.errors import GameError, IllegalActionError
from ..core.games import game_class
from ..core.seats import PLAYER_SEATS, Seated
from ..core.spaces import action_space
from ..core.tensors import Layout, layout

GAME = "art-of-war"


class BatchedWar:
    """`n` games of Art of War (see the module's text). `players` 2-7, `rules` a rules file
    or shipped name (default `art-of-war`), `seed`: game i is dealt from seed
    `seed + i`, its later games from `seed + i + k * n`."""

    def __init__(self, n: int = 256, players: int = 2, rules: str | None = None,
                 seed: int = 0) -> None:
        if n < 1:
            raise GameError(f"a batch holds 1 game or more, not {n}")
        self.n, self.players, self.seed = n, players, seed
        self._cls = game_class(GAME)
        options: dict[str, Any] = {"players": players}
        if rules is not None:
            options["rules"] = rules
        probe = self._cls.create(seed=seed, chance="sample", **options)
        # new games from the rules loaded once (auto-reset reads no file, makes no rules)
        self._options: dict[str, Any] = {"players": players, "rules": probe.rules}
        space = action_space(probe).decisions
        # the adapters' numbering: the game's actions, then a delegation to each player
        # (`turn pN`, never legal in Art of War: every decision is one player's own)
        self.num_actions = Seated(probe, PLAYER_SEATS).num_distinct_actions()
        self._acts: list[Action] = [space.action(i) for i in range(space.size)]
        self._ids: dict[Action, int] = {a: i for i, a in enumerate(self._acts)}
        self._layout = layout(probe, "observation")
        self.obs_size = self._layout.size + 2 * players  # the seat's own: seat, turn
        self._plan = _plan(probe, self._layout, self.obs_size + 1, self.num_actions, self._ids)
        self.games: list[Any] = []
        self.next_seed: list[int] = []
        self.episodes = 0
        self.last_returns = np.zeros((n, players), dtype=np.float32)
        self._wide = np.zeros((n, self.obs_size + 1), dtype=np.float32)  # a scratch column
        self._mask = np.zeros((n, self.num_actions), dtype=np.int8)
        self._seat = np.zeros(n, dtype=np.int64)
        self._rows = np.arange(n)

    def _new(self, seed: int) -> Any:
        return self._cls.create(seed=seed, chance="sample", **self._options)

    # ---------------------------------------------------------------- the batch
    def reset(self, seed: int | None = None,
              ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """New games (game i from seed `seed + i`): (observations, masks, seats)."""
        if seed is not None:
            self.seed = seed
        self.games = [self._new(self.seed + i) for i in range(self.n)]
        self.next_seed = [self.seed + i + self.n for i in range(self.n)]
        self.episodes = 0
        self.last_returns[:] = 0.0
        self._run(None, None)
        return self._wide[:, :-1].copy(), self._mask.copy(), self._seat.copy()

    def step(self, actions: Any) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8],
                                          npt.NDArray[np.int64], npt.NDArray[np.float32],
                                          npt.NDArray[np.bool_]]:
        """Take `actions[i]` (an id) in game i, every game: (observations, masks, seats,
        rewards (n, players), dones (n,)); ended games reset at once (the module's text)."""
        ids = np.asarray(actions).reshape(-1)
        if ids.shape[0] != self.n:
            raise GameError(f"step takes one action a game: {self.n}, not {ids.shape[0]}")
        if not np.issubdtype(ids.dtype, np.integer):
            raise IllegalActionError(f"step takes action ids (whole numbers), not {ids.dtype}")
        inside = (ids >= 0) & (ids < self.num_actions)
        ok = inside & (self._mask[self._rows, np.where(inside, ids, 0)] == 1)
        if not ok.all():  # all checked first: nothing changes on a bad id
            i = int(np.flatnonzero(~ok)[0])
            raise IllegalActionError(f"game {i}: action {int(ids[i])} is not legal now "
                                     f"(legal: {np.flatnonzero(self._mask[i]).tolist()})")
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        dones = np.zeros(self.n, dtype=np.bool_)
        self._run(ids.tolist(), (rewards, dones))
        if dones.any():
            self.last_returns[dones] = rewards[dones]
        return (self._wide[:, :-1].copy(), self._mask.copy(), self._seat.copy(), rewards,
                dones)

    def _run(self, todo: list[int] | None,
             out: tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]] | None) -> None:
        """Each game takes its action (`todo`; None: none, a reset), an ended game is
        replaced, then every row, mask and seat is written (`_Plan.fill`)."""
        games = self.games
        if todo is not None:
            assert out is not None
            for _ in map(self._cls.apply, games, map(self._acts.__getitem__, todo)):
                pass
            for i in compress(range(self.n), map(is_not, map(_OUTCOME, games), repeat(None))):
                out[0][i] = games[i].returns()
                out[1][i] = True
                self.episodes += 1
                games[i] = self._new(self.next_seed[i])
                self.next_seed[i] += self.n
        if self._plan is not None:
            self._plan.fill(games, self._wide, self._mask, self._seat)
            return
        self._mask.fill(0)
        for i, g in enumerate(games):
            seat = g.ask  # whose decision it is: always a player's own (W4-W9)
            if seat < 0:
                seat = g.current_player()
            self._wide[i, :-1] = self._slow_row(g, seat)
            self._mask[i, [self._ids[a] for a in g.legal_actions()]] = 1
            self._seat[i] = seat

    def _slow_row(self, g: Any, seat: int) -> list[float]:
        """The observation as the adapters write it: the layout's segments, then the seat's
        own (its one-hot; no decision is ever delegated in Art of War: `turn` stays 0)."""
        own = [0.0] * (2 * self.players)
        own[seat] = 1.0
        return self._layout.tensor(g, seat) + own


class _Plan:
    """Where each number of a row goes (Art of War's observation layout, as the tensors'
    writers in core/aow/ai.py lay it out), and the batch's rows written at once: each of a
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
_OUTCOME: Final = attrgetter("outcome")
_FIGHT_KINDS: Final = {name: i for i, name in enumerate(("duel", "collective", "blind"))}
_FIGHT: Final = attrgetter("kind", "attacker", "defender", "bet", "raised", "revealed",
                           "stake", "seats", "out", "card", "added")


def _counted(starts: npt.NDArray[np.int64], values: Any, size: int) -> npt.NDArray[np.int64]:
    """How many times each of `size` places is named (`starts[j] + values[j]`)."""
    return np.bincount(starts + np.fromiter(values, np.int64, len(starts)), minlength=size)


def _plan(probe: Any, lay: Layout, width: int, acts: int,
          ids: dict[Action, int]) -> _Plan | None:
    """The plan of the layout it knows (Art of War's observation: its segments in this
    order and shape), or None (rows then made by the layout itself, `_slow_row`)."""
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
    return _Plan(probe, lay, width, acts, ids)


def _decision_names() -> tuple[str, ...]:
    from ..core.aow.ai import decisions

    return decisions()


__all__ = ["BatchedWar"]
