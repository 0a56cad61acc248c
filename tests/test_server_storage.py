"""The database busy or failing (docs/server.md, "Bots"): a bot's move that could not be
stored is tried again.

A busy database is another connection holding `BEGIN EXCLUSIVE` on the same file (a backup
tool, a slow disk); the server's commits are watched (`Commits`) to know when one fails."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytest.importorskip("httpx")

from tests.serving import Client, Running, running


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[Running]:
    yield from running(tmp_path / "games.db")


@contextlib.contextmanager
def busy(srv: Running, patience_ms: int) -> Iterator[None]:
    """The server's database locked by another connection until the block ends; the server
    waits `patience_ms` for the lock before a commit fails."""
    srv.store.con.execute(f"PRAGMA busy_timeout = {patience_ms}")  # (no commit under way)
    con = sqlite3.connect(srv.store.path, isolation_level=None)
    con.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        con.execute("ROLLBACK")
        con.close()


class Commits:
    """The server's commits watched, in its writer's thread: `entered` is set as one begins,
    `failed` when one fails; while `gate` is clear a commit waits before it begins."""

    def __init__(self, srv: Running, monkeypatch: pytest.MonkeyPatch) -> None:
        self.entered, self.failed, self.gate = (threading.Event(), threading.Event(),
                                                threading.Event())
        self.gate.set()
        commit = srv.store._commit

        def watched(groups: Any) -> Any:
            self.entered.set()
            self.gate.wait(60)
            try:
                return commit(groups)
            except sqlite3.Error:
                self.failed.set()
                raise

        monkeypatch.setattr(srv.store, "_commit", watched)


def _welcomed(c: Client) -> dict[str, Any]:
    return c.until(lambda m: m["type"] == "welcome")


def test_a_bot_s_move_that_could_not_be_stored_is_tried_again(
        srv: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    thinking = threading.Event()  # the search bot thinks in the lobby's thread: held there
    srv.lobby.pool.submit(thinking.wait, 60)
    try:
        gid = srv.create(game="art-of-war", seats=["person", "bot:ismcts"])["id"]
        c = Client(srv.ws_url, gid, {"type": "hello", "token": srv.join(gid, "p1")})
        frame = _welcomed(c)
        while frame["legal"]:  # p1's decisions, until the bot decides
            ack = c.move(frame["legal"][0]["text"], frame["version"])
            frame = c.until(lambda m, n=ack["version"]: m["type"] == "state"
                            and m["version"] == n)
        commits = Commits(srv, monkeypatch)
        with busy(srv, 10):
            thinking.set()  # the bot's move is made while the database is busy
            assert commits.failed.wait(60)
    finally:
        thinking.set()
    told = c.until(lambda m: m["type"] == "state" and (m["last"] or {}).get("seat") == "p2",
                   60)
    with sqlite3.connect(srv.store.path) as con:
        assert con.execute("SELECT action FROM moves WHERE game = ? AND n = ?",
                           (gid, told["version"])).fetchone() == (told["last"]["action"],)
    c.close()
