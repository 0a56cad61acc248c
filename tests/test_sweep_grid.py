"""simulate_grid as a library call: a cell named twice, a difficulty a game does not have."""

from __future__ import annotations

from pathlib import Path

import pytest

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

