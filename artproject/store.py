"""The results store: one row a game in an SQLite file, so that a sweep survives interruption.

`simulate --store FILE` appends each batch of games in one transaction as it comes back, and
a sweep that was stopped (Ctrl-C, a killed worker, a lost node) plays only the games the
store lacks when it is run again. A game is keyed by everything that decides it (game,
mission, variant, difficulty, players, policy, seed), so none is ever counted twice.

SQLite is in the standard library: nothing to install, a transaction per batch, and a file
a person can open with any SQLite tool. A sweep holds an exclusive lock on the file (besides
SQLite's own), so two sweeps never write to one store at once.

Readers and the writer: the store keeps SQLite's rollback journal (not WAL, whose -wal and
-shm files would make the store more than its one file, and its size check below untrue
between checkpoints). A report reads under SQLite's shared lock, each of its reads one
transaction, so it sees whole batches only; a sweep's commit waits for such a reader to end
(up to WRITE_WAIT seconds), so that a report never fails a sweep. Only when a store is
opened to write is another program's lock an error at once. A writer killed mid-batch
(kill -9, out of memory) leaves a hot journal: the next reader or writer rolls it back, so
the store is as of its last commit.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, NamedTuple

from .core.errors import GameError
from .core.files import exists, not_regular, shorten

FORMAT: Final = 1  # the store's schema version: a store of another one is refused
WRITE_WAIT: Final = 30.0  # seconds a sweep's commit waits for readers' shared locks to go
READ_WAIT: Final = 5.0  # seconds a report waits behind a commit (a short one), then says so
KIND: Final = "artproject-results"


_SCHEMA: Final = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    game TEXT NOT NULL,
    mission TEXT NOT NULL,
    variant TEXT NOT NULL,
    rules TEXT NOT NULL,
    difficulty TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    policy TEXT NOT NULL,
    outcome TEXT NOT NULL,
    cause TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    engine TEXT NOT NULL,
    PRIMARY KEY (game, mission, variant, rules, difficulty, players, policy, seed)
);
"""
# Where each cell's rules came from (a designer's file by its absolute path), for a replay
# (web/sources.py): its own table, made when a store is opened to write, so that a store
# without it (written before) still reads, and artproject before reads one with it.
_SOURCES: Final = """CREATE TABLE IF NOT EXISTS sources (game TEXT NOT NULL, mission TEXT
NOT NULL, variant TEXT NOT NULL, rules TEXT NOT NULL, mission_ref TEXT NOT NULL, variant_refs
TEXT NOT NULL, PRIMARY KEY (game, mission, variant, rules))"""
COLUMNS: Final = ("game", "mission", "variant", "rules", "difficulty", "players", "seed",
                  "policy", "outcome", "cause", "rounds", "decisions", "engine")


class Row(NamedTuple):
    """One game's result, as stored."""

    game: str
    mission: str
    variant: str
    rules: str  # a digest of the rules played (the mission, its variants, its cards)
    difficulty: str
    players: int
    seed: int
    policy: str
    outcome: str  # won or lost
    cause: str  # why it ended, with the player named generically
    rounds: int
    decisions: int
    engine: str  # the artproject version that played it


class StoreWriteError(GameError):
    """A store that cannot take a batch (a full disk): what was written before is kept."""


MAX_SEATS: Final = 9  # players a game at most: the notation's seats (p1..p9) seat no more
# A row's ranges, as SQL: a team size of 1 to MAX_SEATS, a seed from 0, a difficulty that
# is a word as a mission names one (lower-case letters, digits, - and _) or `-` (a game
# without difficulties). Which words a mission has is its file's to say, not the store's.
_OUT_OF_RANGE: Final = (
    f"players < 1 OR players > {MAX_SEATS} OR seed < 0 OR rounds < 0 OR decisions < 0 OR "
    "(difficulty != '-' AND (difficulty = '' OR difficulty GLOB '*[^a-z0-9_-]*' OR "
    "substr(difficulty, 1, 1) NOT GLOB '[a-z0-9]'))")


# Each column's SQLite type (as the schema declares it) and Python type (as rows hold it).
_TYPES: Final = {c: ("INTEGER", int) if c in ("players", "seed", "rounds", "decisions")
                 else ("TEXT", str) for c in COLUMNS}


