"""The docs' examples run: DSL blocks compile, Python blocks execute, TOML blocks load."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

from artproject.checking import check_file
from artproject.core.art.loader import load_rules, scope_of
from artproject.core.scenario import run_scenario
from artproject.dsl.compiler import Compiler

DOCS = Path(__file__).resolve().parent.parent / "docs"
FENCE = re.compile(r"^```(\w+)(?: (\w+))?(?: (\S+))?\n(.*?)^```$", re.S | re.M)


def blocks(name: str, lang: str) -> list[tuple[str, str]]:
    text = (DOCS / name).read_text(encoding="utf-8")
    return [(m.group(2) or "", m.group(4)) for m in FENCE.finditer(text) if m.group(1) == lang]


def test_every_doc_has_examples() -> None:
    assert len(blocks("dsl.md", "dsl")) >= 15
    assert len(blocks("dsl.md", "war")) >= 4
    assert blocks("api.md", "python")
    assert len([b for b in blocks("scenarios.md", "toml") if b[0] == "scenario"]) >= 2


@pytest.mark.parametrize(("start", "text"), blocks("dsl.md", "dsl"))
def test_dsl_examples_compile(start: str, text: str) -> None:
    # Japan's names, plus the road attributes the page's examples borrow from other boards
    scope = attrs.evolve(scope_of(load_rules("japan")), road_attrs={"thread": None, "style": None})
    comp = Compiler(scope)
    if start == "amounts":
        comp.amounts(text.strip(), ("fuel", "radio", "weapon", "health"))
    else:
        getattr(comp, start)(text.strip())
    assert not comp.errors, [str(e) for e in comp.errors]


@pytest.mark.parametrize(("start", "text"), blocks("dsl.md", "war"))
def test_art_of_war_dsl_examples_compile(start: str, text: str) -> None:
    from artproject.core.aow.loader import load_rules as load_war
    from artproject.core.aow.words import WORDS, WarScope

    comp = Compiler(WarScope(dict(load_war("art-of-war").index)), WORDS)
    getattr(comp, start)(text.strip(), None, frozenset({"player"}))
    assert not comp.errors, [str(e) for e in comp.errors]


def test_api_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    from artproject.policies import policies_of

    shipped = dict(policies_of())  # (the page registers a policy: not left for later tests,
    try:  # the server's catalog among them)
        for _, code in blocks("api.md", "python"):
            exec(compile(code, "docs/api.md", "exec"), {})
    finally:
        policies_of().clear()
        policies_of().update(shipped)
    out = capsys.readouterr().out
    assert "won" in out or "lost" in out
    assert "not now" in out


def test_readme_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    (code,) = [m.group(4) for m in FENCE.finditer(text) if m.group(1) == "python"]
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "lost" in out or "won" in out


@pytest.mark.parametrize("text", [t for kind, t in blocks("scenarios.md", "toml")
                                  if kind == "scenario"])
def test_scenario_examples_pass(tmp_path: Path, text: str) -> None:
    p = tmp_path / "example.toml"
    p.write_text(text)
    res = run_scenario(p)
    assert res.passed, res.failures


@pytest.mark.parametrize("text", [t for kind, t in blocks("missions.md", "toml")
                                  if kind == "variant"])
def test_mission_doc_variants_check(tmp_path: Path, text: str) -> None:
    p = tmp_path / "variant.toml"
    p.write_text(text)
    assert check_file(p) == []


def test_authoring_tutorial_runs(tmp_path: Path) -> None:
    """Every command of docs/authoring.md, in order, in an empty folder."""
    import subprocess
    import sys

    text = (DOCS / "authoring.md").read_text(encoding="utf-8")
    ran = 0
    for m in FENCE.finditer(text):
        lang, kind, name, body = m.group(1), m.group(2) or "", m.group(3), m.group(4)
        if lang == "toml" and kind == "append":
            with open(tmp_path / name, "a", encoding="utf-8") as f:
                f.write(body)
            continue
        if lang != "sh":
            continue
        for line in body.strip().splitlines():
            command, _, comment = line.partition("#")
            want = int(comment.split()[-1]) if "exit" in comment else 0
            command = command.replace("artproject ", f"{sys.executable} -m artproject ")
            r = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True,
                               text=True, check=False)
            assert r.returncode == want, (line, r.stdout, r.stderr)
            if "broken.toml" in line:
                assert "broken.toml:2:50: unknown city 'tokio' (did you mean 'tokyo'?)" in r.stderr
            ran += 1
    assert ran >= 9


def test_every_ruling_cited_is_told_in_the_rulings_page() -> None:
    """docs/rulings.md tells every ruling cited anywhere (code, rule files, scenarios, docs),
    numbered as cited, and names only scenario files that exist."""
    root = DOCS.parent
    text = (DOCS / "rulings.md").read_text(encoding="utf-8")
    told = set(re.findall(r'<a id="r(\d+)"></a>\*\*R(\1)\*\*', text))
    assert {int(n) for n, _ in told} == set(range(1, 28))
    cited: set[int] = set()
    for folder, pattern in (("core", "*.py"), ("dsl", "*.py"), ("artproject", "*.py"),
                            ("missions", "*.toml"), ("tests/scenarios", "*.toml"),
                            ("docs", "*.md")):
        for f in (root / folder).rglob(pattern):
            cited.update(int(n) for n in re.findall(r"\bR(\d{1,2})\b", f.read_text("utf-8")))
    assert cited <= {int(n) for n, _ in told}, sorted(cited - {int(n) for n, _ in told})
    told_w = set(re.findall(r'<a id="w(\d+)"></a>\*\*W(\1)\*\*', text))
    assert {int(n) for n, _ in told_w} == set(range(1, 20))  # Art of War's, W1-W19
    cited_w: set[int] = set()
    for folder, pattern in (("core/aow", "*.py"), ("cards", "art-of-war.toml"),
                            ("missions", "*.toml"), ("tests/scenarios", "aow-*.toml"),
                            ("docs", "*.md")):
        for f in (root / folder).rglob(pattern):
            cited_w.update(int(n) for n in re.findall(r"\bW(\d{1,2})\b", f.read_text("utf-8")))
    assert cited_w <= set(range(1, 20)), sorted(cited_w - set(range(1, 20)))
    stems = {p.stem for p in (root / "tests" / "scenarios").glob("*.toml")}
    for m in re.finditer(r"Scenarios?(?: \([^)]*\))?:((?:\s*`[^`]+`,?)+)", text):
        for name in re.findall(r"`([^`]+)`", m.group(1)):
            assert any(s.startswith(name.rstrip("*")) for s in stems) if name.endswith(
                "*") else name in stems, name


def test_readme_points_to_the_rulings_in_the_repository() -> None:
    text = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    assert "docs/rulings.md" in text and "../shared" not in text


def test_ai_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/ai.md's examples, through each adapter (the `ai` extra, installed by `dev`)."""
    codes = blocks("ai.md", "python")
    assert len(codes) == 8
    for _, code in codes:
        exec(compile(code, "docs/ai.md", "exec"), {})
    out = capsys.readouterr().out
    assert "557 79" in out and "[0, 82]" in out and "the team's reward" in out
    assert "546 25" in out and "[-1.0, -1.0, -1.0, 1.0]" in out  # Art of War's
    assert "0.0 6.0" in out and "0.082" in out  # the observers; the duel solved
    assert "4 (760, 1000, 3) uint8" in out  # Art of War's frames


