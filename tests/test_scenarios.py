"""Every scenario under tests/scenarios/ is a test; bad scenario files fail cleanly."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from artproject.core.errors import RulesError
from artproject.core.scenario import run_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, "\n".join(result.failures)


def test_scenarios_cite_the_rules() -> None:
    import tomllib

    cited = set()
    for p in SCENARIOS:
        doc = tomllib.loads(p.read_text())
        assert doc.get("about") and doc.get("cites"), p
        cited.update(c for c in doc["cites"] if c[:1] in "RW")
    wanted = {f"R{i}" for i in range(1, 28)}  # every ruling (docs/rulings.md)
    wanted |= {f"W{i}" for i in range(1, 20)}  # and Art of War's
    assert wanted <= cited, sorted(wanted - cited)


def _write(tmp: Path, text: str) -> Path:
    p = tmp / "s.toml"
    p.write_text(textwrap.dedent(text).lstrip())
    return p


def test_failing_expectation_reports_values(tmp_path: Path) -> None:
    p = _write(tmp_path, """
        players = 2
        [[step]]
        expect = ["van.fuel == 2"]
    """)
    res = run_scenario(p)
    assert not res.passed
    assert res.failures == (f"{p}:3:11: step 1: expected van.fuel == 2 (van.fuel is 3, "
                            "expected 2)",)


def test_refused_action_that_is_allowed_fails(tmp_path: Path) -> None:
    p = _write(tmp_path, """
        [[step]]
        refuse = "done"
    """)
    assert "was allowed" in run_scenario(p).failures[0]


@pytest.mark.parametrize(("body", "message"), [
    ('phase = "batle"', "phase: unknown value 'batle' (did you mean 'battle'?)"),
    ("[position]\npawns = ['tokio']", "position.pawns.p1: unknown city 'tokio'"),
    ("[[step]]\ndo = 'mvoe p1 kyoto'", "unknown verb 'mvoe'"),
    ("[[step]]\nexpect = ['van.fule == 1']", "unknown resource 'fule'"),
    ("[[step]]\nexpct = []", "unknown step key 'expct' (did you mean 'expect'?)"),
    ("[position]\nagents = { kyoto = 50 }", "more agent tokens than the game has"),
])
def test_bad_scenario_files(tmp_path: Path, body: str, message: str) -> None:
    p = _write(tmp_path, body + "\n")
    with pytest.raises(RulesError) as err:
        run_scenario(p)
    assert message in str(err.value)
    assert str(err.value).startswith(str(p))


FIXTURE = Path(__file__).parent / "missions" / "japan-scenarios.toml"


def _battle(tmp: Path, steps: str) -> Path:
    """The rulebook's battle example (docs/scenarios.md: 13 against 14) with the given steps."""
    return _write(tmp, f"""
        mission = {str(FIXTURE)!r}
        phase = "battle"
        [position]
        pawns = ["tokyo", "tokyo"]
        agents = {{ tokyo = 3 }}
        hq = 1
        track = ["films", "music", "books", "sculptures", "paintings", "artifacts"]
        allies = 2
        dice = [4, 1, 3, 5]
        [[step]]
        do = "fight p1 tokyo"
        [[step]]
        do = "join p2"
    """ + textwrap.dedent(steps))


def test_events_match_whole_events_and_events_like_a_part(tmp_path: Path) -> None:
    """`events` names a whole event: "won" no longer matches "battle_won"."""
    ok = _battle(tmp_path, """
        [[step]]
        do = "boost p2"
        events = ["battle_won tokyo 15 14"]
        events_like = ["battle_won", "tokyo 15"]
        not_events = ["won", "battle_won tokyo"]
        not_events_like = ["battle_lost"]
    """)
    assert run_scenario(ok).passed, run_scenario(ok).failures
    bad = _battle(tmp_path, """
        [[step]]
        do = "boost p2"
        events = ["won"]
        not_events = ["battle_won tokyo 15 14"]
        events_like = ["battle_lost"]
        not_events_like = ["_won"]
    """)
    f = run_scenario(bad).failures
    assert len(f) == 4
    assert "step 3: no event 'won' (events); events were:\n      boost p2\n" in f[0]
    assert "an event 'battle_won tokyo 15 14' happened (not_events)" in f[1]
    assert "no event containing 'battle_lost' (events_like)" in f[2]
    assert "an event containing '_won' happened (not_events_like): 'battle_won tokyo 15 14'" in f[3]


def test_every_failure_is_reported_and_a_refused_step_ends_the_scenario(tmp_path: Path) -> None:
    p = _write(tmp_path, """
        [[step]]
        expect = ["round == 2", "van.fuel == 3"]
        [[step]]
        do = "done"
        expect = ['wait == "move"']
        [[step]]
        do = "move p1 kyoto"
        [[step]]
        expect = ["round == 1"]
        [[step]]
        expect = ["round == 1"]
    """)
    f = run_scenario(p).failures
    assert f[0].endswith('step 1: expected round == 2 (round is 1, expected 2)')
    assert f[1].endswith('step 2: expected wait == "move" (wait is \'plan\', expected \'move\')')
    assert "step 3: 'move p1 kyoto' was refused" in f[2]
    assert f[3].endswith("step 3: the game cannot go on: step 4-5 not run")
    assert len(f) == 4


