"""A game's moves, leaves and joins racing each other while the database works
(docs/server.md, "What is stored"): each is applied as if alone, in the order it is stored,
so a move in flight when its seat is given up is not applied under the seat's next holder,
a join that comes while the game's last move is stored finds the game over, and what the
clients are told is what is stored.

The server's writer is held at a gate (`Gate`): each commit waits for the test to let it
through, so the test knows which operation is being stored while the next arrives. Which
requests have reached the lobby is counted (`Calls`): once one is counted, the event loop
takes it as far as it goes (to the lock or the database) before it reads the next."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytest.importorskip("httpx")

import httpx
from websockets.exceptions import ConnectionClosed

from tests.serving import Client, Running, running


@pytest.fixture
def srv(tmp_path: Any) -> Iterator[Running]:
    yield from running(tmp_path / "games.db")


class Gate:
    """The server's commits held in its writer's thread: each waits for `step` (one commit
    let through) until `open`; `entered` counts the commits begun."""

    def __init__(self, srv: Running, monkeypatch: pytest.MonkeyPatch) -> None:
        self.cond = threading.Condition()
        self.entered = self.permits = 0
        self.opened = False
        commit = srv.store._commit

        def gated(groups: Any) -> Any:
            with self.cond:
                self.entered += 1
                self.cond.notify_all()
                if not self.cond.wait_for(lambda: self.opened or self.permits > 0, 60):
                    raise sqlite3.OperationalError("the test's gate was never opened")
                if not self.opened:
                    self.permits -= 1
            return commit(groups)

        monkeypatch.setattr(srv.store, "_commit", gated)

    def wait_entered(self, n: int) -> None:
        with self.cond:
            assert self.cond.wait_for(lambda: self.entered >= n, 30), "no commit began"

    def step(self) -> None:
        with self.cond:
            self.permits += 1
            self.cond.notify_all()

    def open(self) -> None:
        with self.cond:
            self.opened = True
            self.cond.notify_all()


class Calls:
    """The lobby's moves, joins and leaves counted as they reach it."""

    def __init__(self, srv: Running, monkeypatch: pytest.MonkeyPatch) -> None:
        self.cond = threading.Condition()
        self.count: Counter[str] = Counter()
        for name in ("move", "join", "leave"):
            monkeypatch.setattr(srv.lobby, name, self._counted(name, getattr(srv.lobby, name)))

    def _counted(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            with self.cond:
                self.count[name] += 1
                self.cond.notify_all()
            return await fn(*args, **kwargs)
        return counted

    def wait(self, name: str, n: int) -> None:
        with self.cond:
            assert self.cond.wait_for(lambda: self.count[name] >= n, 30), (name, self.count)


@contextlib.contextmanager
def held(srv: Running, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Gate, Calls]]:
    gate, calls = Gate(srv, monkeypatch), Calls(srv, monkeypatch)
    try:
        yield gate, calls
    finally:
        gate.open()  # whatever happened, the server's writer is let go


