"""OpenSpiel: every game the kernel plays, registered as a Python game (`python_` and the
game's name, its dashes as underscores: `short_name(game)`), with its parameters (the
game's options, `variants`, `seats` and `reward`); docs/ai.md names each game's.

    import pyspiel
    import artproject.adapters.openspiel  # registers the games
    game = pyspiel.load_game(short_name(DEFAULT), {"players": 2, "seats": "players"})

Chance is explicit: each draw and die roll is a chance node with its outcomes'
probabilities. The game type's information and chance mode are the game's declarations
(`PERFECT_INFORMATION`, `CHANCE_NODES`: by default imperfect information, explicit chance); a
game registered after this module is imported is registered by `register(game)`. A seat's
observation and information state come as strings and tensors (the game's layouts,
core/tensors.py), the information state's string with perfect recall.
`resample_from_infostate` gives OpenSpiel's ISMCTSBot its determinizations (the game's
`resample`). Observers (`make_py_observer`): one seat's view, the public view
(private_info NONE) or every seat's (ALL_PLAYERS), for a player of the game (another is
refused with `pyspiel.SpielError`, as by the state's own methods). The game type is the
game's with these rules and players (its `utility()`: zero-sum, say, at two), its reward
model REWARDS with `reward="shaped"`; the game pickles by name and parameters. An id out
of range or not legal now, or an action after the end, raises `pyspiel.SpielError` and
changes nothing. See docs/ai.md.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import pyspiel

from ..core import checks
from ..core.actions import CHANCE, TERMINAL
from ..core.errors import ArtError, GameError
from ..core.games import game_class, game_names
from ..core.seats import PUBLIC, Seated
from ._common import (
    Packers,
    as_float32,
    parameters,
    player_range,
    reward_mode,
    start,
    tensor,
)

_UTILITY: Final = {"shared": pyspiel.GameType.Utility.IDENTICAL,
                   "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
                   "mixed": pyspiel.GameType.Utility.GENERAL_SUM}
PREFIX: Final = "python_"
# determinizations drawn for one resample_from_infostate before one no play reaches is
# handed out as it is (its history() the original's): where one is unreachable many are
# (Art of War after several heirs shared a dead player's cards by rank, W17: in 60 random
# 7-player games, 72 of 5,387 draws, a replay reaching another state counted as none; 33
# of 5,348 resamples handed out so; none in 30 4-player games, nor after a taking by one
# heir, whose cards are traced back to the dead's draws, core/aow/determinize.py), and
# each try costs a replay (about 1 ms)
RESAMPLE_TRIES: Final = 2
_CHANCE = int(pyspiel.PlayerId.CHANCE)
assert int(pyspiel.PlayerId.TERMINAL) == TERMINAL  # (the seats' is OpenSpiel's)


def short_name(game: str) -> str:
    """The name a game is registered under: `python_` and the game's name, its dashes as
    underscores (every game asked the same: adding one touches no adapter)."""
    return PREFIX + game.replace("-", "_")


def game_type(game: str, utility: str | None = None, reward: str = "terminal") -> Any:
    """The OpenSpiel GameType of a kernel game, from its declarations (`UTILITY`;
    `PERFECT_INFORMATION`: perfect information, else imperfect; `CHANCE_NODES`: explicit
    chance, else deterministic); `utility` that of a game with given rules and players (its
    `utility()`, which may depend on them), `reward` its reward parameter (shaped: a reward
    every step)."""
    cls = game_class(game)
    low, high = _players(game)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"{cls.TITLE or game} (artproject)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if cls.CHANCE_NODES
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION
                     if cls.PERFECT_INFORMATION
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=_UTILITY[utility or cls.UTILITY],
        reward_model=(pyspiel.GameType.RewardModel.REWARDS if reward == "shaped" else
                      pyspiel.GameType.RewardModel.TERMINAL),
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game))


_RANGES: dict[str, tuple[int, int]] = {}


def _players(game: str) -> tuple[int, int]:
    """The fewest and most seats: one for a team seat, else the players its rules take."""
    got = _RANGES.get(game)
    if got is None:
        low, high = player_range(game)
        if "team" in game_class(game).SEATINGS:
            low = 1
        got = _RANGES[game] = (low, high)
    return got


def _spiel_error(err: Exception) -> Any:
    return pyspiel.SpielError(str(err))


class KernelGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """A kernel game as an OpenSpiel game (see the module's text)."""

    game_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        # (variants or reward None: the default, as Batched takes it)
        given = {key: value for key, value in (params or {}).items()
                 if value is not None or key not in ("variants", "reward")}
        self._params = given  # (what a pickle or copy of the game is made anew from)
        try:
            self.proto: Seated = start(self.game_name, given, seed=0, chance="explicit")
            self.reward = reward_mode(given)
        except ArtError as err:
            raise _spiel_error(err) from None
        p, cls = self.proto, game_class(self.game_name)
        p.current()  # (its position worked out once: every new state's copy shares it and the
        # arrays made there, as OpenSpiel makes a new state to size each tensor it hands out)
        utility = p.game.utility()
        info = pyspiel.GameInfo(
            num_distinct_actions=p.num_distinct_actions(),
            max_chance_outcomes=p.max_chance_outcomes() if cls.CHANCE_NODES else 0,
            num_players=p.num_seats(),
            min_utility=p.game.return_range()[0],
            max_utility=p.game.return_range()[1],
            utility_sum=0.0 if utility == "zero_sum" else None,
            max_game_length=p.max_game_length())
        shown = {**parameters(self.game_name), **given}
        for key in ("variants", "reward"):  # (the game's name stays as it was without them)
            if shown[key] == parameters(self.game_name)[key]:
                del shown[key]
        super().__init__(game_type(self.game_name, utility, self.reward), info, shown)
        self.shaped = self.reward == "shaped"
        self.zeros: list[float] = [0.0] * p.num_seats()  # (every new state's `base`)

    def new_initial_state(self) -> KernelState:
        return KernelState(self, self.proto, shared=True)

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        """A pickle or deep copy of the game: its name and parameters, made anew by
        `remade` (pyspiel's own pickle rebuilds the C++ game only, without the kernel's
        game this one plays; unpickled in another process, `remade`'s module registers
        the games first)."""
        return remade, (self.game_name, dict(self._params))

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> KernelObserver:
        return KernelObserver(self, iig_obs_type, params)


class KernelState(pyspiel.State):  # type: ignore[misc]
    """A game in progress, seen by its seats (core/seats.py)."""

    def __init__(self, game: KernelGame, seated: Seated, shared: bool = False) -> None:
        """`shared`: `seated` is the game's first state (`new_initial_state`: OpenSpiel
        makes a new state to size each tensor it hands out, and reads it only), copied
        when the state is first changed or its `seated` asked for."""
        super().__init__(game)
        self._seated, self._shared = seated, shared
        # reward="shaped": the rewards paid before the last decision taken (the shaped
        # score when it was taken; 0 up to the second: the first pays its change from 0, as
        # PettingZoo's and Gymnasium's first step; the game's list, shared: a state's is
        # replaced, never changed in place)
        self.shaped, self.base = game.shaped, game.zeros

    @property
    def seated(self) -> Seated:
        """The game and its seats, the state's own (see `__init__`)."""
        if self._shared:
            self._seated, self._shared = self._seated.clone(), False
        return self._seated

    @seated.setter
    def seated(self, seated: Seated) -> None:
        self._seated, self._shared = seated, False

    def current_player(self) -> int:
        cur = self._seated.current()  # (TERMINAL is OpenSpiel's too)
        return _CHANCE if cur == CHANCE else cur

    def _legal_actions(self, player: int) -> tuple[int, ...]:
        # (asked by OpenSpiel for the player to act only: the position's own ids, which it
        # copies into a list of its own)
        return self._seated.legal_ids(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        s = self._seated
        if s.current() != CHANCE:
            raise pyspiel.SpielError("chance_outcomes: not a chance node")
        if not s.game.CHANCE_NODES:  # (its game type says DETERMINISTIC: a wrong declaration)
            raise pyspiel.SpielError(f"a chance node in {s.game.game}, which declares none "
                                     "(CHANCE_NODES = False)")
        return s.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        s = self.seated if self._shared else self._seated  # (the state's own: see __init__)
        before = s.shaped() if self.shaped and s.steps and s.current() >= 0 else None
        try:
            s.apply(action)  # (an int: OpenSpiel hands its ids over as Python ints)
        except ArtError as err:
            raise _spiel_error(err) from None
        if before is not None:
            self.base = before

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return self._seated.action_text(int(action),
                                            chance=player == pyspiel.PlayerId.CHANCE)
        except ArtError as err:
            raise _spiel_error(err) from None

    def is_terminal(self) -> bool:
        return self._seated.is_terminal()

    def returns(self) -> list[float]:
        """The returns (+1 won, -1 lost; 0 while it goes on); reward="shaped": the rewards
        so far, which sum to the shaped score now (the returns at the end), 0 before the
        first decision."""
        s = self._seated
        if self.shaped:
            return s.shaped() if s.steps or s.is_terminal() else [0.0] * s.num_seats()
        return s.returns()

    def rewards(self) -> list[float]:
        """The rewards since the last decision, chance outcomes included (read at a
        decision and at the end, as OpenSpiel's RL environment reads them after sampling
        chance): reward="shaped", the change in the shaped score since then, the first
        decision's from 0, so 0 before it and the rewards sum to `returns()`; "terminal",
        the returns at the end, else 0."""
        s = self._seated
        if self.shaped:
            if not s.steps and not s.is_terminal():  # (no decision yet: nothing paid)
                return [0.0] * s.num_seats()
            return [a - b for a, b in zip(s.shaped(), self.base, strict=True)]
        if s.is_terminal():
            return s.returns()
        return [0.0] * s.num_seats()

    def shaped_score(self) -> list[float]:
        """Each seat's shaped score (docs/ai.md): the returns at the end."""
        return self._seated.shaped()

    def resample_from_infostate(self, player: int, sampler: Any = None) -> KernelState:
        """A state `player`'s seat cannot tell from this one, what it cannot see drawn anew
        (a determinization, for ISMCTS; `sampler()` gives the seed's randomness), reached
        by play, so that its `history()` replays to it as OpenSpiel's own games' do
        (`_replayed`); SpielError for a player who is not a seat of the game."""
        if player.__class__ is not int or not 0 <= player < self._seated.num_seats():
            player = _seat_of(self._seated, player)
        for _ in range(RESAMPLE_TRIES):  # (a determinization no play reaches: drawn again)
            u = sampler() if callable(sampler) else random.random()
            target = self._seated.resample(player, int(u * 2**53))
            got = _replayed(self, target)
            if got is not None:
                return got
        clone = self.clone()  # (never the state itself: that would tell the search what
        clone.seated = target  # the seat cannot see; its history() is the original's)
        return clone  # type: ignore[no-any-return]

    def __str__(self) -> str:
        """The whole position and how it came about (equal states, equal strings)."""
        s = self._seated
        g = s.game
        return (f"seats={s.seats} turn={s.turn} steps={s.steps} decisions={s.decisions} "
                f"wait={g.wait} outcome={g.outcome}\nhistory={[str(a) for a in g.history]}"
                f"\nposition={g.position()}")


def _seat_of(seated: Seated, player: Any) -> int:
    """A player given as numpy's integer as an int; SpielError for one who is not a seat of
    the game (0 to num_players() - 1)."""
    try:
        return checks.index(player, "player", 0, seated.num_seats() - 1)
    except GameError:
        raise pyspiel.SpielError(f"player {player!r}: not a player of this game (0 to "
                                 f"{seated.num_seats() - 1})") from None


def _replayed(state: KernelState, target: Seated) -> KernelState | None:
    """`target`, a determinization of `state` (the game's `resample`, which redraws what a
    seat cannot see but keeps the history's chance outcomes), as a state reached by play:
    `state`'s history applied to a new state, each decision the target's own (a hidden
    card laid may be another) and each chance outcome the one that draws what the target's
    trail holds there (`_outcome_toward`). None where no play reaches the target (a
    determinization whose trail no outcome draws: Art of War's after several heirs shared a
    dead player's cards by rank, W17, whose new shares need not be the ones a new hand of
    the dead player's deals), and where play reaches another state than the target (its
    trail or fingerprint not the target's: never handed out, since it may hold what the
    seat cannot see as it truly is)."""
    new: KernelState = state.get_game().new_initial_state()
    size, wanted = target.space.size, target.game.history
    for i in state.history():
        s = new.seated
        cur = s.current()
        if cur == CHANCE:
            j = _outcome_toward(s, target)
        elif i < size:  # (else a delegation, the same in both)
            j = s.space.decisions.id(wanted[len(s.game.history)])
            j = j if j in s.legal_ids(cur) else None
        else:
            j = i
        if j is None:
            return None
        new.apply_action(j)
    g, want = new.seated.game, target.game  # (every draw the target's does not make every
    if g.trail != want.trail or g.fingerprint() != want.fingerprint():  # fact its: a
        return None  # share of a dead player's cards by rank, W17, is dealt from the dead's
    return new  # own, which may be the true ones: that state would tell the seat the rest)


def _outcome_toward(s: Seated, target: Seated) -> int | None:
    """At `s`'s chance node, the outcome (its id) after which `s`'s trail is `target`'s so
    far (`s` at a point of `target`'s history: what chance drew there, as the target's
    players saw it drawn), the target's own outcome tried first; None when none is."""
    g, space = s.game, s.space.chance
    n, trail = len(g.trail), target.game.trail
    first = space.id(target.game.history[len(g.history)])
    outcomes = [o for o, _ in s.chance_outcomes()]
    for o in sorted(outcomes, key=lambda o: o != first):
        c = g.clone()
        c.apply(space.action(o))
        drawn = c.trail[n:]
        if drawn == trail[n:n + len(drawn)]:
            return o
    return None


class KernelObserver:
    """OpenSpiel's observer protocol (`make_observation`, `make_py_observer`): a tensor (flat
    and by segment, in `dict`) and a string, for the kind of observer asked
    (`pyspiel.IIGObservationType`): `private_info` SINGLE_PLAYER, one seat's view (the
    default); NONE, the public view (what the whole table sees, the same for every player:
    a spectator's); ALL_PLAYERS, every seat's view one after the other (a perfect-information
    view: every player's private facts). `perfect_recall` gives the information state
    instead of the observation. The public information is always there (public_info)."""

    def __init__(self, game: KernelGame, iig_obs_type: Any, params: dict[str, Any] | None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        private = (iig_obs_type.private_info if iig_obs_type is not None
                   else pyspiel.PrivateInfoType.SINGLE_PLAYER)
        if iig_obs_type is not None and not iig_obs_type.public_info:
            raise ValueError("this game's observers always show the public information "
                             "(public_info=True)")
        self.kind = "information_state" if recall else "observation"
        self.private = private
        # (pybind's enums compare by a call into C++: compared once here, not at each ask)
        self._all = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        self._public = private == pyspiel.PrivateInfoType.NONE
        p = game.proto
        layout = (p.all_layout(self.kind) if private == pyspiel.PrivateInfoType.ALL_PLAYERS
                  else p.layout(self.kind))
        self._seats = p.num_seats()  # (a player out of range: refused, as by the state)
        self.tensor = np.zeros(layout.size, np.float32)
        self._packers = Packers()  # each seat's tensor, kept across the states it is set from
        self.dict = {name: self.tensor[at:at + int(np.prod(shape))].reshape(shape)
                     for name, at, shape, _ in layout.rows()}

    def _player(self, player: Any) -> int:
        """A player given as numpy's integer as an int; SpielError for one who is not a
        player of the game (0 to num_players() - 1), as the state's own
        `observation_tensor(player)` raises (every view asks for one)."""
        try:
            return checks.index(player, "player", 0, self._seats - 1)
        except GameError:
            raise pyspiel.SpielError(f"player {player!r}: not a player of this game (0 to "
                                     f"{self._seats - 1})") from None

    def set_from(self, state: KernelState, player: int) -> None:
        if player.__class__ is not int or not 0 <= player < self._seats:
            player = self._player(player)
        s = state._seated  # (read only: a state sharing the game's first one stays so)
        if self._all:
            self.tensor[:] = as_float32(s.all_tensor(self.kind, raw=True))
        elif state._shared:  # the game's first state, which OpenSpiel makes to size each
            # tensor it hands out: its tensor kept with it
            self.tensor[:] = tensor(s, PUBLIC if self._public else player, self.kind,
                                    self._packers, copy=False)
        else:  # (the seat's buffer, written once a position)
            self.tensor[:] = self._packers.written(s, PUBLIC if self._public else player,
                                                   self.kind)

    def string_from(self, state: KernelState, player: int) -> str:
        if player.__class__ is not int or not 0 <= player < self._seats:
            player = self._player(player)
        s = state._seated
        if self._all:
            return s.all_string(self.kind)
        seat = PUBLIC if self._public else player
        if self.kind == "information_state":
            return s.information_state_string(seat)
        return s.observation_string(seat)


def remade(game: str, params: dict[str, Any]) -> KernelGame:
    """The OpenSpiel game of kernel game `game` with `params`, made anew (a pickled or
    copied game's, `KernelGame.__reduce__`)."""
    made: KernelGame = globals()[_class_name(game)](params)
    return made


def _class_name(game: str) -> str:
    return f"KernelGame_{game.replace('-', '_')}"


def register(game: str) -> None:
    """Register a kernel game registered after this module was imported (its games then
    were registered on import); one already registered is left as it is."""
    if short_name(game) not in pyspiel.registered_names():
        _register(game)


def _register(game: str) -> None:
    name = _class_name(game)
    cls = type(name, (KernelGame,), {"game_name": game, "__module__": __name__,
                                     "__qualname__": name})
    globals()[name] = cls  # found by name: the game pickles (for worker processes)
    pyspiel.register_game(game_type(game), cls)


for _name in game_names():
    register(_name)
