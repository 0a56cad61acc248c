"""A results store of many games in the replay viewer (the reviewer's finding: a 1,700-game
store listed its first 500 and said it held 500, and games differing in variant or difficulty
looked the same): the true count, every game reachable by filters and pages, the columns
that tell games apart, and a step title that names them all."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from artproject.store import Row, Store
from tests.web.conftest import shoot


def _store(tmp_path: Path) -> Path:
    """A store of one real Japan 2p hard game (seed 1) behind 602 Egypt rows (listed only)."""
    db = tmp_path / "var.db"
    subprocess.run([sys.executable, "-m", "artproject", "simulate", "--mission", "japan",
                    "--players", "2", "--difficulty", "hard", "--games", "1", "--seed", "1",
                    "--store", str(db)], check=True, capture_output=True)
    with Store.open(db) as store:
        store.add([Row("art", "egypt", "team-threat" if s % 2 else "", "0" * 64, "medium",
                       3, s, "heuristic", "lost", "a pawn in lost X cannot leave (R13)", 9,
                       120, "test") for s in range(600)])
        # two games of Egypt's file edited since: told apart by their rules' digest
        store.add([Row("art", "egypt", "", "1" * 64, "medium", 3, s, "heuristic", "won", "",
                       9, 120, "test") for s in range(2)])
    return db


def test_every_game_of_a_big_store_is_reachable(page: Any, server: Any, tmp_path: Path) -> None:
    db = _store(tmp_path)
    page.goto(server.url + "/replay")
    page.set_input_files("#replay-file", str(db))
    page.wait_for_selector(".store table")
    assert page.locator(".store h2").inner_text() == "Results store var.db: 603 games"
    assert page.locator(".store tbody tr").count() == 100  # a page
    assert "Page 1 of 7" in page.locator(".store-pages").inner_text()
    assert page.locator(".store tbody tr a").first.inner_text() == "egypt [rules 000000] seed 0"
    heads = page.locator(".store thead th").all_inner_texts()
    assert {"variant", "difficulty", "policy", "outcome"} <= set(heads)
    page.select_option("select[name=variant]", label="team-threat")
    assert "300 games match" in page.locator(".store-count").inner_text()
    page.select_option("select[name=variant]", label="any")
    page.select_option("select[name=mission]", label="japan")
    page.wait_for_selector(".store-count:has-text('1 game match')")
    row = page.locator(".store tbody tr")
    assert row.count() == 1 and "hard" in row.inner_text()
    shoot(page, "replay-store.png")
    row.locator("a").click()
    page.wait_for_selector(".replay-board .game")
    assert page.locator(".replay-head h1").inner_text() == \
        "store var.db: japan 2p hard seed 1 heuristic"