def _row(path: Path, n: int, values: Sequence[Any]) -> Row:
    """A stored row, checked: each column of its type (a row edited outside artproject is
    told, naming the row and column, never a TypeError in the report)."""
    for col, v in zip(COLUMNS, values, strict=True):
        want = _TYPES[col][1]
        if type(v) is not want:
            raise GameError(f"{path}: row {n}: {col} is {v!r}; expected "
                            + ("a whole number" if want is int else "text")
                            + ": the store was edited or damaged")
    row = Row(*values)
    if not (1 <= row.players <= MAX_SEATS and row.seed >= 0 and row.rounds >= 0
            and row.decisions >= 0 and _word(row.difficulty)):
        raise GameError(f"{path}: row {n}: players {row.players}, seed {row.seed}, difficulty "
                        f"{row.difficulty!r}, rounds {row.rounds}, decisions {row.decisions}: "
                        f"out of range (players 1 to {MAX_SEATS}, a seed, rounds and decisions "
                        "from 0, a difficulty a word or -): the store was edited or damaged")
    return row


def _word(difficulty: str) -> bool:
    """A difficulty as a mission names one (see _OUT_OF_RANGE), or `-`."""
    import re

    return difficulty == "-" or re.fullmatch(r"[a-z0-9][a-z0-9_\-]*", difficulty) is not None


class CellKey(NamedTuple):
    """What a cell of a sweep is, in the store's words."""

    game: str
    mission: str
    variant: str
    rules: str
    difficulty: str
    players: int
    policy: str


def _version() -> str:
    from . import __version__

    return __version__


