"""Kuhn poker, the kernel's third game: checked against a trusted reference. Through our
OpenSpiel adapter, OpenSpiel's own CFR reaches the game's known value (-1/18 for the first
player) with an exploitability below 1e-3, step for step as on OpenSpiel's built-in
`kuhn_poker`; the game trees match (two and three players); the heuristic bot is Kuhn's
equilibrium. And it ships as a real game: saves, scenarios, every tool.

Needs the `ai` extra (CI installs it through `dev`)."""

from __future__ import annotations

import json
import math
import pickle
from pathlib import Path
from typing import Any

import pyspiel
import pytest
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability
from open_spiel.python.algorithms.get_all_states import get_all_states

import artproject.adapters.openspiel  # noqa: F401 (registers the games)
from artproject import GameError, IllegalActionError, dumps, loads, new_game
from artproject.cli import main
from artproject.core.games import game_names, game_tools
from artproject.core.kuhn.bots import POLICIES, heuristic_policy

VALUE = -1 / 18  # the first player's value of Kuhn poker (Kuhn, 1950)
THREE = """game = "kuhn"
about = "three players, a deck of four: OpenSpiel's kuhn_poker(players=3)"
[deck]
cards = ["jack", "queen", "king", "ace"]
[betting]
ante = 1
bet = 1
[players]
min = 2
max = 3
"""


def _cfr(game: Any, iterations: int) -> tuple[Any, float, float]:
    solver = cfr.CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    avg = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [avg, avg])[0]
    return avg, float(value), float(exploitability.exploitability(game, avg))


# ====================================================================== the reference
def test_cfr_reaches_the_value_of_kuhn_poker_as_on_openspiels_own() -> None:
    """OpenSpiel's CFR on our game through the adapter: the value -1/18 and exploitability
    below 1e-3 after 1,000 iterations, and the same figures as on its built-in game (the
    same tree, the same information sets, the same returns)."""
    ours = pyspiel.load_game("python_kuhn")
    assert ours.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    _, value, expl = _cfr(ours, 1000)
    assert abs(value - VALUE) < 1e-3 and expl < 1e-3, (value, expl)
    _, ref_value, ref_expl = _cfr(pyspiel.load_game("kuhn_poker"), 1000)
    assert math.isclose(value, ref_value, abs_tol=1e-9)
    assert math.isclose(expl, ref_expl, abs_tol=1e-9)


def _shape(game: Any) -> tuple[Any, ...]:
    """The tree's shape: its states, information sets per player, and each player's value
    when everyone plays uniformly at random."""
    states = get_all_states(game, include_terminals=True, include_chance_states=True)
    sets = [len({s.information_state_string(p) for s in states.values()
                 if s.current_player() == p}) for p in range(game.num_players())]
    uniform = os_policy.UniformRandomPolicy(game)
    value = expected_game_score.policy_value(game.new_initial_state(),
                                             [uniform] * game.num_players())
    return len(states), tuple(sets), tuple(round(float(v), 12) for v in value)


def test_the_game_tree_is_openspiels_with_two_and_three_players(tmp_path: Path) -> None:
    three = tmp_path / "three.toml"
    three.write_text(THREE)
    assert _shape(pyspiel.load_game("python_kuhn")) == _shape(
        pyspiel.load_game("kuhn_poker"))
    ours = pyspiel.load_game("python_kuhn", {"players": 3, "rules": str(three)})
    assert _shape(ours) == _shape(pyspiel.load_game("kuhn_poker", {"players": 3}))


def test_the_heuristic_is_kuhns_equilibrium() -> None:
    """The heuristic bot's chances, as a policy: worth -1/18 to the first player and not
    exploitable at all."""
    game = pyspiel.load_game("python_kuhn")

    def chances(state: Any) -> dict[int, float]:
        st = state.seated.game
        bot = heuristic_policy(0)
        tries = 3000  # the bot draws from its generator: its chances, counted
        counts: dict[int, int] = {}
        for _ in range(tries):
            a = state.seated.seat_id_for(bot(st))
            counts[a] = counts.get(a, 0) + 1
        # round to the equilibrium's thirds (the counts are within a few percent)
        return {a: round(3 * n / tries) / 3 for a, n in counts.items()} | {
            a: 0.0 for a in state.legal_actions() if a not in counts}

    pol = os_policy.tabular_policy_from_callable(game, chances)
    value = expected_game_score.policy_value(game.new_initial_state(), [pol, pol])[0]
    assert math.isclose(value, VALUE, abs_tol=1e-9)
    assert exploitability.exploitability(game, pol) < 1e-9


# ====================================================================== the game
def test_a_hand_plays_saves_and_replays() -> None:
    g = new_game("kuhn", seed=5, log=True)
    assert g.legal_actions()[0] == g.registry.parse("check p1") and g.returns() == [0.0, 0.0]
    with pytest.raises(IllegalActionError, match="p1's decision"):
        g.apply("check p2")
    g.apply("bet p1")
    g.apply("fold p2")
    assert g.is_over() and g.returns() == [1.0, -1.0] and g.outcome == "p1"
    again = loads(dumps(g))
    assert again.fingerprint() == g.fingerprint() and again.events() == g.events()
    assert pickle.loads(pickle.dumps(g)).fingerprint() == g.fingerprint()


