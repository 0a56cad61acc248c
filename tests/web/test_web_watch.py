"""`artproject serve --watch FILE` in a real browser: the board of the file, redrawn when it
is saved; an error in it shown as `check` prints it; city names with HTML in them shown as
text, never run; the pages readable on a phone."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import MISSION, shoot

HOSTILE = ('<script>window.__pwned = 1</script>',
           '<b>Bold</b> & <img src=x onerror="window.__pwned = 2">')


def _save(path: Path, text: str) -> None:
    """Save the file as an editor does, its time stamp moved on (a change seen at once)."""
    path.write_text(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


def test_the_watched_board_follows_the_file(page: Any, server: Any, watched: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="artproject.web")
    good = MISSION.read_text()
    _save(watched, good)
    page.goto(server.url + "/watch")
    page.wait_for_selector(".watch-board svg.board")
    assert page.locator(".watch-board .city").count() == 8
    shoot(page, "author.png")

    _save(watched, good.replace('to = "sendai"', 'to = "sendaii"', 1))  # a typo, saved
    error = page.locator(".check-error")
    error.wait_for()
    text = error.inner_text()
    assert f"{watched}:" in text and "unknown city 'sendaii' (did you mean 'sendai'?)" in text
    line = 1 + good.splitlines().index(next(x for x in good.splitlines()
                                            if 'to = "sendai"' in x))
    column = 1 + good.splitlines()[line - 1].index("\"sendai")
    # file:line:col, as check says
    assert text.splitlines()[0].split(":")[1:3] == [str(line), str(column)]
    # the last board without errors stays in sight, dimmed and said to be old
    assert page.locator(".watch-board.stale svg.board").count() == 1
    assert "the last without errors" in page.locator(".stale-note").inner_text()
    logged = [r.getMessage() for r in caplog.records if r.name == "artproject.web"]
    assert len(logged) == 1 and "unknown city 'sendaii'" in logged[0]  # one line
    shoot(page, "author-error.png", full_page=False)

    _save(watched, good.replace('x = 82', 'x = 90', 1))  # mended, and a city moved
    page.wait_for_selector(".watch-board:not(.stale) svg.board")
    assert page.locator(".check-error").count() == 0


def test_city_names_with_html_show_as_text(page: Any, server: Any, watched: Path) -> None:
    text = MISSION.read_text()
    text = text.replace('name = "sapporo"\n', f'name = "sapporo"\ntitle = {HOSTILE[0]!r}\n'
                        .replace("'", '"'), 1)
    text = text.replace('name = "kyoto"\n', 'name = "kyoto"\ntitle = "'
                        + HOSTILE[1].replace('"', '\\"') + '"\n', 1)
    _save(watched, text)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(server.url + "/watch")
    page.wait_for_selector(".watch-board svg.board")
    names = page.locator(".watch-board .city .name").all_text_contents()
    assert HOSTILE[0] in names and HOSTILE[1] in names  # the very characters, as text
    assert page.evaluate("window.__pwned") is None and not dialogs
    assert page.locator("#app script, #app b, #app img").count() == 0
    _save(watched, MISSION.read_text())


def test_a_phone_sees_the_whole_page(browser: Any, server: Any) -> None:
    phone = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True,
                                has_touch=True)
    try:
        page = phone.new_page()
        page.goto(server.url + "/replay")
        page.set_input_files("#replay-file", str(MISSION.parents[1] / "tests" / "transcripts"
                                                 / "egypt-3p-easy-seed2-heuristic.txt"))
        page.wait_for_selector(".replay-board .game")
        page.keyboard.press("End")
        page.wait_for_selector(".outcome")
        # nothing wider than the screen: no sideways scrolling
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        assert page.locator(".replay-board svg.board").bounding_box()["width"] <= 375
        shoot(page, "phone.png")
    finally:
        phone.close()
