"""The results store under load and after a crash, and simulate and report telling one
store's games alike: a reader never fails a writer, a report never reads half a commit,
a hot journal is rolled back, not called damage; the same intervals and main causes."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from artproject.store import Row, Store

from .test_scale import cli, one_line_error

TINY = ["simulate", "--mission", "japan", "--difficulty", "easy", "--players", "2",
        "--games", "2", "--seed", "1"]


def _rows(first: int, n: int) -> list[Row]:
    return [Row("art-project", "japan", "", "r" * 16, "easy", 2, s, "heuristic", "lost",
                "a player lost their last health token (R7)", 5, 40, "0") for s in
            range(first, first + n)]


def _hold_read_lock(db: Path, seconds: float, held: threading.Event) -> threading.Thread:
    """A reader (as `report` is) holding SQLite's shared lock on the store a while."""
    def hold() -> None:
        conn = sqlite3.connect(db, isolation_level=None)
        conn.execute("BEGIN")
        conn.execute("SELECT COUNT(*) FROM games").fetchone()  # the shared lock, held
        held.set()
        time.sleep(seconds)
        conn.execute("COMMIT")
        conn.close()

    t = threading.Thread(target=hold)
    t.start()
    assert held.wait(10)
    return t


# ---------------------------------------------------------------- readers and writers
def test_a_reader_never_makes_a_sweep_fail(tmp_path: Path) -> None:
    """The reviewer's `report` during `simulate --store`: the writer waits for the reader's
    shared lock to go, and the sweep ends whole (it stopped with `database is locked`)."""
    db = tmp_path / "c.db"
    assert cli(*TINY, "--store", str(db)).returncode == 0
    reader = _hold_read_lock(db, 1.5, threading.Event())
    try:
        r = cli(*TINY[:-4], "--games", "3", "--seed", "1", "--players", "2,3",
                "--store", str(db))
    finally:
        reader.join()
    assert r.returncode == 0, r.stderr
    with Store.read(db) as store:
        assert store.count() == 6


def test_the_store_is_still_refused_at_once_while_another_program_writes(
        tmp_path: Path) -> None:
    """The busy wait is for commits: a store another program is writing into is refused
    when it is opened, at once, as before."""
    db = tmp_path / "c.db"
    assert cli(*TINY, "--store", str(db)).returncode == 0
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        start = time.monotonic()
        line = one_line_error(cli(*TINY, "--seed", "5", "--store", str(db)))
        assert time.monotonic() - start < 3
        assert "locked by another program" in line
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_report_during_commits_reads_whole_batches(tmp_path: Path) -> None:
    """Reports while a sweep commits batch after batch: each reads the store whole, a
    multiple of the batch, never a damaged store or half a commit."""
    db = tmp_path / "c.db"
    assert cli(*TINY, "--store", str(db)).returncode == 0
    done = threading.Event()
    errors: list[BaseException] = []

    def write() -> None:
        try:
            with Store.open(db) as store:
                for b in range(60):
                    store.add(_rows(1000 + 50 * b, 50))
        except BaseException as err:  # (told by the test below)
            errors.append(err)
        finally:
            done.set()

    t = threading.Thread(target=write)
    t.start()
    counts = []
    while not done.is_set():
        with Store.read(db) as store:
            counts.append(len(list(store.rows())))
    t.join()
    assert not errors, errors
    assert all((n - 2) % 50 == 0 for n in counts), counts
    r = cli("report", str(db))
    assert r.returncode == 0 and "3002 games" in r.stdout, r.stderr


