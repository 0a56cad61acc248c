"""Text that is not Unicode (a lone surrogate, `\\ud800`: valid JSON, but no UTF-8 encodes
it) is refused where it comes in, and the database's writer outlives a write it cannot
store (docs/server.md, "Security model" and "What is stored").

Such a join, move or create once reached the database, whose writer died of the
UnicodeEncodeError: the request and the game's lock waited for ever, the game froze for
everyone, and SIGTERM no longer stopped the server. Every wait here has a timeout, so a
hang fails."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
httpx = pytest.importorskip("httpx")

from websockets.exceptions import ConnectionClosed  # noqa: E402

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


def test_a_lone_surrogate_in_a_lobby_body_is_refused_and_the_game_plays_on(
        srv: Running) -> None:
    g = srv.create(game="art-of-war", seats=["person", "person", "person"])
    gid = g["id"]
    tokens = [srv.join(gid, seat) for seat in ("p1", "p2", "p3")]
    a = Client(srv.ws_url, gid, {"type": "hello", "token": tokens[0]})
    a.until(lambda m: m["type"] == "welcome", WAIT)
    assert srv.http.post(f"/api/games/{gid}/leave", json={"token": tokens[2]}).status_code \
        == 200
    for path, raw in ((f"/api/games/{gid}/join", '{"name": "\\ud800"}'),
                      (f"/api/games/{gid}/join", '{"seat": "p3", "name": "x\\udfffy"}'),
                      (f"/api/games/{gid}/leave", '{"token": "\\udc80"}'),
                      ("/api/games", '{"game": "kuhn", "seats": ["person", "person"], '
                                     '"name": "\\ud800"}'),
                      ("/api/games", '{"game": "kuhn", "seats": ["person", "person"], '
                                     '"\\ud800": 1}')):
        r = _post(srv, path, raw)
        assert r.status_code == 400 and r.json()["error"] == "bad-message", (raw, r.text)
        assert "surrogate" in r.json()["message"]
    live = srv.lobby.games[gid]
    assert not live.lock.locked() and live.seats[2].token is None
    assert len(srv.lobby.games) == 1  # no game made
    # the game plays on: a move, an honest join, a create
    a.drain()
    assert a.frame is not None
    ack = a.move(a.frame["legal"][0]["text"], a.frame["version"])
    assert ack["type"] == "ack", ack
    r = srv.http.post(f"/api/games/{gid}/join", json={"name": "dee \U0001f600"}, timeout=WAIT)
    assert r.status_code == 200 and r.json()["seat"] == "p3", r.text
    assert srv.http.get(f"/api/games/{gid}").json()["seats"][2]["name"] == "dee \U0001f600"
    r = _post(srv, "/api/games", '{"game": "kuhn", "seats": ["person", "person"], '
                                 '"name": "\\ud83d\\ude00"}')  # a pair: one character
    assert r.status_code == 201 and r.json()["name"] == "\U0001f600", r.text


def test_a_lone_surrogate_in_a_message_is_refused_and_the_game_plays_on(
        srv: Running) -> None:
    gid, clients = _seated(srv)
    live = srv.lobby.games[gid]
    c, action = _mover(clients)
    for raw in ('{"type": "move", "id": "\\udfff", "action": "' + action + '"}',
                '{"type": "move", "id": "m1", "action": "' + action + '\\ud800"}',
                '{"type": "ping", "pad": "\\ud800"}'):
        c.send(raw)
        err = c.until(lambda m: m["type"] == "error", WAIT)
        assert err["code"] == "bad-message" and "surrogate" in err["message"], err
        assert "id" not in err
    assert len(live.state.history) == 0 and not live.lock.locked()
    other = next(x for x in clients if x is not c)
    other.send({"type": "ping"})
    assert other.until(lambda m: m["type"] == "pong", WAIT)
    c.send({"type": "move", "id": "m2", "action": action})
    assert _answer(c, "m2")["type"] == "ack"
    # a hello that is not text is refused, and closes that connection only
    bad = Client(srv.ws_url, gid, '{"type": "hello", "token": "\\ud800"}')
    assert bad.until(lambda m: m["type"] == "error", WAIT)["code"] == "bad-message"
    with pytest.raises(ConnectionClosed) as closed:
        bad.recv(WAIT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
    r = srv.http.post(f"/api/games/{gid}/leave", json={"token": "nobody's"}, timeout=WAIT)
    assert r.status_code == 403


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


def test_the_server_stops_on_sigterm_after_a_lone_surrogate(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "artproject", "serve", "--port", "0", "--db",
         str(tmp_path / "games.db")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().split()[2]
        with httpx.Client(base_url=url, timeout=WAIT) as http:
            gid = http.post("/api/games", json={"game": "kuhn",
                                                "seats": ["person", "person"]}).json()["id"]
            r = http.post(f"/api/games/{gid}/join", content=b'{"name": "\\ud800"}',
                          headers=JSON)
            assert r.status_code == 400, r.text
            assert http.post(f"/api/games/{gid}/join", json={}).status_code == 200
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(WAIT * 3) == -signal.SIGTERM
        assert proc.stderr is not None and "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
