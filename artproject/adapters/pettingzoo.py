"""PettingZoo: an AEC environment for every game the kernel plays, an agent per seat.

    from artproject.adapters.pettingzoo import env
    e = env(players=2, seats="players")  # the default game (core/games.py); game="..." another
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else int(obs["action_mask"].argmax())
        e.step(action)

Agents are `player_0`, `player_1`, ... (p1, p2, ...: `seats="players"`) or `team_0`
(`seats="team"`). An
observation is a dict: `observation`, the seat's observation tensor (float32, the game's
layout plus the seat's own segments: docs/ai.md), and `action_mask` (int8, 1 for each id
the agent may take; all 0 for an agent not to act). Chance is drawn inside, from the seed
`reset` is given. Rewards (`reward="terminal"`, the default) come at the end: each seat's
return (+1 won, -1 lost; a team seat's: the whole team's); with `reward="shaped"` every step pays
each seat the change in its shaped score (from 0 at the start, so a game's rewards sum to
its return). `infos[agent]["shaped"]` is the shaped score after every step (the same
dicts while it is unchanged, as PettingZoo's own games keep theirs). A game cut at
its maximum length is truncated. `state()` is the whole game (every seat's observation
tensor, `state_space`), for a centralized critic. `render_mode` "ansi" returns the game
as text, "human" prints it at every reset and step (as PettingZoo's classic games: without
`render()` being called; not at a dead step), "rgb_array" returns its picture (the `render`
extra: docs/ai.md). A parameter of the wrong kind or value is a ValueError naming it. A
pickle or deep copy keeps the constructor's arguments (EzPickle): the environment made
anew, to be reset.

`env()` wraps the raw environment as PettingZoo's classic games are: an illegal id ends the
game with the agent who chose it losing (with PettingZoo's warning), an id out of range is
an AssertionError, and the order of calls is enforced. `raw_env` refuses an illegal or
out-of-range id with ValueError, changing nothing. After the end, an agent's only valid
action is None (PettingZoo's dead step: anything else is ValueError). An id is an int,
numpy's integer or a 0-d array of an integer (what the action space's `contains` takes).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env import AECIterable

from ..core.actions import TERMINAL
from ..core.errors import ArtError, IllegalActionError
from ..core.games import DEFAULT
from ..core.seats import Seated
from ._common import (
    Packers,
    Potential,
    Starter,
    array_id,
    as_float32,
    box,
    infos_of,
    observe,
    reset_seed,
    reward_mode,
    seed_from,
    seeds_from,
)
from ._render import RENDER_MODES, check_render_mode, rendered

_IDS = (int, np.integer)  # what an id may be
_observe = observe  # (`last`'s, its parameter named as AECEnv's)


def env(**kwargs: Any) -> AECEnv:
    """The environment, wrapped as PettingZoo's classic games are (see the module's text)."""
    return wrap(raw_env(**kwargs))


def wrap(e: AECEnv) -> AECEnv:
    """`e` in PettingZoo's classic games' wrappers, as `env()` gives ours."""
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class UnknownAgent(KeyError):
    """An agent the environment does not have (a KeyError, as the dicts of agents raise),
    its message saying which it has."""

    def __str__(self) -> str:
        return str(self.args[0])


class ResetNeeded(AttributeError):
    """A step, or `last()`, before the first `reset()` (an AttributeError, as a raw
    PettingZoo environment's missing `agent_selection` is)."""


_NOT_RESET = ("call reset() before step() or last(): the environment has not been reset (a "
              "pickled or copied one comes back made anew, not reset)")


class _NotReset(dict[str, bool]):
    """`terminations` before the first reset (a class attribute: `reset` sets the
    environment's own), whose every key says to call reset(): `step` reads it first, at no
    cost of its own."""

    def __missing__(self, key: str) -> bool:
        raise ResetNeeded(_NOT_RESET)


class Ids(spaces.Discrete):
    """The ids 0 to n - 1 (an agent's action space): Gymnasium's Discrete, whose
    `contains` answers a plain int by its range at once (Discrete's own asks numpy for the
    dtype's bounds and a cast first, several thousand instructions; PettingZoo's `env()`
    asks it every step); anything else it asks Discrete (tests/test_adapters_packed.py
    compares the two)."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self._end = int(self.start) + int(self.n)

    def contains(self, x: Any) -> bool:
        if type(x) is int:  # (not a bool, nor numpy's: Discrete's rules for those)
            return 0 <= x < self._end
        return not isinstance(x, bool) and bool(super().contains(x))  # (a bool is no id)


class _Agents(AECIterable):  # type: ignore[misc]
    """PettingZoo's AECIterable whose iterator is a generator (AECIterator's rule: stop when
    no agent is left or after max_iter)."""

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        if left >= 1 << 62:  # (AECEnv's default, 2**63, is never reached: not counted)
            while env.agents:
                yield env.agent_selection
            return
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """A kernel game as an AEC environment (see the module's text)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "artproject_v0",  # noqa: RUF012
                "is_parallelizable": False, "render_fps": 2}  # (PettingZoo's keys)
    _skip_agent_selection: str | None  # (AECEnv's dead steps': unset until the first)
    # before the first reset (an unpickled environment's too): step and last say to call it
    agent_selection: str = ""
    terminations: dict[str, bool] = _NotReset()  # (never written: see _NotReset)

    def __init__(self, game: str = DEFAULT, render_mode: str | None = None,
                 max_decisions: int | None = None, **options: Any) -> None:
        EzPickle.__init__(self, game, render_mode, max_decisions, **options)
        super().__init__()
        check_render_mode(render_mode)
        self.game, self.options, self.max_decisions = game, dict(options), max_decisions
        self.render_mode = render_mode
        self._human = render_mode == "human"  # (rendered at each reset and step)
        try:
            self._starter = Starter(game, options, "sample", max_decisions)  # (checked once)
            self.seated: Seated = self._starter.new(0)
            self.shaped = reward_mode(options) == "shaped"
        except ArtError as err:
            raise ValueError(str(err)) from None
        s = self.seated
        self.possible_agents = (["team_0"] if s.team else  # PettingZoo's names: player_0 is p1
                                [f"player_{i}" for i in range(s.num_seats())])
        self._index = {a: i for i, a in enumerate(self.possible_agents)}  # an agent's seat
        self._infos = infos_of(self.possible_agents)  # (every agent's, at once)
        self._observed = type(self).observe is not raw_env.observe  # (see `last`)
        self._zeros = dict.fromkeys(self.possible_agents, 0.0)  # (copied at each reset)
        self._no = dict.fromkeys(self.possible_agents, False)
        self._yes = dict.fromkeys(self.possible_agents, True)
        self._packers = Packers()  # the seats' tensors, kept across positions and games
        # the games' seeds' generator: `default_rng(seed)`'s bit generator (`seed_from`)
        self._rng: np.random.PCG64 | np.random.Generator | None = None
        self._seeds: list[int] = []  # its next seeds, drawn ahead (`seeds_from`), last first
        name = (game or DEFAULT).replace("-", "_")
        self.metadata = {**self.metadata, "name": f"artproject_{name}_v0"}
        n = s.num_distinct_actions()
        self.action_spaces = {a: Ids(n) for a in self.possible_agents}
        self.observation_spaces = {a: spaces.Dict({
            "observation": box(s.layout("observation")),
            "action_mask": spaces.Box(0, 1, (n,), np.int8)}) for a in self.possible_agents}
        self.state_space = box(s.all_layout("observation"))
        self.agents: list[str] = []
        self._potential = Potential(s.num_seats())
        # the games' scorer, asked every step: the starter's games share their rules,
        # player count and options, for all of which the hook makes one (1.7k instructions
        # a reset when asked again at each)
        self._score = s.game.shaped_scorer()
        self._shown: list[float] = []

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        """AECEnv's: the agent to act, while any agent is left, at most `max_iter` times (each
        iteration a generator's, not AECIterator's `__next__`)."""
        return _Agents(self, max_iter)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        try:  # (costs nothing until it catches)
            return self.observation_spaces[agent]
        except KeyError:
            raise self._unknown(agent) from None

    def action_space(self, agent: str) -> spaces.Space[Any]:
        try:
            return self.action_spaces[agent]
        except KeyError:
            raise self._unknown(agent) from None

    def _seat(self, agent: str) -> int:
        try:
            return self._index[agent]
        except KeyError:
            raise self._unknown(agent) from None

    def _unknown(self, agent: Any) -> UnknownAgent:
        return UnknownAgent(f"unknown agent {agent!r}; agents: "
                            + ", ".join(self.possible_agents))

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:  # (never seeded: the system's entropy)
            if seed is not None and (type(seed) is not int or seed < 0):
                seed = reset_seed(seed)  # (numpy's integer as an int; else ValueError)
            self._rng = np.random.PCG64(seed) if seed is None or type(seed) is int else \
                np.random.default_rng(seed)  # (an int: default_rng's bits, no Generator)
            self._seeds = []  # (a game seeded alone: reseeded every game, none ahead)
            game_seed = seed_from(self._rng)
        else:  # (the generator's next seeds drawn ahead, SEEDS_AHEAD at once)
            seeds = self._seeds or seeds_from(self._rng)
            game_seed, self._seeds = seeds.pop(), seeds
        self.seated = self._starter.new(game_seed, self.seated)
        self.agents = self.possible_agents[:]
        zeros, no = self._zeros, self._no  # (every agent's: fresh dicts, copied)
        self.rewards = zeros.copy()
        self._paid = True  # (the rewards hold other than the 0 a step clears them to)
        self._cumulative_rewards = zeros.copy()
        self.terminations = no.copy()
        self.truncations = no.copy()
        if self.shaped:
            self._potential = Potential(self.seated.num_seats())
        s = self.seated
        cur = s.current()
        # the shaped score the infos show, read as `step` reads it: the game's scorer in play
        # (the seats' `shaped` works it out the long way, 8k instructions, a ninth of a reset)
        self._shown = self._score(s.game) if cur >= 0 else s.shaped()
        self.infos = self._infos(self._shown)
        self.agent_selection = self.possible_agents[cur]
        if self._human:
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        try:  # (costs nothing until it catches)
            seat = self._index[agent]
        except KeyError:
            raise self._unknown(agent) from None
        return observe(self.seated, seat, self._packers)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """AECEnv's `last`: the agent to act's observation (None when `observe` is false),
        its cumulative reward, termination, truncation and info (our `observe`'s work done
        without the method call between, unless a subclass has its own)."""
        agent = self.agent_selection
        if not agent:  # (AECEnv's own check; "" before the first reset: `_NotReset`)
            raise ResetNeeded(_NOT_RESET)
        if self._observed:  # (a subclass's own `observe`: AECEnv's way)
            return super().last(observe)  # type: ignore[no-any-return]
        return (_observe(self.seated, self._index[agent], self._packers) if observe else None,
                self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The whole game (`state_space`): every seat's observation tensor, one after the
        other, so every player's private facts and the public ones (for a centralized
        critic; docs/ai.md)."""
        return as_float32(self.seated.all_tensor("observation", raw=True)).copy()

    def step(self, action: Any) -> None:
        agent = self.agent_selection  # (before the first reset: `_NotReset`'s, which says so)
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.seated
        if type(action) is not int:
            action = self._checked(action, agent)
        try:  # (Seated checks the agent's seat is to act and the id is legal for it)
            s.apply(action, None, self._index[agent])
        except IllegalActionError:  # (nothing changed)
            raise ValueError(self._refusal(action, self._index[agent])) from None
        self._cumulative_rewards[agent] = 0.0
        paid = self._pay(s) if self._paid else None  # (else each reward is the last 0)
        cur = s.now()[2]  # (the seat to act now: current()'s, without its second check)
        # every agent is in play until the end's dead steps: their infos made at once, in
        # play from the game's own shaped score (its scorer's: each seat's number at the
        # seat's index, the seats' `shaped` without its copy and checks), at the end from
        # the returns `_end` reads (the seats' `shaped` there), and kept while it is
        # unchanged (most steps: as PettingZoo's own games keep theirs)
        if cur >= 0:
            self.agent_selection = self.possible_agents[cur]
            shaped = paid if paid is not None else self._score(s.game)
        elif cur == TERMINAL:
            shaped = self._end(paid)
        else:  # (a chance node: never met, chance is sampled inside)
            shaped = paid if paid is not None else s.shaped()
        if shaped != self._shown or cur < 0:
            self.infos, self._shown = self._infos(shaped), shaped
        if paid is not None or cur == TERMINAL:  # (else every reward is 0: nothing to add)
            self._accumulate()
        if self._human:  # (as PettingZoo's classic games: not at a dead step)
            self.render()

    def _accumulate(self) -> None:
        """AECEnv's _accumulate_rewards: each agent's reward added to its cumulative one."""
        total = self._cumulative_rewards
        for a, r in self.rewards.items():
            total[a] += r

    def _was_dead_step(self, action: Any) -> None:
        """AECEnv's dead step, the same to every dict, list and attribute it leaves: the
        dead agent removed, the next dead one selected (the first dead one kept to come
        back to, `_skip_agent_selection`), else the one kept, the rewards cleared to 0;
        without AECEnv's list of every dead agent left (the first is enough) or its
        `_clear_rewards` call (two of a random game's dozen steps are dead ones)."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        terminations, truncations, rewards = self.terminations, self.truncations, self.rewards
        assert terminations[agent] or truncations[agent], (
            "an agent that was not dead as attempted to be removed")  # (AECEnv's words)
        del terminations[agent], truncations[agent], rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        skip = getattr(self, "_skip_agent_selection", None)  # (unset until a first dead step)
        for a in agents:
            if terminations[a] or truncations[a]:  # (the next dead agent)
                if skip is None:
                    self._skip_agent_selection = agent
                self.agent_selection = a
                break
        else:
            if skip is not None:
                self.agent_selection = skip
            self._skip_agent_selection = None
        for a in rewards:
            rewards[a] = 0

    def _checked(self, action: Any, agent: str) -> int:
        """`action` as an int id: an int, numpy's integer or a 0-d array of an integer
        (Discrete's `contains` takes it); else ValueError (a bool too, as `Seated.apply`
        refuses it: no id)."""
        if action is None or not isinstance(action, _IDS) or isinstance(action, bool):
            i = array_id(action)
            if i is None:
                raise ValueError(self._refusal(action, self._index[agent]))
            return i
        return int(action)

    def _pay(self, s: Seated) -> list[float] | None:
        """The rewards set to 0 (AECEnv's _clear_rewards), then, with reward="shaped", to
        the change in each seat's shaped score: the scores (else None)."""
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0
        self._paid = self.shaped  # (the rewards hold other than 0 from now on)
        if not self.shaped:
            return None
        shaped = s.shaped()
        for a, r in zip(self.agents, self._potential.pay(s, shaped), strict=True):
            rewards[a] = float(r)
        return shaped

    def _end(self, paid: list[float] | None) -> list[float]:
        """The game just ended: the returns paid (reward="terminal"), every agent
        terminated (or truncated, when cut at the maximum length); the seats' shaped
        scores, which are their returns now (`paid`: the scores `_pay` read, if it read
        them), read once."""
        s = self.seated
        self._paid = True
        returns = s.returns() if paid is None else paid
        if not self.shaped:
            for a, r in zip(self.agents, returns, strict=True):
                self.rewards[a] = float(r)
        cut = s.truncated()  # (every agent is in play: their dicts copied)
        self.terminations = (self._no if cut else self._yes).copy()
        self.truncations = (self._yes if cut else self._no).copy()
        self.agent_selection = self.agents[0]
        return returns

    def _refusal(self, action: Any, seat: int) -> str:
        legal = self.seated.legal(seat)
        n = self.seated.num_distinct_actions()
        if not isinstance(action, _IDS) or isinstance(action, bool) or \
                not 0 <= int(action) < n:
            return f"action {action!r}: not an action id (0 to {n - 1})"
        return (f"action {action} ({self.seated.action_text(int(action))}): not legal for "
                f"{self.agent_selection} now; legal: {legal[:16]}")

    def render(self) -> str | np.ndarray[Any, np.dtype[np.uint8]] | None:
        """The game as text: what is pending, the legal actions of the seat to act, the last
        events as the whole table saw them (a card laid face down unnamed until it is
        shown); "ansi" returns it, "human" prints it (and returns None, as PettingZoo
        asks); or its picture, "rgb_array" (height x width x 3, uint8)."""
        cur = self.seated.current() if self.render_mode in ("human", "ansi") else TERMINAL
        return rendered(self.seated, self.render_mode, cur,
                        f" (seat {cur})" if cur >= 0 else "")  # (no seat at the end)

    def close(self) -> None:
        pass
