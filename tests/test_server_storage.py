"""The database busy or failing (docs/server.md, "What is stored"): a move is seen by no one
before it is stored, a request the database cannot store is refused with `storage` and
changes nothing, a bot's move that could not be stored is tried again; and a seat's move ids
are its holder's, across a restart and an upgrade of an older database.

A busy database is another connection holding `BEGIN EXCLUSIVE` on the same file (a backup
tool, a slow disk); the server's commits are watched (`Commits`) to know when one waits."""

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


def _pair(srv: Running, game: str = "kuhn") -> tuple[str, dict[str, str], list[Client]]:
    """A new two-person game, both seats taken (Ann's p1, Bob's p2) and connected."""
    gid = srv.create(game=game, seats=["person", "person"])["id"]
    tokens = {"p1": srv.join(gid, "p1", "Ann"), "p2": srv.join(gid, "p2", "Bob")}
    clients = [Client(srv.ws_url, gid, {"type": "hello", "token": t}) for t in tokens.values()]
    for c in clients:
        _welcomed(c)
    return gid, tokens, clients


def _seen(srv: Running, gid: str, other: Client) -> tuple[int, int, int, int]:
    """The game's version as each reader shows it: a sync's welcome, a new spectator's
    welcome, the lobby's summary, the replay viewer."""
    other.send({"type": "sync"})
    synced = _welcomed(other)
    spy = Client(srv.ws_url, gid, {"type": "hello", "spectate": True})
    watched = _welcomed(spy)
    spy.close()
    summary = srv.http.get(f"/api/games/{gid}").json()
    replay = srv.http.get(f"/api/replays/game-{gid}").json()
    return synced["version"], watched["version"], summary["moves"], replay["steps"]


