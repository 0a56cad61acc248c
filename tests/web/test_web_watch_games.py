"""`artproject serve --watch FILE` in a real browser for the other games' files: Art of
War's rules and Kuhn poker's, each drawn as its game's table (the page the web client plays
them on), redrawn when the file is saved, and an error in it shown as `check` prints it
(file:line:col), the last good table kept in sight."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import MISSION

MISSIONS = MISSION.parent


def _save(path: Path, text: str) -> None:
    """Save the file as an editor does, its time stamp moved on (a change seen at once)."""
    import os

    path.write_text(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[Any]:
    """A function that starts `artproject serve --watch FILE` on a free loopback port."""
    from artproject import web
    from tests.serving import Running

    running: list[Any] = []

    def start(path: Path) -> Any:
        web.configure(watch=path)
        running.append(Running(tmp_path / "games.db"))
        return running[-1]

    try:
        yield start
    finally:
        for srv in running:
            srv.stop()
        web.configure(watch=None)


def _place(text: str, needle: str) -> list[str]:
    """The line and column (1-based) where `needle` starts in `text`."""
    lines = text.splitlines()
    line = next(i for i, x in enumerate(lines) if needle in x)
    return [str(line + 1), str(lines[line].index(needle) + 1)]


def _broken(page: Any, path: Path, text: str, needle: str, words: str) -> None:
    """The page shows the error at `needle`'s place, the last good table dimmed."""
    error = page.locator(".check-error")
    error.wait_for()
    shown = error.inner_text()
    assert f"{path}:" in shown and words in shown, shown
    assert shown.splitlines()[0].split(":")[1:3] == _place(text, needle)
    assert page.locator(".watch-board.stale .game").count() == 1
    assert "the last without errors" in page.locator(".stale-note").inner_text()


def test_an_art_of_war_rules_file_is_drawn_and_follows_the_file(
        page: Any, serving: Any, tmp_path: Path) -> None:
    good = (MISSIONS / "art-of-war.toml").read_text()
    path = tmp_path / "my-war.toml"
    _save(path, good)
    page.goto(serving(path).url + "/watch")
    page.wait_for_selector(".watch-board .game.art-of-war")
    seats = page.locator(".watch-board .seat")
    assert seats.count() == 2  # the fewest players W1 allows, as dealt
    assert "6 tokens" in seats.first.inner_text() and "6 cards in hand" in seats.first.inner_text()
    # the deck's make-up, which every player knows: no hand is shown to the watcher
    farmer = page.locator(".watch-board .deck-kinds li[data-kind=farmer]")
    assert "× 2 · score 1" in farmer.inner_text()
    assert page.locator(".watch-board .hand-box").count() == 0

    _save(path, good.replace("tokens_dealt = 6", "tokens_dealt = 5", 1))  # edited
    page.wait_for_function("document.querySelector('.watch-board .seat') && "
                           "document.querySelector('.watch-board .seat').innerText"
                           ".includes('5 tokens')")

    bad = good.replace("tokens_dealt = 6", 'tokens_dealt = "six"', 1)  # broken
    _save(path, bad)
    _broken(page, path, bad, '"six"', "tokens_dealt")

    _save(path, good)  # mended
    page.wait_for_selector(".watch-board:not(.stale) .game.art-of-war")
    assert page.locator(".check-error").count() == 0
    assert "6 tokens" in page.locator(".watch-board .seat").first.inner_text()


def test_an_art_of_war_card_file_is_drawn_with_its_deck(
        page: Any, serving: Any, tmp_path: Path) -> None:
    good = (MISSIONS.parent / "cards" / "art-of-war.toml").read_text()
    path = tmp_path / "my-cards.toml"
    _save(path, good)
    page.goto(serving(path).url + "/watch")
    farmer = page.locator(".watch-board .deck-kinds li[data-kind=farmer]")
    farmer.wait_for()
    assert "× 2 · score 1" in farmer.inner_text()
    start = good.index('name = "farmer"')
    line = good.index("count = 2", start)
    _save(path, good[:line] + "count = 3" + good[line + len("count = 2"):])  # one farmer more
    page.wait_for_function("document.querySelector('.watch-board .deck-kinds li[data-kind=farmer]')"
                           ".innerText.includes('× 3')")


def test_a_kuhn_poker_rules_file_is_drawn_and_follows_the_file(
        page: Any, serving: Any, tmp_path: Path) -> None:
    good = (MISSIONS / "kuhn.toml").read_text()
    path = tmp_path / "my-poker.toml"
    _save(path, good)
    page.goto(serving(path).url + "/watch")
    page.wait_for_selector(".watch-board .game.kuhn")
    deck = page.locator(".watch-board .deck li")
    assert deck.all_text_contents() == ["jack", "queen", "king"]
    # a spectator's table: the antes in, each card face down
    assert page.locator(".watch-board .seat").count() == 2
    assert page.locator(".watch-board .card-back").count() == 2

    more = good.replace('cards = ["jack", "queen", "king"]',
                        'cards = ["ten", "jack", "queen", "king"]', 1)
    assert more != good
    _save(path, more)  # edited: a fourth card
    page.wait_for_function("document.querySelectorAll('.watch-board .deck li').length === 4")
    assert page.locator(".watch-board .deck li").first.inner_text() == "ten"

    bad = more.replace('cards = ["ten"', 'cards = ["Ten"', 1)  # broken: not a name
    _save(path, bad)
    _broken(page, path, bad, '"Ten"', "'Ten' is not a name")

    _save(path, good)  # mended
    page.wait_for_selector(".watch-board:not(.stale) .game.kuhn")
    assert page.locator(".watch-board .deck li").count() == 3


def test_a_hand_of_kuhn_poker_played_by_clicks(page: Any, serving: Any,
                                               tmp_path: Path) -> None:
    """The screen the watcher draws Kuhn poker on is the one a hand is played on."""
    import random
    import re

    from tests.web.conftest import play_by_clicks

    srv = serving(MISSIONS / "kuhn.toml")
    page.goto(srv.url + "/")
    page.wait_for_selector("#create-game")
    page.select_option("#f-game", "kuhn")
    page.select_option("#f-seat-p1", "person")
    page.select_option("#f-seat-p2", "bot:random")
    page.click("#create-game")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector(".play-board .game.kuhn")
    # your own card face up, the other's face down
    assert page.locator(".play-board .seat.me .kuhn-card").count() == 1
    assert page.locator(".play-board .seat:not(.me) .card-back").count() == 1
    assert play_by_clicks(page, random.Random(3)) > 0
    assert "Game over" in page.locator(".play-board .outcome").inner_text()
