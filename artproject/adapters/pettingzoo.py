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
its return). `infos[agent]["shaped"]` is the shaped score after every step. A game cut at
its maximum length is truncated. `state()` is the whole game (every seat's observation
tensor, `state_space`), for a centralized critic. `render_mode` "ansi" returns the game
as text, "human" prints it.

`env()` wraps the raw environment as PettingZoo's classic games are: an illegal id ends the
game with the agent who chose it losing (with PettingZoo's warning), an id out of range is
an AssertionError, and the order of calls is enforced. `raw_env` refuses an illegal or
out-of-range id with ValueError, changing nothing. After the end, an agent's only valid
action is None (PettingZoo's dead step: anything else is ValueError).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.actions import TERMINAL
from ..core.errors import ArtError, IllegalActionError
from ..core.games import DEFAULT
from ..core.seats import Seated
from ._common import (
    Packers,
    Potential,
    Seeds,
    Starter,
    as_float32,
    box,
    observe,
    reward_mode,
)

_IDS = (int, np.integer)  # what an id may be


def env(**kwargs: Any) -> AECEnv:
    """The environment, wrapped as PettingZoo's classic games are (see the module's text)."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


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
        return bool(super().contains(x))


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """A kernel game as an AEC environment (see the module's text)."""

    metadata = {"render_modes": ["human", "ansi"],  # noqa: RUF012 (PettingZoo's)
                "name": "artproject_v0", "is_parallelizable": False}

    def __init__(self, game: str = DEFAULT, render_mode: str | None = None,
                 max_decisions: int | None = None, **options: Any) -> None:
        EzPickle.__init__(self, game, render_mode, max_decisions, **options)
        super().__init__()
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not "
                             f"{render_mode!r}")
        self.game, self.options, self.max_decisions = game, dict(options), max_decisions
        self.render_mode = render_mode
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
        self._packers = Packers()  # the seats' tensors, kept across positions and games
        self._seeds = Seeds()  # the games' seeds (numpy's generator's draws)
        self.metadata = {**self.metadata, "name": f"artproject_{game.replace('-', '_')}_v0"}
        n = s.num_distinct_actions()
        self.action_spaces = {a: Ids(n) for a in self.possible_agents}
        self.observation_spaces = {a: spaces.Dict({
            "observation": box(s.layout("observation")),
            "action_mask": spaces.Box(0, 1, (n,), np.int8)}) for a in self.possible_agents}
        self.state_space = box(s.all_layout("observation"))
        self.agents: list[str] = []
        self._potential = Potential(s.num_seats())

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self._index[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seeds = self._seeds
        game_seed = seeds.next() if seed is None else seeds.first(seed)
        self.seated = self._starter.new(game_seed, self.seated)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._paid = True  # (the rewards hold other than the 0 a step clears them to)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._potential = Potential(self.seated.num_seats())
        self._set_infos()
        self.agent_selection = self.possible_agents[self.seated.current()]

    def _set_infos(self, shaped: list[float] | None = None) -> None:
        """Each agent's info: its shaped score (`shaped`: the seats' scores, if known)."""
        if shaped is None:
            shaped = self.seated.shaped()
        index, infos = self._index, {}
        for a in self.agents:  # (a loop: no comprehension's call, no zip made)
            infos[a] = {"shaped": shaped[index[a]]}
        self.infos = infos

    def observe(self, agent: str) -> dict[str, Any]:
        return observe(self.seated, self._index[agent], self._packers)

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The whole game (`state_space`): every seat's observation tensor, one after the
        other, so every player's private facts and the public ones (for a centralized
        critic; docs/ai.md)."""
        return as_float32(self.seated.all_tensor("observation", raw=True)).copy()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.seated
        seat, now = self._index[agent], s.now()
        if action is None or not isinstance(action, _IDS) or seat != now[4]:  # (the seat
            raise ValueError(self._refusal(action, seat))  # to act: Seated.now's record)
        try:
            s.apply(int(action), now)  # (Seated checks the id is legal for the seat to act)
        except IllegalActionError:  # (nothing changed)
            raise ValueError(self._refusal(action, seat)) from None
        rewards, total = self.rewards, self._cumulative_rewards
        total[agent] = 0.0
        if self._paid:  # (else each is the 0 the last step set)
            for a in rewards:  # (AECEnv's _clear_rewards)
                rewards[a] = 0
            self._paid = self.shaped
        shaped = None
        if self.shaped:
            shaped = s.shaped()
            for a, r in zip(self.agents, self._potential.pay(s, shaped), strict=True):
                rewards[a] = float(r)
        cur = s.now()[4]  # (the seat to act now: current()'s, without its second check)
        if cur == TERMINAL:
            self._end()
        else:
            self.agent_selection = self.possible_agents[cur]
        self._set_infos(shaped)
        if self.shaped or cur == TERMINAL:  # (else every reward is 0: nothing to add)
            for a, r in rewards.items():  # (AECEnv's _accumulate_rewards)
                total[a] += r

    def _end(self) -> None:
        """The game just ended: the returns paid (reward="terminal"), every agent
        terminated (or truncated, when cut at the maximum length)."""
        s = self.seated
        self._paid = True
        if not self.shaped:
            for a, r in zip(self.agents, s.returns(), strict=True):
                self.rewards[a] = float(r)
        cut = s.truncated()
        self.terminations = dict.fromkeys(self.agents, not cut)
        self.truncations = dict.fromkeys(self.agents, cut)
        self.agent_selection = self.agents[0]

    def _refusal(self, action: Any, seat: int) -> str:
        legal = self.seated.legal(seat)
        n = self.seated.num_distinct_actions()
        if not isinstance(action, _IDS) or not 0 <= int(action) < n:
            return f"action {action!r}: not an action id (0 to {n - 1})"
        return (f"action {action} ({self.seated.action_text(int(action))}): not legal for "
                f"{self.agent_selection} now; legal: {legal[:16]}")

    def render(self) -> str | None:
        """The game as text: what is pending, the legal actions, the last decisions;
        "ansi" returns it, "human" prints it (and returns None, as PettingZoo asks)."""
        if self.render_mode is None:
            return None
        s = self.seated
        cur = s.current()
        legal = ", ".join(s.action_text(i) for i in s.legal()) if cur >= 0 else ""
        text = (f"{s.game.TITLE}: {s.game.wait or 'over'} (seat {cur}); legal: {legal}\n"
                f"history: {' | '.join(str(a) for a in s.game.history[-8:])}")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
