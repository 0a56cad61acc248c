"""A game without a screen of its own (no artproject/web/static/js/games/<game>.js) is
played on the generic screen: the tests' Nim (tests/nimgame/, registered for this module
only), created in the lobby and played to its end by clicks in a real browser against a
real server; the table the server sends names the screen its page draws it with."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.nimgame import GAME, registered
from tests.web.conftest import play_by_clicks, shoot

SCREENS = Path(__file__).resolve().parents[2] / "artproject" / "web" / "static" / "js" / "games"


@pytest.fixture(scope="module")
def nim_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from tests.serving import Running

    with registered():
        srv = Running(tmp_path_factory.mktemp("serve") / "games.db")
        try:
            yield srv
        finally:
            srv.stop()


def test_the_table_names_the_screen(nim_server: Any) -> None:
    """The generic screen for the game without one; each shipped game its own."""
    from artproject.core.games import new_game
    from artproject.web.views import table

    assert not (SCREENS / f"{GAME}.js").exists()
    assert table(new_game(GAME))["screen"] == "generic"
    for game in ("kuhn", "art-of-war", "art-project"):
        assert table(new_game(game))["screen"] == game
        assert (SCREENS / f"{game}.js").exists()


def test_a_game_without_a_screen_is_played_on_the_generic_one(page: Any,
                                                             nim_server: Any) -> None:
    page.goto(nim_server.url + "/")
    page.wait_for_selector("#create-game")
    page.select_option("#f-game", GAME)
    page.select_option("#f-seat-p1", "person")
    page.select_option("#f-seat-p2", "bot:random")
    page.click("#create-game")
    page.wait_for_url(re.compile(r"/play/"))
    board = page.locator(".play-board .game.generic")
    board.wait_for()
    assert "Nim" in board.locator("h2").inner_text()
    # the public view: the heaps as they are, the fixed table (its rules) beside
    assert "heaps" in board.locator(".generic-view").inner_text()
    assert "1, 2, 3" in board.locator(".generic-table").inner_text()
    # the legal moves as buttons, in the notation
    texts = [b.get_attribute("data-action")
             for b in board.locator(".actions button[data-action]").all()]
    assert "take p1 3-3" in texts, texts
    shoot(page, "play-generic.png")
    assert play_by_clicks(page, random.Random(5)) > 0
    assert "Game over" in page.locator(".play-board .outcome").inner_text()
    assert page.locator(".play-board .events li").count() > 0