def test_a_report_while_a_batch_is_uncommitted_reads_the_store_before_it(
        tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    assert cli(*TINY, "--store", str(db)).returncode == 0
    with Store.open(db) as store:
        store.conn.execute("BEGIN")
        store.conn.executemany(f"INSERT INTO games VALUES ({', '.join('?' * 13)})",
                               _rows(100, 500))
        r = cli("report", str(db))
        assert r.returncode == 0 and "2 games" in r.stdout, r.stderr
        store.conn.rollback()


# ---------------------------------------------------------------- a crashed writer
_CRASH = textwrap.dedent("""
    import os, sqlite3, sys
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("PRAGMA cache_size = 1")  # pages spill into the file before the commit
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                     [("art-project", "japan", "", "x" * 200, "easy", 2, s, "heuristic", "lost",
                       "c" * 200, 1, 1, "0") for s in range(100, 3100)])
    os._exit(9)  # killed mid-transaction: no commit, no rollback, the journal left hot
""")


def test_a_store_left_by_a_killed_writer_is_reported_not_called_damaged(
        tmp_path: Path) -> None:
    db = tmp_path / "hot.db"
    assert cli(*TINY, "--store", str(db)).returncode == 0
    before = cli("report", str(db)).stdout
    r = subprocess.run([sys.executable, "-c", _CRASH, str(db)], check=False)
    assert r.returncode == 9
    journal = Path(f"{db}-journal")
    assert journal.exists() and journal.stat().st_size > 0  # a hot journal
    r2 = cli("report", str(db))
    assert r2.returncode == 0, r2.stderr
    assert r2.stdout == before  # rolled back: the two games, none of the crashed batch
    assert cli(*TINY, "--seed", "3", "--store", str(db)).returncode == 0


# ---------------------------------------------------------------- simulate and report agree
def test_simulate_and_report_print_the_same_interval_and_main_cause(tmp_path: Path) -> None:
    """The reviewer's tie: 1 of 3 won (6.1-79.2%, not 6.2 from rounding twice), two causes
    once each (the main one the first by name)."""
    db = tmp_path / "tie.db"
    r = cli("simulate", "--mission", "egypt", "--difficulty", "hard", "--players", "6",
            "--games", "3", "--seed", "1", "--store", str(db))
    assert r.returncode == 0, r.stderr
    rep = cli("report", str(db))
    sim_row, rep_row = r.stdout.splitlines()[4], rep.stdout.splitlines()[4]
    for row in (sim_row, rep_row):
        assert "6.1-79.2%" in row
        assert row.endswith("a player lost their last health token (R7)")
    tail = r.stdout.split("causes of loss")[1]
    assert tail == rep.stdout.split("causes of loss")[1]


@pytest.mark.parametrize(("won", "n", "text"), [(130, 300, "37.8-49.0%"),
                                                (12, 500, "1.4-4.1%"), (1, 3, "6.1-79.2%"),
                                                (2, 3, "20.8-93.9%")])
def test_an_interval_is_rounded_once(won: int, n: int, text: str) -> None:
    from artproject.loop import interval_text, wilson

    assert interval_text(*wilson(won, n)) == text


def test_the_main_cause_of_a_tie_is_the_first_by_name() -> None:
    from artproject.loop import main_cause, ranked_causes

    assert main_cause({"b": 2, "c": 1, "a": 2}) == "a"
    assert main_cause({}) == ""
    assert ranked_causes({"b": 2, "c": 1, "a": 2, "d": 1}) == [("a", 2), ("b", 2), ("c", 1),
                                                               ("d", 1)]


# ---------------------------------------------------------------- empty paths
@pytest.mark.parametrize("args", [
    ["simulate", "--games", "2", "--store", ""],
    ["report", ""],
    ["report", "STORE", "-o", ""],
])
def test_an_empty_path_is_refused(tmp_path: Path, args: list[str]) -> None:
    """An unset $DB in a script: refused, never a sweep that keeps nothing."""
    db = tmp_path / "x.db"
    assert cli(*TINY, "--store", str(db)).returncode == 0
    line = one_line_error(cli(*[str(db) if a == "STORE" else a for a in args]))
    assert "empty" in line
    assert sorted(os.listdir(tmp_path)) == ["x.db"]


# ---------------------------------------------------------------- difficulties of several missions
@pytest.fixture
def night(tmp_path: Path) -> Path:
    p = tmp_path / "night.toml"
    p.write_text('name = "night"\nextends = "japan"\n[difficulty]\nnightmare = 1\n')
    return p


def test_a_difficulty_of_one_mission_is_refused_naming_those_without_it(night: Path) -> None:
    for missions in (f"egypt,{night}", f"{night},egypt"):
        line = one_line_error(cli("simulate", "--mission", missions, "--difficulty",
                                  "nightmare", "--games", "1"))
        assert "nightmare" in line and "egypt" in line and "night" not in line.split(
            "nightmare")[1].replace("egypt", ""), line


def test_a_difficulty_every_mission_has_is_played(night: Path, tmp_path: Path) -> None:
    night2 = tmp_path / "night2.toml"
    night2.write_text(night.read_text().replace('"night"', '"night2"'))
    r = cli("simulate", "--mission", f"{night},{night2}", "--difficulty", "nightmare",
            "--games", "1", "--json")
    assert r.returncode == 0, r.stderr
    assert "nightmare" in r.stdout


def test_all_difficulties_of_several_missions_are_those_they_share(night: Path) -> None:
    for missions in (f"{night},egypt", f"egypt,{night}"):
        r = cli("simulate", "--mission", missions, "--difficulty", "all", "--games", "1",
                "--csv")
        assert r.returncode == 0, r.stderr
        diffs = {line.split(",")[1] for line in r.stdout.splitlines()[1:]}
        assert diffs == {"easy", "medium", "hard", "impossible"}
        assert "nightmare" in r.stderr and "egypt" in r.stderr  # a note of what is left out
