"""verify's per-game check "a clone's move does not change its original" never ran: it was
made on a finished game, which has no legal action to take. It runs at positions in play:
a clone takes the action the game takes next, the original is as it was, a clone taken
before the original's move is as it was, and the same action on each gives the same game. A
clone that shares state with its original (a fault put in here) is a counterexample."""

from __future__ import annotations

from typing import Any

import pytest

from artproject.core.fields import LIST, LISTS
from artproject.core.games import game_class, game_tools
from artproject.verify import Example

GAMES = [("art-project", 2, "medium"), ("art-of-war", 3, "-"), ("kuhn", 2, "-")]


def _game(name: str, players: int) -> Any:
    return game_class(name).create(players=players, seed=0)


def _share_lists(c: Any, original: Any) -> None:
    """The fault: the clone holds its original's lists (a shallow copy), not copies."""
    for f in type(original).FIELDS:
        if f.copy in (LIST, LISTS):
            setattr(c, f.name, getattr(original, f.name))


@pytest.mark.parametrize(("name", "players", "difficulty"), GAMES)
def test_clones_of_a_game_in_play_are_independent(name: str, players: int,
                                                  difficulty: str) -> None:
    rules = _game(name, players).rules
    for seed in range(3):
        out = game_tools(name).play_example(rules, Example(players, difficulty, seed, ()))
        assert out.violation is None, (seed, out.violation)


@pytest.mark.parametrize(("name", "players", "difficulty"), GAMES)
def test_a_clone_that_shares_its_originals_work_is_a_counterexample(
        monkeypatch: pytest.MonkeyPatch, name: str, players: int, difficulty: str) -> None:
    st = _game(name, players)
    cls, clone = type(st), type(st).clone

    def sharing(self: Any) -> Any:
        c = clone(self)
        _share_lists(c, self)
        return c

    monkeypatch.setattr(cls, "clone", sharing)
    out = game_tools(name).play_example(st.rules, Example(players, difficulty, 0, ()))
    assert out.violation is not None and "a clone's move" in str(out.violation), out
    assert "changed its original" in str(out.violation)


def test_a_move_that_changes_a_clone_taken_before_it_is_a_counterexample(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The other way round: the original's move reaches into a clone taken before it (only
    that one shares: the clone that moves first is whole, so the original is unchanged)."""
    st = _game("art-project", 2)
    cls, clone = type(st), type(st).clone
    made: list[Any] = []

    def sharing(self: Any) -> Any:
        c = clone(self)
        made.append(c)
        if len(made) % 2:  # `before`, the first of the two a probed step takes
            _share_lists(c, self)
        return c

    monkeypatch.setattr(cls, "clone", sharing)
    out = game_tools("art-project").play_example(st.rules, Example(2, "medium", 0, ()))
    assert out.violation is not None and "changed a clone taken before it" in str(
        out.violation), out
