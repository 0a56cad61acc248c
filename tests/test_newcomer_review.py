"""A newcomer's findings, following the docs: a scenario's mistakes in the file's order and
all of them at once (an unknown key hides none), a mission file run as a scenario told so,
too many tokens told at the entry, a card file's consequences blamed on the `cards` key that
named it, the help and install hints that say what they mean, a mistyped option answered by
its command with the nearest name, a top-level key written below a table, and every --variant
refusal closed alike. Each through the real command (`artproject.cli.main`), as a user
meets it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from artproject.cli import main

ROOT = Path(__file__).resolve().parent.parent


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def heads(err: str) -> list[str]:
    """Each error's `file:line:col: path` head (the lines that are not source or caret)."""
    return [line.split(": ")[0] + ": " + line.split(": ")[1] for line in err.splitlines()
            if line and not line.startswith(" ") and ": " in line]


# ---------------------------------------------- 1. a scenario's unknown keys in file order
@pytest.mark.parametrize("command", ["scenario", "check"])
def test_unknown_keys_of_a_scenario_are_told_in_the_files_order(
        workdir: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    (workdir / "order.toml").write_text('zeta = 1\nalpha = 2\nmission = "japan"\n')
    status, _, err = cli(capsys, command, "order.toml")
    assert status == 2
    assert heads(err)[:2] == ["order.toml:1:1: zeta", "order.toml:2:1: alpha"], err


def test_a_mission_file_run_as_a_scenario_is_told_so(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mission = ROOT / "missions" / "japan.toml"
    status, _, err = cli(capsys, "scenario", str(mission))
    assert status == 2 and "Traceback" not in err
    first = err.splitlines()[0]
    assert first.startswith(f"{mission}: a mission file, not a scenario"), first
    assert "extends" in first and "--mission" in first
    lines = [int(h.split(":")[1]) for h in heads(err)[1:]]
    assert lines == sorted(lines), err  # the unknown keys after it, in the file's order


def test_a_scenario_with_a_stray_key_is_not_told_it_is_a_mission(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "s.toml").write_text('mission = "japan"\nextends = "base"\n')
    _, _, err = cli(capsys, "scenario", "s.toml")
    assert "s.toml:2:1: extends: unknown key 'extends'" in err
    assert "not a scenario" not in err


# ---------------------------------------------- 2. an unknown key hides no other mistake
SEVEN = """
[position]
van = { fuel = 99, radio = 9 }
hands = { p1 = [5], p2 = [5] }
pawns = ["tokyo", "tokio", "tokyo"]

[[step]]
do = "move p4 kyoto"
expect = ['deciding == p4', "strenght == 3"]
"""


def test_an_unknown_top_level_key_hides_no_other_mistake(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "s.toml").write_text('mission = "japan"\nplayers = 3\n'
                                    "expect = ['deciding == p4']\nseed = 1\n" + SEVEN)
    status, _, err = cli(capsys, "scenario", "s.toml")
    assert status == 2
    assert heads(err) == [
        "s.toml:3:1: expect", "s.toml:7:16: position.van.fuel",
        "s.toml:7:28: position.van.radio", "s.toml:8:27: position.hands.p2[0]",
        "s.toml:9:19: position.pawns.p2", "s.toml:12:6: step[0].do",
        "s.toml:13:24: no player 'p4' in a 3-player game",
        "s.toml:13:30: unknown name 'strenght' (did you mean 'strength'?)"], err


# ---------------------------------------------- 3. too many tokens, told at the entry
@pytest.mark.parametrize(("entry", "head", "says"), [
    ("hq = 99", "s.toml:3:6: position.hq",
     "the 99 agent tokens here take the count past the game's 40 "
     "(components.agent_tokens, R2): 115 in play, 75 too many"),
    ("agents = { tokyo = 50 }", "s.toml:3:20: position.agents.tokyo",
     "the 50 agent tokens here take the count past the game's 40"),
    ("health = [20, 20]", "s.toml:3:15: position.health[1]",
     "the 20 health tokens here take the count past the game's 25 "
     "(components.health_tokens, R2): 40 in play, 15 too many"),
    ("hq = 10\nagents = { tokyo = 20 }", "s.toml:4:20: position.agents.tokyo",
     "the 20 agent tokens here take the count past"),
])
def test_too_many_tokens_are_told_at_the_entry_that_overflows(
        workdir: Path, capsys: pytest.CaptureFixture[str], entry: str, head: str,
        says: str) -> None:
    (workdir / "s.toml").write_text(f'mission = "japan"\n[position]\n{entry}\n')
    status, _, err = cli(capsys, "scenario", "s.toml")
    assert status == 2
    assert err.startswith(f"{head}: {says}"), err


# ---------------------------------------------- 4. a small deck blamed on its `cards` key
TWO_CARDS = """about = "two cards"

[final]
id = 0
title = "Final card"

[[card]]
id = 1
clues = "music"

[[card]]
id = 2
cost = "nothing"
agents = "nothing"
gain = "1 fuel"
clues = "films, paintings"
"""


def test_a_decks_consequences_are_told_at_the_cards_key_that_named_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "mine"
    (mine / "cards").mkdir(parents=True)
    (mine / "cards" / "my-cards.toml").write_text(TWO_CARDS)
    (mine / "c2.toml").write_text('extends = "japan"\ncards = "cards/my-cards.toml"\n')
    monkeypatch.chdir(tmp_path)  # (run from another folder than the mission's, as the user)
    status, _, err = cli(capsys, "check", str(mine / "c2.toml"))
    assert status == 2
    found = heads(err)
    assert len(found) == 3 and all(h == f"{mine}/c2.toml:2:9: cards" for h in found), err
    assert "solo mode removes 15 cards from a deck of 2" in err
    assert "no artwork can ever reach the track" in err
    assert "missions/" not in err


def test_a_shipped_file_named_from_another_folder_is_named_whole(tmp_path: Path) -> None:
    # (a command of its own, started in the user's folder: this process has loaded the
    # shipped missions already, from the checkout's root)
    done = subprocess.run([sys.executable, "-m", "artproject", "tune", "japan", "--games", "1",
                           "--trials", "1", "--players", "2"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    shipped = (ROOT / "missions" / "japan.toml").resolve()
    err = done.stderr
    assert err.startswith(f"artproject: {shipped}: the mission declares nothing to tune"), err
    assert Path(err.split(": ")[1]).is_file()  # (it opens from here)


# ---------------------------------------------- 5. new's help says what a name may be
def test_new_help_says_what_its_check_takes(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "new", "--help")
    assert status == 0
    assert "lowercase letters, digits, - and _" in " ".join(out.split())
    status, _, err = cli(capsys, "new", "Harbour")
    assert status == 2 and "use lowercase letters, digits, - and _" in err


# ---------------------------------------------- 6. every missing extra said alike
@pytest.mark.parametrize(("missing", "args", "extra"), [
    ("starlette", ["serve", "--port", "0"], "web"),
    ("optuna", ["tune", "harbour.toml", "--players", "1,2", "--games", "1", "--trials", "1"],
     "tune"),
    ("matplotlib", ["report", "s.db", "-o", "plots"], "plots"),
    ("distributed", ["simulate", "--games", "1", "--backend", "dask"], "scale"),
])
def test_a_missing_extra_is_named_with_both_ways_to_install_it(
        workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        missing: str, args: list[str], extra: str) -> None:
    if args[0] == "report":
        assert cli(capsys, "simulate", "--games", "1", "--store", "s.db")[0] == 0
    (workdir / "harbour.toml").write_text(
        (ROOT / "tests" / "missions" / "harbour-tunable.toml").read_text())
    monkeypatch.setitem(__import__("sys").modules, missing, None)  # (not installed)
    status, _, err = cli(capsys, *args)
    assert status == 2 and "Traceback" not in err
    assert (f"needs the {extra} extra: pip install -e '.[{extra}]' in a checkout, or pip "
            f"install 'artproject[{extra}]'") in err, err


def test_the_tutorial_says_which_extra_tune_needs() -> None:
    text = (ROOT / "docs" / "authoring.md").read_text()
    step = text[text.index("## 5. Tune it"):text.index("## 6.")]
    assert "pip install -e '.[tune]'" in step


# ---------------------------------------------- 7. a mistyped option: its command answers
@pytest.mark.parametrize(("args", "said"), [
    (["simulate", "--gmaes", "5"],
     "artproject simulate: error: unrecognized arguments: --gmaes 5 (did you mean --games?)"),
    (["check", "--misison", "egypt", "x.toml"],
     "artproject check: error: unrecognized arguments: --misison (did you mean --mission?)"),
    (["simulate", "--sede=3"],
     "artproject simulate: error: unrecognized arguments: --sede=3 (did you mean --seed?)"),
    (["scenario", "x.toml", "--verbsoe"],
     "artproject scenario: error: unrecognized arguments: --verbsoe (did you mean --verbose?)"),
])
def test_a_mistyped_option_gets_its_commands_usage_and_the_nearest_name(
        workdir: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str) -> None:
    status, out, err = cli(capsys, *args)
    assert status == 2 and out == "" and "Traceback" not in err
    assert err.startswith(f"usage: artproject {args[0]} "), err
    assert err.rstrip().endswith(said), err


# ---------------------------------------------- 8a. a top-level key written below a table
@pytest.mark.parametrize(("command", "text", "head"), [
    ("check", 'name = "h"\nextends = "japan"\n[rules]\nlost_city_at = 4\n'
     'hooks = ["on round_start: place 1 agent in tokyo"]\n',
     "h.toml:5:1: rules.hooks: unknown rule parameter 'hooks' ('hooks' is a top-level key: "
     "write it above the file's first [table] header"),
    ("scenario", 'mission = "japan"\n[[step]]\ndo = "done"\nseed = 3\n',
     "h.toml:4:1: step[0].seed: unknown step key 'seed' ('seed' is a top-level key"),
])
def test_a_top_level_key_below_a_table_is_told_where_it_belongs(
        workdir: Path, capsys: pytest.CaptureFixture[str], command: str, text: str,
        head: str) -> None:
    (workdir / "h.toml").write_text(text)
    status, _, err = cli(capsys, command, "h.toml")
    assert status == 2
    assert err.startswith(head), err


def test_a_tables_own_unknown_key_gets_no_such_note(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "h.toml").write_text('name = "h"\nextends = "japan"\n[rules]\nlost_cty_at = 4\n')
    _, _, err = cli(capsys, "check", "h.toml")
    assert "unknown rule parameter 'lost_cty_at' (did you mean 'lost_city_at'?)" in err
    assert "top-level" not in err


# ---------------------------------------------- 8b. a mission given as --variant: closed alike
ISLAND = """name = "island"
title = "Island"
extends = "base"

[[city]]
name = "harbour"
x = 50
y = 80
start = true
"""


@pytest.mark.parametrize("command", [["simulate", "--mission", "japan", "--games", "1"],
                                     ["verify", "japan", "--examples", "1"]])
def test_a_mission_file_given_as_a_variant_is_refused_as_every_variant_is(
        workdir: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    (workdir / "island.toml").write_text(ISLAND)
    status, out, err = cli(capsys, *command, "--variant", "island.toml")
    assert status == 2 and out == ""
    assert err.count("a mission's key, not a variant's") == 3, err  # (each told once)
    assert "island.toml:3:11: extends: a variant cannot extend a board" in err
    assert err.rstrip().endswith(
        "artproject: --variant island.toml: 4 error(s) (as `artproject check island.toml "
        "--mission japan` finds)"), err