class Store:
    """An open results store (`Store.open` for a sweep, `Store.read` for a report)."""

    def __init__(self, path: Path, conn: sqlite3.Connection, lock: Any) -> None:
        self.path, self.conn, self._lock = path, conn, lock

    # ---------------------------------------------------------------- opening
    @classmethod
    def open(cls, path: str | Path) -> Store:
        """Open (or create) a store to write a sweep into: checks its kind, schema and engine
        version, and locks it. Every refusal is a GameError and leaves the file unchanged."""
        from .core.checks import ref

        p = Path(ref(path, "the store's path"))
        odd = not_regular(p)  # never a device (SQLite would write to it), pipe or folder
        if odd == "a folder" or str(path).endswith(("/", os.sep)):  # (newdir/: not a file)
            raise GameError(f"{path}: a folder, not a store file: give the store's file name "
                            f"({str(path).rstrip('/' + os.sep) or '.'}/results.db)")
        if odd is not None:
            raise GameError(f"{p}: not a regular file ({odd}): a results store is a file")
        if not p.parent.is_dir() and str(p.parent):
            raise GameError(f"{p}: cannot create the store: no such folder {str(p.parent)!r}")
        _writable_folder(p)
        new = not exists(p)
        if not new and p.stat().st_size == 0:  # only a new file or a store of ours is written
            raise GameError(f"{p}: an empty file, not a results store: give a new file's name "
                            "(simulate makes it)")
        lock = _lock(p)
        try:
            conn = _connect(p)
            if not new:
                _check(p, conn, write=True)
            else:
                _create(p, conn)
            _sources_table(p, conn)
            # the check above refused a store another program holds at once; from now on
            # a commit waits for a reader (a report) to finish its read, never fails on it
            conn.execute(f"PRAGMA busy_timeout = {int(WRITE_WAIT * 1000)}")
        except BaseException:
            _unlock(lock)
            if new:  # what this call created goes; a file that was there stays, untouched
                with contextlib.suppress(OSError):
                    p.unlink()
            raise
        return cls(p, conn, lock)

    @classmethod
    def read(cls, path: str | Path) -> Store:
        """Open an existing store to read (a report): checks its kind and schema."""
        from .core.checks import ref

        p = Path(ref(path, "the store's path"))
        if not exists(p):  # (a name too long for the file system is not there either)
            raise GameError(f"{shorten(str(p))}: no such results store")
        odd = not_regular(p)
        if odd is not None:
            raise GameError(f"{p}: not a regular file ({odd}): a results store is a file")
        # A journal beside the store is a writer's: alive, its transaction is not ours to
        # see; killed mid-batch, its journal is hot and SQLite rolls it back at the first
        # read, which needs write access (read-only, SQLite cannot, and the store would be
        # called damaged). The report itself only ever reads.
        hot = exists(Path(f"{p}-journal"))
        try:
            conn = sqlite3.connect(f"{p.resolve().as_uri()}?mode={'rw' if hot else 'ro'}",
                                   uri=True, timeout=READ_WAIT, isolation_level=None)
        except sqlite3.Error as err:
            raise GameError(f"{p}: cannot open the store: {err}") from None
        _check(p, conn, write=False)
        return cls(p, conn, None)

    def close(self) -> None:
        self.conn.close()
        _unlock(self._lock)
        self._lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------- writing, reading
    def add(self, rows: Sequence[Row]) -> int:
        """Append games in one transaction; a game already stored is kept as it was.
        Returns how many were new."""
        if not rows:
            return 0
        try:
            with self.conn:  # one transaction: all of the batch or none of it
                before = self.conn.total_changes
                self.conn.executemany(
                    f"INSERT OR IGNORE INTO games ({', '.join(COLUMNS)}) "
                    f"VALUES ({', '.join('?' * len(COLUMNS))})", rows)
                return self.conn.total_changes - before
        except sqlite3.Error as err:  # a full disk, an I/O error: the batch is rolled back
            kept = ""
            with contextlib.suppress(sqlite3.Error):
                kept = f"; the {self.count()} games written before are kept"
            raise StoreWriteError(f"{self.path}: cannot write to the store ({err}){kept}: "
                                  "run the same command again to play the rest") from None

    def respell(self, game: str, key: Callable[[str], str]) -> int:
        """Store each of `game`'s policies as `key` spells it (`ismcts:budget=32`, written
        before defaults were left out, is `ismcts`), in one transaction; a game stored under
        both spellings (the same game) is kept once. Returns how many rows changed."""
        try:
            with self.conn:
                spelt = {p: key(p) for (p,) in self.conn.execute(
                    "SELECT DISTINCT policy FROM games WHERE game=?", (game,))}
                before = self.conn.total_changes
                for old, new in spelt.items():
                    if new != old:
                        self.conn.execute("UPDATE OR IGNORE games SET policy=? WHERE game=? "
                                          "AND policy=?", (new, game, old))
                        self.conn.execute("DELETE FROM games WHERE game=? AND policy=?",
                                          (game, old))
                return self.conn.total_changes - before
        except sqlite3.Error as err:
            raise StoreWriteError(f"{self.path}: cannot write to the store ({err})") from None

    def note_source(self, key: CellKey, mission_ref: str, variant_refs: Sequence[str]) -> None:
        """Record where a cell's rules came from (its mission and variants as read)."""
        try:
            with self.conn:
                self.conn.execute("INSERT OR REPLACE INTO sources VALUES (?, ?, ?, ?, ?, ?)",
                                  (key.game, key.mission, key.variant, key.rules, mission_ref,
                                   "\n".join(variant_refs)))
        except sqlite3.Error as err:
            raise StoreWriteError(f"{self.path}: cannot write to the store ({err})") from None

    def sources(self) -> dict[tuple[str, str, str, str], tuple[str, tuple[str, ...]]]:
        """Where each cell's rules came from, by (game, mission, variant, rules)."""
        try:
            if self.conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND "
                                 "name='sources'").fetchone() is None:
                return {}
            rows = self.conn.execute("SELECT game, mission, variant, rules, mission_ref, "
                                     "variant_refs FROM sources").fetchall()
            if not all(type(x) is str for r in rows for x in r):  # (a store sent: any)
                raise ValueError("the sources table holds a value other than a text")
            return {(g, m, v, r): (ref, tuple(refs.split("\n")) if refs else ())
                    for g, m, v, r, ref, refs in rows}
        except (sqlite3.Error, UnicodeDecodeError, ValueError) as err:
            raise GameError(f"{self.path}: cannot read the store: {err}") from None

    def seeds(self, key: CellKey, first: int, stop: int) -> set[int]:
        """The seeds in first..stop-1 already stored for a cell."""
        try:
            cur = self.conn.execute(
                "SELECT seed FROM games WHERE game=? AND mission=? AND variant=? AND rules=? "
                "AND difficulty=? AND players=? AND policy=? AND seed>=? AND seed<?",
                (*key, first, stop))
            return {s for (s,) in cur}
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise GameError(f"{self.path}: cannot read the store: {err}") from None

    def rows(self, key: CellKey | None = None, first: int | None = None,
             stop: int | None = None) -> Iterator[Row]:
        """Stored games: of one cell and seed range, or all of them, in key order."""
        sql = f"SELECT {', '.join(COLUMNS)} FROM games"
        args: list[Any] = []
        if key is not None:
            sql += (" WHERE game=? AND mission=? AND variant=? AND rules=? AND difficulty=? "
                    "AND players=? AND policy=?")
            args += key
            if first is not None and stop is not None:
                sql += " AND seed>=? AND seed<?"
                args += [first, stop]
        sql += " ORDER BY game, mission, variant, rules, policy, difficulty, players, seed"
        try:
            for n, r in enumerate(self.conn.execute(sql, args), 1):
                yield _row(self.path, n, r)
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise GameError(f"{self.path}: cannot read the store: {err}") from None

    def count(self) -> int:
        try:
            (n,) = self.conn.execute("SELECT COUNT(*) FROM games").fetchone()
        except sqlite3.Error as err:
            raise GameError(f"{self.path}: cannot read the store: {err}") from None
        return int(n)