def test_ai_openspiel_variants_example_loads() -> None:
    """The OpenSpiel section's `variants` example (in its text, not a block) names shipped
    variants that load, through the adapter, as the game's rules."""
    import pyspiel

    import artproject.adapters.openspiel  # noqa: F401 (registers the games)

    text = (DOCS / "ai.md").read_text(encoding="utf-8")
    (example,) = re.findall(r'rules, joined by `\+`: `"([^"`]+)"`', text)
    names = example.split("+")
    assert len(names) >= 2
    for name in names:
        assert (DOCS.parent / "missions" / "variants" / f"{name}.toml").exists(), name
    game = pyspiel.load_game("python_art_project", {"players": 2, "variants": example})
    assert game.new_initial_state().seated.game.rules.variants == tuple(names)


def _table_rows(name: str, head: str) -> list[list[str]]:
    """The rows of the Markdown table whose header starts with `head`."""
    lines = (DOCS / name).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(head))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip().strip("`") for c in line.strip("|").split("|")])
    return rows


def test_ai_layout_tables_match_the_game() -> None:
    """The action and tensor tables of docs/ai.md are Japan's at 2 players, as made."""
    from artproject import new_game
    from artproject.core.seats import Seated

    game = new_game("japan", players=2)
    seated = Seated(game, "players")
    blocks_ = [(f"{a}-{b}" if a != b else str(a), usage)
               for a, b, usage in game.action_space().decisions.table()]
    rows = _table_rows("ai.md", "| ids |")
    assert [(r[0], r[1]) for r in rows[:-1]] == blocks_
    assert rows[-1][0] == f"{game.num_distinct_actions()}-{seated.num_distinct_actions() - 1}"
    layout = [(n, str(at), str(shape)) for n, at, shape, _ in
              seated.layout("information_state").rows()]
    assert [(r[0], r[1], r[2]) for r in _table_rows("ai.md", "| segment |")] == layout


