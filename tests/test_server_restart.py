"""A SIGKILL loses nothing: `artproject serve` as a real process, killed with kill -9 in the
middle of games and started again on the same database; and Ctrl-C stops it cleanly."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
httpx = pytest.importorskip("httpx")

from tests.serving import Client, play_out  # noqa: E402


class Process:
    """`artproject serve --port 0` in a process of its own."""

    def __init__(self, db: Path, sigint_ignored: bool = False) -> None:
        # sigint_ignored: started as `nohup` or a script's `command &` start it
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "artproject", "serve", "--port", "0", "--db", str(db)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=db.parent,
            preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
            if sigint_ignored else None)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.startswith("artproject serve: http://127.0.0.1:"), (
            line, self.proc.stderr.read() if self.proc.stderr else "")
        self.port = int(line.split(":")[3].split()[0])
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.http = httpx.Client(base_url=self.url, timeout=30)

    def kill(self, sig: int) -> int:
        self.http.close()
        self.proc.send_signal(sig)
        return self.proc.wait(60)


@pytest.fixture
def procs() -> Iterator[list[Process]]:
    made: list[Process] = []
    yield made
    for p in made:
        if p.proc.poll() is None:
            p.proc.kill()
            p.proc.wait(30)


Key = tuple[str, str]  # (game, seat)


def _games(p: Process) -> tuple[list[dict[str, Any]], dict[Key, str]]:
    """Three games: two people at Art of War, a person and a bot at A.R.T., three bots."""
    bodies = [{"game": "art-of-war", "seats": ["person", "person"]},
              {"game": "art-project", "board": "rio", "seats": ["person", "bot:heuristic"]},
              {"game": "art-of-war", "seats": ["bot:heuristic", "bot:random", "bot:heuristic"]}]
    games = [p.http.post("/api/games", json=b).json() for b in bodies]
    war, art = games[0]["id"], games[1]["id"]
    tokens = {(g, s): p.http.post(f"/api/games/{g}/join", json={"seat": s}).json()["token"]
              for g, s in ((war, "p1"), (war, "p2"), (art, "p1"))}
    return games, tokens


def _connect(p: Process, tokens: dict[Key, str]) -> dict[Key, Client]:
    out = {k: Client(p.ws_url, k[0], {"type": "hello", "token": t}) for k, t in tokens.items()}
    for c in out.values():
        c.until(lambda m: m["type"] == "welcome")
    return out


def _some_moves(clients: dict[Key, Client], n: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(n):
        for c in clients.values():
            c.drain()
        movers = [c for c in clients.values() if c.frame and c.frame["legal"]
                  and c.frame["view"]["outcome"] is None]
        if movers:
            c = rng.choice(movers)
            assert c.frame is not None
            c.move(rng.choice(c.frame["legal"])["text"], c.frame["version"])
    for c in clients.values():
        c.drain(0.1)


def _resumed(old: dict[str, Any], new: dict[str, Any], moving: bool) -> None:
    """A game's welcome after the restart against its last frame before the kill."""
    if moving:  # its in-flight move may have been stored, or a bot may have moved on
        assert new["version"] >= old["version"]
    else:
        assert new["version"] == old["version"]
        assert new["view"] == old["view"] and new["legal"] == old["legal"]
    at = old["events_from"]
    assert new["events"][at: at + len(old["events"])] == old["events"]


def _resent(c: Client, pending: dict[str, Any], old: dict[str, Any] | None,
            welcome: dict[str, Any], people_only: bool) -> None:
    """The move in flight at the kill, sent again with its id: applied once."""
    c.send(pending)
    answer = c.until(lambda m: m.get("id") == "in-flight")
    assert old is not None
    if welcome["version"] == old["version"] + 1 and people_only:
        assert answer == {"type": "ack", "id": "in-flight", "version": old["version"] + 1,
                          "duplicate": True}  # stored before the kill: not applied again
    else:
        assert answer["type"] == "ack" or answer["code"] in ("stale", "illegal")


def _stored_once(db: Path, games: list[str]) -> None:
    con = sqlite3.connect(db)
    for gid in games:
        ns = [n for (n,) in con.execute("SELECT n FROM moves WHERE game = ? ORDER BY n",
                                        (gid,))]
        assert ns == list(range(1, len(ns) + 1))
        assert con.execute("SELECT count(*) FROM moves WHERE game = ? AND client = "
                           "'in-flight'", (gid,)).fetchone()[0] <= 1
    assert con.execute("SELECT count(*) FROM games WHERE status != 'over'").fetchone() == (0,)
    con.close()


