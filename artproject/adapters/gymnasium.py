"""Gymnasium: one agent plays one seat of any game the kernel plays; the game's other seats
(if any) are played by a policy of the engine (`others`, the heuristic by default).

    import gymnasium
    import artproject.adapters.gymnasium  # registers every game: env_id(game)
    env = gymnasium.make(env_id(DEFAULT), players=2)  # the default game (docs/ai.md)
    obs, info = env.reset(seed=1)
    while True:
        action = int(obs["action_mask"].nonzero()[0][0])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

Where a game's first seating is the team's, the agent is the whole team (`seats="team"`,
that game's default). An
observation is a dict: `observation` (the seat's observation tensor, float32, docs/ai.md)
and `action_mask` (int8, 1 for each legal id; `info["action_mask"]` and `action_masks()`
give it too). The reward (`reward="terminal"`, the default) is the seat's return at the
end (+1 won, -1 lost), 0 before; with `reward="shaped"` it is the change in the seat's
shaped score over the step (the others' decisions included), counted from 0 at the start,
so an episode's rewards still sum to its return. `info["shaped"]` is the shaped score.
`render_mode` "ansi" returns the game as text, "human" prints it at every reset and step
(Gymnasium's contract: shown without `render()` being called), "rgb_array" returns its
picture (the `render` extra: docs/ai.md). `action_space.sample()` draws among the legal
ids (a pickled or copied space, which has no environment, among all). Chance is drawn
inside from the seed `reset` is given; a game the other seats end before the agent's first
decision is dealt anew, so an episode always has a step. A game cut at its maximum length
is truncated. After a delegation (`turn pN`) the other seat's policy is asked among pN's
own actions. A pickle or deep copy of the environment keeps its constructor's arguments
(EzPickle, as Gymnasium's own environments): it is the environment made anew, to be reset;
so `gymnasium.make_vec(..., vectorization_mode="async")` serves every game.

Bad input: a parameter of the wrong kind or value is a ValueError naming it (a whole
number may be numpy's, not a bool); an id (an int, numpy's integer or a 0-d array of an
integer, as the action space's `contains` takes it) out of range, or no id, raises
`gymnasium.error.InvalidAction`, a step after the end `gymnasium.error.ResetNeeded`. An id
in range but not legal now ends the episode as lost (reward -1, `terminated`,
`info["illegal"]` saying why, and Gymnasium's logger warns), as PettingZoo's classic games
do, the game untouched; `illegal="raise"` raises InvalidAction
instead. (Gymnasium's `check_env` steps an action sampled before a reset after it, so an
environment that raises on an illegal id cannot pass it.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import gymnasium as gym
import numpy as np
from gymnasium import error, spaces
from gymnasium.utils import EzPickle

from ..core.actions import TERMINAL
from ..core.errors import ArtError, GameError
from ..core.games import DEFAULT, game_names
from ..core.seats import Seated
from ._common import (
    Packers,
    Potential,
    Starter,
    array_id,
    box,
    mask,
    observe,
    reset_seed,
    reward_mode,
    seed_from,
    start,
    whole,
)
from ._render import RENDER_MODES, check_render_mode, rendered

NAMESPACE: Final = "artproject"
DEALS: Final = 100  # games dealt at most by one reset (see `reset`)


class SeedError(error.Error, ValueError):
    """A reset's seed that is no whole number from 0 on: Gymnasium's own error for it (its
    `np_random`'s), and a ValueError as PettingZoo's adapter raises."""


def env_id(game: str) -> str:
    """The id a game is registered under: `artproject/`, the game's name in title case
    without its dashes, `-v0` (every game asked the same: adding one touches no adapter)."""
    return f"{NAMESPACE}/{''.join(w.title() for w in game.split('-'))}-v0"


class LegalDiscrete(spaces.Discrete):
    """The ids 0 to n - 1, whose `sample()` (without a mask of its own) draws among the
    actions legal now (`legal`: the environment's mask): a random agent never picks an
    illegal one. A copy or a pickle of the space has no environment (it would carry the
    whole game with it): it is an equal space whose `sample()` draws among all the ids,
    as Discrete's does (what a vector environment's workers are sent to compare)."""

    def __init__(self, n: int,
                 legal: Callable[[], np.ndarray[Any, np.dtype[np.int8]]] | None = None,
                 seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self._legal = legal

    def contains(self, x: Any) -> bool:
        """Discrete's, but a bool is no id (as the environment's `step` refuses it)."""
        return not isinstance(x, bool) and bool(super().contains(x))

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None and self._legal is not None:
            now = self._legal()
            if now.any():
                mask = now
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        """The space without its environment (see the class's text)."""
        return {**self.__dict__, "_legal": None}


class KernelEnv(gym.Env[dict[str, Any], np.int64], EzPickle):
    """A seat of a kernel game as a Gymnasium environment (see the module's text). A pickle
    or a copy keeps its constructor's arguments (EzPickle's, as Gymnasium's own
    environments are pickled): it is the environment made anew, to be reset."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES),  # noqa: RUF012
                                "render_fps": 2}  # (a recording's pace: two decisions a second)

    def __init__(self, game: str = DEFAULT, seat: int = 0, others: str = "heuristic",
                 render_mode: str | None = None, max_decisions: int | None = None,
                 illegal: str = "lose", **options: Any) -> None:
        EzPickle.__init__(self, game, seat, others, render_mode, max_decisions, illegal,
                          **options)
        check_render_mode(render_mode)
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        self.illegal = illegal
        self.game, self.options, self.max_decisions = game, dict(options), max_decisions
        self.render_mode, self.others_name = render_mode, others
        self._human = render_mode == "human"  # (rendered at each reset and step)
        try:
            self._starter = Starter(game, options, "sample", max_decisions)  # (checked once)
            self.seated: Seated = self._starter.new(0)
            self.seat = seat = whole("seat", seat)
            if not 0 <= seat < self.seated.num_seats():
                raise GameError(f"seat must be from 0 to {self.seated.num_seats() - 1}, "
                                f"not {seat}")
            self._seeded = _policy(game, others)  # (a game's policy by its seed: checked once)
            self._seeded(0)  # (one made: an option of the wrong kind refused here)
            self._others: Any = None  # (the game's policy, made when first asked)
            self._others_seed = 0
            self.shaped = reward_mode(options) == "shaped"
        except ArtError as err:
            raise ValueError(str(err)) from None
        s = self.seated
        n = s.num_distinct_actions()
        self.action_space = LegalDiscrete(n, self.action_masks)
        self.observation_space = spaces.Dict({
            "observation": box(s.layout("observation")),
            "action_mask": spaces.Box(0, 1, (n,), np.int8)})
        self._over = True
        self._began = False  # (reset at least once: `step` says which is needed)
        self._potential = Potential(s.num_seats())
        # the games' scorer, asked every step: the starter's games share their rules,
        # player count and options, for all of which the hook makes one
        self._score = s.game.shaped_scorer()
        self._packers = Packers()  # the seat's tensors, kept across positions and games

    def _obs(self) -> dict[str, Any]:
        return observe(self.seated, self.seat, self._packers)

    def _info(self, obs: dict[str, Any] | None = None,
              ended: list[float] | None = None) -> dict[str, Any]:
        """The step's info (`obs`: the observation just made, whose mask it copies); the
        shaped score in play read from the game's own scorer (`shaped_scorer`: the seats'
        `shaped` without its copy and checks, as PettingZoo's infos read it), at the end
        the seats' `shaped`, their returns (`ended`: those `step` read, if it read them)."""
        s = self.seated
        legal = mask(s, self.seat) if obs is None else obs["action_mask"].copy()
        return {"action_mask": legal, "shaped": ended[self.seat] if ended is not None else
                self._score(s.game)[self.seat] if s.now()[2] >= 0 else s.shaped()[self.seat]}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legal ids as a 0/1 vector (what maskable learners ask for)."""
        return mask(self.seated, self.seat)

    def _others_play(self) -> bool:
        """The other seats' decisions, until this seat's turn or the end (True: the end)."""
        s, seat = self.seated, self.seat
        while True:
            r = s.now()  # (the position's record: its seat to act, TERMINAL at the end)
            if r[2] == TERMINAL or r[2] == seat:
                return bool(r[2] == TERMINAL)
            if self._others is None:  # (made from the game's seed when first asked: a
                self._others = self._seeded(self._others_seed)  # seeded generator's cost)
            i = s.policy_id(self._others)
            if i is None:  # a policy blind to a delegation: a random choice of the seat's
                legal = s.legal()
                i = legal[int(self.np_random.integers(len(legal)))]
            s.apply(i, r)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None and (type(seed) is not int or seed < 0):
            try:  # (numpy's integer as an int; else refused as Gymnasium's np_random does)
                seed = reset_seed(seed)
            except ValueError as err:
                raise SeedError(str(err)) from None
        super().reset(seed=seed)
        for _ in range(DEALS):  # a game the others end before the seat's first decision
            game_seed = seed_from(self.np_random)  # is dealt anew: an episode has a step
            self.seated = self._starter.new(game_seed, self.seated)
            self._others, self._others_seed = None, game_seed
            self._others_play()
            if not self.seated.is_terminal():
                break
        else:
            raise RuntimeError(f"{DEALS} games in a row ended before seat {self.seat} "
                               "had a decision")
        self._over, self._began = False, True
        if self.shaped:
            self._potential = Potential(self.seated.num_seats())
        obs = self._obs()
        if self._human:
            self.render()
        return obs, self._info(obs)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        s = self.seated
        if self._over:
            raise self._reset_needed()
        n = s.num_distinct_actions()
        if type(action) is not int or not 0 <= action < n:
            action = _id(action, n)  # (numpy's integer, a 0-d array of one; else InvalidAction)
        r, i = s.now(), action  # (the position's record: its seat to act and ids)
        if r[2] != self.seat or i not in r[3]:
            return self._lost(i)
        s.apply(i, r)
        done = self._others_play()
        self._over = done
        ended = s.returns() if done else None  # (the seats' shaped scores now: read once)
        if self.shaped:
            reward = float(self._potential.pay(s, ended)[self.seat])
        else:
            reward = float(ended[self.seat]) if ended is not None else 0.0
        cut = done and s.truncated()  # (cut at the maximum length: it is over)
        obs = self._obs()
        if self._human:
            self.render()
        return obs, reward, done and not cut, cut, self._info(obs, ended)

    def _reset_needed(self) -> error.ResetNeeded:
        """`step` after the end, or before the first reset (an unpickled environment's)."""
        if self._began:
            return error.ResetNeeded("the game is over: call reset() before step()")
        return error.ResetNeeded("call reset() first: the environment has not been reset (a "
                                 "pickled or copied one comes back made anew, not reset)")

    def _lost(self, i: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """`step` of id `i`, in range but not legal now: the episode ends as lost (or, with
        illegal="raise", InvalidAction), the game untouched."""
        s = self.seated
        why = f"action {i} ({s.action_text(i)}): not legal now; legal: {s.legal(self.seat)[:16]}"
        if self.illegal == "raise":
            raise error.InvalidAction(why)
        gym.logger.warn(f"{why}: the episode ends as lost")
        self._over = True
        if self._human:
            self.render()
        lost = -1.0 - (self._potential.paid[self.seat] if self.shaped else 0.0)
        # (the episode's return, -1, is its shaped score at the end, as at any end)
        return self._obs(), lost, True, False, {**self._info(), "shaped": -1.0, "illegal": why}

    def render(self) -> str | np.ndarray[Any, np.dtype[np.uint8]] | None:
        """The game as text, what is pending, the agent's seat's legal actions and the last
        events as the whole table saw them (a card laid face down unnamed until it is
        shown; "ansi" returns it, "human" prints it), or its picture ("rgb_array":
        height x width x 3, uint8)."""
        return rendered(self.seated, self.render_mode, self.seat)


def _id(action: Any, n: int) -> int:
    """`action`, not an int from 0 to n - 1, as an id: numpy's integer or a 0-d array of
    an integer in range (Discrete's `contains` takes them); else InvalidAction (a bool
    too, as `Seated.apply` refuses it: no id)."""
    i = int(action) if isinstance(action, np.integer) else array_id(action)
    if i is None or not 0 <= i < n:
        raise error.InvalidAction(f"action {action!r}: not an action id (0 to {n - 1})")
    return i


def _policy(game: str, name: str) -> Callable[[int], Any]:
    """seed -> the engine's policy `name` of `game`, for the other seats (its name and
    options checked once: a reset makes one, policies.py `policy_maker`)."""
    from ..policies import policies_of, policy_maker

    policies = policies_of(game)
    if not isinstance(name, str):
        raise GameError(f"others must be the name of a policy for the other seats, not "
                        f"{name!r}; policies: " + ", ".join(policies))
    if name.split(":")[0] not in policies:
        raise GameError(f"unknown policy {name!r} for the other seats; policies: "
                        + ", ".join(policies))
    return policy_maker(name, policies)


def _max_steps(game: str) -> int:
    """The most steps an episode of `game` takes with its default parameters: the seats'
    maximum length (the agent's steps are some of those; the game is cut there)."""
    return start(game, {}, chance="sample").max_game_length()


for _name in game_names():
    if env_id(_name) not in gym.registry:
        gym.register(id=env_id(_name), entry_point=KernelEnv, kwargs={"game": _name},
                     disable_env_checker=False, max_episode_steps=_max_steps(_name))
del _name
