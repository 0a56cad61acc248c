"""The replay viewer on the server's own games (`/replay/game-ID`, from its `--db`): a finished
game from the lobby's link, everything shown; an unfinished one, its seat's view only in the
browser that holds the seat (its token), the public view for anyone; and `serve --replay FILE`,
which opens a file from the command line and prints its address."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.serving import Client, play_out

ROOT = Path(__file__).resolve().parents[2]


def _hand(page: Any) -> list[str]:
    shown: list[str] = page.locator(".replay-board .hand-box [data-card]").evaluate_all(
        "e => e.map(x => x.dataset.card)")
    return sorted(shown)


def _step(page: Any, k: int, n: int) -> None:
    page.wait_for_selector(f".stepper .where:text-is('Step {k} of {n}')")
    page.wait_for_selector(".replay-board .game")


def test_a_finished_game_replays_from_the_lobby(page: Any, server: Any) -> None:
    g = server.create(game="art-of-war", seats=["person", "bot:random", "bot:heuristic"])
    token = server.join(g["id"], "p1")
    me = Client(server.ws_url, g["id"], {"type": "hello", "token": token})
    me.until(lambda m: m["type"] == "welcome")
    play_out([me], seed=5)
    me.close()
    live = server.lobby.games[g["id"]]
    n = len(live.state.history)
    page.goto(server.url + "/")
    page.click("details summary:has-text('finished game')")
    page.click(f"li[data-game='{g['id']}'] a.replay-link")
    _step(page, 0, n)  # everything, the game being over
    assert page.url.endswith(f"/replay/game-{g['id']}/0?view=all")
    assert page.locator("#view-select option").all_inner_texts() == [
        "seat p1", "seat p2", "seat p3", "public (no hand)", "everything (game over)"]
    page.keyboard.press("End")
    _step(page, n, n)
    assert page.locator(".outcome").inner_text().startswith("Game over")
    assert page.locator(".hand-box h3").count() == 3  # every hand
    page.select_option("#view-select", "p2")  # any seat's view of a finished game
    page.wait_for_selector(".hand-box h3:has-text('Your hand')")
    assert _hand(page) == sorted(live.state.rules.cards[c].name for c in live.state.hands[1])


def test_an_unfinished_game_shows_a_seat_only_to_its_holder(browser: Any,
                                                           server: Any) -> None:
    g = server.create(game="art-of-war", seats=["person", "person", "bot:heuristic"])
    gid = g["id"]
    tokens = {s: server.join(gid, s) for s in ("p1", "p2")}
    st = server.lobby.games[gid].state
    cards = {p: sorted(st.rules.cards[c].name for c in st.hands[i]) for i, p in
             enumerate(("p1", "p2"))}
    n = len(st.history)

    holder = browser.new_context()
    page = holder.new_page()
    page.goto(server.url + "/replay")  # the browser that holds p1 (as the lobby keeps it)
    page.evaluate("([gid, held]) => localStorage.setItem(`artproject.seat.${gid}`, held)",
                  [gid, json.dumps({"seat": "p1", "token": tokens["p1"]})])
    page.goto(f"{server.url}/replay/game-{gid}")
    _step(page, 0, n)
    assert page.url.endswith("/0?view=p1")
    assert page.locator("#view-select option").all_inner_texts() == ["seat p1",
                                                                      "public (no hand)"]
    page.keyboard.press("End")
    _step(page, n, n)
    assert _hand(page) == cards["p1"]
    html = page.content()
    assert not any(re.search(rf'data-card="{c}"', html) for c in set(cards["p2"]) -
                   set(cards["p1"]))

    stranger = browser.new_context()
    other = stranger.new_page()
    other.goto(f"{server.url}/replay/game-{gid}")
    _step(other, 0, n)
    assert other.url.endswith("/0?view=public")
    assert other.locator("#view-select option").all_inner_texts() == ["public (no hand)"]
    assert _hand(other) == []
    other.goto(f"{server.url}/replay/game-{gid}/{n}?view=p1")  # a seat not its own
    other.wait_for_selector(".problem")
    assert "not yet over is for the browser that holds p1" in other.locator(
        ".problem").inner_text()
    other.goto(f"{server.url}/replay/game-{gid}/0?view=all")  # everything: not before the end
    other.wait_for_selector(".problem")
    assert "only for a finished game" in other.locator(".problem").inner_text()
    other.goto(f"{server.url}/replay/game-nosuchgame/0")
    other.wait_for_selector(".problem")
    assert "there is no game 'nosuchgame'" in other.locator(".problem").inner_text()
    holder.close()
    stranger.close()


def test_serve_replay_opens_a_file_and_prints_its_address(page: Any, tmp_path: Path) -> None:
    path = ROOT / "tests" / "transcripts" / "japan-2p-medium-seed1-heuristic.txt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "artproject", "serve", "--port", "0", "--db",
         str(tmp_path / "games.db"), "--replay", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline(), proc.stdout.readline()]
        assert lines[0].startswith("artproject serve: http://127.0.0.1:"), lines
        m = re.fullmatch(r"artproject serve: replay of japan-2p-medium-seed1-heuristic.txt: "
                         r"(http://127\.0\.0\.1:\d+/replay/\w+/0\?view=all)\n", lines[1])
        assert m, lines
        page.goto(m.group(1))
        page.wait_for_selector(".replay-board .game")
        n = sum(1 for line in path.read_text().splitlines() if line.startswith("> "))
        _step(page, 0, n)
    finally:
        proc.terminate()
        proc.wait(30)
    bad = subprocess.run([sys.executable, "-m", "artproject", "serve", "--port", "0", "--db",
                          str(tmp_path / "other.db"), "--replay", str(tmp_path / "none.json")],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "none.json: not a file" in bad.stderr, bad
    assert bad.stdout == "" and "Traceback" not in bad.stderr
    assert not (tmp_path / "other.db").exists()  # refused before anything was made
