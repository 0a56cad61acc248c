"""Whole games played in a real browser by clicks, bots in the other seats; two browser
contexts as two Art of War seats, neither page ever holding the other's hidden cards."""

from __future__ import annotations

import random
import re
from typing import Any

from tests.web.conftest import play_by_clicks, shoot, shown_version


def _create(page: Any, url: str, game: str, players: int, seats: list[str],
            **options: str) -> str:
    """Create a game in the lobby's form and take its first person's seat; the game's id."""
    page.goto(url + "/")
    page.wait_for_selector("#create-game")
    page.select_option("#f-game", game)
    page.fill("#f-players", str(players))
    page.dispatch_event("#f-players", "change")
    for key, value in options.items():
        page.select_option(f"#f-{key}", value)
    for i, kind in enumerate(seats):
        page.select_option(f"#f-seat-p{i + 1}", kind)
    page.click("#create-game")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector(".play-board .game")
    return str(page.url.rsplit("/", 1)[1].split("?")[0])


def test_a_whole_art_project_game_by_clicks(page: Any, server: Any) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#create-game")
    shoot(page, "lobby.png")
    gid = _create(page, server.url, "art-project", 2, ["person", "bot:heuristic"],
                  board="japan", difficulty="easy")
    assert page.get_by_text("You are p1").is_visible()
    rng = random.Random(24)
    shots = {"played": False}

    def look(p: Any) -> None:
        # the board drawn from the mission's data: every city of the table, by its title
        assert p.locator(".play-board svg.board .city").count() == 8
        if not shots["played"] and p.locator(".play-board .hand .card.playable").count():
            shoot(p, "play-art-project.png")
            shots["played"] = True

    moves = play_by_clicks(page, rng, check=look)
    live = server.lobby.games[gid]
    assert live.state.is_over()
    outcome = page.locator(".play-board .outcome").inner_text()
    assert f"Game over: {live.state.outcome}" in outcome
    assert moves > 0 and shots["played"]
    # the page shows the move the server has reached: nothing was lost on the way
    assert shown_version(page) == len(live.state.history)


def _hidden_from(st: Any, seat: int) -> set[str]:
    """Names of the cards in the other seats' hands that `seat` cannot know of now."""
    known = " ".join([str(st.observation(seat)), *st.seen_events(seat)[0]]).lower()
    names = st.rules.cards
    hidden = set()
    for p in range(st.players):
        if p == seat:
            continue
        for k in st.hands[p]:
            card = names[k]
            if card.name not in known:
                hidden |= {card.name.replace("_", " "), card.title.lower()}
    return hidden


def _at(st: Any, version: int) -> Any:
    """The game as it was after `version` moves."""
    g = st.restart(False)
    for a in list(st.history)[:version]:
        g.apply(a)
    return g


def test_two_art_of_war_seats_never_see_each_others_cards(browser: Any, server: Any) -> None:
    one = browser.new_context(viewport={"width": 1280, "height": 800})
    two = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        a, b = one.new_page(), two.new_page()
        gid = _create(a, server.url, "art-of-war", 3, ["person", "person", "bot:heuristic"])
        assert a.get_by_text("Waiting for p2 to join").is_visible()
        b.goto(f"{server.url}/play/{gid}")
        b.click('button.join[data-seat="p2"]')
        b.wait_for_selector(".play-board .game")
        assert b.get_by_text("You are p2").is_visible()
        live = server.lobby.games[gid]
        looked = {"a": 0, "b": 0, "shot": False}

        says = {k.says for k in live.state.rules.cards if k.says}

        def check(page: Any, seat: int, key: str) -> None:
            # a card's words (`says`, the rules file's, the same for everyone) name other
            # cards ("a Great Dragon kills it"): read apart, each one of the file's own
            worded = page.locator(".says").all_inner_texts()
            assert set(worded) <= says, worded
            text = page.evaluate("""() => { const c = document.documentElement.cloneNode(true);
                c.querySelectorAll('.says').forEach((e) => e.remove());
                return c.outerHTML; }""").lower()
            version = shown_version(page)
            st = _at(live.state, version)
            for name in _hidden_from(st, seat):
                m = re.search(rf"\b{re.escape(name)}\b", text)
                assert m is None, (
                    f"p{seat + 1}'s page at move {version} shows {name!r}, another's hidden "
                    f"card: ...{text[m.start() - 300:m.end() + 100]}...")
            shown = page.locator(".play-board .hand-box [data-card]").evaluate_all(
                "els => els.map(e => e.dataset.card)")
            assert sorted(shown) == sorted(st.rules.cards[k].name for k in st.hands[seat])
            looked[key] += 1
            if (not looked["shot"] and seat == 0
                    and page.locator(".play-board .betting button").count()):
                shoot(page, "play-art-of-war.png")
                looked["shot"] = True

        rng = random.Random(7)
        for _ in range(3000):
            over = 0
            for page, seat, key in ((a, 0, "a"), (b, 1, "b")):
                page.wait_for_selector(".play-board .game")
                check(page, seat, key)
                if page.locator(".play-board .outcome").count():
                    over += 1
                    continue
                acts = page.locator(".play-board .actions button[data-action]")
                if acts.count():
                    texts = [acts.nth(i).get_attribute("data-action") for i in range(acts.count())]
                    pick = rng.choice(texts)
                    offered = page.locator(f'.play-board [data-action="{pick}"]')
                    handle = offered.first.element_handle()
                    handle.click()
                    handle.wait_for_element_state("hidden")
            if over == 2:
                break
            a.wait_for_timeout(30)
        assert live.state.is_over()
        assert looked["a"] > 3 and looked["b"] > 3
    finally:
        one.close()
        two.close()


def test_a_spectator_watches_bots_play(page: Any, server: Any) -> None:
    gid = _create(page, server.url, "art-project", 3,
                  ["bot:heuristic", "bot:random", "bot:heuristic"], board="scandinavia",
                  difficulty="easy")
    assert page.get_by_text("Watching as a spectator").is_visible()
    assert server.lobby.games[gid].summary()["board"] == "scandinavia"
    live = server.lobby.games[gid]
    for _ in range(1200):  # the bots play on the server (seconds; minutes on a busy machine)
        if live.state.is_over():
            break
        page.wait_for_timeout(250)
    assert live.state.is_over(), f"the bots stopped at move {len(live.state.history)}"
    page.wait_for_selector(".play-board .outcome")  # and the page shows the end
    assert page.locator(".play-board .actions").count() == 0  # nothing to click
    assert page.locator(".play-board .hand-box").count() == 0  # nobody's cards
    assert page.locator(".play-board svg.board .city").count() == len(live.state.rules.cities)
    shoot(page, "spectate.png")