def test_an_engine_failure_is_reported_not_raised(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in the engine fails its scenario with a one-line reason; the others still run."""
    from artproject.core.art.registry import DONE

    def broken(st: object, a: object) -> None:
        raise KeyError(0)

    monkeypatch.setattr(DONE, "apply", broken)  # the verb's declared step (core/registry.py)
    p = _write(tmp_path, '[[step]]\ndo = "done"\n[[step]]\nexpect = ["round == 1"]\n')
    f = run_scenario(p).failures
    assert "step 1: the engine failed: KeyError: 0 (at test_scenarios.py:" in f[0]
    assert f[1].endswith("the game cannot go on: step 2 not run")


def test_pay_health_names_who_pays_where_the_team_chooses(tmp_path: Path) -> None:
    """R5: an unlock's missing radio is paid by the players `pay_health` names, in turn."""
    p = _write(tmp_path, f"""
        mission = {str(FIXTURE)!r}
        players = 3
        [position]
        van = {{ fuel = 3, radio = 1, weapon = 3 }}
        [[step]]
        do = "unlock"
        pay_health = ["p2", "p3", "p2"]
        expect = ["health(p1) == 3", "health(p2) == 1", "health(p3) == 2", 'wait == "boundary"']
    """)
    assert run_scenario(p).passed, run_scenario(p).failures
    # fewer: the step answers one question, and the others are left to the next steps
    p.write_text(p.read_text().replace('["p2", "p3", "p2"]', '["p2"]').replace(
        'expect = [', 'expect = [\'wait == "hurt"\', ').replace(', \'wait == "boundary"\'', ''))
    f = run_scenario(p).failures
    assert len(f) == 2 and all("health(p" in x for x in f)  # p2 paid 1, p3 none: only checks
    p.write_text(p.read_text().replace('["p2"]', '["p2", "p3", "p2", "p1"]'))
    f = run_scenario(p).failures
    assert "expected health payments p2, p3, p2, p1 (pay_health); paid: p2, p3, p2 " in f[0]


def test_pay_health_checks_a_payment_the_rules_name(tmp_path: Path) -> None:
    """R4: a move is paid in health only when the van holds no fuel, by the mover (R5)."""
    p = _write(tmp_path, f"""
        mission = {str(FIXTURE)!r}
        phase = "movement"
        [position]
        van = {{ fuel = 0, radio = 3, weapon = 3 }}
        [[step]]
        do = "move p2 nagoya"
        pay_health = ["p2"]
        [[step]]
        do = "move p1 nagoya"
        pay_health = []
    """)
    f = run_scenario(p).failures
    assert len(f) == 1 and "step 2: expected health payments none (pay_health); paid: p1" in f[0]
    p.write_text(p.read_text().replace("fuel = 0", "fuel = 1"))
    f = run_scenario(p).failures
    assert "step 1: expected health payments p2 (pay_health); paid: none" in f[0]


def test_cards_and_the_deck_as_expressions(tmp_path: Path) -> None:
    p = _write(tmp_path, f"""
        mission = {str(FIXTURE)!r}
        [position]
        hands = {{ p2 = [19] }}
        chain = [5]
        discard = [7]
        deck_top = [11, 1]
        [[step]]
        expect = ['card(19) == "hand p2"', 'card(5) == "chain"', 'card(7) == "discard"',
                  'card(11) == "deck"', 'card(999) == ""', "deck_top(1) == 11",
                  "deck_top(2) == 1", "deck_top(3) == -1", "final_from_bottom == 13",
                  "final_from_top == 73 - 12 - 3", "deck == 73 - 3"]
        [[step]]
        expect = ['card(0) == "discard"']
    """)
    f = run_scenario(p).failures
    assert len(f) == 1 and "expected card(0) == \"discard\" (card(0) is 'deck'" in f[0]


@pytest.mark.parametrize(("body", "message"), [
    ("[[step]]\npay_health = ['p3']", "step[0].pay_health[0]: no player 'p3' in a 2-player game"),
    ("[[step]]\npay_health = ['x']", "'x' is not a player"),
    ("[[step]]\nlegal = ['unlock p1']", "step[0].legal[0]: 'unlock p1': expected 'unlock'"),
    ("[[step]]\nnot_events = 'won'",
     "step[0].not_events: expected a list of texts, not text 'won'"),
    ("[[step]]\nexpect = ['card(p1) == 1']", "card() wants int here, not player"),
])
def test_bad_new_step_keys(tmp_path: Path, body: str, message: str) -> None:
    p = _write(tmp_path, body + "\n")
    with pytest.raises(RulesError) as err:
        run_scenario(p)
    assert message in str(err.value) and str(err.value).startswith(str(p))