def _post(srv: Running, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(srv.url + path, json=body, timeout=60)


def _welcomed(c: Client) -> dict[str, Any]:
    return c.until(lambda m: m["type"] == "welcome")


def _everything(c: Client) -> list[dict[str, Any]]:
    """Every message `c` was sent, read until the server closes it or it falls quiet."""
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        while True:
            c.recv(2)
    return c.got


def _moves(srv: Running, gid: str) -> list[tuple[int, int, str, str | None, int | None]]:
    with contextlib.closing(sqlite3.connect(srv.store.path)) as con:
        return con.execute("SELECT n, seat, action, client, holder FROM moves WHERE game = ? "
                           "ORDER BY n", (gid,)).fetchall()


def test_moves_in_flight_when_their_seat_is_left_are_not_applied_under_its_next_holder(
        srv: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann gives up p1 while the database stores it; meanwhile her two connections each send
    a move (two moves of one seat in flight at once) and Bob one; once her leave is answered,
    Carol takes p1. None of Ann's moves may be applied after her leave (her seat's next
    holder's decisions are Carol's), none stored as Carol's, and every move stored is one its
    sender was told of."""
    gid = srv.create(game="kuhn", seats=["person", "person"])["id"]
    ann_token, bob_token = srv.join(gid, "p1", "Ann"), srv.join(gid, "p2", "Bob")
    ann, ann2 = (Client(srv.ws_url, gid, {"type": "hello", "token": ann_token})
                 for _ in range(2))
    bob = Client(srv.ws_url, gid, {"type": "hello", "token": bob_token})
    for c in (ann, ann2, bob):
        _welcomed(c)
    with held(srv, monkeypatch) as (gate, calls), ThreadPoolExecutor(2) as pool:
        left = pool.submit(_post, srv, f"/api/games/{gid}/leave", {"token": ann_token})
        gate.wait_entered(1)  # Ann's leave is being stored
        ann.send({"type": "move", "id": "ann-1", "action": "check p1"})
        calls.wait("move", 1)
        bob.send({"type": "move", "id": "bob-1", "action": "bet p2"})
        calls.wait("move", 2)
        ann2.send({"type": "move", "id": "ann-2", "action": "call p1"})
        calls.wait("move", 3)
        gate.step()  # the leave is stored
        assert left.result(30).json() == {"left": "p1"}
        at_leave = srv.http.get(f"/api/games/{gid}").json()["moves"]
        joined = pool.submit(_post, srv, f"/api/games/{gid}/join", {"seat": "p1",
                                                                      "name": "Carol"})
        calls.wait("join", 1)
        gate.open()
        carol_token = joined.result(30).json()["token"]
    carol = Client(srv.ws_url, gid, {"type": "hello", "token": carol_token})
    _welcomed(carol)
    bob.drain(0.5)  # until nothing more is on its way
    stored = _moves(srv, gid)
    acked = {m["id"] for c in (ann, ann2) for m in _everything(c) if m["type"] == "ack"}
    anns = [row for row in stored if (row[3] or "").startswith("ann")]
    # Ann's moves: none after her leave was answered, each stored as hers and told to her
    assert all(n <= at_leave for n, *_ in anns), (at_leave, stored)
    assert all(holder == 1 for *_, holder in anns), stored
    assert {row[3] for row in anns} <= acked, (stored, acked)
    # what is told is what is stored
    assert bob.frame is not None
    assert bob.frame["version"] == len(stored) == len(srv.lobby.games[gid].state.history)
    for c in (carol, bob):
        c.close()


def test_a_move_stored_before_its_seat_is_left_is_told_before_the_seat_closes(
        srv: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann's move is being stored when she gives up her seat and Carol takes it: the move is
    Ann's (stored as hers, acknowledged to her before her connection closes), the leave and
    the join come after it, and Carol's seat is hers from the next decision on."""
    gid = srv.create(game="kuhn", seats=["person", "person"])["id"]
    ann_token, bob_token = srv.join(gid, "p1", "Ann"), srv.join(gid, "p2", "Bob")
    ann = Client(srv.ws_url, gid, {"type": "hello", "token": ann_token})
    bob = Client(srv.ws_url, gid, {"type": "hello", "token": bob_token})
    for c in (ann, bob):
        _welcomed(c)
    with held(srv, monkeypatch) as (gate, calls), ThreadPoolExecutor(2) as pool:
        ann.send({"type": "move", "id": "ann-1", "action": "check p1", "version": 0})
        gate.wait_entered(1)  # Ann's move is being stored
        left = pool.submit(_post, srv, f"/api/games/{gid}/leave", {"token": ann_token})
        calls.wait("leave", 1)
        gate.open()
        assert left.result(30).json() == {"left": "p1"}
        joined = _post(srv, f"/api/games/{gid}/join", {"seat": "p1", "name": "Carol"})
    told = [m for m in _everything(ann) if m["type"] != "seats"]
    assert [m["type"] for m in told] == ["welcome", "ack", "state"], told
    assert told[1] == {"type": "ack", "id": "ann-1", "version": 1, "duplicate": False}
    assert _moves(srv, gid) == [(1, 0, "check p1", "ann-1", 1)]
    carol = Client(srv.ws_url, gid, {"type": "hello", "token": joined.json()["token"]})
    frame = _welcomed(carol)
    assert frame["version"] == 1 and frame["legal"] == []  # p2 decides next
    assert bob.move("bet p2", 1)["type"] == "ack"
    assert carol.move("call p1", 2) == {"type": "ack", "id": "m1", "version": 3,
                                        "duplicate": False}
    assert [row[4] for row in _moves(srv, gid)] == [1, 1, 2]  # Bob's, Ann's, then Carol's
    for c in (bob, carol):
        c.close()


def test_a_join_while_the_last_move_is_stored_finds_the_game_over(
        srv: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann has left p1; Bob's move that ends the game is being stored when Carol asks for p1:
    she is refused (the game is over), and nothing of her join is stored."""
    gid = srv.create(game="kuhn", seats=["person", "person"])["id"]
    ann_token, bob_token = srv.join(gid, "p1", "Ann"), srv.join(gid, "p2", "Bob")
    ann = Client(srv.ws_url, gid, {"type": "hello", "token": ann_token})
    bob = Client(srv.ws_url, gid, {"type": "hello", "token": bob_token})
    for c in (ann, bob):
        _welcomed(c)
    assert ann.move("check p1", 0)["type"] == "ack"
    assert _post(srv, f"/api/games/{gid}/leave", {"token": ann_token}).status_code == 200
    with held(srv, monkeypatch) as (gate, calls), ThreadPoolExecutor(1) as pool:
        bob.send({"type": "move", "id": "bob-1", "action": "check p2", "version": 1})
        gate.wait_entered(1)  # the game's last move is being stored
        joined = pool.submit(_post, srv, f"/api/games/{gid}/join", {"seat": "p1",
                                                                      "name": "Carol"})
        calls.wait("join", 1)
        gate.open()
        r = joined.result(30)
    assert bob.until(lambda m: m.get("id") == "bob-1")["type"] == "ack"
    assert (r.status_code, r.json().get("error")) == (409, "game-over"), r.text
    with contextlib.closing(sqlite3.connect(srv.store.path)) as con:
        assert con.execute("SELECT token, holder, name FROM seats WHERE game = ? AND seat = 0",
                           (gid,)).fetchone() == (None, 1, "Ann")
        assert con.execute("SELECT status FROM games WHERE id = ?", (gid,)).fetchone() == (
            "over",)
    assert srv.http.get(f"/api/games/{gid}").json()["seats"][0]["taken"] is False
    bob.close()
