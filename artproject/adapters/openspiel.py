"""OpenSpiel: every game the kernel plays, registered as a Python game (`python_` and the
game's name: `python_art_project`), with its parameters (the game's options and `seats`).

    import pyspiel
    import artproject.adapters.openspiel  # registers the games
    game = pyspiel.load_game("python_art_project", {"players": 2, "seats": "players"})

Chance is explicit: each draw and die roll is a chance node with its outcomes'
probabilities. A seat's observation and information state come as strings and tensors
(the game's layouts, core/tensors.py), the information state's string with perfect recall.
`resample_from_infostate` gives OpenSpiel's ISMCTSBot its determinizations (the game's
`resample`). An id out of range or not legal now, or an action after the end, raises
`pyspiel.SpielError` and changes nothing. See docs/ai.md.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import pyspiel

from ..core.actions import CHANCE, TERMINAL
from ..core.errors import ArtError
from ..core.games import game_class, game_names
from ..core.seats import Seated
from ._common import parameters, start

_UTILITY: Final = {"shared": pyspiel.GameType.Utility.IDENTICAL,
                   "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
                   "mixed": pyspiel.GameType.Utility.GENERAL_SUM}
PREFIX: Final = "python_"


def short_name(game: str) -> str:
    """The name a game is registered under: `python_art_project` for `art-project`."""
    return PREFIX + game.replace("-", "_")


def game_type(game: str) -> Any:
    """The OpenSpiel GameType of a kernel game, from its declarations."""
    cls = game_class(game)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"{cls.TITLE or game} (artproject)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_UTILITY[cls.UTILITY],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=7,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game))


def _spiel_error(err: Exception) -> Any:
    return pyspiel.SpielError(str(err))


class KernelGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """A kernel game as an OpenSpiel game (see the module's text)."""

    game_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        try:
            self.proto: Seated = start(self.game_name, given, seed=0, chance="explicit")
        except ArtError as err:
            raise _spiel_error(err) from None
        p = self.proto
        cls = game_class(self.game_name)
        info = pyspiel.GameInfo(
            num_distinct_actions=p.num_distinct_actions(),
            max_chance_outcomes=p.max_chance_outcomes(),
            num_players=p.num_seats(),
            min_utility=p.game.return_range()[0],
            max_utility=p.game.return_range()[1],
            utility_sum=0.0 if cls.UTILITY == "zero_sum" else None,
            max_game_length=p.max_game_length())
        super().__init__(game_type(self.game_name), info, {**parameters(self.game_name),
                                                           **given})

    def new_initial_state(self) -> KernelState:
        return KernelState(self, self.proto.clone())

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> KernelObserver:
        return KernelObserver(self, iig_obs_type, params)


class KernelState(pyspiel.State):  # type: ignore[misc]
    """A game in progress, seen by its seats (core/seats.py)."""

    def __init__(self, game: KernelGame, seated: Seated) -> None:
        super().__init__(game)
        self.seated = seated

    def current_player(self) -> int:
        cur = self.seated.current()
        if cur == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if cur == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return cur

    def _legal_actions(self, player: int) -> list[int]:
        return self.seated.legal(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.seated.current() != CHANCE:
            raise pyspiel.SpielError("chance_outcomes: not a chance node")
        return self.seated.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        try:
            self.seated.apply(int(action))
        except ArtError as err:
            raise _spiel_error(err) from None

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return self.seated.action_text(int(action), chance=player == pyspiel.PlayerId.CHANCE)
        except ArtError as err:
            raise _spiel_error(err) from None

    def is_terminal(self) -> bool:
        return self.seated.is_terminal()

    def returns(self) -> list[float]:
        return self.seated.returns()

    def shaped_score(self) -> list[float]:
        """Each seat's shaped score (docs/ai.md): the returns at the end."""
        return self.seated.shaped()

    def resample_from_infostate(self, player: int, sampler: Any = None) -> KernelState:
        """A state `player`'s seat cannot tell from this one, what it cannot see drawn anew
        (a determinization, for ISMCTS); `sampler()` gives the seed's randomness."""
        u = sampler() if callable(sampler) else random.random()
        seed = int(u * 2**53)
        clone = self.clone()
        clone.seated = self.seated.resample(int(player), seed)
        return clone  # type: ignore[no-any-return]

    def __str__(self) -> str:
        """The whole position and how it came about (equal states, equal strings)."""
        s = self.seated
        g = s.game
        return (f"seats={s.seats} turn={s.turn} steps={s.steps} decisions={s.decisions} "
                f"wait={g.wait} outcome={g.outcome}\nhistory={[str(a) for a in g.history]}"
                f"\nposition={g.position()}")


class KernelObserver:
    """OpenSpiel's observer protocol: a seat's tensor (as a flat array and by segment, in
    `dict`) and string; perfect recall gives the information state."""

    def __init__(self, game: KernelGame, iig_obs_type: Any, params: dict[str, Any] | None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        if iig_obs_type is not None and (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("this game observes for one seat with the public information "
                             "(private_info=SINGLE_PLAYER, public_info=True)")
        self.kind = "information_state" if recall else "observation"
        layout = game.proto.layout(self.kind)
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {name: self.tensor[at:at + int(np.prod(shape))].reshape(shape)
                     for name, at, shape, _ in layout.rows()}

    def set_from(self, state: KernelState, player: int) -> None:
        self.tensor[:] = state.seated.tensor(player, self.kind)

    def string_from(self, state: KernelState, player: int) -> str:
        if self.kind == "information_state":
            return state.seated.information_state_string(player)
        return state.seated.observation_string(player)


def _register(game: str) -> None:
    cls = type(f"KernelGame_{game.replace('-', '_')}", (KernelGame,), {"game_name": game})
    pyspiel.register_game(game_type(game), cls)


for _name in game_names():
    if short_name(_name) not in pyspiel.registered_names():
        _register(_name)
