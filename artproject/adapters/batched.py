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

The games use the engine itself (no copy of its rules): `legal_actions` and `apply` per
game, the tensors' layout made once; only the gathering is in numpy. An illegal id raises
`IllegalActionError` naming the game and leaves every game as it was before the call.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.actions import Action
from ..core.errors import GameError, IllegalActionError
from ..core.games import game_class
from ..core.seats import PLAYER_SEATS, Seated
from ..core.spaces import action_space
from ..core.tensors import layout

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
        self._options: dict[str, Any] = {"players": players}
        if rules is not None:
            self._options["rules"] = rules
        probe = self._new(seed)
        space = action_space(probe).decisions
        # the adapters' numbering: the game's actions, then a delegation to each player
        # (`turn pN`, never legal in Art of War: every decision is one player's own)
        self.num_actions = Seated(probe, PLAYER_SEATS).num_distinct_actions()
        self._acts: list[Action] = [space.action(i) for i in range(space.size)]
        self._ids: dict[Action, int] = {a: i for i, a in enumerate(self._acts)}
        self._layout = layout(probe, "observation")
        self.obs_size = self._layout.size + 2 * players  # the seat's own: seat, turn
        self._row = self._fast_writer(probe) or self._slow_row
        self.games: list[Any] = []
        self.next_seed: list[int] = []
        self.episodes = 0
        self.last_returns = np.zeros((n, players), dtype=np.float32)
        self._obs = np.zeros((n, self.obs_size), dtype=np.float32)
        self._mask = np.zeros((n, self.num_actions), dtype=np.int8)
        self._seat = np.zeros(n, dtype=np.int64)

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
        self._gather(range(self.n))
        return self._obs.copy(), self._mask.copy(), self._seat.copy()

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
        ok = inside & (self._mask[np.arange(self.n), np.where(inside, ids, 0)] == 1)
        if not ok.all():  # all checked first: nothing changes on a bad id
            i = int(np.flatnonzero(~ok)[0])
            raise IllegalActionError(f"game {i}: action {int(ids[i])} is not legal now "
                                     f"(legal: {np.flatnonzero(self._mask[i]).tolist()})")
        todo = ids.tolist()
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        dones = np.zeros(self.n, dtype=np.bool_)
        acts, games = self._acts, self.games
        for i, a in enumerate(todo):
            g = games[i]
            g.apply(acts[a])
            if g.outcome is not None:
                rewards[i] = g.returns()
                dones[i] = True
                self.episodes += 1
                games[i] = self._new(self.next_seed[i])
                self.next_seed[i] += self.n
        if dones.any():
            self.last_returns[dones] = rewards[dones]
        self._gather(range(self.n))
        return self._obs.copy(), self._mask.copy(), self._seat.copy(), rewards, dones

    def _gather(self, rows: range) -> None:
        """Each game's observation for its seat to act, its mask and that seat."""
        row_of = self._row
        ids = self._ids
        obs, seats = [], []
        mr: list[int] = []
        mc: list[int] = []
        for i in rows:
            g = self.games[i]
            seat = g.ask  # whose decision it is: always a player's own (W4-W9)
            if seat < 0:
                seat = g.current_player()
            obs.append(row_of(g, seat))
            seats.append(seat)
            legal = [ids[a] for a in g.legal_actions()]
            mr += [i] * len(legal)
            mc += legal
        self._obs[:] = np.asarray(obs, dtype=np.float32)
        self._mask[:] = 0
        self._mask[mr, mc] = 1
        self._seat[:] = seats

    def _slow_row(self, g: Any, seat: int) -> list[float]:
        """The observation as the adapters write it: the layout's segments, then the seat's
        own (its one-hot; no decision is ever delegated in Art of War: `turn` stays 0)."""
        own = [0.0] * (2 * self.players)
        own[seat] = 1.0
        return self._layout.tensor(g, seat) + own

    def _fast_writer(self, probe: Any) -> Any:
        """The observation written in one go (the same numbers as `_slow_row`, checked by
        tests/test_batched.py), or None when the game's layout is not the one it knows."""
        n, k = self.players, len(probe.rules.cards)
        known = (("decision", None), ("whose", (3, n)), ("counts", (4,)), ("dead", (n,)),
                 ("tokens", (n,)), ("hand", (k,)), ("hand_sizes", (n,)), ("discard", (k,)),
                 ("challenge", (6 + 6 * n,)), ("table", (2, n, k)))
        segs = self._layout.segments
        if len(segs) != len(known) or any(
                s.name != name or (shape is not None and s.shape != shape)
                for s, (name, shape) in zip(segs, known, strict=True)):
            return None
        kinds = {name: i for i, name in enumerate(_decision_names())}
        wide = segs[0].size
        zero_whose, zero_hand = [0.0] * (3 * n), [0.0] * k
        zero_fight = [0.0] * (6 + 6 * n + 2 * n * k)
        zero_own = [0.0] * (2 * n)
        fights = ("duel", "collective", "blind")
        everyone = range(n)

        def write(g: Any, seat: int) -> list[float]:
            dec = [0.0] * wide
            w = g.wait
            if w is not None:
                i = kinds.get(w.name)
                if i is not None:
                    dec[i] = 1.0
            whose = zero_whose[:]
            if g.current >= 0:
                whose[g.current] = 1.0
            if g.ask >= 0:
                whose[n + g.ask] = 1.0
            whose[2 * n + seat] = 1.0
            hand = zero_hand[:]
            for c in g.hands[seat]:
                hand[c] += 1.0
            f = g.fight
            if f is None:
                fight = zero_fight
            else:
                fight = zero_fight[:]
                fight[fights.index(f.kind)] = 1.0
                if f.attacker >= 0:
                    fight[3 + f.attacker] = 1.0
                if f.defender >= 0:
                    fight[3 + n + f.defender] = 1.0
                at = 3 + 2 * n
                fight[at:at + 3] = (f.bet, f.raised, float(f.revealed))
                fight[at + 3:at + 3 + n] = f.stake
                for p in f.seats:
                    fight[at + 3 + n + p] = 1.0
                fight[at + 3 + 2 * n:at + 3 + 3 * n] = f.out
                at2 = at + 3 + 4 * n
                for p, card in enumerate(f.card):
                    if card >= 0:
                        fight[at + 3 + 3 * n + p] = 1.0
                        if f.revealed or p == seat:
                            fight[at2 + p * k + card] = 1.0
                at2 += n * k
                for p, added in enumerate(f.added):
                    for card in added:
                        fight[at2 + p * k + card] += 1.0
            own = zero_own[:]
            own[seat] = 1.0
            alive = g.alive
            counts: list[float] = [g.turn, g.centre, g.out, g.deck_size()]
            row: list[float] = (dec + whose + counts
                                + [0.0 if alive[p] else 1.0 for p in everyone] + g.tokens
                                + hand + [len(h) for h in g.hands] + g.discard + fight + own)
            return row

        return write


def _decision_names() -> tuple[str, ...]:
    from ..core.aow.ai import decisions

    return decisions()


__all__ = ["BatchedWar"]
