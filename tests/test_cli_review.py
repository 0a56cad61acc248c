"""A user-eyes review of the command line: options a save cannot take, exit statuses when
the reader leaves early, policy options of the wrong kind, a mission named twice, and the
smaller findings (tune --target, the play prompt's save, the results store, empty folders).
Each through the real command, as a user runs it."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_harden import one_line

ROOT = Path(__file__).resolve().parent.parent
SAVE = ROOT / "tests" / "saves" / "japan-3p-midgame.json"


def run(*args: str, stdin: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "artproject", *args], capture_output=True,
                          text=True, cwd=cwd, input=stdin, check=False)


# ------------------------------------------------- a save holds its game: no other options
@pytest.mark.parametrize(("extra", "named"), [
    (["--mission", "egypt"], "--mission"),
    (["--players", "4"], "--players"),
    (["--difficulty", "hard"], "--difficulty"),
    (["--seed", "9"], "--seed"),
    (["--variant", "city-falls-at-4"], "--variant"),
    (["--mission", "egypt", "--players", "4", "--difficulty", "hard", "--seed", "9",
      "--variant", "city-falls-at-4"], "--mission, --players, --difficulty, --seed, --variant"),
])
def test_play_load_refuses_the_options_a_save_holds(tmp_path: Path, extra: list[str],
                                                    named: str) -> None:
    line = one_line(run("play", "--load", str(SAVE), *extra, stdin="quit\n", cwd=tmp_path))
    assert named in line and "a save holds its" in line, line
    assert list(tmp_path.iterdir()) == []  # nothing played, nothing autosaved


def test_play_load_takes_the_default_values_given_nowhere(tmp_path: Path) -> None:
    r = run("play", "--load", str(SAVE), "--trust", stdin="quit\n", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "saved to artproject-autosave.json" in r.stdout


def test_play_trust_without_load_is_refused(tmp_path: Path) -> None:
    line = one_line(run("play", "--trust", "--seed", "1", stdin="quit\n", cwd=tmp_path))
    assert "--trust" in line and "--load" in line, line
    assert list(tmp_path.iterdir()) == []


def test_render_save_refuses_a_mission_and_variants(tmp_path: Path) -> None:
    svg = tmp_path / "e.svg"
    line = one_line(run("render", "--save", str(SAVE), "egypt", "-o", str(svg)))
    assert "MISSION (egypt)" in line and "a save holds its" in line, line
    line = one_line(run("render", "--save", str(SAVE), "--variant", "city-falls-at-4",
                        "-o", str(svg)))
    assert "--variant" in line, line
    line = one_line(run("render", "japan", "--trust", "-o", str(svg)))
    assert "--trust" in line and "--save" in line, line
    assert not svg.exists()
    r = run("render", "--save", str(SAVE), "-o", str(svg))
    assert r.returncode == 0 and svg.exists(), r.stderr


# ------------------------------------------------- the status stands when the reader leaves
def _piped(command: str) -> int:
    """The command's own status when its stdout and stderr go to a reader that leaves at
    once (`2>&1 | head -c 0`)."""
    r = subprocess.run(["bash", "-c", f"{sys.executable} -m artproject {command} 2>&1 | "
                        "head -c 0; exit ${PIPESTATUS[0]}"], cwd=ROOT, capture_output=True,
                       text=True, check=False)
    assert "Traceback" not in r.stderr
    return r.returncode


def test_a_closed_pipe_keeps_check_and_scenario_statuses(tmp_path: Path) -> None:
    for i in range(4):
        (tmp_path / f"m{i}.toml").write_text("mission = 5\n")
    s = [tmp_path / f"s{i}.toml" for i in range(3)]
    for f in s:
        f.write_text("junk = \n")
    assert run("check", str(tmp_path)).returncode == 2
    assert _piped(f"check {tmp_path} cards") == 2
    assert _piped(f"check {tmp_path}/m0.toml") == 2
    assert _piped("scenario " + " ".join(map(str, s))) == 2
    assert _piped("simulate --bogus") == 2  # a usage error too
    assert _piped("scenario tests/scenarios/agents-to-headquarters.toml -v") == 0


# ------------------------------------------------- a policy option of the wrong kind
@pytest.mark.parametrize(("game", "policy", "says"), [
    ("art-project", "ismcts:budget=abc", "budget must be a whole number from 1 to 10,000, not "
                                         "'abc'"),
    ("art-of-war", "ismcts:budget=abc", "budget must be a whole number from 1 to 10,000, not "
                                        "'abc'"),
    ("art-project", "ismcts:margin=lots", "margin must be a number from 0.0 to 1.0, not 'lots'"),
    ("art-project", "ismcts:depth=2.5", "depth must be a whole number from 1 to 10,000"),
    ("art-of-war", "heuristic:kappa=high", "kappa must be a number"),
    ("art-of-war", "heuristic,ismcts:z=x", "z must be a number from 0.0 to 100.0, not 'x'"),
    ("art-of-war", "ismcts:tree=nan", "tree must be a whole number from 1 to 100"),
])
def test_a_policy_option_of_the_wrong_kind_names_it(game: str, policy: str, says: str) -> None:
    line = one_line(run("simulate", "--game", game, "--policy", policy, "--games", "1"))
    assert says in line and f"policy '{policy.split(',')[-1]}'" in line, line
    assert "supported between" not in line and "instances" not in line


def test_every_policy_option_of_every_game_is_checked() -> None:
    """Each option of each game's policies, given text where a number belongs, is refused
    naming the option before any game is played."""
    from artproject.core.errors import GameError
    from artproject.core.games import game_names
    from artproject.policies import check_policy, policies_of

    for game in game_names():
        for name, factory in policies_of(game).items():
            import inspect

            for key, p in inspect.signature(factory).parameters.items():
                if key == "seed" or not isinstance(p.default, int | float):
                    continue
                with pytest.raises(GameError, match=f"{key} must be a (whole )?number"):
                    check_policy(f"{name}:{key}=abc", policies_of(game))


def test_a_plugin_option_is_read_by_its_declared_kind() -> None:
    from artproject.core.errors import GameError
    from artproject.policies import check_policy

    def mine(seed: int, style: str = "calm", fast: bool = False, n: int = 3) -> object:
        return object()

    mine_policies = {"mine": mine}
    assert check_policy("mine:style=wild,fast=true,n=5", mine_policies) == (
        "mine", {"style": "wild", "fast": True, "n": 5})
    with pytest.raises(GameError, match="fast must be true or false, not 'maybe'"):
        check_policy("mine:fast=maybe", mine_policies)
    with pytest.raises(GameError, match="n must be a whole number"):
        check_policy("mine:n=1.5", mine_policies)


# ------------------------------------------------- a mission named twice
def test_a_mission_named_by_path_and_by_name_counts_once() -> None:
    path = str(ROOT / "missions" / "japan.toml")
    r = run("simulate", "--mission", f"{path},japan", "--games", "2", "--players", "1",
            "--difficulty", "easy", "--csv")
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.strip().splitlines()) == 2, r.stdout  # the header and one row
    assert ",2," in r.stdout.splitlines()[1]  # 2 games, not 4
    assert "artproject: note: --mission names japan more than once" in r.stderr
    assert "each is counted once" in r.stderr


def test_two_files_of_one_mission_name_are_refused(tmp_path: Path) -> None:
    other = tmp_path / "japan.toml"
    other.write_text('extends = "japan"\nname = "japan"\n[rules]\nlost_city_at = 2\n')
    assert run("check", str(other)).returncode == 0
    line = one_line(run("simulate", "--mission", f"japan,{other}", "--games", "1"))
    assert "both the mission 'japan'" in line and str(other) in line, line


# ------------------------------------------------- minor findings
def test_tune_refuses_a_difficulty_targeted_twice() -> None:
    line = one_line(run("tune", "tests/missions/harbour-tunable.toml", "--target",
                        "easy=0.5,easy=0.6", "--trials", "1", "--games", "1"))
    assert "--target names easy more than once (0.5, 0.6)" in line, line


@pytest.mark.parametrize(("line", "says"), [
    ("save /dev/null", "/dev/null: not a regular file"),
    ("save /dev/null --force", "/dev/null: not a regular file"),
    ("save sub", "sub: not a regular file"),
    ("save", "save takes one file name"),
    ("save a.json b.json", "save takes one file name"),
    ('save "a b', "save takes one file name"),
])
def test_the_prompt_save_says_what_it_expects(tmp_path: Path, line: str, says: str) -> None:
    (tmp_path / "sub").mkdir()
    r = run("play", "--seed", "1", stdin=f"{line}\nquit\n", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    told = [x for x in r.stdout.splitlines() if x.lstrip("> ").startswith("! ")]
    assert len(told) == 1 and says in told[0], told
    assert "--force replaces it" not in told[0] and "unknown verb" not in told[0]


def test_the_prompt_saves_a_quoted_name(tmp_path: Path) -> None:
    r = run("play", "--seed", "1", stdin='save "a b.json"\nquit\n', cwd=tmp_path)
    assert r.returncode == 0 and "saved to a b.json" in r.stdout, r.stdout
    assert (tmp_path / "a b.json").exists()


@pytest.mark.parametrize(("edit", "says"), [
    ("UPDATE games SET players = 99 WHERE rowid = 2", "out of range"),
    ("UPDATE games SET players = 0 WHERE rowid = 2", "out of range"),
    ("UPDATE games SET difficulty = 'Not a word!' WHERE rowid = 2", "out of range"),
    ("UPDATE games SET difficulty = '' WHERE rowid = 2", "out of range"),
    ("UPDATE games SET seed = -5 WHERE rowid = 2", "out of range"),
])
def test_a_store_row_out_of_range_is_refused(tmp_path: Path, edit: str, says: str) -> None:
    db = tmp_path / "s.db"
    assert run("simulate", "--games", "3", "--store", str(db)).returncode == 0
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(edit)
    conn.close()
    assert says in one_line(run("report", str(db)))
    assert "nothing was played" in one_line(run("simulate", "--games", "3", "--store",
                                                str(db)))


def test_a_store_of_every_game_reads_back(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    for game in ("art-project", "art-of-war", "kuhn"):
        r = run("simulate", "--game", game, "--games", "2", "--players", "all",
                "--store", str(db))
        assert r.returncode == 0, r.stderr
    assert run("report", str(db)).returncode == 0


def test_an_empty_folder_is_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    line = one_line(run("check", str(empty)))
    assert f"{empty}: no .toml file" in line, line
    line = one_line(run("scenario", str(empty)))
    assert f"{empty}: no .toml file" in line, line
    shutil.copy(ROOT / "missions" / "japan.toml", empty)
    assert run("check", str(empty)).returncode == 0
