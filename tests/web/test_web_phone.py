"""The play page on a phone, as friends met it: what became of a tap is said where the
player is (not a thousand pixels up the page), and the board's cities are big enough to tap
with a thumb."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.serving import Client
from tests.web.conftest import shoot, shown_version

PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


class Held:
    """The page's game connection through the test: the server's `state` frames held back
    while `on` (its acks and errors pass), as a phone on a slow network gets them late."""

    def __init__(self, page: Any) -> None:
        self.on = False
        self.frames: list[tuple[Any, str]] = []
        page.route_web_socket(re.compile(r"/ws/games/"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def down(msg: str | bytes) -> None:
            if self.on and isinstance(msg, str) and json.loads(msg).get("type") == "state":
                self.frames.append((ws, msg))
            else:
                ws.send(msg)

        server.on_message(down)

    def release(self) -> None:
        self.on = False
        for ws, msg in self.frames:
            ws.send(msg)
        self.frames.clear()


def _in_sight(page: Any, selector: str, whole: bool = True) -> None:
    """The element wholly inside the viewport (not `whole`: its centre)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None, selector
    x, y = box["x"], box["y"]
    w, h = (box["width"], box["height"]) if whole else (0, 0)
    if not whole:
        x, y = x + box["width"] / 2, y + box["height"] / 2
    assert y >= 0 and y + h <= size["height"], (selector, box, size)
    assert x >= 0 and x + w <= size["width"], (selector, box, size)


def _leaving_p2_a_card(server: Any, gid: str) -> str:
    """A card of p1's whose play leaves p2 a card to play (one that gains health asks the
    team who receives it first)."""
    st = server.lobby.games[gid].state
    for a in st.seat_actions(0):
        after = st.clone()
        after.apply(a)
        if str(a.verb) == "play" and any(str(b.verb) == "play" for b in after.seat_actions(1)):
            return str(a)
    raise AssertionError("each of p1's cards interrupts p2's play")


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_tap_is_answered_where_the_player_is(browser: Any, server: Any, device: str) -> None:
    """The "Sent"/"Refused" notice was drawn at the top of the page, 1,000-1,300 px above the
    hand a phone's player had scrolled to: nothing on screen said whether a tap had gone or
    been refused. It is a toast at the foot of the screen, read out by screen readers."""
    g = server.create(game="art-project", seats=["person", "person"], board="japan")
    p1 = Client(server.ws_url, g["id"], {"type": "hello",
                                         "token": server.join(g["id"], "p1", "Ann")})
    ctx = browser.new_context(**(PHONE if device == "phone" else DESKTOP))
    try:
        page = ctx.new_page()
        held = Held(page)
        page.goto(f"{server.url}/play/{g['id']}")
        page.click('button.join[data-seat="p2"]')
        page.wait_for_selector(".play-board .game")
        p1.until(lambda m: m["type"] == "welcome")
        assert p1.move("done", 0)["type"] == "ack"  # the planning: both seats decide
        page.locator('.play-board button.act[data-action^="draw p2"]').first.wait_for()
        text = page.locator('.play-board button.act[data-action^="draw p2"]').first \
            .get_attribute("data-action")
        tapped = f'.play-board button.act[data-action="{text}"]'
        draw = page.locator(tapped)
        notice = page.locator(".notice")
        assert notice.get_attribute("aria-live") == "polite"
        # p1 plays first, which ends the planning's draws (R6); the phone has not heard yet
        held.on = True
        assert p1.move(_leaving_p2_a_card(server, g["id"]), 1)["type"] == "ack"
        draw.scroll_into_view_if_needed()
        draw.tap() if device == "phone" else draw.click()
        notice.get_by_text("Refused: stale").wait_for()
        _in_sight(page, ".notice")
        _in_sight(page, tapped, whole=False)  # (on the same screen as the button tapped)
        assert notice.locator('[role="alert"]').count() == 1  # said at once to a reader
        if device == "phone":
            shoot(page, "phone-refused.png", full_page=False)
        held.release()
        page.wait_for_function("() => /move 2\\b/.test(document.querySelector("
                               "'.play-head .who').textContent)")
        # a card of the hand, far down the page: "Sent" where it was tapped
        mine = page.locator(".play-board .hand article.card[data-action]").first
        mine.scroll_into_view_if_needed()
        held.on = True
        mine.tap() if device == "phone" else mine.click()
        notice.get_by_text("Sent: play p2").wait_for()
        _in_sight(page, ".notice")
        held.release()
        page.wait_for_function("() => /move 3\\b/.test(document.querySelector("
                               "'.play-head .who').textContent)")
        assert not notice.inner_text().strip()  # answered: the notice goes
    finally:
        ctx.close()
        p1.close()


