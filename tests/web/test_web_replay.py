"""The replay viewer in a real browser: a stored transcript stepped through decision by
decision, the page compared with the engine's game at each step; a results store, a save
and a verify scenario opened; bad files and links answered with a clear message."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from artproject import new_game
from artproject.core.art.bots import POLICIES
from tests.web.conftest import shoot

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPTS = ROOT / "tests" / "transcripts"


def _decisions(path: Path) -> list[str]:
    return [line[2:].strip() for line in path.read_text().splitlines() if line.startswith("> ")]


def _open(page: Any, url: str, path: Path) -> None:
    page.goto(url + "/replay")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector(".replay-board .game")


def _step_to(page: Any, k: int, n: int) -> None:
    page.wait_for_selector(f".stepper .where:text-is('Step {k} of {n}')")
    page.wait_for_selector(".replay-board .game")


def _same_as_engine(page: Any, game: Any) -> None:
    """The page shows the engine's van, health, round and pawns."""
    obs = game.observation(0)
    for kind, count in obs["van"].items():
        assert page.locator(f".res[data-resource={kind}] strong").inner_text() == str(count)
    for i, health in enumerate(obs["health"]):
        seat = page.locator(f".health li[data-seat=p{i + 1}]")
        assert f"health {health}" in seat.inner_text()
    assert page.locator("dl.status dd").first.inner_text().startswith(str(obs["round"]))
    for i, city in enumerate(obs["pawns"]):
        title = page.locator(f".pawn[data-pawn=p{i + 1}] title").text_content()
        assert title == f"pawn p{i + 1} in {city}"


def test_stepping_a_transcript_shows_the_engine_s_game(page: Any, server: Any) -> None:
    path = TRANSCRIPTS / "japan-2p-medium-seed1-heuristic.txt"
    actions = _decisions(path)
    game = new_game("japan", players=2, difficulty="medium", seed=1)
    _open(page, server.url, path)
    n = len(actions)
    assert page.locator("#view-select").input_value() == "all"  # a finished game
    for k in range(n + 1):
        if k:
            game.apply(actions[k - 1])
            page.keyboard.press("ArrowRight")  # every step by keyboard
        _step_to(page, k, n)
        assert re.search(rf"/replay/\w+/{k}\?view=all$", page.url)  # each step its address
        if k:
            assert page.locator(".led-action").inner_text() == actions[k - 1]
        _same_as_engine(page, game)
        if k == 40:
            shoot(page, "replay.png")
    assert page.locator(".outcome").inner_text().startswith(f"Game over: {game.outcome}")
    page.keyboard.press("Home")
    _step_to(page, 0, n)
    page.go_back()  # the browser's history walks the steps too
    _step_to(page, n, n)


def test_keys_pressed_quickly_each_count(page: Any, server: Any) -> None:
    path = TRANSCRIPTS / "japan-2p-medium-seed1-heuristic.txt"
    n = len(_decisions(path))
    _open(page, server.url, path)
    _step_to(page, 0, n)
    for _ in range(5):  # one after the other, without waiting for each step to load
        page.keyboard.press("ArrowRight")
    _step_to(page, 5, n)
    assert re.search(r"/replay/\w+/5\?view=all$", page.url)
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    _step_to(page, 2, n)


def test_a_seat_s_replay_shows_its_own_hand_only(page: Any, server: Any) -> None:
    path = TRANSCRIPTS / "art-of-war-5p-seed2-heuristic-random.txt"
    actions = _decisions(path)
    game = new_game("art-of-war", players=5, seed=2)
    _open(page, server.url, path)
    rid = page.url.split("/replay/")[1].split("/")[0]
    k = 20
    for a in actions[:k]:
        game.apply(a)
    page.goto(f"{server.url}/replay/{rid}/{k}?view=p3")
    _step_to(page, k, len(actions))
    shown = page.locator(".hand-box [data-card]").evaluate_all("e => e.map(x => x.dataset.card)")
    assert sorted(shown) == sorted(game.rules.cards[c].name for c in game.hands[2])
    for seat in range(5):
        line = page.locator(f".seats li[data-seat=p{seat + 1}]").inner_text()
        assert f"{game.tokens[seat]} token" in line
    assert f"centre pile: {game.centre} token" in page.locator(".piles").inner_text()
    shoot(page, "replay-art-of-war.png")
    page.select_option("#view-select", "all")  # everything: every hand
    page.wait_for_selector(".hand-box h3:has-text(\"p1's hand\")")
    assert page.locator(".hand-box h3").count() == 5


