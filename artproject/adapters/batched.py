"""Many games of one game stepped in one call, numpy arrays in and out, for learners that
collect experience from a batch of games at once (docs/ai.md, "A batched environment").

    from artproject.adapters.batched import Batched

    env = Batched(256, game=GAME, players=2, seed=0)  # any game the kernel plays
    obs, mask, seat = env.reset()
    while training:
        actions = choose(obs, mask)            # one legal id a game: mask[i, actions[i]] == 1
        obs, mask, seat, rewards, dones = env.step(actions)

A game's tools may name a batched environment of that game (`BATCHED_ENV`: Art of War's is
`BatchedWar`); it is found here by that name (`from artproject.adapters.batched import
...`): `Batched` with that game.

Each row is one game, seen by its players' seats (`seats="players"`, the default) or by
the team's one seat (`seats="team"`, where the game offers it) at the seat to act
(`seat[i]`). Its observation is the same as the single-game adapters' (`Seated.tensor(seat,
"observation")`: the game's observation tensor for that player, then the seat's own
segments, docs/ai.md's table), its mask is the legal ids (the same numbering as the
adapters, `mask`). `step` takes an id a game and returns, for every game, the next
observation, mask and seat, the step's rewards (each seat's return where the game ended;
0 while it goes on; reward="shaped": the change in each seat's shaped score, from 0 at a
game's start, so they sum to its return) and whether it ended (or was cut at its maximum
length). A game that ends is reset at once (with the next seed of its own sequence): the
observation returned for it is the new game's first, `dones[i]` and `rewards[i]` tell the
end (same-step auto-reset; `last_returns` keeps the ended games' returns, `episodes` counts
them). Chance is sampled (each game's own seeded generator): a card drawn is no decision.

The games use the engine itself (no copy of its rules), new games from the rules loaded
once (a game's first option, its rules, given the loaded ones). Each row is the game's own
tensor (core/seats.py `Seated`), written incrementally in a buffer of the game's own as
the single-game adapters write theirs (`Packers`), unless the game's tools give a
`batch_writer` for its layout: then the whole batch's rows, masks and seats are written by
it at once (Art of War's writes a field at a time for the whole batch,
core/aow/batched.py), the games stepped directly (`apply` and `legal_actions`: such a
game's decisions are each one player's own, never delegated), the same numbers
(tests/test_batched.py compares them byte for byte). An
illegal id raises `IllegalActionError` naming the game and leaves every game as it was
before the call; a wrong argument (n, seed, the adapters' parameters `seats`, `variants`
and `reward` or the game's options, checked by the adapters' own code, `Starter`: a name
they do not take, an unknown variant or mission too) is a GameError naming it, in the
words of the other adapters' errors. A batch pickles and deep-copies as their
environments do (EzPickle): its constructor's arguments are kept, and it comes back made
anew from them, to be reset (the games in play are not kept).
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import attrgetter, is_not
from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt

from ..core import checks
from ..core.actions import TERMINAL, Action
from ..core.errors import GameError, IllegalActionError, RulesError
from ..core.games import DEFAULT, game_class, game_names, game_tools
from ..core.seats import PLAYER_SEATS, Seated
from ..core.spaces import action_space
from ..core.tensors import layout
from ._common import REWARDS, Packers, Potential, Starter, kept_mask

_OUTCOME: Final = attrgetter("outcome")
MAX_GAMES: Final = 1_000_000  # the most games a batch holds
_WRAP: Final = 2**64  # a derived seed past the largest a save holds wraps round by this


def _seed(seed: int) -> int:
    """A derived seed (`seed + i + k * n`) within what a save holds: past 2**64 - 1 it
    wraps round to 0 (minus 2**64), the same generator (its state is the seed's low 64
    bits, core/generator.py `rng_state`), so the same game as the unwrapped seed's."""
    return seed - _WRAP if seed > checks.SEED[1] else seed


_Rows = tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]


