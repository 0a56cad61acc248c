"""Issue 27: nothing lost, nothing replaced, no traceback -- device files at every writer,
the play prompt given another game's save, damaged stores, full disks and long names."""

from __future__ import annotations

import contextlib
import io
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from artproject import SaveError, load_game, new_game, save_game
from artproject.cli import main

ROOT = Path(__file__).resolve().parent.parent


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The command in this process, stdin given as text."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        sys.stdin = old
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def one_line(r: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert r.returncode == code, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


def device(folder: Path, name: str = "dev") -> Path:
    """A character device node (like /dev/null's: 1, 3) made in `folder` when this process
    may (root), else a FIFO: either is a path that is there and is no regular file."""
    path = folder / name
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        os.mkfifo(path)
    return path


def untouched(path: Path) -> bool:
    mode = os.lstat(path).st_mode
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


# ---------------------------------------------------------------- 1. writers
@pytest.mark.parametrize("force", [False, True])
def test_no_command_replaces_a_device(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      force: bool) -> None:
    monkeypatch.chdir(tmp_path)
    dev = device(tmp_path)
    more = ["--force"] if force else []
    for args in (["render", "japan", "-o", str(dev)],
                 ["render", "art-of-war", "--game", "art-of-war", "-o", str(dev)],
                 ["verify", "japan", "--examples", "1", "--out", str(dev)],
                 ["tune", str(ROOT / "tests" / "missions" / "harbour-tunable.toml"), "-o", str(dev),
                  "--games", "1", "--trials", "1"]):
        line = one_line(cli(*args, *more))
        assert "not a regular file (a device, pipe or socket)" in line, line
        assert untouched(dev)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dev"]  # no temporary file left


def test_report_plots_never_replace_a_device(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    db = tmp_path / "s.db"
    assert cli("simulate", "--games", "2", "--store", str(db)).returncode == 0
    plots = tmp_path / "plots"
    plots.mkdir()
    dev = device(plots, "win-rate.svg")
    line = one_line(cli("report", str(db), "-o", str(plots), "--force"))
    assert "not a regular file" in line and untouched(dev)
    assert sorted(p.name for p in plots.iterdir()) == ["win-rate.svg"]  # the rest went again


def test_write_atomic_and_save_game_refuse_a_device(tmp_path: Path) -> None:
    from artproject.core.errors import GameError
    from artproject.core.files import write_atomic

    dev = device(tmp_path)
    for replace in (False, True):
        with pytest.raises(GameError, match="not a regular file"):
            write_atomic(dev, "x", replace=replace)
        with pytest.raises(SaveError, match="not a regular file"):
            save_game(new_game("japan", seed=1), dev, replace=replace)
        assert untouched(dev)
    (tmp_path / "folder").mkdir()
    with pytest.raises(GameError, match="a folder"):
        write_atomic(tmp_path / "folder", "x", replace=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dev", "folder"]


def test_save_game_replaces_only_when_told(tmp_path: Path) -> None:
    g = new_game("japan", seed=1)
    p = tmp_path / "g.json"
    save_game(g, p)
    g.apply("done")
    with pytest.raises(SaveError, match="already exists"):
        save_game(g, p)  # the library's default is the command line's: never over a file
    assert load_game(p).history == []
    save_game(g, p, replace=True)
    assert len(load_game(p).history) == 1


# ---------------------------------------------------------------- 2. the play prompt
@pytest.fixture
def saves(tmp_path: Path) -> dict[str, Path]:
    art, war = tmp_path / "art.json", tmp_path / "war.json"
    save_game(new_game("japan", players=2, seed=1), art)
    save_game(new_game("art-of-war", players=3, seed=1), war)
    junk = tmp_path / "junk.json"
    junk.write_text('{"format": "artproject-save", "version": 3, "game": "art-of-war"}')
    return {"art-project": art, "art-of-war": war, "junk": junk}


@pytest.mark.parametrize(("game", "other"), [("art-project", "art-of-war"),
                                             ("art-of-war", "art-project")])
def test_the_prompt_refuses_another_games_save_and_plays_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, saves: dict[str, Path], game: str,
        other: str) -> None:
    monkeypatch.chdir(tmp_path)
    dev = device(tmp_path)
    script = (f"\nload {saves[other]}\nload {saves['junk']}\nload {dev}\nload {tmp_path}\n"
              f"load {saves[game]}\n\n1\n\nquit\n")  # (a blank line: Enter, hot seat)
    r = cli("play", "--game", game, "--players", "3", "--seed", "2", stdin=script)
    assert r.returncode == 0 and "Traceback" not in r.stdout + r.stderr, r.stdout[-2000:]
    refusals = [line for line in r.stdout.splitlines() if "! " in line]
    assert len(refusals) == 4, refusals
    assert f"a save of {other}, not of {game}" in refusals[0]
    assert f"loaded {saves[game]}" in r.stdout
    assert "saved to artproject-autosave.json; bye" in r.stdout
    kept = load_game(tmp_path / "artproject-autosave.json")
    assert kept.game == game and len(kept.history) == 1  # the game went on: loaded, played
    assert untouched(dev)


def test_an_unexpected_error_at_the_prompt_saves_the_game_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from artproject.core.art.state import State

    monkeypatch.chdir(tmp_path)
    real = State.apply

    def broken(self: State, action: object) -> None:
        if len(self.history) == 1:  # the second decision fails half-way, by a bug
            self.history.append(self.history[-1])
            raise ZeroDivisionError("a bug")
        real(self, action)  # type: ignore[arg-type]

    monkeypatch.setattr(State, "apply", broken)
    r = cli("play", "--seed", "2", stdin="1\n1\nquit\n")
    assert r.returncode == 0 and "Traceback" not in r.stdout + r.stderr
    line = next(x for x in r.stdout.splitlines() if "unexpected error" in x)
    assert "ZeroDivisionError: a bug" in line and "saved to artproject-autosave.json" in line
    monkeypatch.setattr(State, "apply", real)
    first = load_game(tmp_path / "artproject-autosave.json")  # whole: the torn step undone
    assert len(first.history) == 1
    assert len(load_game(tmp_path / "artproject-autosave-2.json").history) == 1  # at quit


# ---------------------------------------------------------------- 3. stores
def _store(tmp_path: Path, name: str = "s.db") -> Path:
    db = tmp_path / name
    assert cli("simulate", "--games", "30", "--players", "1-3", "--store", str(db)
               ).returncode == 0
    return db


def _damage(db: Path, how: str) -> None:
    if how == "cut":
        with open(db, "r+b") as f:
            f.truncate(db.stat().st_size - 1)
    elif how == "noise":
        with open(db, "r+b") as f:
            f.seek(4096)
            f.write(bytes((i * 151 + 7) % 256 for i in range(3000)))
    else:
        conn = sqlite3.connect(db)
        with conn:
            conn.execute(how)
        conn.close()


@pytest.mark.parametrize(("how", "says"), [
    ("cut", "a damaged store"),
    ("noise", "damaged"),
    ("UPDATE games SET rounds = 'r' WHERE rowid = 3", "row(s) of the wrong types or out of range"),
    ("UPDATE games SET seed = 1.5 WHERE rowid = 2", "row(s) of the wrong types or out of range"),
])
def test_a_damaged_store_is_refused_before_any_game(tmp_path: Path, how: str,
                                                    says: str) -> None:
    db = _store(tmp_path)
    _damage(db, how)
    before = db.read_bytes()
    line = one_line(cli("simulate", "--games", "40", "--players", "1-3", "--store", str(db)))
    assert says in line and "nothing was played" in line, line
    assert says in one_line(cli("report", str(db)))
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.db"]


def test_an_empty_file_is_not_a_store(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    assert "an empty file, not a results store" in one_line(
        cli("simulate", "--games", "2", "--store", str(empty)))
    assert empty.read_bytes() == b""


def test_report_reads_rows_checked(tmp_path: Path) -> None:
    from artproject.core.errors import GameError
    from artproject.store import Store, _row

    db = _store(tmp_path)
    with Store.read(db) as store:
        assert len(list(store.rows())) == 90
    with pytest.raises(GameError, match="row 4: rounds is 'r'; expected a whole number"):
        _row(db, 4, ("art-project", "japan", "", "x", "easy", 2, 1, "heuristic", "won", "",
                     "r", 3, "0.1.0"))


def test_a_full_store_keeps_what_was_written(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from artproject import store as store_module

    db = _store(tmp_path)
    real = store_module.Store.add
    calls = []

    def full(self: store_module.Store, rows: list[store_module.Row]) -> int:
        calls.append(1)
        if len(calls) > 1:  # the second batch meets a full disk
            self.conn.execute("PRAGMA max_page_count = 1")
        return real(self, rows)

    monkeypatch.setattr(store_module.Store, "add", full)
    line = one_line(cli("simulate", "--games", "200", "--players", "1-3", "--store", str(db)))
    assert "cannot write to the store" in line and "games written before are kept" in line
    assert "run the same command again" in line
    monkeypatch.setattr(store_module.Store, "add", real)
    with store_module.Store.read(db) as s:
        kept = s.count()
    assert kept > 90  # the first batch, written before the disk filled
    assert cli("simulate", "--games", "200", "--players", "1-3", "--store", str(db)
               ).returncode == 0


# ---------------------------------------------------------------- 5. outputs
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["simulate", "--games", "3", "--json"],
                                  ["simulate", "--games", "3", "--game", "art-of-war"],
                                  ["check", "missions/japan.toml"],
                                  ["--help"], ["simulate", "--help"], ["--version"]])
def test_a_full_disk_on_stdout_is_one_line(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "artproject", *args], stdout=full,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT, check=False)
    assert r.returncode == 2
    assert r.stderr == "artproject: cannot write the output: No space left on device\n"


def test_a_name_too_long_is_a_clear_error(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert "the name is too long for a file" in one_line(cli("new", "a" * 300))
    long = str(tmp_path / ("b" * 300 + ".svg"))
    assert "the name is too long for this file system" in one_line(
        cli("render", "japan", "-o", long))
    assert list(tmp_path.iterdir()) == []


def test_plots_on_a_full_disk_leave_nothing_and_retry_without_force(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    from artproject.core import files

    db = _store(tmp_path)
    out = tmp_path / "plots"
    real = files.write_atomic
    n = []

    def filling(path: Path, text: str | bytes, replace: bool = False) -> None:
        n.append(1)
        if len(n) == 3:
            raise files.GameError(f"{path}: cannot write: No space left on device")
        real(path, text, replace)

    monkeypatch.setattr("artproject.report.write_atomic", filling)
    line = one_line(cli("report", str(db), "-o", str(out)))
    assert "No space left on device" in line and "no plot was left behind" in line
    assert list(out.iterdir()) == []
    monkeypatch.setattr("artproject.report.write_atomic", real)
    assert cli("report", str(db), "-o", str(out)).returncode == 0  # no --force needed
    assert len(list(out.iterdir())) == 6


# ---------------------------------------------------------------- 7. bounds, variants, defaults
@pytest.mark.parametrize(("args", "says"), [
    (["--policy", "ismcts:budget=99999999999999999999"],
     "budget must be a whole number from 1 to 10,000, not 99999999999999999999"),
    (["--policy", "ismcts:budget=1.5"], "budget must be a whole number"),
    (["--policy", "ismcts:depth=0"], "depth must be a whole number from 1 to 10,000"),
    (["--policy", "ismcts:margin=nan"], "margin must be a number from 0.0 to 1.0, not nan"),
    (["--game", "art-of-war", "--policy", "heuristic,ismcts:budget=10001"],
     "budget must be a whole number from 1 to 10,000"),
    (["--backend", "dask", "--connect-timeout", "inf"], "--connect-timeout must be above 0 and"
                                                        " at most 3600 seconds, not inf"),
    (["--backend", "dask", "--connect-timeout", "nan"], "--connect-timeout must be above 0"),
])
def test_every_number_a_user_gives_is_bounded(args: list[str], says: str) -> None:
    assert says in one_line(cli("simulate", "--games", "1", *args))


def test_a_variant_is_checked_as_check_checks_it(tmp_path: Path) -> None:
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    for args in (["simulate", "--games", "1"], ["verify", "--examples", "1"],
                 ["play", "--seed", "1"], ["render", "japan", "-o", str(tmp_path / "j.svg")],
                 ["simulate", "--game", "art-of-war", "--games", "1"]):
        r = cli(*args, "--variant", str(empty))
        assert r.returncode == 2 and "Traceback" not in r.stderr, (args, r.stderr)
        assert "empty file: not a mission, variant, card file or scenario" in r.stderr
        assert f"--variant {empty}: 1 error(s)" in r.stderr
        assert r.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.toml"]


def test_verify_defaults_to_the_games_own_rules() -> None:
    r = cli("verify", "--game", "art-of-war", "--examples", "2", "--players", "2")
    assert r.returncode == 0 and r.stdout.startswith("art-of-war: everything holds in 2 games")
    r = cli("verify", "--examples", "1", "--players", "2", "--difficulty", "easy")
    assert r.returncode == 0 and r.stdout.startswith("japan: everything holds in 1 games")


def test_a_file_on_a_full_disk_is_never_half_written(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from artproject.core import files
    from artproject.core.errors import GameError

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    old = tmp_path / "old.json"
    old.write_text("kept")
    monkeypatch.setattr(files.os, "fsync", full)
    for path, replace in ((tmp_path / "new.json", False), (old, True)):
        with pytest.raises(GameError, match="cannot write: No space left on device"):
            files.write_atomic(path, "x" * 10_000, replace=replace)
    assert old.read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"]  # no temporary file


@pytest.mark.parametrize(("data", "where", "line", "caret"), [
    # a Latin-1 accent on the second line: told at its line and column, shown in its line
    (b'extends = "japan"\ntitle = "K\xe4se"\n', "k.toml:2:11: not UTF-8 text (byte 0xe4)",
     '    title = "K\ufffdse"', "              ^"),
    # past a byte-order mark, a tab, CRLF and a two-byte character, as an editor counts
    (b'\xef\xbb\xbfextends = "japan"\r\n\ttitle = "\xc3\xa9 \xff"\r\n',
     "k.toml:2:13: not UTF-8 text (byte 0xff)", '    \ttitle = "\xe9 \ufffd"',
     "    \t           ^"),
])
def test_a_file_not_in_utf8_is_told_at_the_line_and_column_of_its_byte(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes, where: str, line: str,
        caret: str) -> None:
    """Told as a byte offset before, which left an author looking for one accented character
    by hand in a long mission file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.toml").write_bytes(data)
    r = cli("check", "k.toml")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.splitlines()[:3] == [f"{where}: is this a rule file?", line, caret]
