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
        cited.update(c for c in doc["cites"] if c.startswith("R"))
    wanted = {f"R{i}" for i in [*range(1, 21), 24]}
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
    ('phase = "batle"', "unknown phase 'batle' (did you mean 'battle'?)"),
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