class Batched:
    """`n` games of `game` (the kernel's default game when None; see the module's text),
    1 to MAX_GAMES. `seed` (a whole number, numpy's too, of 64 bits as a save holds): game
    i is dealt from seed `seed + i`, its later games from `seed + i + k * n`, wrapped round
    past 2**64 - 1 (`_seed`); `seats`: "players" (a seat a player, every game's; the
    default) or "team" (one seat takes all the team's decisions, where the game offers it:
    The A.R.T. Project); `variants` and `reward` as every adapter's (variant names or files
    joined by `+`; "terminal", the returns at a game's end, or "shaped", every seat paid
    the change in its shaped score each step); `options` the game's own (players, its rules
    by name or file...). A wrong one is a GameError naming it."""

    GAME: ClassVar[str | None] = None  # a game's own batched environment's game (BATCHED_ENV)

    def __init__(self, n: int = 256, game: str | None = None, seed: int = 0,
                 seats: str = PLAYER_SEATS, variants: str | None = "",
                 reward: str | None = REWARDS[0], **options: Any) -> None:
        self._made = {"n": n, "game": game, "seed": seed, "seats": seats,  # (its pickle's)
                      "variants": variants, "reward": reward, **options}
        n = checks.index(n, "n (the games a batch holds)", 1, MAX_GAMES)
        seed = checks.index(seed, "seed", *checks.SEED)
        self.game = (checks.text(game, "game") if game is not None else "") or self.GAME or \
            DEFAULT
        self.n, self.seed = n, seed
        self._cls = game_class(self.game)
        variants = "" if variants is None else variants
        reward = REWARDS[0] if reward is None else reward
        start = Starter(self.game, {**options, "seats": seats, "variants": variants,
                                    "reward": reward}, chance="sample")  # (the adapters')
        try:
            seated = start.new(seed)
        except RulesError as err:  # (an unknown variant or mission: a wrong argument)
            raise GameError(str(err)) from None
        probe = seated.game
        self.players = probe.num_players()
        self._options = _reused(self._cls, probe, start.options())
        self.seats, self.reward = seats, reward
        self.num_seats = seated.num_seats()  # (a reward's columns: 1 for the team seat)
        # reward="shaped": each game's seats' shaped scores when last paid (0 at its start)
        self._shaped = reward == "shaped"
        self._score = probe.shaped_scorer() if self._shaped else None
        self._paid: list[Potential] = []
        # the adapters' numbering: the game's actions, then (a seat a player) a delegation
        # to each player
        self.num_actions = seated.num_distinct_actions()
        space = action_space(probe).decisions
        self._acts: list[Action] = [space.action(i) for i in range(space.size)]
        self._ids: dict[Action, int] = {a: i for i, a in enumerate(self._acts)}
        self._layout = layout(probe, "observation")
        self.obs_size = seated.layout("observation").size  # the layout's, the seat's own
        self._plan = None if seats != PLAYER_SEATS else _writer(
            self.game, probe, self._layout, self.obs_size + 1, self.num_actions, self._ids)
        self.games: list[Any] = []
        self._seated: list[Seated] = []  # each game seated (no writer: rows from its tensor)
        self._packers: list[Packers] = []  # and each one's tensor buffer (no writer)
        self._records: list[tuple[Any, ...]] = []  # and its position's record (`now`)
        self.next_seed: list[int] = []
        self.episodes = 0
        self.last_returns = np.zeros((n, self.num_seats), dtype=np.float32)
        self._wide = np.zeros((n, self.obs_size + 1), dtype=np.float32)  # a scratch column
        self._mask = np.zeros((n, self.num_actions), dtype=np.int8)
        self._seat = np.zeros(n, dtype=np.int64)
        self._rows = np.arange(n)

    def __reduce__(self) -> tuple[Any, tuple[type[Batched], dict[str, Any]]]:
        """A pickle or deep copy: the constructor's arguments (as Gymnasium's EzPickle keeps
        an environment's), made anew from them, to be reset (the games in play are not
        kept)."""
        return _made, (type(self), self._made)

    def _new(self, seed: int) -> Any:
        return self._cls.create(seed=seed, chance="sample", **self._options)

    # ---------------------------------------------------------------- the batch
    def reset(self, seed: int | None = None,
              ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """New games (game i from seed `seed + i`): (observations, masks, seats)."""
        if seed is not None:
            self.seed = checks.index(seed, "seed", *checks.SEED)
        self.games = [self._new(_seed(self.seed + i)) for i in range(self.n)]
        self._seated = []
        if self._plan is None:  # (each game seated, sharing the first's tables)
            for g in self.games:
                self._seated.append(Seated(g, self.seats, None,
                                           self._seated[0] if self._seated else None))
            self._packers = [Packers() for _ in self.games]
            self._records = [s.now() for s in self._seated]
        self.next_seed = [_seed(self.seed + i + self.n) for i in range(self.n)]
        self._paid = [Potential(self.num_seats) for _ in range(self.n)]
        self.episodes = 0
        self.last_returns[:] = 0.0
        return self._run(None, None)

    def step(self, actions: Any) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8],
                                          npt.NDArray[np.int64], npt.NDArray[np.float32],
                                          npt.NDArray[np.bool_]]:
        """Take `actions[i]` (an id) in game i, every game: (observations, masks, seats,
        rewards (n, seats), dones (n,)); ended games reset at once (the module's text)."""
        if not self.games:
            raise GameError("step before the first reset: call reset() to deal the games")
        ids = np.asarray(actions)
        if ids.shape not in ((self.n,), (self.n, 1)):  # (a column: a policy's output)
            raise GameError(f"step takes one action a game: an array of shape ({self.n},), "
                            f"not {ids.shape}")
        ids = ids.reshape(-1)
        if not np.issubdtype(ids.dtype, np.integer):
            raise IllegalActionError(f"step takes action ids (whole numbers), not {ids.dtype}")
        inside = (ids >= 0) & (ids < self.num_actions)
        ok = inside & (self._mask[self._rows, np.where(inside, ids, 0)] == 1)
        if not ok.all():  # all checked first: nothing changes on a bad id
            i = int(np.flatnonzero(~ok)[0])
            raise IllegalActionError(f"game {i}: action {int(ids[i])} is not legal now "
                                     f"(legal: {np.flatnonzero(self._mask[i]).tolist()})")
        rewards = np.zeros((self.n, self.num_seats), dtype=np.float32)
        dones = np.zeros(self.n, dtype=np.bool_)
        obs, masks, seats = self._run(ids.tolist(), (rewards, dones))
        return obs, masks, seats, rewards, dones

    def _run(self, todo: list[int] | None,
             out: tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]] | None) -> _Rows:
        """Each game takes its action (`todo`; None: none, a reset), an ended game is
        replaced, then every row, mask and seat is written (by the game's writer, else
        from each game's own tensor): new arrays of them."""
        if self._plan is None:
            return self._run_seated(todo, out)
        games = self.games
        if todo is not None:
            assert out is not None
            for _ in map(self._cls.apply, games, map(self._acts.__getitem__, todo)):
                pass
            if self._shaped:
                self._pay(out[0])
            for i in compress(range(self.n), map(is_not, map(_OUTCOME, games), repeat(None))):
                self._end(i, games[i].returns(), out)
                games[i] = self._new(self.next_seed[i])
                self.next_seed[i] = _seed(self.next_seed[i] + self.n)
        self._plan.fill(games, self._wide, self._mask, self._seat)
        return self._wide[:, :-1].copy(), self._mask.copy(), self._seat.copy()

    def _run_seated(self, todo: list[int] | None,
                    out: tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]] | None,
                    ) -> _Rows:
        """`_run` for a game without a writer: each game seated, its row its own tensor,
        written in the game's own buffer (`Packers`: incrementally, the segments whose
        sources changed since its last write), its mask the one kept for its legal ids
        (`kept_mask`); the id taken checked by `step` against the mask, so taken as legal."""
        seated, records, packers = self._seated, self._records, self._packers
        rows: list[Any] = []  # (arrays, joined as buffers)
        masks: list[Any] = []
        seats: list[int] = []
        shaped = self._shaped
        for i, s in enumerate(seated):
            if todo is None:  # (a reset: each game at its start)
                r = s.now()
            else:  # (the record kept: the position the id was checked at)
                s.apply(todo[i], records[i])
                r = s.now()
                if shaped:
                    self._pay_one(i, s.shaped(), out)
                if r[2] == TERMINAL:  # (ended, or cut at its maximum length)
                    s = self._ended(i, s, out)
                    r = s.now()
            records[i] = r  # (a game's record: its seat to act and legal ids; never chance)
            seat = r[2]
            rows.append(packers[i].written(s, seat, "observation", r))
            masks.append(kept_mask(s.ids, r[3]))
            seats.append(seat)
        # the rows and masks joined as bytes (a third of numpy's time to read a list of
        # arrays), then copied once into new arrays; the masks kept: `step` checks by them
        n, joined = self.n, b"".join(masks)
        self._mask = np.frombuffer(joined, np.int8).reshape(n, -1)
        obs = np.frombuffer(bytearray(b"".join(rows)), np.float32).reshape(n, -1)
        return (obs, np.frombuffer(bytearray(joined), np.int8).reshape(n, -1),
                np.array(seats, dtype=np.int64))

    def _ended(self, i: int, s: Seated,
               out: tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]] | None,
               ) -> Seated:
        """Seated game `i`, `s`, just ended: its returns and end told (`out`), a new game
        in its place (sharing `s`'s tables), seated."""
        assert out is not None
        self._end(i, s.returns(), out)
        self.games[i] = self._new(self.next_seed[i])
        self.next_seed[i] = _seed(self.next_seed[i] + self.n)
        new = self._seated[i] = Seated(self.games[i], self.seats, None, s)
        return new

    def _end(self, i: int, returns: list[float],
             out: tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]) -> None:
        """Game `i` just ended with `returns`: told in `out` (its rewards the returns, or,
        shaped, the last change, paid already) and kept in `last_returns`."""
        if not self._shaped:
            out[0][i] = returns
        else:
            self._paid[i] = Potential(self.num_seats)  # (the next game's from 0)
        out[1][i] = True
        self.last_returns[i] = returns
        self.episodes += 1

    def _pay(self, rewards: npt.NDArray[np.float32]) -> None:
        """reward="shaped", a game with a writer: each game's seats (its players) paid the
        change in their shaped score since they were last paid (a game just ended: its
        returns, its shaped score at the end), written in `rewards`."""
        paid, score = self._paid, self._score
        assert score is not None
        for i, g in enumerate(self.games):
            rewards[i] = paid[i].pay(None, g.returns() if g.outcome is not None else score(g))

    def _pay_one(self, i: int, now: list[float],
                 out: tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]] | None) -> None:
        """`_pay` for seated game `i`, its seats' shaped scores `now`."""
        assert out is not None
        out[0][i] = self._paid[i].pay(None, now)


