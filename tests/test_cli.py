"""The artproject command as a user runs it: exit statuses, messages, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from artproject.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "artproject.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, check=False)


def test_help_and_version() -> None:
    r = run("--help")
    assert r.returncode == 0 and "simulate" in r.stdout and "examples:" in r.stdout
    r = run("--version")
    assert r.returncode == 0 and r.stdout.startswith("artproject ")
    for cmd in ("simulate", "check", "scenario"):
        r = run(cmd, "--help")
        assert r.returncode == 0 and "examples:" in r.stdout


def test_simulate_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--mission", "japan", "--players", "3", "--difficulty", "medium",
            "--games", "20", "--seed", "1"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first
    assert "Hall of Fame" in first and "20 games a row" in first and "95% CI" in first
    assert "causes of loss" in first and "rulings cited are told in docs/rulings.md" in first


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "5", "--json", "--policy", "cautious"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    assert report["won"] + report["lost"] == 5 and report["mission"] == "japan"
    lo, hi = report["ci95"]
    assert 0 <= lo <= report["win_rate"] <= hi <= 1


def test_simulate_grid_and_csv(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--mission", "japan,egypt", "--difficulty", "easy,hard",
            "--players", "2,3", "--games", "4", "--policy", "heuristic", "--csv"]
    assert main(args) == 0
    rows = capsys.readouterr().out.strip().splitlines()
    assert rows[0].startswith("mission,difficulty,players,games,won,win_rate")
    assert len(rows) == 1 + 2 * 2 * 2
    assert rows[1].startswith("japan,easy,2,4,")


def test_simulate_workers_give_the_same_results(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--players", "2,4", "--games", "10", "--policy", "heuristic",
            "--seed", "3", "--json"]
    assert main(args) == 0
    one = capsys.readouterr().out
    assert main([*args, "--workers", "2"]) == 0
    assert capsys.readouterr().out == one


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "--mission", "japn"], "unknown mission 'japn' (did you mean 'japan'?)"),
    (["simulate", "--difficulty", "medum"], "did you mean 'medium'"),
    (["simulate", "--players", "9"], "unknown player count '9'"),
    (["simulate", "--policy", "heuristc"], "unknown policy 'heuristc' (did you mean 'heuristic'?)"),
    (["simulate", "--difficulty", "easy,medum"], "unknown difficulty 'medum'"),
    (["simulate", "--games", "0"], "--games must be from 1 to 1,000,000, not 0"),
    (["check", "no/such/file.toml"], "no such file or folder"),
    (["simulate", "--variant", "missing.toml"], "missing.toml: no such file"),
    # issue 11: list options, caps
    (["simulate", "--players", ""], "--players '': an empty item; expected one of 1, 2"),
    (["simulate", "--players", ","], "--players ',': an empty item"),
    (["simulate", "--players", "2,,3"], "--players '2,,3': an empty item"),
    (["simulate", "--difficulty", ""], "--difficulty '': an empty item"),
    (["simulate", "--mission", ""], "--mission '': an empty item"),
    (["simulate", "--mission", "japan,"], "--mission 'japan,': an empty item"),
    (["verify", "japan", "--players", ""], "--players '': an empty item"),
    (["verify", "japan", "--examples", "0"], "--examples must be from 1 to 100,000"),
    (["simulate", "--workers", "1000"], "--workers must be at most 64, not 1000"),
    (["simulate", "--games", "2000000"], "--games must be from 1 to 1,000,000"),
    (["simulate", "--seed", "-1"], "--seed must be from 0 to"),
    (["simulate", "--variant", "no-such-variant"], "unknown variant 'no-such-variant'"),
    (["simulate", "--mission", "/dev/zero"], "/dev/zero: not a regular file"),
    (["play", "--load", "/dev/zero"], "/dev/zero: cannot read: not a regular file"),
    (["play", "--mission", ""], "no mission named"),
    (["render", "--save", "/dev/null", "-o", "x.svg"], "/dev/null: cannot read: not a regular"),
])
def test_bad_input_exits_2_without_traceback(args: list[str], message: str) -> None:
    r = run(*args)
    assert r.returncode == 2
    assert message in r.stderr
    assert "Traceback" not in r.stderr


def test_a_repeated_list_item_counts_once_with_a_note() -> None:
    r = run("simulate", "--players", "2,2", "--games", "3", "--csv")
    assert r.returncode == 0, r.stderr
    assert "artproject: note: --players names 2 more than once; each is counted once" in r.stderr
    assert len(r.stdout.strip().splitlines()) == 2  # the header and one row, not two


def test_players_take_lists_and_ranges_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    from artproject.cli import _players

    assert _players("all") == [1, 2, 3, 4, 5, 6]
    assert _players("1-3,5") == [1, 2, 3, 5] and capsys.readouterr().err == ""
    assert _players("2-4,3") == [2, 3, 4]
    assert "--players names 3 more than once" in capsys.readouterr().err
    r = run("simulate", "--players", "2-3", "--games", "2", "--csv")
    assert r.returncode == 0 and len(r.stdout.strip().splitlines()) == 3, r.stderr
    r = run("verify", "japan", "--players", "4-2")
    assert r.returncode == 2 and "--players: the range '4-2' is empty" in r.stderr


def test_workers_beyond_the_cores_are_capped_unless_forced() -> None:
    import os

    cores = len(os.sched_getaffinity(0))
    r = run("simulate", "--workers", str(cores + 1), "--games", "2", "--json")
    assert r.returncode == 0 and f"using {cores} (--force uses {cores + 1})" in r.stderr
    r = run("simulate", "--workers", str(cores + 1), "--games", "2", "--json", "--force")
    assert r.returncode == 0 and "note" not in r.stderr


def test_check_reports_every_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(textwrap.dedent("""\
        extends = "japan"
        hooks = ["on round_strat: win", "on round_end: gain 1 fule"]
    """))
    good = ROOT / "missions" / "japan.toml"
    r = run("check", str(good), str(bad))
    assert r.returncode == 2
    assert "round_strat" in r.stderr and "fule" in r.stderr
    assert "checked 2 file(s): 2 error(s)" in r.stdout
    assert run("check", "missions", "cards", "tests/scenarios").returncode == 0


def test_scenario_command(tmp_path: Path) -> None:
    r = run("scenario", "tests/scenarios")
    assert r.returncode == 0 and " 0 failed" in r.stdout
    fail = tmp_path / "fail.toml"
    fail.write_text('[[step]]\nexpect = ["round == 2"]\n')
    r = run("scenario", str(fail))
    assert r.returncode == 1 and "expected round == 2 (round is 1, expected 2)" in r.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text("[[step]\n")
    r = run("scenario", str(bad))
    assert r.returncode == 2 and "not valid TOML" in r.stderr and "Traceback" not in r.stderr


def test_scenario_command_reports_every_file(tmp_path: Path) -> None:
    """A wrong file and a failing scenario are each reported; the others still run."""
    (tmp_path / "a-bad.toml").write_text("[position]\nhands = { p1 = [0] }\n")
    (tmp_path / "b-fail.toml").write_text('[[step]]\nexpect = ["round == 2"]\n'
                                          '[[step]]\nexpect = ["round == 3"]\n')
    (tmp_path / "c-pass.toml").write_text('[[step]]\nexpect = ["round == 1"]\n')
    r = run("scenario", str(tmp_path))
    assert r.returncode == 2 and "Traceback" not in r.stderr + r.stdout
    assert "a-bad.toml:2:17: position.hands.p1[0]: the final card" in r.stderr
    assert "expected round == 2" in r.stdout and "expected round == 3" in r.stdout
    assert "1 passed, 1 failed, 1 could not be read" in r.stdout


@pytest.mark.parametrize("text", ["", "# only a comment\n"])
def test_scenario_refuses_an_empty_file_as_check_does(tmp_path: Path, text: str) -> None:
    """An empty file sets nothing up and checks nothing: not a scenario that passes."""
    empty = tmp_path / "empty.toml"
    empty.write_text(text)
    r = run("scenario", str(empty))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr == f"{empty}: empty file: not a scenario\n"
    assert "0 passed, 0 failed, 1 could not be read" in r.stdout
    r = run("check", str(empty))
    assert r.returncode == 2 and "empty file: not a mission, variant, card file or scenario" in (
        r.stdout + r.stderr)


def test_simulate_plays_the_heuristic_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    """README's main job must not look broken: without --policy the bot plays sensibly;
    the random baseline stays a --policy away."""
    assert main(["simulate", "--mission", "japan", "--players", "3", "--games", "20",
                 "--seed", "1", "--json"]) == 0
    (cell,) = json.loads(capsys.readouterr().out)
    assert cell["policy"] == "heuristic" and cell["won"] > 0
    assert main(["simulate", "--mission", "japan", "--players", "3", "--games", "20",
                 "--seed", "1", "--json", "--policy", "random"]) == 0
    (cell,) = json.loads(capsys.readouterr().out)
    assert cell["policy"] == "random"


# ---------------------------------------------------------------- nothing is lost (issue 11)
def test_render_never_replaces_a_file_it_did_not_draw(tmp_path: Path) -> None:
    mine = tmp_path / "mine.svg"
    mine.write_text('<svg xmlns="http://www.w3.org/2000/svg"/>\n')  # drawn by hand
    r = run("render", "japan", "-o", str(mine))
    assert r.returncode == 2 and "already exists; nothing was written (--force replaces it)" \
        in r.stderr
    assert mine.read_text() == '<svg xmlns="http://www.w3.org/2000/svg"/>\n'
    svg = tmp_path / "japan.svg"
    assert run("render", "japan", "-o", str(svg)).returncode == 0
    assert run("render", "egypt", "-o", str(svg)).returncode == 0  # its own drawing: redrawn
    assert "Egypt" in svg.read_text()
    assert run("render", "japan", "-o", str(mine), "--force").returncode == 0
    assert mine.read_text().startswith("<?xml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["japan.svg", "mine.svg"]


@pytest.mark.parametrize("name", ["out.png", "out.pdf", "board", "japan.toml"])
def test_render_writes_only_a_file_named_svg(tmp_path: Path, name: str) -> None:
    """SVG text under another format's name is no picture: refused, nothing written (an
    existing file of that name left as it was, --force or not)."""
    for force in ([], ["--force"]):
        r = run("render", "japan", "-o", str(tmp_path / name), *force)
        assert r.returncode == 2, r.stdout + r.stderr
        assert "render draws SVG; give a file ending in .svg" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert list(tmp_path.iterdir()) == []
    (tmp_path / name).write_text("mine\n")
    assert run("render", "japan", "-o", str(tmp_path / name), "--force").returncode == 2
    assert (tmp_path / name).read_text() == "mine\n"
    assert run("render", "japan", "-o", str(tmp_path / "J.SVG")).returncode == 0


def test_outputs_follow_the_umask(tmp_path: Path) -> None:
    r = subprocess.run(f"umask 027 && {sys.executable} -m artproject render japan -o j.svg",
                       shell=True, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "j.svg").stat().st_mode & 0o777 == 0o640


def test_verify_never_replaces_a_file(tmp_path: Path) -> None:
    broken = ROOT / "tests" / "missions" / "fuel-cap.toml"
    mission = tmp_path / "fuel-cap.toml"
    mission.write_text(broken.read_text())
    r = subprocess.run([sys.executable, "-m", "artproject", "verify", str(mission), "--out",
                        str(mission), "--examples", "60"], capture_output=True, text=True,
                       cwd=tmp_path, check=False)
    assert r.returncode == 2 and "already exists; nothing was written" in r.stderr
    assert mission.read_text() == broken.read_text()
    for name in ("counterexample-fuel-cap.toml", "counterexample-fuel-cap-2.toml"):
        r = subprocess.run([sys.executable, "-m", "artproject", "verify", str(mission),
                            "--examples", "60"], capture_output=True, text=True,
                           cwd=tmp_path, check=False)
        assert r.returncode == 1 and f"written as a scenario: {name}" in r.stdout, r.stderr


def test_verify_art_of_war_writes_its_counterexample(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """verify --game art-of-war's failure path (its invariants hold for the shipped rules, so a
    failure is planted in the search's report): the counterexample is told, written as a
    scenario at --out, which is then refused without --force; exit 1, then 2."""
    import artproject.core.aow.tools as war_tools
    from artproject.core.aow.game import new_game as war_game
    from artproject.core.invariants import Violation
    from artproject.verify import Example, Outcome, Report

    st = war_game(players=2, seed=1)
    first = str(st.legal_actions()[0])
    planted = Report("art-of-war", 1, 1, 1, (2,), ("-",), (),
                     Outcome([first], 1, Violation("a planted failure (W1)")),
                     Example(2, "-", 1, (0,)))
    monkeypatch.setattr(war_tools, "verify", lambda *a, **k: planted)  # (the game's tools)
    out = tmp_path / "cx.toml"
    argv = ["verify", "art-of-war", "--game", "art-of-war", "--examples", "1", "--out", str(out)]
    assert main(argv) == 1
    said = capsys.readouterr().out
    assert "COUNTEREXAMPLE: a planted failure (W1)" in said
    assert "2 players, seed 1, 1 decisions:" in said and first in said
    assert out.read_text(encoding="utf-8").count(first) == 1
    assert main(argv) == 2
    assert "already exists" in capsys.readouterr().err


def test_an_abbreviated_option_is_refused() -> None:
    """`--game` is not `--games` cut short: argparse's abbreviations are off, so a
    mistyped option is an error (exit 2), never another option read silently."""
    r = run("tune", "--game", "5", "japan")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "unrecognized arguments: --game" in r.stderr
    r = run("simulate", "--gam", "1")
    assert r.returncode == 2 and "unrecognized arguments: --gam" in r.stderr


@pytest.mark.parametrize("port", ["99999", "65536", "-1", "http"])
def test_serve_refuses_a_port_out_of_range(tmp_path: Path, port: str) -> None:
    """A port outside 0-65535 is refused as the arguments are read (the socket layer wraps
    99999 to another port, takes 65536 as any free one, and says little of -1)."""
    db = tmp_path / "games.db"
    r = run("serve", "--port", port, "--db", str(db))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.splitlines()[-1] == ("artproject serve: error: argument --port: expected a "
                                         f"port from 0 to 65535 (0: any free one), not '{port}'")
    assert not db.exists()


@pytest.mark.parametrize(("args", "says"), [
    (["simulate", "--game", "art-of-war", "--mission", "japan", "--games", "1"],
     "unknown rules 'japan'; Art of War's shipped rules: art-of-war"),
    (["simulate", "--game", "kuhn", "--mission", "japan", "--games", "1"],
     "unknown rules 'japan' of Kuhn poker"),
    (["simulate", "--game", "art-project", "--mission", "art-of-war", "--games", "1"],
     "not a mission of The A.R.T. Project"),
    (["play", "--game", "art-of-war", "--mission", "japan"],
     "unknown rules 'japan'; Art of War's shipped rules: art-of-war"),
    (["play", "--game", "kuhn", "--mission", "japan"], "unknown rules 'japan' of Kuhn poker"),
    (["play", "--game", "art-of-war", "--mission", "missions/kuhn.toml"],
     "a file of 'kuhn', not the rules of Art of War"),
    (["verify", "--game", "art-of-war", "japan"], "unknown rules 'japan'"),
    (["render", "--game", "kuhn", "japan"], "unknown rules 'japan' of Kuhn poker"),
])
def test_rules_of_another_game_than_game_are_refused(tmp_path: Path, args: list[str],
                                                      says: str) -> None:
    """--game is the game: rules it does not have are refused (exit 2), never played as its
    own, whichever the command and whether named or left to the default."""
    if args[0] == "render":
        args = [*args, "-o", str(tmp_path / "x.svg")]
    r = run(*args)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert says in r.stderr and r.stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_a_save_of_another_game_than_game_is_refused(tmp_path: Path) -> None:
    """render --save and play --load draw or play a save's own game; a --game that names
    another is refused (exit 2), saying which game the save is of."""
    from artproject import new_game, save_game

    war = tmp_path / "war.json"
    save_game(new_game("art-of-war", players=2, seed=1), war)
    art = str(ROOT / "tests" / "saves" / "japan-3p-midgame.json")
    svg = str(tmp_path / "x.svg")
    r = run("render", "--game", "art-of-war", "--save", art, "-o", svg)
    assert r.returncode == 2 and r.stderr == (
        f"artproject: {art}: a save of The A.R.T. Project (art-project), not of Art of War: "
        "drop --game art-of-war, or give --game art-project\n")
    r = run("render", "--game", "art-project", "--save", str(war), "-o", svg)
    assert r.returncode == 2 and "a save of Art of War (art-of-war), not of The A.R.T." in (
        r.stderr)
    r = run("play", "--game", "kuhn", "--load", str(war))
    assert r.returncode == 2 and "a save of Art of War (art-of-war), not of Kuhn poker" in (
        r.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["war.json"]
    r = run("render", "--game", "art-of-war", "--save", str(war), "-o", svg)
    assert r.returncode == 0 and r.stdout.startswith(f"wrote {svg}: ")


@pytest.mark.parametrize(("body", "says", "line"), [
    ("[board.cities.foo]\nx = 1\n", ":3:1: board: unknown key 'board'", "[board.cities.foo]"),
    ("[city.foo]\nx = 1\n", ":3:1: city: expected a list of tables, not a table", "[city.foo]"),
    ("[rules]\nfoo.bar = 1\n", ":4:1: rules.foo: unknown rule parameter 'foo'", "foo.bar = 1"),
])
def test_check_places_an_error_in_a_table_only_implied(tmp_path: Path, body: str, says: str,
                                                       line: str) -> None:
    """A table made by a header's dots (`[board.cities.foo]` makes `board`) or by a dotted
    key (`foo.bar = 1` makes `foo`) is placed there: its error has file:line:col and a
    caret, as every rule file's mistake does."""
    bad = tmp_path / "bad.toml"
    bad.write_text(f'extends = "japan"\n\n{body}')
    r = run("check", str(bad))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].startswith(f"{bad}{says}")
    assert lines[1:3] == [f"    {line}", "    ^"]
