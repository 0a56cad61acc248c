"""Verification: the invariants can fail, the search finds and shrinks counterexamples, and
a counterexample's scenario fails until the rules are mended; hostile inputs stay clean."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from artproject import GameError, SaveError, dumps, load_rules, loads, new_game, shipped_missions
from artproject.core.art.bots import cautious_policy
from artproject.core.art.rules import Hook
from artproject.core.art.tools import play_example
from artproject.core.invariants import Violation, check_invariants, check_step
from artproject.core.scenario import run_scenario
from artproject.verify import Example, counterexample_scenario, verify

ROOT = Path(__file__).resolve().parent.parent
BROKEN = Path(__file__).parent / "missions" / "fuel-cap.toml"


@pytest.mark.parametrize("mission", shipped_missions())
def test_shipped_missions_hold(mission: str) -> None:
    report = verify(load_rules(mission), examples=15, seed=1)
    assert report.failure is None, report.failure
    assert report.games >= 15 and report.steps > 0


def test_broken_property_yields_a_replayable_counterexample(tmp_path: Path) -> None:
    mission = tmp_path / "fuel-cap.toml"
    shutil.copy(BROKEN, mission)
    rules = load_rules(mission)
    report = verify(rules, examples=60, seed=0)
    assert report.failure is not None and report.example is not None
    assert "the van never holds more than 4 fuel" in str(report.failure.violation)
    scenario = tmp_path / "cx.toml"
    scenario.write_text(counterexample_scenario(rules, "fuel-cap.toml", [], report.example,
                                                report.failure))
    result = run_scenario(scenario)
    assert not result.passed and "more than 4 fuel" in result.failures[0]
    # mend the property: the same scenario now passes
    mission.write_text(BROKEN.read_text().replace("van.fuel <= 4", "van.fuel <= 6"))
    assert run_scenario(scenario).passed


def test_same_seed_same_search() -> None:
    rules = load_rules(BROKEN)
    a, b = verify(rules, examples=40, seed=5), verify(rules, examples=40, seed=5)
    assert a.example == b.example and a.failure is not None and b.failure is not None
    assert a.failure.actions == b.failure.actions


def _midgame(seed: int = 3):  # type: ignore[no-untyped-def]
    g = new_game("japan", players=3, difficulty="easy", seed=seed)
    choose = cautious_policy(seed)
    for _ in range(30):
        g.apply(choose(g))
    g.lost[1] = 0  # Sendai stands, whatever the game did to it
    return g


@pytest.mark.parametrize(("tamper", "message"), [
    (lambda g: g.van.__setitem__(0, 7), "van holds 7 fuel"),
    (lambda g: g.agents.__setitem__(0, 45), "more agent tokens in play"),
    (lambda g: g.discard.append(g.rules.deck[0]), "a card is in two places"),
    (lambda g: (g.lost.__setitem__(1, 1), g.agents.__setitem__(1, 2)),
     "lost sendai holds|more lost-city marker"),
    (lambda g: g.health.__setitem__(0, 0), "health is 0"),
    (lambda g: g.carried.__setitem__(0, 2), "two artworks on one city or one pawn"),
])
def test_invariants_can_fail(tamper, message: str) -> None:  # type: ignore[no-untyped-def]
    g = _midgame()
    check_invariants(g)
    tamper(g)
    with pytest.raises(Violation, match=message):
        check_invariants(g)


def test_step_checks_can_fail() -> None:
    g = new_game("japan", players=2, seed=1, phase="movement")
    before = g.clone()
    g.apply("move p1 sendai")
    check_step(before, g.history[-1], g)
    g.lost[g.rules.city_index["sendai"]] = 1
    with pytest.raises(Violation, match="entered a lost city"):
        check_step(before, g.history[-1], g)
    g2 = new_game("japan", players=2, seed=1, phase="movement", position={"van": {"fuel": 2}})
    b2 = g2.clone()
    g2.apply("move p1 sendai")
    g2.health[1] -= 1
    with pytest.raises(Violation, match="p2 paid health for another"):
        check_step(b2, g2.history[-1], g2)


@pytest.mark.parametrize("log", [True, False])
def test_the_golden_rule_check_reads_the_step_events(
        log: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move paid in health passes; an engine that charges health while the van still
    holds fuel breaks R4 (read from the recorded log, or from the replayed events of a game
    that records none)."""
    g = new_game("japan", players=2, seed=1, phase="movement", log=log,
                 position={"van": {"fuel": 0}})
    before = g.clone()
    g.apply("move p1 sendai")
    assert g.health[0] == before.health[0] - 1
    check_step(before, g.history[-1], g)
    from artproject.core.art import effects, movement

    def faulty(st: Any, player: int, kind: str, n: int) -> None:  # fuel found, health paid
        st.van[st.rules.resources.index(kind)] += 1
        effects.lose_health(st, player, n, "paid health for fuel",
                            ("health_for", f"p{player + 1}", kind))

    g = new_game("japan", players=2, seed=1, phase="movement", log=log,
                 position={"van": {"fuel": 0}})
    before = g.clone()
    monkeypatch.setattr(movement, "pay", faulty)
    g.apply("move p1 sendai")
    assert g.van[g.rules.resources.index("fuel")] == 1
    with pytest.raises(Violation, match="golden rule"):
        check_step(before, g.history[-1], g)


