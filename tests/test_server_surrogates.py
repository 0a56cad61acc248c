"""Text that is not Unicode (a lone surrogate, `\\ud800`: valid JSON, but no UTF-8 encodes
it) is refused where it comes in, and the database's writer outlives a write it cannot
store (docs/server.md, "Security model" and "What is stored").

Such a join, move or create once reached the database, whose writer died of the
UnicodeEncodeError: the request and the game's lock waited for ever, the game froze for
everyone, and SIGTERM no longer stopped the server. Every wait here has a timeout, so a
hang fails."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
httpx = pytest.importorskip("httpx")

from artproject.server.store import Op  # noqa: E402
from tests.serving import Client, Running, running  # noqa: E402

JSON = {"Content-Type": "application/json"}
WAIT = 10.0  # seconds any answer may take here (a hang fails)


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[Running]:
    yield from running(tmp_path / "games.db")


def _post(srv: Running, path: str, raw: str) -> httpx.Response:
    """`raw` posted as it is (JSON text whose escapes json.dumps would not write)."""
    return srv.http.post(path, content=raw.encode(), headers=JSON, timeout=WAIT)


def _seated(srv: Running) -> tuple[str, list[Client]]:
    g = srv.create(game="kuhn", seats=["person", "person"])
    out = []
    for seat in ("p1", "p2"):
        c = Client(srv.ws_url, g["id"], {"type": "hello", "token": srv.join(g["id"], seat)})
        c.until(lambda m: m["type"] == "welcome", WAIT)
        out.append(c)
    return g["id"], out


def _mover(clients: list[Client]) -> tuple[Client, str]:
    """The client with a decision now and its first legal action."""
    for c in clients:
        c.drain()
    c = next(c for c in clients if c.frame is not None and c.frame["legal"])
    assert c.frame is not None
    return c, str(c.frame["legal"][0]["text"])


def _answer(c: Client, cid: str) -> dict[str, Any]:
    return c.until(lambda m: m.get("id") == cid and m["type"] in ("ack", "error"), WAIT)


def test_a_write_the_database_cannot_take_fails_alone(srv: Running,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails otherwise than in SQLite (a value it cannot encode) fails its own
    request with `storage`; the writes committed with it (other games') are stored, its
    game's lock is let go, and the writer goes on."""
    held, (c1, c2) = _seated(srv)  # its move holds the writer while the others queue
    bad, bad_clients = _seated(srv)
    good, good_clients = _seated(srv)
    gate = threading.Event()
    commit, write = srv.store._commit, srv.store.write
    entered: list[int] = []

    def gated(groups: Any) -> Any:
        entered.append(len(groups))
        while not gate.is_set():
            time.sleep(0.01)
        return commit(groups)

    async def poisoned(ops: list[Op]) -> None:
        if any(params and params[0] == bad for _, params in ops):
            ops = [*ops, ("SELECT ?", ("\ud800",))]  # no UTF-8 encodes it
        await write(ops)

    monkeypatch.setattr(srv.store, "_commit", gated)
    monkeypatch.setattr(srv.store, "write", poisoned)
    c, action = _mover([c1, c2])
    c.send({"type": "move", "id": "h", "action": action})
    _until(lambda: entered == [1])
    movers = [_mover(bad_clients), _mover(good_clients)]
    for i, (m, text) in enumerate(movers):
        m.send({"type": "move", "id": f"x{i}", "action": text})
    _until(lambda: len(srv.store._pending) == 2)
    gate.set()
    assert _answer(c, "h")["type"] == "ack"
    (m_bad, text_bad), (m_good, _) = movers
    refused = _answer(m_bad, "x0")
    assert refused["type"] == "error" and refused["code"] == "storage", refused
    assert _answer(m_good, "x1")["type"] == "ack"
    assert entered == [1, 2]  # the two were one batch
    assert len(srv.lobby.games[bad].state.history) == 0
    assert not srv.lobby.games[bad].lock.locked()
    monkeypatch.setattr(srv.store, "write", write)
    m_bad.send({"type": "move", "id": "x2", "action": text_bad})
    assert _answer(m_bad, "x2")["type"] == "ack"
    assert srv.store.rows("SELECT game, client FROM moves ORDER BY game, n") == sorted(
        [(held, "h"), (good, "x1"), (bad, "x2")])


def test_a_batch_whose_commit_fails_oddly_fails_its_requests_and_the_writer_goes_on(
        srv: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, clients = _seated(srv)
    commit = srv.store._commit
    failures = [RuntimeError("a bug in the writer")]

    def failing(groups: Any) -> Any:
        if failures:
            raise failures.pop()
        return commit(groups)

    monkeypatch.setattr(srv.store, "_commit", failing)
    c, action = _mover(clients)
    c.send({"type": "move", "id": "a", "action": action})
    assert _answer(c, "a")["code"] == "storage"
    assert not srv.lobby.games[gid].lock.locked()
    c.send({"type": "move", "id": "a", "action": action})
    assert _answer(c, "a")["type"] == "ack"


def _until(done: Any, wait: float = WAIT) -> None:
    end = time.monotonic() + wait
    while not done():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)