def test_a_sigkill_mid_game_loses_no_move_and_applies_none_twice(
        tmp_path: Path, procs: list[Process]) -> None:
    db = tmp_path / "games.db"
    first = Process(db)
    procs.append(first)
    games, tokens = _games(first)
    clients = _connect(first, tokens)
    _some_moves(clients, 12, seed=3)
    before = {k: c.frame for k, c in clients.items()}
    # one more move sent, and the server killed before its answer is read
    k, c = next((k, c) for k, c in clients.items() if c.frame and c.frame["legal"])
    assert c.frame is not None
    pending = {"type": "move", "id": "in-flight", "action": c.frame["legal"][0]["text"]}
    c.send(pending)
    assert first.kill(signal.SIGKILL) == -signal.SIGKILL

    second = Process(db)
    procs.append(second)
    again = {k2: Client(second.ws_url, k2[0], {"type": "hello", "token": t})
             for k2, t in tokens.items()}
    welcomes = {k2: c2.until(lambda m: m["type"] == "welcome") for k2, c2 in again.items()}
    for k2, w in welcomes.items():
        old = before[k2]
        assert old is not None
        # the in-flight move's game may have moved on for every seat in it (the kill may come
        # after it was stored, on a loaded machine), and the game with a bot may have too
        _resumed(old, w, k2[0] == k[0] or k2[0] == games[1]["id"])
    _resent(again[k], pending, before[k], welcomes[k], k[0] == games[0]["id"])
    # the games play on to their ends
    war, art = games[0]["id"], games[1]["id"]
    play_out([again[(war, "p1")], again[(war, "p2")]], seed=4)
    play_out([again[(art, "p1")]], seed=5)
    spy = Client(second.ws_url, games[2]["id"], {"type": "hello", "spectate": True})
    spy.until(lambda m: m.get("view", {}).get("outcome") is not None, 120)
    for c2 in [*again.values(), spy]:
        c2.close()
    assert second.kill(signal.SIGINT) == 130
    _stored_once(db, [g["id"] for g in games])


def _watched(p: Process) -> tuple[dict[str, Any], Client]:
    """A new two-person Art of War game on the server, and a spectator welcomed to it."""
    g = p.http.post("/api/games", json={"game": "art-of-war",
                                        "seats": ["person", "person"]}).json()
    c = Client(p.ws_url, g["id"], {"type": "hello", "spectate": True})
    c.until(lambda m: m["type"] == "welcome")
    return g, c


def test_ctrl_c_closes_the_connections_and_exits_130(tmp_path: Path,
                                                    procs: list[Process]) -> None:
    p = Process(tmp_path / "games.db")
    procs.append(p)
    _, c = _watched(p)
    p.proc.send_signal(signal.SIGINT)
    from websockets.exceptions import ConnectionClosed

    with pytest.raises(ConnectionClosed) as closed:
        c.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012, closed.value.rcvd
    assert p.proc.wait(60) == 130
    assert p.proc.stderr is not None
    err = p.proc.stderr.read()
    assert "Traceback" not in err and "interrupted" in err
    assert sorted(os.listdir(tmp_path)) == ["games.db", "games.db-shm", "games.db-wal"] or \
        sorted(os.listdir(tmp_path)) == ["games.db"]


def test_a_server_started_with_ctrl_c_ignored_keeps_ignoring_it(tmp_path: Path,
                                                                procs: list[Process]) -> None:
    """`nohup artproject serve &` ignores SIGINT, as Python and the other commands do
    (uvicorn took it over: it stopped on a Ctrl-C meant for others and exited 0, and a test
    suite started that way saw its servers exit 0 instead of 130); SIGTERM stops it."""
    p = Process(tmp_path / "games.db", sigint_ignored=True)
    procs.append(p)
    g, c = _watched(p)
    p.proc.send_signal(signal.SIGINT)
    with pytest.raises(subprocess.TimeoutExpired):
        p.proc.wait(1.5)
    assert p.http.get(f"/api/games/{g['id']}").status_code == 200  # serving still
    c.close()
    assert p.kill(signal.SIGTERM) == -signal.SIGTERM
    assert p.proc.stderr is not None
    assert "Traceback" not in p.proc.stderr.read()