def test_a_move_is_seen_by_no_one_until_it_is_stored(srv: Running,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    gid, _, (ann, bob) = _pair(srv)  # Kuhn poker: p1 checks or bets first, then p2
    commits = Commits(srv, monkeypatch)
    # stored once the database is free again
    with busy(srv, 600_000):
        ann.send({"type": "move", "id": "slow", "action": "check p1", "version": 0})
        assert commits.entered.wait(60)  # made, and waiting for the database
        assert _seen(srv, gid, bob) == (0, 0, 0, 0)
    assert ann.until(lambda m: m.get("id") == "slow")["version"] == 1
    told = bob.until(lambda m: m["type"] == "state")
    assert told["version"] == 1 and told["last"] == {"seat": "p1", "action": "check p1"}
    # never stored: no one heard of it, so no one need be told it was undone
    commits.gate.clear()
    commits.entered.clear()
    with busy(srv, 10):
        bob.send({"type": "move", "id": "lost", "action": "bet p2", "version": 1})
        assert commits.entered.wait(60)
        assert _seen(srv, gid, ann) == (1, 1, 1, 1)
        commits.gate.set()
        assert bob.until(lambda m: m.get("id") == "lost")["code"] == "storage"
    assert bob.move("check p2", 1) == {"type": "ack", "id": "m1", "version": 2,
                                       "duplicate": False}
    told = ann.until(lambda m: m["type"] == "state")
    heard = [m["version"] for m in ann.got if m["type"] in ("welcome", "state")]
    assert [v for v in heard if v > 1] == [2]  # only the stored move
    assert told["last"] == {"seat": "p2", "action": "check p2"}
    ann.send({"type": "sync"})
    fresh = _welcomed(ann)
    assert told["events"] == fresh["events"][told["events_from"]:]
    with sqlite3.connect(srv.store.path) as con:
        assert [a for (a,) in con.execute("SELECT action FROM moves WHERE game = ? ORDER BY n",
                                          (gid,))] == ["check p1", "check p2"]


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


def test_a_busy_database_refuses_lobby_requests_with_storage_and_changes_nothing(
        srv: Running, capfd: pytest.CaptureFixture[str]) -> None:
    gid = srv.create(game="kuhn", seats=["person", "person"])["id"]
    ann = srv.join(gid, "p1", "Ann")
    before = srv.http.get("/api/games", params={"all": "1"}).json()
    with busy(srv, 10):
        asks = [("/api/games", {"game": "kuhn", "seats": ["person", "person"]}),
                (f"/api/games/{gid}/leave", {"token": ann}),
                (f"/api/games/{gid}/join", {"seat": "p2", "name": "Mallory"}),
                (f"/api/games/{gid}/join", {"name": "Mallory"})]
        for path, body in asks:
            r = srv.http.post(path, json=body)
            assert r.status_code == 503 and r.json()["error"] == "storage", (path, r.text)
            assert srv.http.get("/api/games", params={"all": "1"}).json() == before
    assert "Traceback" not in capfd.readouterr().err
    # nothing changed: Ann still holds p1, p2 is open
    c = Client(srv.ws_url, gid, {"type": "hello", "token": ann})
    assert _welcomed(c)["seat"] == "p1"
    c.close()
    assert srv.join(gid, "p2", "Bob")
    seats = srv.http.get(f"/api/games/{gid}").json()["seats"]
    assert [(s["name"], s["taken"]) for s in seats] == [("Ann", True), ("Bob", True)]


def _turn(c: Client, others: list[Client]) -> dict[str, Any]:
    """The frame in which `c` has a decision, the others playing their first legal actions
    until it does."""
    while True:
        for x in (c, *others):
            x.drain()
        if c.frame is not None and c.frame["legal"]:
            return c.frame
        x = next(x for x in others if x.frame is not None and x.frame["legal"])
        assert x.frame is not None
        assert x.move(x.frame["legal"][0]["text"], x.frame["version"])["type"] == "ack"


def test_the_next_holder_of_a_left_seat_starts_its_move_ids_afresh(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    for srv in running(db):
        gid, tokens, (ann, bob) = _pair(srv, "art-of-war")
        assert ann.move("draw p1", 0) == {"type": "ack", "id": "m1", "version": 1,
                                          "duplicate": False}
        r = srv.http.post(f"/api/games/{gid}/leave", json={"token": tokens["p1"]})
        assert r.status_code == 200
        carol_token = srv.join(gid, "p1", "Carol")
        carol = Client(srv.ws_url, gid, {"type": "hello", "token": carol_token})
        _welcomed(carol)
        frame = _turn(carol, [bob])
        first = {"type": "move", "id": "m1", "action": frame["legal"][0]["text"]}
        carol.send(first)  # the id Ann's first move had: Carol's own first move
        ack = carol.until(lambda m: m.get("id") == "m1")
        assert ack == {"type": "ack", "id": "m1", "version": frame["version"] + 1,
                       "duplicate": False}
        for c in (ann, bob, carol):
            c.close()
    for srv in running(db):  # and after a restart, a resend of it is applied once
        carol = Client(srv.ws_url, gid, {"type": "hello", "token": carol_token})
        _welcomed(carol)
        carol.send(first)
        assert carol.until(lambda m: m.get("id") == "m1") == {**ack, "duplicate": True}
        carol.close()
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT n, holder FROM moves WHERE game = ? AND client = 'm1' "
                           "AND seat = 0 ORDER BY n", (gid,)).fetchall() == [
            (1, 1), (ack["version"], 2)]


def _as_version_1(db: Path) -> None:
    """A database of this server's made as version 1 made it: no holders, move ids unique
    per seat."""
    con = sqlite3.connect(db, isolation_level=None)
    for sql in ("DROP INDEX moves_holder_client", "ALTER TABLE moves DROP COLUMN holder",
                "ALTER TABLE seats DROP COLUMN holder",
                "CREATE UNIQUE INDEX moves_client ON moves (game, seat, client) "
                "WHERE client IS NOT NULL",
                "UPDATE meta SET value = '1' WHERE key = 'version'"):
        con.execute(sql)
    con.close()


def test_a_version_1_database_is_upgraded_and_its_games_resume(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    for srv in running(db):
        gid, tokens, (ann, bob) = _pair(srv, "art-of-war")
        moved = ann.move("draw p1", 0)
        for c in (ann, bob):
            c.close()
    _as_version_1(db)
    for srv in running(db):
        ann = Client(srv.ws_url, gid, {"type": "hello", "token": tokens["p1"]})
        assert _welcomed(ann)["version"] == 1
        ann.send({"type": "move", "id": "m1", "action": "draw p1"})  # a resend: applied once
        assert ann.until(lambda m: m.get("id") == "m1") == {**moved, "duplicate": True}
        ann.close()
        r = srv.http.post(f"/api/games/{gid}/leave", json={"token": tokens["p1"]})
        assert r.status_code == 200
        carol = Client(srv.ws_url, gid, {"type": "hello",
                                         "token": srv.join(gid, "p1", "Carol")})
        bob = Client(srv.ws_url, gid, {"type": "hello", "token": tokens["p2"]})
        for c in (carol, bob):
            _welcomed(c)
        frame = _turn(carol, [bob])
        carol.send({"type": "move", "id": "m1", "action": frame["legal"][0]["text"]})
        assert carol.until(lambda m: m.get("id") == "m1")["duplicate"] is False
        for c in (carol, bob):
            c.close()
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'version'").fetchone() == ("2",)
