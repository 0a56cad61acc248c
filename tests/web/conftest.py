"""The browser tests' set-up: Playwright (pytest-playwright) driving Debian's Chromium, a real
`artproject serve` (uvicorn on a free loopback port, its games in a real SQLite file) with
the web client, and helpers that act as a person does: click what is on screen, read it.

Playwright's own browser download is not reachable here: `.ci/run` installs Debian's
chromium when it is missing, and the tests launch it by its path.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "web"
# the screenshots in docs/web/ are written again when this is set (or when one is missing):
# a run of the tests otherwise leaves the documentation's pictures alone
WRITE = os.environ.get("ARTPROJECT_WRITE_SCREENSHOTS") == "1"
MISSION = Path(__file__).resolve().parents[2] / "missions" / "japan.toml"

if not CHROMIUM.exists() and not os.environ.get("CI"):
    pytest.skip("the browser tests need Debian's chromium at /usr/bin/chromium "
                "(.ci/run installs it)", allow_module_level=True)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM),
            "args": ["--no-sandbox"]}


@pytest.fixture(scope="session")
def base_url(pytestconfig: pytest.Config) -> str | None:
    """pytest-playwright's `base_url` (the `--base-url` option or ini value, else None) as a
    fixture of ours: the plugin's fallback is a method of a class, which pytest 9 warns is
    deprecated (PytestRemovedIn10Warning) at every run of the browser tests."""
    got = pytestconfig.getoption("--base-url") or pytestconfig.getini("base_url")
    return str(got) if got else None


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def watched(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The mission file the server watches (`serve --watch`): a copy of Japan to edit."""
    path = tmp_path_factory.mktemp("watch") / "harbour.toml"
    path.write_text(MISSION.read_text())
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, watched: Path) -> Iterator[Any]:
    """`artproject serve --watch FILE` on a free loopback port, with a fresh database."""
    from artproject import web
    from tests.serving import Running

    web.configure(watch=watched)
    srv = Running(tmp_path_factory.mktemp("serve") / "games.db")
    try:
        yield srv
    finally:
        srv.stop()
        web.configure(watch=None)


def shoot(page: Any, name: str, full_page: bool = True) -> None:
    """A screenshot of the page for docs/web.md (written when asked, or when missing)."""
    target = DOCS / name
    if WRITE or not target.exists():
        DOCS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(target), full_page=full_page)
    else:
        page.screenshot(full_page=full_page)  # the page can still be drawn whole


def shown_version(page: Any) -> int:
    """The move number the play page shows (`move N` in its head)."""
    m = re.search(r"move (\d+)", page.locator(".play-head .who").inner_text())
    return int(m.group(1)) if m else 0


def play_by_clicks(page: Any, rng: random.Random, limit: int = 3000,
                   check: Callable[[Any], None] | None = None,
                   keyboard_every: int = 7) -> int:
    """Play the page's seat to the end of the game as a person does: read the legal actions
    on screen, pick one, and click it where the page offers it (a city, a card, a die, a bet
    amount; else its button), now and then by keyboard (focus it, press Enter). `check`
    runs after every frame drawn. The number of moves made."""
    moves = 0
    for _ in range(limit):
        page.wait_for_selector(".play-board .game")
        if check is not None:
            check(page)
        if page.locator(".play-board .outcome").count():
            return moves
        buttons = page.locator(".play-board .actions button[data-action]")
        if buttons.count() == 0:
            page.wait_for_timeout(40)
            continue
        texts = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
        pick = "done" if "done" in texts and rng.random() < 0.4 else rng.choice(texts)
        offered = page.locator(f'.play-board [data-action="{pick}"]:not(button)')
        target = (offered.first if offered.count() and rng.random() < 0.8 else
                  page.locator(f'.play-board button[data-action="{pick}"]').first)
        handle = target.element_handle()
        if moves % keyboard_every == keyboard_every - 1:
            handle.focus()
            page.keyboard.press("Enter")
        else:
            handle.click()
        handle.wait_for_element_state("hidden")  # the next frame has replaced the page
        moves += 1
    raise AssertionError(f"the game did not end within {limit} looks at the page")
