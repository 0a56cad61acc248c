"""The lobby and a game's page as friends met them playing through the server: the name
typed in the lobby, a seat left by a stray tap, a finished game still offering its seats and
naming someone to play, the players known by seat alone, a legend of roads the board has not."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.serving import Client, play_out


def _lobby_line(page: Any, url: str, gid: str) -> Any:
    page.goto(url + "/")
    line = page.locator(f'li[data-game="{gid}"]')
    line.wait_for(state="attached")
    return line


def test_a_name_typed_in_the_lobby_is_the_name_a_seat_is_joined_under(page: Any,
                                                                    server: Any) -> None:
    """"Join p1" in the lobby's list joined under no name, whatever was typed in the lobby's
    one name box; and the players' panels showed seats alone, never the names given."""
    g = server.create(game="art-of-war", seats=["person", "person"])
    server.join(g["id"], "p2", "Cat")
    line = _lobby_line(page, server.url, g["id"])
    page.fill("#f-your-name", "Bob")
    line.locator('button.join[data-seat="p1"]').click()
    page.get_by_text("You are p1").wait_for()
    live = server.lobby.games[g["id"]]
    assert [s.name for s in live.seats] == ["Bob", "Cat"]
    page.wait_for_selector(".play-board .seats")
    seats = page.locator(".play-board .seats li")
    assert re.match(r"\S+\s*p1\s*Bob\b", seats.nth(0).inner_text()), seats.nth(0).inner_text()
    assert re.match(r"\S+\s*p2\s*Cat\b", seats.nth(1).inner_text()), seats.nth(1).inner_text()
    assert "p1 (Bob) to play" in page.locator(".play-board .phase-line").inner_text()
    # the name is offered again next time, here and on a game's own page
    page.goto(server.url + "/")
    assert page.locator("#f-your-name").input_value() == "Bob"


def test_leaving_mid_game_asks_first(page: Any, server: Any) -> None:
    """"Leave this seat" gave the seat up at the first tap, mid-game too."""
    g = server.create(game="art-project", seats=["person", "person"], board="japan")
    server.join(g["id"], "p2", "Cat")
    line = _lobby_line(page, server.url, g["id"])
    line.locator('button.join[data-seat="p1"]').click()
    page.get_by_text("You are p1").wait_for()
    page.wait_for_selector(".play-head .who:has-text('playing')")
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.get_by_role("button", name="Leave this seat").click()
    assert asked and "Leave your seat p1?" in asked[0], asked
    live = server.lobby.games[g["id"]]
    page.wait_for_timeout(300)
    assert live.seats[0].token is not None and page.get_by_text("You are p1").is_visible()
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.get_by_role("button", name="Leave this seat").click()
    page.wait_for_url(server.url + "/")
    assert len(asked) == 2 and live.seats[0].token is None


def test_a_finished_game_says_who_won_and_offers_no_seat(browser: Any, server: Any) -> None:
    """A finished Art of War game said "Turn 15 · p2 to play" and tagged p2 "turn"; its page
    still offered "Leave this seat", and once a seat was left, the lobby's finished games
    offered "Join p1", which only answered "the game is over"."""
    g = server.create(game="art-of-war", seats=["person", "bot:heuristic"])
    gid = g["id"]
    ann, eve = browser.new_context(), browser.new_context()
    try:
        page = ann.new_page()
        line = _lobby_line(page, server.url, gid)
        page.fill("#f-your-name", "Ann")
        line.locator('button.join[data-seat="p1"]').click()
        page.get_by_text("You are p1").wait_for()
        token = page.evaluate(f"() => JSON.parse(localStorage.getItem('artproject.seat.{gid}.p1'))"
                              ".token")
        me = Client(server.ws_url, gid, {"type": "hello", "token": token})
        me.until(lambda m: m["type"] == "welcome")
        play_out([me], seed=3)
        me.close()
        st = server.lobby.games[gid].state
        assert st.outcome is not None
        page.wait_for_selector(".play-board .outcome")
        said = page.locator(".play-board .phase-line").inner_text()
        who = f"{st.outcome} (Ann)" if st.outcome == "p1" else st.outcome
        won = "a draw" if st.outcome == "draw" else f"{who} won"
        assert said == f"Game over after turn {st.view(0)['turn']}: {won}", said
        assert "to play" not in said
        banner = page.locator(".play-board .outcome strong").inner_text()
        assert banner == f"Game over: {'draw' if st.outcome == 'draw' else who}", banner
        assert page.locator(".play-board .tag-turn").count() == 0
        assert page.get_by_role("button", name="Leave this seat").count() == 0
        # a seat given up before the end (as from another device): no one's to take now
        assert server.http.post(f"/api/games/{gid}/leave", json={"token": token}).status_code \
            == 200
        other = eve.new_page()
        line = _lobby_line(other, server.url, gid)
        other.click("details summary:has-text('finished game')")
        assert line.locator("button.join").count() == 0, line.inner_text()
        assert line.locator("a.replay-link").inner_text() == "Replay"
        assert line.get_by_role("link", name="Watch the end").count() == 1
        other.goto(f"{server.url}/play/{gid}")  # the game's own address: the same
        other.get_by_text("The game is over").wait_for()
        assert other.locator("button.join").count() == 0
        assert other.get_by_role("link", name="Replay it").count() == 1
    finally:
        ann.close()
        eve.close()


