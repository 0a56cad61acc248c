"""simulate_grid as a library call: a cell named twice, a difficulty a game does not have."""

from __future__ import annotations

from pathlib import Path

import pytest

from artproject.core.errors import GameError
from artproject.simulate import simulate_grid
from artproject.store import Store

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("missions", "difficulties"), [
    (["japan", str(ROOT / "missions" / "japan.toml")], ["easy"]),  # by name and by path
    (["japan"], ["easy", "easy"]),
])
def test_a_cell_named_twice_is_played_once_and_reported_where_named(
        tmp_path: Path, missions: list[str], difficulties: list[str]) -> None:
    """A cell named twice is one cell: its games are played once, and it is reported at
    each place the grid names it, with or without a store (issue: without one, each
    reported twice the games)."""
    cells = simulate_grid(missions, difficulties, [2], games=5, seed=1)
    assert [c["games"] for c in cells] == [5, 5]
    assert cells[0] == cells[1]
    with Store.open(tmp_path / "sweep.db") as store:
        stored = simulate_grid(missions, difficulties, [2], games=5, seed=1, store=store)
        assert store.count() == 5
    assert stored == cells


@pytest.mark.parametrize("game", ["kuhn", "art-of-war"])
def test_a_game_without_difficulties_refuses_one_named(game: str) -> None:
    """A game without difficulties plays the one cell '-'; a difficulty named is refused up
    front with the project's error naming it (it was Python's TypeError from a worker)."""
    with pytest.raises(GameError, match=r"difficulties\[0\]: .* has no difficulty.*'easy'"):
        simulate_grid([game], ["easy"], [2], games=1, seed=0, game=game)
    assert simulate_grid([game], ["-"], [2], games=1, seed=0, game=game)[0]["games"] == 1


def test_a_game_with_difficulties_refuses_an_unknown_one_before_a_game() -> None:
    with pytest.raises(GameError, match=r"difficulties\[1\]: unknown difficulty '-'"):
        simulate_grid(["japan"], ["easy", "-"], [2], games=1, seed=0)
