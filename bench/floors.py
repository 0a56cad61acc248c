"""The libraries' own cost, for bench/adapters.py: a null game of the same shape as one of
ours (as many distinct actions, an observation tensor as long, as many legal ids a
decision and decisions a game, on average) whose every answer is made in advance, driven
through PettingZoo's AEC protocol (raw, and wrapped as `env()` wraps ours) and through
OpenSpiel's Python-game bridge by the very loops bench/adapters.py drives ours with. What
such a game costs a step is what the library and the learner's side of the loop cost with
no game at all: the floor under any adapter, so that a ratio to the engine can be read as
engine + floor + the adapter's own.

    python bench/adapters.py --floors
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Shape:
    """What a null game copies from one of ours."""

    actions: int  # distinct action ids
    tensor: int  # observation tensor's length
    legal: int  # legal ids a decision (the mean, rounded)
    length: int  # decisions a game (the mean, rounded)


_SHAPES: dict[str, Shape] = {}


def shape_of(game: str, options: dict[str, Any]) -> Shape:
    """The shape of `game` with `options` (seats included): its sizes from the adapter's
    spaces, its mean legal ids and game length from 200 random games of the engine."""
    key = f"{game}{sorted(options.items())}"
    if key not in _SHAPES:
        from artproject.adapters.pettingzoo import raw_env
        from artproject.core.games import game_class

        env = raw_env(game=game, **options)
        agent = env.possible_agents[0]
        cls, rng = game_class(game), random.Random(0)
        decisions = legal = 0
        for seed in range(200):
            g = cls.create(seed=seed, **{k: v for k, v in options.items() if k != "seats"})
            while g.outcome is None:
                acts = g.legal_actions()
                legal += len(acts)
                decisions += 1
                g.apply(rng.choice(acts))
        ids, seen = env.action_spaces[agent], env.observation_spaces[agent]["observation"].shape
        assert seen is not None  # (a Box's shape)
        _SHAPES[key] = Shape(int(ids.n), int(seen[0]),
                             max(1, round(legal / decisions)), max(1, round(decisions / 200)))
    return _SHAPES[key]


def null_aec(shape: Shape) -> Any:
    """A two-player PettingZoo AECEnv of `shape` with no game: its observation and mask
    made once and copied out, as ours are; the end pays +1 and -1."""
    from gymnasium import spaces
    from pettingzoo import AECEnv

    from artproject.adapters.pettingzoo import Ids

    obs = np.zeros(shape.tensor, np.float32)
    mask = np.zeros(shape.actions, np.int8)
    mask[:: max(1, shape.actions // shape.legal)][: shape.legal] = 1
    agents = ["player_0", "player_1"]

    class Null(AECEnv):  # type: ignore[misc]
        metadata = {"name": "null_v0", "is_parallelizable": False,  # noqa: RUF012
                    "render_modes": []}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = agents
            self.action_spaces = {a: Ids(shape.actions) for a in agents}  # (as ours)
            self.observation_spaces = {a: spaces.Dict({
                "observation": spaces.Box(0, 1, (shape.tensor,), np.float32),
                "action_mask": spaces.Box(0, 1, (shape.actions,), np.int8)}) for a in agents}

        def observe(self, agent: str) -> dict[str, Any]:
            return {"observation": obs.copy(), "action_mask": mask.copy()}

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            self.agents = agents[:]
            self.rewards = dict.fromkeys(agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(agents, 0.0)
            self.terminations = dict.fromkeys(agents, False)
            self.truncations = dict.fromkeys(agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
            self.agent_selection, self.n = agents[0], 0

        def step(self, action: Any) -> None:
            a = self.agent_selection
            if self.terminations[a] or self.truncations[a]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[a] = 0.0
            self.n += 1
            if self.n >= shape.length:
                self.rewards = {agents[0]: 1.0, agents[1]: -1.0}
                self.terminations = dict.fromkeys(agents, True)
            self.agent_selection = agents[self.n & 1]
            self._accumulate_rewards()

    return Null()


def null_wrapped(shape: Shape) -> Any:
    """`null_aec` wrapped as our `env()` wraps `raw_env` (PettingZoo's classic games'
    wrappers): what those wrappers add to a step with no game."""
    from artproject.adapters.pettingzoo import wrap

    return wrap(null_aec(shape))


_REGISTERED: dict[Shape, str] = {}


def null_spiel(shape: Shape) -> Any:
    """A two-player OpenSpiel Python game of `shape` with no game (registered once a
    shape): its legal ids and observation tensor made once; no chance nodes (ours have
    them: each costs a bridge crossing or two more)."""
    import pyspiel

    if shape not in _REGISTERED:
        name = f"python_null_floor_{len(_REGISTERED)}"
        legal = list(range(0, shape.actions, max(1, shape.actions // shape.legal)))
        legal = legal[: shape.legal]
        kind = pyspiel.GameType(
            short_name=name, long_name="a null game (bench/floors.py)",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=2, min_num_players=2, provides_information_state_string=False,
            provides_information_state_tensor=False, provides_observation_string=False,
            provides_observation_tensor=True, parameter_specification={})
        info = pyspiel.GameInfo(num_distinct_actions=shape.actions, max_chance_outcomes=0,
                                num_players=2, min_utility=-1.0, max_utility=1.0,
                                utility_sum=0.0, max_game_length=shape.length)

        class Observer:
            def __init__(self) -> None:
                self.tensor = np.zeros(shape.tensor, np.float32)
                self.dict = {"observation": self.tensor}

            def set_from(self, state: Any, player: int) -> None:
                pass

            def string_from(self, state: Any, player: int) -> str:
                return ""

        class State(pyspiel.State):  # type: ignore[misc]
            def __init__(self, game: Any) -> None:
                super().__init__(game)
                self.n = 0

            def current_player(self) -> Any:
                return pyspiel.PlayerId.TERMINAL if self.n >= shape.length else self.n & 1

            def _legal_actions(self, player: int) -> list[int]:
                return legal

            def _apply_action(self, action: int) -> None:
                self.n += 1

            def is_terminal(self) -> bool:
                return self.n >= shape.length

            def returns(self) -> list[float]:
                return [1.0, -1.0]

        class Game(pyspiel.Game):  # type: ignore[misc]
            def __init__(self, params: dict[str, Any] | None = None) -> None:
                super().__init__(kind, info, params or {})

            def new_initial_state(self) -> State:
                return State(self)

            def make_py_observer(self, iig_obs_type: Any = None,
                                 params: dict[str, Any] | None = None) -> Observer:
                return Observer()

        pyspiel.register_game(kind, Game)
        _REGISTERED[shape] = name
    return pyspiel.load_game(_REGISTERED[shape])