# ---------------------------------------------------------------------- checks
def _connect(p: Path) -> sqlite3.Connection:
    try:
        # timeout 0: a store another program holds locked is an error at once, not a wait
        # (while it is opened: `Store.open` then waits WRITE_WAIT for readers at a commit)
        conn = sqlite3.connect(p, timeout=0, isolation_level="DEFERRED")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn
    except sqlite3.Error as err:
        raise GameError(f"{p}: cannot open the store: {err}") from None


def _create(p: Path, conn: sqlite3.Connection) -> None:
    try:
        with conn:
            conn.executescript("BEGIN;" + _SCHEMA + "COMMIT;")
            conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                             [("kind", KIND), ("format", str(FORMAT)),
                              ("engine", _version())])
    except sqlite3.Error as err:
        conn.close()
        raise GameError(f"{p}: cannot create the store: {err}") from None


def _writable_folder(p: Path) -> None:
    """A folder SQLite can write its journal in (STORE-journal, at each batch): else the
    first batch fails after its games were played, and every run again the same way."""
    folder = p.parent if str(p.parent) else Path(".")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise GameError(f"{p}: the folder {str(folder)!r} cannot be written to, and SQLite "
                        f"writes its journal ({p.name}-journal) there: make it writable, or "
                        "use a store in another folder; nothing was played")


def _sources_table(p: Path, conn: sqlite3.Connection) -> None:
    """The sources table, in a new store or one written before it (_SOURCES)."""
    try:
        with conn:
            conn.execute(_SOURCES)
    except sqlite3.Error as err:
        conn.close()
        raise GameError(f"{p}: cannot write to the store: {err}; nothing was played") from None


# Rows whose values are not of their column's type (SQLite keeps what it is given).
_ODD_ROWS: Final = "SELECT COUNT(*) FROM games WHERE " + " OR ".join(
    f"typeof({c}) != '{'integer' if t == 'INTEGER' else 'text'}'"
    for c, (t, _) in _TYPES.items()) + " OR " + _OUT_OF_RANGE
# Every distinct text of the rows (a few hundred at most: the cells, the causes), read as
# bytes to find any that is not UTF-8 (SQLite keeps whatever bytes it is given).
_TEXTS: Final = "SELECT DISTINCT " + ", ".join(
    c for c, (t, _) in _TYPES.items() if t == "TEXT") + " FROM games"


def _not_text(conn: sqlite3.Connection) -> int:
    """How many distinct rows hold text that is not UTF-8."""
    conn.text_factory = bytes
    try:
        bad = 0
        for row in conn.execute(_TEXTS):
            try:
                for v in row:
                    if isinstance(v, bytes):
                        v.decode("utf-8")
            except UnicodeDecodeError:
                bad += 1
        return bad
    finally:
        conn.text_factory = str