def test_the_art_project_page_ends_and_names_its_players(page: Any, server: Any) -> None:
    """The A.R.T. Project's page after the end: the game over, no one deciding; the players
    named in its Players panel, on its page and in its replay."""
    g = server.create(game="art-project", seats=["person", "person"], board="japan",
                      difficulty="easy")
    gid = g["id"]
    tokens = [server.join(gid, "p1", "Ann"), server.join(gid, "p2", "Bob")]
    page.goto(server.url + "/replay")
    page.evaluate("([gid, t]) => localStorage.setItem(`artproject.seat.${gid}.p1`, "
                  "JSON.stringify({seat: 'p1', token: t}))", [gid, tokens[0]])
    page.goto(f"{server.url}/play/{gid}?seat=p1")
    page.wait_for_selector(".play-board .health")
    players = page.locator(".play-board .health li")
    assert re.match(r"1\s*p1 Ann \(you\) — health", players.nth(0).inner_text())
    assert re.match(r"2\s*p2 Bob — health", players.nth(1).inner_text())
    clients = [Client(server.ws_url, gid, {"type": "hello", "token": t}) for t in tokens]
    for c in clients:
        c.until(lambda m: m["type"] == "welcome")
    play_out(clients, seed=4)
    for c in clients:
        c.close()
    st = server.lobby.games[gid].state
    page.wait_for_selector(".play-board .outcome")
    said = page.locator(".play-board .phase-line").inner_text()
    assert said == f"Round {st.view(0)['round']} · game over: the team {st.outcome}", said
    page.goto(f"{server.url}/replay/game-{gid}")
    page.wait_for_selector(".replay-board .health")
    players = page.locator(".replay-board .health li")
    assert re.match(r"1\s*p1 Ann — health", players.nth(0).inner_text())
    assert re.match(r"2\s*p2 Bob — health", players.nth(1).inner_text())


def test_the_legend_lists_the_roads_the_board_has(page: Any, server: Any) -> None:
    """Japan's roads are all grey (it has no threads), yet its legend showed beige and red
    roads; Scandinavia's are beige and red, and its legend showed a grey one too."""
    for board, roads in (("japan", ["grey"]), ("scandinavia", ["beige", "red"]),
                         ("polynesia", [])):
        g = server.create(game="art-project", seats=["bot:random", "bot:random"], board=board)
        page.goto(f"{server.url}/play/{g['id']}?spectate=1")
        page.wait_for_selector(".play-board .legend")
        drawn = sorted(set(page.locator(".play-board svg.board .road").evaluate_all(
            "e => e.map(x => x.dataset.road)")))
        keyed = page.locator(".play-board .legend li[data-road]").evaluate_all(
            "e => e.map(x => x.dataset.road)")
        assert drawn == roads and keyed == roads, (board, drawn, keyed)


def test_a_friend_joining_is_named_on_the_board_at_once(page: Any, server: Any) -> None:
    """A seat joined after the page opened was named in the head's seat list but not in the
    board's players' panel until the next move (the web re-review's)."""
    g = server.create(game="art-of-war", seats=["person", "person"])
    line = _lobby_line(page, server.url, g["id"])
    page.fill("#f-your-name", "Ann")
    line.locator('button.join[data-seat="p1"]').click()
    page.get_by_text("You are p1").wait_for()
    page.wait_for_selector(".play-board .seats")
    server.join(g["id"], "p2", "Bob")
    page.locator(".play-board .seats li", has_text="Bob").wait_for(timeout=5000)


@pytest.mark.parametrize("game", [{"game": "art-project", "board": "japan"},
                                  {"game": "art-of-war"}], ids=["art-project", "art-of-war"])
def test_a_long_name_never_makes_a_phone_page_wider_than_the_screen(
        browser: Any, server: Any, game: dict[str, str]) -> None:
    """A 40-letter name without a space widened the play page to 461-514 px on a 390-px
    phone: the head's seat list and the players' panel did not wrap it."""
    g = server.create(seats=["person", "person"], **game)
    server.join(g["id"], "p2", "N" * 40)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True)
    try:
        page = phone.new_page()
        line = _lobby_line(page, server.url, g["id"])
        line.locator('button.join[data-seat="p1"]').click()
        page.get_by_text("You are p1").wait_for()
        page.wait_for_selector(".play-board .game")
        page.locator(".seat-list li", has_text="N" * 40).wait_for()
        width = page.evaluate("() => document.documentElement.scrollWidth")
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > 391 && !(e instanceof SVGElement))
            .map((e) => `${e.tagName}.${e.className}`).slice(0, 8)""")
        assert width <= 390, (width, wide)
    finally:
        phone.close()


def test_the_game_over_banner_names_the_winner(page: Any, server: Any) -> None:
    """A Kuhn poker hand won by a named seat said "Game over: p1" (the web re-review's):
    the banner names the winner as the seats are named."""
    g = server.create(game="kuhn", seats=["person", "person"])
    gid = g["id"]
    clients = []
    for seat, name in (("p1", "Ann"), ("p2", "Zed")):
        c = Client(server.ws_url, gid, {"type": "hello", "token": server.join(gid, seat, name)})
        c.until(lambda m: m["type"] == "welcome")
        clients.append(c)
    play_out(clients, seed=1)
    st = server.lobby.games[gid].state
    page.goto(f"{server.url}/play/{gid}?spectate=1")
    banner = page.locator(".play-board .outcome strong")
    banner.wait_for()
    who = {"p1": "p1 (Ann)", "p2": "p2 (Zed)"}[str(st.outcome)]
    assert banner.inner_text() == f"Game over: {who}", banner.inner_text()
