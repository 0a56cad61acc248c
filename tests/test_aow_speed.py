"""Art of War's hot path against its plain statement: what the speed work keeps equal."""

from __future__ import annotations

import pytest

from artproject import new_game
from artproject.aow.policies import POLICIES


@pytest.mark.parametrize("chance", ["sample", "explicit"])
def test_events_told_by_a_replay_are_the_logged_games(chance: str) -> None:
    """A game that did not log its events tells them by replaying from its seed; with
    explicit chance the replay deals card by card as the game did (each card a node)."""
    games = [new_game("art-of-war", players=3, seed=2, chance=chance, log=log)
             for log in (False, True)]
    for g in games:
        choose = POLICIES["random"](2)
        while not g.is_over():
            g.apply(g.sample_chance() if g.is_chance_node() else choose(g))
    unlogged, logged = games
    assert unlogged.history == logged.history
    assert unlogged.events() == logged.events() and any("deal" in e for e in logged.events())