def _to_a_city(page: Any) -> None:
    """Play p1's seat until a city is p1's to tap (the movement), by its buttons: a card or
    `done` where offered, else the first action."""
    for _ in range(60):
        page.wait_for_selector(".play-board .game")
        if page.locator(".play-board .city.target").count():
            return
        acts = page.locator(".play-board .actions button[data-action]")
        if not acts.count():
            page.wait_for_timeout(50)
            continue
        texts = [acts.nth(i).get_attribute("data-action") for i in range(acts.count())]
        pick = next((t for t in texts if t.startswith("play ")), "done" if "done" in texts
                    else texts[0])
        try:  # (a bot's move may redraw the page under the click: look again)
            handle = page.locator(f'.play-board button[data-action="{pick}"]').element_handle(
                timeout=2000)
            handle.click(timeout=2000)
            handle.wait_for_element_state("hidden")
        except PlaywrightError:
            continue
    raise AssertionError("no city to tap came")


@pytest.mark.parametrize("board", ["japan", "usa", "polynesia"])
def test_a_phone_taps_a_city_with_a_thumb(browser: Any, server: Any, board: str) -> None:
    """On a 375-px phone the board was scaled to under half: a city's circle, the thing to
    tap to move or fight there, was 22-24 px (Japan, the USA), its name about 8 px tall.
    Each city has a tap area of at least 44 px around it (never reaching half-way to the next
    city: a board that needs it is drawn wider and scrolls sideways in its frame), the page
    itself no wider than the phone, and the names some 11 px tall or more."""
    g = server.create(game="art-project", seats=["person", "bot:heuristic"], board=board,
                      difficulty="easy")
    ctx = browser.new_context(**PHONE)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/play/{g['id']}")
        page.click('button.join[data-seat="p1"]')
        page.wait_for_selector(".play-board svg.board")
        sizes = page.evaluate("""() => [...document.querySelectorAll('.play-board .city')]
          .map((c) => {
            const hit = c.querySelector('.hit').getBoundingClientRect();
            const name = c.querySelector('.name').getBoundingClientRect();
            return [c.dataset.city, hit.width, hit.height, name.height]; })""")
        assert sizes and all(w >= 44 and hh >= 44 for _, w, hh, _n in sizes), sizes
        assert all(n >= 10.5 for *_, n in sizes), sizes  # (11 px, as rounded)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        _to_a_city(page)
        city = page.locator(".play-board .city.target").first
        action = city.get_attribute("data-action")
        city.scroll_into_view_if_needed()
        spot = city.locator(".spot").bounding_box()
        hit = city.locator(".hit").bounding_box()
        assert spot is not None and hit is not None
        # a thumb beside the circle, inside the tap area, is a tap on the city
        x = spot["x"] + spot["width"] / 2 + (spot["width"] / 2 + hit["width"] / 2) / 2
        y = spot["y"] + spot["height"] / 2
        version = shown_version(page)
        page.touchscreen.tap(x, y)
        page.wait_for_function("(v) => { const m = /move (\\d+)/.exec(document.querySelector("
                               "'.play-head .who').textContent); return m && Number(m[1]) > v; }",
                               arg=version)
        assert action in [str(a) for a in server.lobby.games[g["id"]].state.history]
    finally:
        ctx.close()