def test_explicit_chance_deals_the_same_hand_and_hides_the_other_card() -> None:
    for seed in range(20):
        sampled = new_game("kuhn", seed=seed)
        explicit = new_game("kuhn", seed=seed, chance="explicit")
        while explicit.is_chance_node():
            outcomes = explicit.chance_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            explicit.apply(explicit.sample_chance())
        assert explicit.hands == sampled.hands
        assert explicit.information_state(0) == sampled.information_state(0)
        # p2 cannot tell p1's card: a hand with another card for p1 looks the same to p2
        other = sampled.resample([1], seed)
        assert other.hands[1] == sampled.hands[1]
        assert other.information_state(1) == sampled.information_state(1)
        assert sampled.observation(1)["cards"]["p1"] == "?"


def test_bad_input_is_refused_with_the_projects_errors(tmp_path: Path) -> None:
    with pytest.raises(GameError, match="played by 2 players, not 3"):
        new_game("kuhn", players=3)
    with pytest.raises(GameError, match="no option 'difficulty'"):
        new_game("kuhn", difficulty="hard")
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "kuhn"\n[deck]\ncards = ["jack", "jack"]\n')
    from artproject.core.errors import RulesError
    with pytest.raises(RulesError, match="names a card twice"):
        new_game("kuhn", variants=[str(bad)])


# ====================================================================== every tool takes it
def test_every_tool_takes_kuhn_poker(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    assert "kuhn" in game_names() and {"heuristic", "random"} <= set(POLICIES)
    assert main(["simulate", "--game", "kuhn", "--games", "300", "--seed", "1",
                 "--policy", "heuristic,random", "--json"]) == 0
    (cell,) = json.loads(capsys.readouterr().out)
    assert cell["game"] == "kuhn" and cell["games"] == 300
    assert sum(s["average_return"] for s in cell["seats"]) == pytest.approx(0.0)
    assert main(["check", "missions/kuhn.toml", "tests/scenarios/kuhn-bet-call.toml"]) == 0
    assert "no errors" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)
    assert main(["verify", "kuhn", "--game", "kuhn", "--examples", "10"]) == 0
    assert "everything holds" in capsys.readouterr().out
    assert main(["render", "--game", "kuhn", "-o", "deck.svg"]) == 0
    assert "jack" in (tmp_path / "deck.svg").read_text()
    tools = game_tools("kuhn")
    assert tools.players(tools.load_rules("kuhn")) == (2, 2)


def test_play_at_the_terminal_passes_the_screen(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.chdir(tmp_path)
    g = new_game("kuhn", seed=4)  # p1 queen, p2 king
    out = io.StringIO()
    tools = game_tools("kuhn")
    assert tools.run(g, io.StringIO("\nview p2\n2\n\n1\n"), out) == 0
    text = out.getvalue()
    assert "pass the screen to p1" in text and "p1's card: queen" in text
    assert "no view in Kuhn poker" in text and "pass the screen to p2" in text
    assert "p2 takes the pot of 4" in text
    # p1's screen never shows p2's card before the showdown
    assert "king" not in text.split("pass the screen to p2")[0]


def test_the_architecture_pages_commands_run(tmp_path: Path) -> None:
    """docs/architecture.md's "Adding a game" commands, each in an empty folder (the play
    session fed an empty input: it saves and ends)."""
    import re
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = re.search(r"Then every tool takes it, unchanged:\n\n```sh\n(.*?)```", text, re.S)
    assert block is not None
    lines = [ln.partition("#")[0].strip() for ln in block.group(1).splitlines()]
    assert len(lines) >= 6
    for line in lines:
        command = (line.replace("artproject ", f"{sys.executable} -m artproject ", 1)
                   .replace(" missions/", f" {root}/missions/")
                   .replace(" tests/", f" {root}/tests/"))
        r = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True,
                           input="", check=False, timeout=300)
        assert r.returncode == 0, (line, r.stdout, r.stderr)


def test_the_three_libraries_own_checks_pass_on_it() -> None:
    """OpenSpiel's random simulation test, PettingZoo's api_test, Gymnasium's check_env."""
    import warnings

    import gymnasium
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    import artproject.adapters.gymnasium  # noqa: F401 (registers the environments)
    from artproject.adapters.pettingzoo import env

    pyspiel.random_sim_test(pyspiel.load_game("python_kuhn"), num_sims=20, serialize=True,
                            verbose=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(game="kuhn"), num_cycles=100)
        check_env(gymnasium.make("artproject/Kuhn-v0").unwrapped)


def test_a_resample_after_the_showdown_keeps_the_cards_shown() -> None:
    """K3: the cards shown at a showdown are seen by everyone, so a copy a player cannot
    tell from the game keeps them (a resample dealt them anew, against its own trail: the
    player saw another card in the copy, and through OpenSpiel the history [0, 1, 0, 3, 4]
    became [0, 2, 0, 3, 4])."""
    from artproject.core.kuhn.betting import SHOWN

    showdowns = 0
    for seed in range(40):
        st = new_game(game="kuhn", players=2, seed=seed)
        while st.outcome is None:  # check, check: the showdown
            st.apply(st.legal_actions()[0])
        if not any(kind is SHOWN for _, kind, _, _ in st.trail):
            continue
        showdowns += 1
        for player in (0, 1):
            for s in range(5):
                twin = st.resample([player], s)
                assert twin.information_state(player) == st.information_state(player)
                assert twin.observation(player) == st.observation(player), (seed, player, s)
                assert twin.hands == st.hands  # (both cards shown: nothing left to redraw)
    assert showdowns