def test_ai_art_of_war_tables_match_the_game() -> None:
    """docs/ai.md's Art of War tables are its actions and tensor at 2 players, as made."""
    from artproject import new_game
    from artproject.core.seats import Seated

    game = new_game("art-of-war", players=2)
    seated = Seated(game, "players")
    blocks_ = [(f"{a}-{b}" if a != b else str(a), usage)
               for a, b, usage in game.action_space().decisions.table()]
    assert [(r[0], r[1]) for r in _table_rows("ai.md", "| ids (Art of War) |")] == blocks_
    layout = [(n, str(at), str(shape), meaning) for n, at, shape, meaning in
              seated.layout("information_state").rows()]
    assert [tuple(r) for r in _table_rows("ai.md", "| segment (Art of War) |")] == layout


def test_art_of_war_page_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/art-of-war.md: its scenario passes, its Python runs, its card table is the data."""
    import tomllib

    for _, text in [b for b in blocks("art-of-war.md", "toml") if b[0] == "scenario"]:
        p = tmp_path / "example.toml"
        p.write_text(text)
        res = run_scenario(p)
        assert res.passed, res.failures
    (code,) = [t for _, t in blocks("art-of-war.md", "python")]
    exec(compile(code, "docs/art-of-war.md", "exec"), {})
    assert "(W18)" in capsys.readouterr().out
    page = (DOCS / "art-of-war.md").read_text(encoding="utf-8")
    rows = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in re.finditer(
        r"^\| (\w+) \| (\d+) \| (-?\d+) \|", page, re.M)}
    cards = tomllib.loads((DOCS.parent / "cards" / "art-of-war.toml").read_text("utf-8"))
    assert rows == {c["name"]: (c["count"], c["score"]) for c in cards["card"]}
    for c in cards["card"]:
        for key in ("collateral", "rank", "on_draw", "on_reveal"):
            assert key not in c or f"`{c[key]}`" in page or f'"{c[key]}"' in page, (c, key)


def test_the_balance_tables_intervals_are_their_counts_rounded_once() -> None:
    """Every `P% (L-H%)` in docs/balance.md is the Wilson interval of its count (500 games
    a cell unless `k of n:` says), rounded once from the exact bounds, as simulate and
    report print it (the tables read 1.4-4.2% for 12 of 500 once: rounded twice)."""
    from artproject.loop import interval_text, wilson

    text = (DOCS / "balance.md").read_text()
    found = re.findall(r"(?:(\d+) of (\d+): )?(\d+\.\d)%,? \(?(\d+\.\d-\d+\.\d%)", text)
    assert len(found) > 250
    for k, n, rate, interval in found:
        games = int(n) if n else 500
        won = int(k) if k else round(float(rate) * games / 100)
        assert f"{100 * won / games:.1f}" == rate
        assert interval_text(*wilson(won, games)) == interval, (rate, interval)
