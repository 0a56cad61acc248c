"""A user-eyes review of the command line: options a save cannot take, exit statuses when
the reader leaves early, policy options of the wrong kind, a mission named twice, and the
smaller findings (tune --target, the play prompt's save, the results store, empty folders).
Each through the real command, as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAVE = ROOT / "tests" / "saves" / "japan-3p-midgame.json"


def run(*args: str, stdin: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "artproject", *args], capture_output=True,
                          text=True, cwd=cwd, input=stdin, check=False)


def one_line(r: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert r.returncode == code, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


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