def test_the_golden_rule_reads_the_van_when_the_health_was_paid() -> None:
    """A battle boosted with health while the van holds no weapon is legal though the win
    then fills the van with weapons (Helsinki's bonus on Scandinavia): the check read the
    van after the step and called it a breach of R4 (a reviewer's; verify reported it as a
    counterexample)."""
    g = new_game("scandinavia", players=2, seed=1, phase="battle", log=True, position={
        "pawns": ["helsinki", "oslo"], "agents": {"helsinki": 1}, "artworks": ["helsinki"],
        "van": {"fuel": 3, "radio": 3, "weapon": 0}, "dice": [1, 1, 1]})
    for text in ("fight p1 helsinki", "boost p1"):
        g.apply(text)
    before = g.clone()
    g.apply("boost p1")
    assert g.van[g.rules.resources.index("weapon")] == 2
    check_step(before, g.history[-1], g)


def test_a_hook_that_triggers_itself_is_cut_off() -> None:
    rules = load_rules("japan")

    def again(s, ctx):  # type: ignore[no-untyped-def]
        s.emit("round_start", ctx)

    loop = Hook("round_start", None, (again,), "on round_start: (loops)")
    looping = attrs.evolve(rules, hooks={"round_start": (loop,)})
    from artproject import State

    with pytest.raises(GameError, match=r"on round_start: \(loops\).*triggers itself"):
        State.new(looping, 2, "medium", 1)
    example = Example(2, "medium", 1, ())
    assert "triggers itself" in str(play_example(looping, example).violation)


@given(st.integers(0, 2**16), st.data())
def test_mutated_saves_only_raise_save_errors(seed: int, data: st.DataObject) -> None:
    g = new_game("japan", players=2, seed=seed % 50)
    rng = random.Random(seed)
    for _ in range(8):
        if g.is_over():
            break
        g.apply(rng.choice(g.legal_actions()))
    text = dumps(g)
    doc = json.loads(text)
    mutation = data.draw(st.sampled_from(["byte", "action", "field", "digest", "type"]))
    if mutation == "byte":
        i = data.draw(st.integers(0, len(text) - 1))
        text = text[:i] + data.draw(st.sampled_from(["{", "]", "x", '"', "9", ""])) + text[i + 1:]
    elif mutation == "action" and doc["actions"]:
        i = data.draw(st.integers(0, len(doc["actions"]) - 1))
        doc["actions"][i] = data.draw(st.sampled_from(["move p1 kyoto", "done", "x", "play p9 1"]))
        text = json.dumps(doc)
    elif mutation == "field":
        del doc[data.draw(st.sampled_from(sorted(doc)))]
        text = json.dumps(doc)
    elif mutation == "digest":
        doc["digest"] = "0" * 16
        text = json.dumps(doc)
    else:
        key = data.draw(st.sampled_from(["players", "seed", "mission", "actions", "start"]))
        doc[key] = data.draw(st.sampled_from([None, "x", -1, 99, [], {}]))
        text = json.dumps(doc)
    try:
        loads(text)
    except SaveError as err:
        assert str(err)


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "artproject", *args], capture_output=True,
                          text=True, cwd=cwd, check=False)


def test_verify_command(tmp_path: Path) -> None:
    r = run_cli("verify", "japan", "--examples", "10")
    assert r.returncode == 0 and "everything holds" in r.stdout
    shutil.copy(BROKEN, tmp_path / "fuel-cap.toml")
    r = run_cli("verify", "fuel-cap.toml", "--examples", "60", cwd=tmp_path)
    assert r.returncode == 1 and "COUNTEREXAMPLE" in r.stdout, r.stdout + r.stderr
    assert "verifying:" in r.stderr  # progress
    cx = tmp_path / "counterexample-fuel-cap.toml"
    assert cx.exists()
    assert run_cli("scenario", str(cx), cwd=tmp_path).returncode == 1
    r = run_cli("verify", "no-such.toml")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    r = run_cli("verify", "japan", "--players", "7")
    assert r.returncode == 2 and "unknown player count '7'" in r.stderr
