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

import httpx
import pytest

pytest.importorskip("uvicorn")

from tests.serving import Client, play_out  # noqa: E402


class Process:
    """`artproject serve --port 0` in a process of its own."""

    def __init__(self, db: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "artproject", "serve", "--port", "0", "--db", str(db)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=db.parent)
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


def test_a_sigkill_mid_game_loses_no_move_and_applies_none_twice(
        tmp_path: Path, procs: list[Process]) -> None:
    db = tmp_path / "games.db"
    first = Process(db)
    procs.append(first)
    war = first.http.post("/api/games", json={"game": "art-of-war",
                                              "seats": ["person", "person"]}).json()
    art = first.http.post("/api/games", json={"game": "art-project", "board": "rio",
                                              "seats": ["person", "bot:heuristic"]}).json()
    bots = first.http.post("/api/games", json={"game": "art-of-war", "seats": [
        "bot:heuristic", "bot:random", "bot:heuristic"]}).json()
    tokens = {(g["id"], s): first.http.post(f"/api/games/{g['id']}/join",
                                            json={"seat": s}).json()["token"]
              for g, s in ((war, "p1"), (war, "p2"), (art, "p1"))}
    clients = {k: Client(first.ws_url, k[0], {"type": "hello", "token": t})
               for k, t in tokens.items()}
    for c in clients.values():
        c.until(lambda m: m["type"] == "welcome")
    # some moves in each game, every one acknowledged
    rng = random.Random(3)
    for _ in range(12):
        for c in clients.values():
            c.drain()
        movers = [c for c in clients.values() if c.frame and c.frame["legal"]
                  and c.frame["view"]["outcome"] is None]
        if not movers:
            continue
        c = rng.choice(movers)
        assert c.frame is not None
        c.move(rng.choice(c.frame["legal"])["text"], c.frame["version"])
    for c in clients.values():
        c.drain(0.1)
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
    welcomes = {}
    for k2, c2 in again.items():
        w = welcomes[k2] = c2.until(lambda m: m["type"] == "welcome")
        old = before[k2]
        assert old is not None
        if k2 == k:
            assert w["version"] in (old["version"], old["version"] + 1)
        elif k2[0] != art["id"]:  # (a game whose bot plays on may have moved on)
            assert w["version"] == old["version"]
            assert w["view"] == old["view"] and w["legal"] == old["legal"]
        assert w["events"][: len(old["events"]) + old["events_from"]][
            old["events_from"]:] == old["events"]
    # the move in flight, sent again with its id: applied once, whatever the kill did
    again[k].send(pending)
    answer = again[k].until(lambda m: m.get("id") == "in-flight")
    old = before[k]
    assert old is not None
    if welcomes[k]["version"] == old["version"] + 1:  # stored before the kill: not again
        assert answer == {"type": "ack", "id": "in-flight", "version": old["version"] + 1,
                          "duplicate": True}
    else:
        assert answer["type"] == "ack" or answer["code"] in ("stale", "illegal")
    # the games play on to their ends
    play_out([again[(war["id"], "p1")], again[(war["id"], "p2")]], seed=4)
    play_out([again[(art["id"], "p1")]], seed=5)
    spy = Client(second.ws_url, bots["id"], {"type": "hello", "spectate": True})
    spy.until(lambda m: m.get("view", {}).get("outcome") is not None, 120)
    for c2 in [*again.values(), spy]:
        c2.close()
    assert second.kill(signal.SIGINT) == 130
    con = sqlite3.connect(db)
    for gid in (war["id"], art["id"], bots["id"]):
        ns = [n for (n,) in con.execute("SELECT n FROM moves WHERE game = ? ORDER BY n",
                                        (gid,))]
        assert ns == list(range(1, len(ns) + 1))
        ids = [x for (x,) in con.execute("SELECT client FROM moves WHERE game = ? AND "
                                         "client = 'in-flight'", (gid,))]
        assert len(ids) <= 1
    assert con.execute("SELECT count(*) FROM games WHERE status != 'over'").fetchone() == (0,)
    con.close()


def test_ctrl_c_closes_the_connections_and_exits_130(tmp_path: Path,
                                                    procs: list[Process]) -> None:
    p = Process(tmp_path / "games.db")
    procs.append(p)
    g = p.http.post("/api/games", json={"game": "art-of-war",
                                        "seats": ["person", "person"]}).json()
    c = Client(p.ws_url, g["id"], {"type": "hello", "spectate": True})
    c.until(lambda m: m["type"] == "welcome")
    p.proc.send_signal(signal.SIGINT)
    from websockets.exceptions import ConnectionClosed

    with pytest.raises(ConnectionClosed) as closed:
        c.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code in (1001, 1012)
    assert p.proc.wait(60) == 130
    assert p.proc.stderr is not None
    err = p.proc.stderr.read()
    assert "Traceback" not in err and "interrupted" in err
    assert sorted(os.listdir(tmp_path)) == ["games.db", "games.db-shm", "games.db-wal"] or \
        sorted(os.listdir(tmp_path)) == ["games.db"]
