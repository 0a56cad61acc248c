"""What the server's tests share: a real server (uvicorn, on a free loopback port, its
database a real SQLite file) run in a thread of the test, and a WebSocket client that keeps
every message it receives."""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from artproject.server import listen, make_server
from artproject.server.lobby import Lobby
from artproject.server.store import Store


class Running:
    """A server running in a thread: its URL, its lobby (for the tests' look inside)."""

    def __init__(self, db: Path, origins: tuple[str, ...] = (), port: int = 0) -> None:
        self.store = Store(db)
        self.lobby = Lobby(self.store)
        self.lobby.load()
        sock = listen("127.0.0.1", port)  # a port given: a server started again where it was
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.server = make_server(self.lobby, origins)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]},
                                       daemon=True)
        self.thread.start()
        for _ in range(500):
            if self.server.started:
                break
            time.sleep(0.01)
        self.http = httpx.Client(base_url=self.url, timeout=30)

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(30)
        self.store.close()

    def create(self, **body: Any) -> dict[str, Any]:
        r = self.http.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        return out

    def join(self, gid: str, seat: str | None, name: str = "") -> str:
        r = self.http.post(f"/api/games/{gid}/join", json={"seat": seat, "name": name})
        assert r.status_code == 200, r.text
        token: str = r.json()["token"]
        return token


def running(db: Path, origins: tuple[str, ...] = ()) -> Iterator[Running]:
    srv = Running(db, origins)
    try:
        yield srv
    finally:
        srv.stop()


class Client:
    """A play connection that keeps every message received (`got`) and the latest frame."""

    def __init__(self, ws_url: str, gid: str, hello: dict[str, Any] | bytes | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self._opened = connect(f"{ws_url}/ws/games/{gid}", open_timeout=30,
                               additional_headers=headers, max_size=2**24)
        self.ws: ClientConnection = self._opened.__enter__()
        self.got: list[dict[str, Any]] = []
        self.frame: dict[str, Any] | None = None
        self.n = 0
        if hello is not None:
            with contextlib.suppress(ConnectionClosed):  # a server that closes at once
                self.send(hello)

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.got.append(msg)
        if msg.get("type") in ("welcome", "state") and (
                self.frame is None or msg["version"] >= self.frame["version"]):
            self.frame = msg
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 30,
              ) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, end - time.monotonic()))
            if pred(msg):
                return msg

    def drain(self, wait: float = 0.02) -> None:
        while True:
            try:
                self.recv(wait)
            except TimeoutError:
                return

    def move(self, action: str, version: int | None = None) -> dict[str, Any]:
        """Send a move; its answer (the ack or the error)."""
        self.n += 1
        cid = f"m{self.n}"
        msg: dict[str, Any] = {"type": "move", "id": cid, "action": action}
        if version is not None:
            msg["version"] = version
        self.send(msg)
        return self.until(lambda m: m.get("id") == cid and m["type"] in ("ack", "error"))

    def close(self) -> None:
        self._opened.__exit__(None, None, None)


def play_out(clients: list[Client], seed: int, limit: int = 5000,
             guide: Callable[[], str] | None = None) -> dict[str, Any]:
    """Play a game to its end through `clients` (the persons' seats), each choosing a random
    action of its latest frame's `legal` (or the one `guide()` names, when a client may take
    it: a bot's choice, so that a game lasts); the bots play on the server. The last frame."""
    rng = random.Random(seed)
    idle = 0
    for _ in range(limit):
        for c in clients:
            c.drain(0.02 if idle < 10 else 0.2)
        over, movers = _movers(clients)
        if over is not None:
            return over
        if not movers:  # a bot thinks, or a frame is on its way
            idle += 1
            assert idle < 200, "no one has a decision"
            continue
        idle = 0
        c, text = _choose(movers, rng, guide() if guide is not None else None)
        assert c.frame is not None
        answer = c.move(text, c.frame["version"])
        assert answer["type"] == "ack" or answer["code"] in ("stale", "game-over"), answer
    raise AssertionError("the game did not end")


def _movers(clients: list[Client]) -> tuple[dict[str, Any] | None, list[Client]]:
    """The last frame if the game is over; the clients with a decision at the latest version."""
    frames = [c.frame for c in clients if c.frame is not None]
    over = [f for f in frames if f["view"]["outcome"] is not None]
    if over:
        return over[0], []
    top = max(f["version"] for f in frames)
    return None, [c for c in clients if c.frame is not None and c.frame["legal"]
                  and c.frame["version"] == top]


def _choose(movers: list[Client], rng: random.Random, want: str | None,
            ) -> tuple[Client, str]:
    """The guide's action if a mover may take it; else a random mover's random verb's action."""
    for c in movers:
        if c.frame is not None and any(a["text"] == want for a in c.frame["legal"]):
            assert want is not None
            return c, want
    c = rng.choice(movers)
    assert c.frame is not None
    legal = c.frame["legal"]
    verb = rng.choice(sorted({a["verb"] for a in legal}))
    return c, str(rng.choice([a for a in legal if a["verb"] == verb])["text"])