def test_a_results_store_a_save_and_a_verify_scenario_open(page: Any, server: Any,
                                                          tmp_path: Path) -> None:
    db = tmp_path / "results.db"
    subprocess.run([sys.executable, "-m", "artproject", "simulate", "--mission", "japan",
                    "--players", "2", "--games", "2", "--seed", "1", "--store", str(db)],
                   check=True, capture_output=True)
    page.goto(server.url + "/replay")
    page.set_input_files("#replay-file", str(db))
    page.wait_for_selector(".store table")
    rows = page.locator(".store tbody tr")
    assert rows.count() == 2
    page.locator(".store tbody tr a").first.click()
    page.wait_for_selector(".replay-board .game")
    page.keyboard.press("End")
    page.wait_for_selector(".outcome")
    assert page.locator(".outcome").inner_text().startswith("Game over: lost")  # seed 1, as stored

    page.goto(server.url + "/replay")
    page.set_input_files("#replay-file", str(ROOT / "tests" / "saves" / "japan-3p-midgame.json"))
    page.wait_for_selector(".replay-board .game")
    views = page.locator("#view-select option").all_inner_texts()
    # an unfinished game: a seat's view or the public one, not everything
    assert views == ["seat p1", "seat p2", "seat p3", "public (no hand)"]

    game = new_game("japan", players=2, difficulty="easy", seed=3)
    bot = POLICIES["heuristic"](3)
    steps = []
    for _ in range(12):
        a = bot(game)
        steps.append({"do": str(a)})
        game.apply(a)
    scenario = tmp_path / "counterexample.toml"
    scenario.write_text(tomli_w.dumps({
        "about": "Counterexample found by artproject verify: (the test's)",
        "cites": ["artproject verify"], "mission": "japan", "variants": [], "players": 2,
        "difficulty": "easy", "seed": 3, "invariants": True, "properties": True,
        "step": steps}))
    page.goto(server.url + "/replay")
    page.set_input_files("#replay-file", str(scenario))
    page.wait_for_selector(".replay-board .game")
    assert page.locator(".stepper .where").inner_text() == "Step 0 of 12"


@pytest.mark.parametrize("what", ["not-a-save", "no-step", "not-open", "not-a-number"])
def test_bad_files_and_links_say_what_is_wrong(page: Any, server: Any, tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture,
                                               what: str) -> None:
    caplog.set_level(logging.WARNING, logger="artproject.web")
    if what == "not-a-save":
        _open_bad = tmp_path / "notes.json"
        _open_bad.write_text('{"hello": "world"}')
        page.goto(server.url + "/replay")
        page.set_input_files("#replay-file", str(_open_bad))
        expect = "not an artproject save"
    else:
        path = TRANSCRIPTS / "art-of-war-3p-seed1-heuristic.txt"
        _open(page, server.url, path)
        rid = page.url.split("/replay/")[1].split("/")[0]
        step = {"no-step": "999", "not-open": "0", "not-a-number": "two"}[what]
        rid = "0123456789abcdef" if what == "not-open" else rid
        caplog.clear()
        page.goto(f"{server.url}/replay/{rid}/{step}?view=p1")
        expect = {"no-step": "there is no step 999", "not-open": "is not open on this server",
                  "not-a-number": "a step is a number"}[what]
    box = page.locator(".problem")
    box.wait_for()
    assert expect in box.inner_text()
    assert "Traceback" not in page.content()
    logged = [r for r in caplog.records if r.name == "artproject.web"]
    assert len(logged) == 1 and expect in logged[0].getMessage()
    if what == "no-step":
        shoot(page, "replay-error.png", full_page=False)
