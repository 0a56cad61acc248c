"""OpenSpiel's game type from what a game declares (core/hooks.py `PERFECT_INFORMATION`,
`CHANCE_NODES`): a perfect-information game without chance (the tests' Nim, tests/nimgame/)
is one OpenSpiel's perfect-information algorithms take; the shipped games keep the type
they had (imperfect information, explicit chance)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyspiel
import pytest
from open_spiel.python.algorithms import minimax

from artproject.adapters import openspiel
from tests.nimgame import GAME, Nim, registered

NAME = openspiel.short_name(GAME)


@pytest.fixture(scope="module")
def nim() -> Iterator[type[Nim]]:
    with registered() as cls:
        openspiel.register(GAME)
        yield cls


def _histories(state: Any) -> Iterator[Any]:
    yield state
    if state.is_terminal():
        return
    actions = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
               else state.legal_actions())
    for a in actions:
        yield from _histories(state.child(a))


@pytest.mark.parametrize("game", ["kuhn", "art-of-war", "art-project"])
def test_shipped_games_keep_their_type(game: str) -> None:
    t = openspiel.game_type(game)
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def test_a_perfect_information_game_without_chance_is_declared_so(nim: type[Nim]) -> None:
    game = pyspiel.load_game(NAME)
    for t in (game.get_type(), openspiel.game_type(GAME)):
        assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert game.max_chance_outcomes() == 0
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def test_a_chance_node_it_declares_it_has_not_is_a_spiel_error(nim: type[Nim]) -> None:
    state = pyspiel.load_game(NAME, {"variants": "nim-coin"}).new_initial_state()
    assert state.is_chance_node()
    with pytest.raises(pyspiel.SpielError, match="CHANCE_NODES"):
        state.chance_outcomes()


def test_alpha_beta_solves_it(nim: type[Nim]) -> None:
    """Heaps 1, 2, 3: their nim-sum is 0, so the first to move (p1) loses."""
    value, action = minimax.alpha_beta_search(pyspiel.load_game(NAME))
    assert value == -1.0
    assert action in pyspiel.load_game(NAME).new_initial_state().legal_actions()


def test_its_strings_and_tensors_are_a_perfect_information_games(nim: type[Nim]) -> None:
    """Every player's information state (string and tensor, perfect recall) tells apart
    every history that is a different state, and is the same in every state with the same
    history; a player's observation shows the whole position, the same for every player
    but the viewer's place in it."""
    game = pyspiel.load_game(NAME)
    seen: dict[str, str] = {}
    for state in _histories(game.new_initial_state()):
        for p in range(game.num_players()):
            info = state.information_state_string(p)
            assert seen.setdefault(f"{p}:{info}", str(state.history())) == str(state.history())
            assert len(state.information_state_tensor(p)) == (
                game.information_state_tensor_size())
            assert len(state.observation_tensor(p)) == game.observation_tensor_size()
    assert len(seen) > 100


def test_a_declared_chance_node_makes_it_explicit_stochastic(
        nim: type[Nim], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same game with its coin (who moves first: a chance node), declared so: still
    perfect information, its chance explicit; OpenSpiel's checks and expectiminimax take it."""
    monkeypatch.setattr(nim, "CHANCE_NODES", True)
    game = pyspiel.load_game(NAME, {"variants": "nim-coin"})
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.is_chance_node()
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)
    value, _ = minimax.expectiminimax(state, 20, lambda s: 0.0, 0)
    assert value == 0.0  # (whoever the coin names first loses: even odds)