def _made(cls: type[Batched], arguments: dict[str, Any]) -> Batched:
    """A pickled or copied batch (`Batched.__reduce__`): made anew from its arguments."""
    return cls(**arguments)


def _reused(cls: Any, probe: Any, given: dict[str, Any]) -> dict[str, Any]:
    """The options new games are made from: the rules loaded once (the game's option that
    names its rules, `RULES_OPTION`, given the probe's loaded rules; its variants are in
    them), the rest as given; as given for a game with no such option."""
    name = cls.RULES_OPTION
    loaded = getattr(probe, "rules", None)
    if name is None or loaded is None:
        return dict(given)
    return {**{k: v for k, v in given.items() if k != "variants"}, name: loaded}


def _writer(game: str, probe: Any, lay: Any, width: int, acts: int,
            ids: dict[Action, int]) -> Any:
    """The game's writer of a batch's rows (its tools' `batch_writer`, for this layout),
    or None: rows from each game's own tensor."""
    make = getattr(_tools(game), "batch_writer", None)
    return None if make is None else make(probe, lay, width, acts, ids)


def _tools(game: str) -> Any:
    try:
        return game_tools(game)
    except GameError:  # a game that gives the tools nothing: no writer, no name
        return None


_NAMED: dict[str, type[Batched]] = {}  # a game's batched environment, by its name


def __getattr__(name: str) -> type[Batched]:
    """A game's batched environment by the name its tools give it (`BATCHED_ENV`): `Batched`
    with that game (made once, kept here, so it pickles by name)."""
    if name.startswith("_"):  # (no game's name: Python's own look-ups)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    got = _NAMED.get(name)
    if got is None:
        game = next((g for g in game_names()
                     if getattr(_tools(g), "BATCHED_ENV", None) == name), None)
        if game is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        got = _NAMED[name] = type(name, (Batched,), {
            "GAME": game, "__module__": __name__, "__qualname__": name,
            "__doc__": f"`Batched` for the {game} game (see the module's text)."})
    return got


__all__ = ["Batched"]