def _check(p: Path, conn: sqlite3.Connection, write: bool) -> None:
    """The file is a whole results store of this format and (to write) this engine version:
    SQLite's own check and the file's size, our schema and types, every row's types."""
    try:
        facts = _facts(p, conn, write)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as err:  # (text of broken bytes)
        conn.close()
        msg = " ".join(str(err).split())[:200]
        if "locked" in msg or "busy" in msg:
            raise GameError(f"{p}: the store is locked by another program; try again when "
                            "it is done") from None
        raise GameError(f"{p}: not a results store, or a damaged one ({msg})"
                        + ("; nothing was played" if write else "")) from None
    problem = _problem(facts, write)
    if problem:
        conn.close()
        raise GameError(f"{p}: {problem}" + ("; nothing was played" if write else ""))


def _facts(p: Path, conn: sqlite3.Connection, write: bool) -> dict[str, Any]:
    """What _check judges, read from the store (sqlite3.DatabaseError when it cannot be)."""
    if write:
        # take SQLite's write lock a moment: another program holding it is an error now
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
    # one read transaction: the file's size is compared with its pages under the shared
    # lock, so that a sweep's commit (which grows the file) cannot fall between the two
    conn.execute("BEGIN")
    try:
        damage = [r[0] for r in conn.execute("PRAGMA quick_check(3)")]
        (page,), (pages,) = (conn.execute(f"PRAGMA {x}").fetchone()
                             for x in ("page_size", "page_count"))
        if damage == ["ok"] and os.stat(p).st_size != page * pages:  # cut short, or grown
            damage = [f"{os.stat(p).st_size} bytes, not {pages} pages of {page}"]
        info = conn.execute("PRAGMA table_info(games)").fetchall()
        cols = tuple(r[1] for r in info)
        odd = conn.execute(_ODD_ROWS).fetchone()[0] if cols == COLUMNS else 0
        return {"damage": damage, "cols": cols,
                "types": {r[1]: str(r[2]).upper() for r in info},
                "meta": dict(conn.execute("SELECT key, value FROM meta").fetchall()),
                "odd": odd or (_not_text(conn) if cols == COLUMNS else 0)}
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


def _problem(facts: dict[str, Any], write: bool) -> str | None:
    """Why the store read is not one to use, or None."""
    meta, cols = facts["meta"], facts["cols"]
    if facts["damage"] != ["ok"]:
        said = " ".join("; ".join(map(str, facts["damage"])).split())  # SQLite's lines, one
        return f"a damaged store ({said[:200]})" + (": use a new store" if write else "")
    if meta.get("kind") != KIND:
        return "not a results store (no artproject results in it)"
    if meta.get("format") != str(FORMAT):
        return (f"a results store of format {meta.get('format')}; this artproject reads "
                f"format {FORMAT}: use a new store")
    if cols != COLUMNS:
        return (f"a results store of another schema (columns {', '.join(cols)}); expected "
                f"{', '.join(COLUMNS)}")
    if any(facts["types"][c] != t for c, (t, _) in _TYPES.items()):
        return "a results store of another schema (its columns' types differ)"
    if facts["odd"]:
        return (f"{facts['odd']} row(s) of the wrong types or out of range (a number where "
                "text belongs, text where a number does or that is not UTF-8, a count below "
                f"0, a team of more than {MAX_SEATS} or none, a difficulty that is no word): "
                "the store was edited or damaged")
    if write and meta.get("engine") != _version():
        return (f"results of artproject {meta.get('engine')}; this is {_version()}, whose "
                "games may differ: use a new store")
    return None


# ---------------------------------------------------------------------- the sweep's lock
def _lock(p: Path) -> Any:
    """An exclusive lock on the store for one sweep (flock: SQLite uses other locks)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: SQLite's own locks only
        return None
    try:
        fd = os.open(p, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:
        raise GameError(f"{p}: cannot open the store: {err.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise GameError(f"{p}: the store is locked by another sweep; wait for it to end, or "
                        "use another store") from None
    return fd


def _unlock(fd: Any) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)  # closing the descriptor releases the flock
