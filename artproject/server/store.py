"""The server's database: one SQLite file, every move committed before it is announced.

WAL mode with `synchronous=FULL`: a commit returns once the write-ahead log is on disk, so
a move the server has announced survives a SIGKILL, an OS crash or a power cut (NORMAL would
survive the first but could lose the last commits to the other two; the cost of FULL, one
flush per commit, is shared by grouping: every write waiting when the writer turns is one
transaction, one flush). The writer runs in a thread of its own, so the event loop serves
everyone else while the disk works.

A file that is not ours, or from a newer server, is refused before anything is written to
it (it is first opened read-only); one from an older server is brought up to this version
(UPGRADES) in one transaction as it opens.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

from ..core.errors import GameError

FORMAT: Final = "artproject-server"
VERSION: Final = 2
MAGIC: Final = b"SQLite format 3\x00"

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, name TEXT NOT NULL, header TEXT NOT NULL,
    bot_seed INTEGER NOT NULL, status TEXT NOT NULL, outcome TEXT,
    reason TEXT NOT NULL DEFAULT '', created TEXT NOT NULL, digest TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL, kind TEXT NOT NULL,
    bot TEXT NOT NULL DEFAULT '', name TEXT NOT NULL DEFAULT '', token TEXT,
    holder INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (game, seat));
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games(id), n INTEGER NOT NULL, seat INTEGER NOT NULL,
    action TEXT NOT NULL, client TEXT, at TEXT NOT NULL, digest TEXT, holder INTEGER,
    PRIMARY KEY (game, n));
CREATE UNIQUE INDEX IF NOT EXISTS moves_holder_client ON moves (game, seat, holder, client)
    WHERE client IS NOT NULL;
"""
# A seat's `holder` counts the people who have joined it: a client's move ids are its
# holder's own (moves.holder), so the next person to take a seat may use the same ids.
UPGRADES: Final = {  # a database of version N made one of version N + 1
    1: ("ALTER TABLE seats ADD COLUMN holder INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE moves ADD COLUMN holder INTEGER",
        "UPDATE moves SET holder = 0 WHERE client IS NOT NULL",
        "DROP INDEX IF EXISTS moves_client"),
}

Op = tuple[str, Sequence[Any]]  # one SQL statement and its parameters


class RefusedDatabase(GameError):
    """A database file the server will not use (not ours, newer, unreadable)."""


class WriteFailed(sqlite3.Error):
    """A write that failed otherwise than in SQLite (a value it cannot store, a bug): nothing
    of it is stored, and its caller answers as for SQLite's own failures."""


def _as_stored_error(err: Exception) -> sqlite3.Error:
    """`err` as the error a write's caller is given: SQLite's own, or WriteFailed."""
    if isinstance(err, sqlite3.Error):
        return err
    failed = WriteFailed(f"{type(err).__name__}: {err}")
    failed.__cause__ = err
    return failed


def check(path: Path) -> None:
    """RefusedDatabase unless `path` is missing, empty, or a database of ours of a version we
    read; reads only (nothing is written to a file that is not ours)."""
    if not path.exists():
        return
    if not path.is_file():
        raise RefusedDatabase(f"{path}: not a regular file")
    try:
        with path.open("rb") as f:
            head = f.read(len(MAGIC))
    except OSError as err:
        raise RefusedDatabase(f"{path}: cannot read: {err.strerror}") from None
    if not head:
        return
    if head != MAGIC:
        raise RefusedDatabase(f"{path}: not an SQLite database, so not an artproject "
                              "server's; give another --db")
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = dict(con.execute("SELECT key, value FROM meta").fetchall())
        finally:
            con.close()
    except sqlite3.Error:
        rows = {}
    if rows.get("format") != FORMAT:
        raise RefusedDatabase(f"{path}: an SQLite database that is not an artproject "
                              "server's (no meta format = artproject-server); give another --db")
    version = rows.get("version", "")
    if not version.isdigit() or int(version) > VERSION:
        raise RefusedDatabase(f"{path}: made by a newer artproject server (database version "
                              f"{version}; this one reads up to {VERSION})")


def _upgrade(con: sqlite3.Connection) -> None:
    """A database of an older version of ours brought to this one, in one transaction."""
    if con.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone() is None:
        return  # a new file
    row = con.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    version = int(row[0]) if row is not None else VERSION
    if version >= VERSION:
        return
    con.execute("BEGIN IMMEDIATE")
    try:
        for v in range(version, VERSION):
            for sql in UPGRADES[v]:
                con.execute(sql)
        con.execute("UPDATE meta SET value = ? WHERE key = 'version'", (str(VERSION),))
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


class Store:
    """The open database and its one writer (see the module's text)."""

    def __init__(self, path: Path) -> None:
        check(path)
        self.path = path
        try:
            self.con = sqlite3.connect(str(path), check_same_thread=False,
                                       isolation_level=None)
            self.con.execute("PRAGMA journal_mode=WAL")
            self.con.execute("PRAGMA synchronous=FULL")
            self.con.execute("PRAGMA foreign_keys=ON")
            _upgrade(self.con)
            self.con.executescript(SCHEMA)
            self.con.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?), ('version', ?)",
                             (FORMAT, str(VERSION)))
        except sqlite3.Error as err:
            raise RefusedDatabase(f"{path}: cannot open the database: {err}") from None
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="artproject-db")
        self._pending: list[tuple[list[Op], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0  # transactions (a batch of writes each), for the benchmark

    # ---------------------------------------------------------------- reading (at start)
    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.con.execute(sql, params).fetchall()

    # ---------------------------------------------------------------- writing
    async def write(self, ops: list[Op]) -> None:
        """Run `ops` as one unit, committed to disk when this returns; sqlite3.Error if they
        could not be (WriteFailed if not for SQLite's reasons; nothing of them is stored)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((ops, fut))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._drain())
        await fut

    async def _drain(self) -> None:
        """Commit what waits, batch after batch, until nothing does. Every batch's futures
        are answered whatever goes wrong (a request left waiting would hold its game's lock
        for ever), and the writer goes on to the next."""
        loop = asyncio.get_running_loop()
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                failed = await loop.run_in_executor(self._pool, self._commit,
                                                    [ops for ops, _ in batch])
            except Exception as whole:  # the commit itself failed: nothing was stored
                failed = [_as_stored_error(whole)] * len(batch)
            for (_, fut), err in zip(batch, failed, strict=True):
                if fut.done():
                    continue
                if err is None:
                    fut.set_result(None)
                else:
                    fut.set_exception(err)

    def _commit(self, groups: list[list[Op]]) -> list[sqlite3.Error | None]:
        """One transaction for every group, each in a savepoint: a group that fails, in
        SQLite or otherwise (a text no UTF-8 encodes), is rolled back alone and the others
        are committed; the thread's work."""
        con = self.con
        out: list[sqlite3.Error | None] = []
        con.execute("BEGIN IMMEDIATE")
        try:
            for ops in groups:
                con.execute("SAVEPOINT g")
                try:
                    for sql, params in ops:
                        con.execute(sql, params)
                    con.execute("RELEASE g")
                    out.append(None)
                except Exception as err:
                    con.execute("ROLLBACK TO g")
                    con.execute("RELEASE g")
                    out.append(_as_stored_error(err))
            con.execute("COMMIT")
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        self.commits += 1
        return out

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.con.close()
