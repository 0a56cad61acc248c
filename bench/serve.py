"""The game server under load: N concurrent games, M WebSocket clients on loopback.

Starts `artproject serve` as a process of its own (its database a fresh file), creates N
Art of War games (two people's seats each while clients last, then one person beside a
heuristic bot), and runs M scripted clients in this process: each joins its seat, and when
it has a decision waits a think time, sends a random legal action and times it until the
`state` frame announcing that very move arrives. A few moves are sent twice (the same id)
to check a resend is applied once. After `--seconds` the clients stop choosing, every move
in flight is answered, the server is stopped, and the database is read: every move a client
was told was stored must be there exactly once, and nothing else from a client.

    nice -n 10 python bench/serve.py --games 500 --clients 1000 --seconds 30

prints moves per second, p50/p99/max from a move sent to its announcement, the server's CPU
use, and the lost and doubled moves (both must be 0). docs/performance.md has the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


def cpu_seconds(pid: int) -> float:
    """A process's user + system CPU time so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Tally:
    def __init__(self) -> None:
        self.latency: list[float] = []
        self.at: list[float] = []  # when each timed move was sent
        self.acked: dict[tuple[str, str], int] = {}  # (game, client id) -> version
        self.resends = 0
        self.duplicates = 0
        self.answered: set[tuple[str, str]] = set()  # (game, client id) acked as a duplicate
        self.errors: dict[str, int] = {}
        self.stop = False
        self.began = time.perf_counter()
        self.setup = 0.0  # seconds to create the games and join them
        self.play = 0.0  # when the clients began
        self.played = 0.0  # seconds from then until the last client stopped
        self.server_cpu = 0.0  # the server's CPU seconds over that time
        self.client_cpu = 0.0  # this process's CPU seconds while the clients played


async def player(url: str, gid: str, token: str, seat: str, t: Tally, think: float,
                 rng: random.Random) -> None:
    """One person's client: hello, then a move whenever it decides (after thinking), until
    the game ends or it is told to stop (and has no move in flight)."""
    async with connect(f"{url}/ws/games/{gid}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent: dict[str, tuple[int, float]] = {}  # id -> (version chosen at, time sent)
        n, due = 0, 0.0
        frame: dict[str, Any] | None = None
        resent: set[tuple[str, str]] = set()
        while not (t.stop and not sent):
            deciding = frame is not None and bool(frame["legal"]) and not sent
            wait = max(0.0, due - time.perf_counter()) if deciding else 0.5
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), wait))
            except TimeoutError:
                msg = None
            if msg is not None:
                if see(msg, seat, gid, sent, t):
                    await drain(ws, seat, gid, sent, t, resent)
                    return
                if msg["type"] in ("welcome", "state"):
                    frame = msg
                    due = time.perf_counter() + think * rng.uniform(0.5, 1.5)
                continue
            if t.stop or not deciding or frame is None:
                continue
            n += 1
            cid = f"{seat}-{n}"
            move = {"type": "move", "id": cid, "action": rng.choice(frame["legal"])["text"],
                    "version": frame["version"]}
            sent[cid] = (frame["version"], time.perf_counter())
            await ws.send(json.dumps(move))
            if rng.random() < 0.01:  # a resend: must be answered as a duplicate
                t.resends += 1
                resent.add((gid, cid))
                await ws.send(json.dumps(move))
        await drain(ws, seat, gid, sent, t, resent)


async def drain(ws: Any, seat: str, gid: str, sent: dict[str, tuple[int, float]], t: Tally,
                resent: set[tuple[str, str]]) -> None:
    """Read on until each of this client's resends has its answer (5 s at most): a resend
    of a game's last move is answered after the frame that ends the game."""
    end = time.perf_counter() + 5.0
    while resent - t.answered and (left := end - time.perf_counter()) > 0:
        try:
            msg = json.loads(await asyncio.wait_for(ws.recv(), left))
        except (TimeoutError, ConnectionClosed):
            return
        see(msg, seat, gid, sent, t)


def see(msg: dict[str, Any], seat: str, gid: str, sent: dict[str, tuple[int, float]],
        t: Tally) -> bool:
    """Take in one message; True when the game is over."""
    kind = msg["type"]
    if kind in ("welcome", "state"):
        last = msg.get("last")
        if last and last["seat"] == seat:
            for cid, (v, t0) in list(sent.items()):
                if v == msg["version"] - 1:  # the announcement of our own move
                    t.latency.append(time.perf_counter() - t0)
                    t.at.append(t0)
                    del sent[cid]
        return msg["view"]["outcome"] is not None
    if kind == "ack":
        t.acked[gid, msg["id"]] = msg["version"]
        t.duplicates += msg["duplicate"]
        if msg["duplicate"]:
            t.answered.add((gid, msg["id"]))
    elif kind == "error":
        t.errors[msg["code"]] = t.errors.get(msg["code"], 0) + 1
        sent.pop(msg.get("id", ""), None)
    return False


async def run(args: argparse.Namespace, url: str, ws_url: str, pid: int,
              ) -> tuple[Tally, list[str]]:
    t = Tally()
    rng = random.Random(args.seed)
    seats: list[tuple[str, str, str]] = []
    plan, left = [], args.clients
    for i in range(args.games):
        later = args.games - i - 1  # games still to seat, a person each
        people = max(0, min(2 if left - 2 >= later else 1, left))
        plan.append(people)
        left -= people

    async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> Any:
        for tries in range(3):  # a kept-alive connection the server closed meanwhile
            try:
                return (await http.post(path, json=body)).json()
            except httpx.TransportError:
                if tries == 2:
                    raise
        return None

    async def make(http: httpx.AsyncClient, people: int) -> str:
        spec = ["person"] * people + ["bot:heuristic"] * (2 - people)
        g = await post(http, "/api/games", {"game": "art-of-war", "seats": spec})
        for s in ("p1", "p2")[:people]:
            r = await post(http, f"/api/games/{g['id']}/join", {"seat": s})
            seats.append((g["id"], r["token"], s))
        return str(g["id"])

    async with httpx.AsyncClient(base_url=url, timeout=120,
                                 limits=httpx.Limits(max_connections=32)) as http:
        games = list(await asyncio.gather(*(make(http, p) for p in plan)))
    t.setup = time.perf_counter() - t.began
    client0 = time.process_time()
    t.play = time.perf_counter()
    t.server_cpu = cpu_seconds(pid)
    tasks = [asyncio.create_task(player(ws_url, gid, tok, s, t, args.think,
                                        random.Random(rng.random())))
             for gid, tok, s in seats]
    await asyncio.sleep(args.seconds)
    t.stop = True
    await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 120)
    t.client_cpu = time.process_time() - client0
    t.server_cpu = cpu_seconds(pid) - t.server_cpu
    t.played = time.perf_counter() - t.play
    return t, games


def check(db: Path, t: Tally) -> tuple[int, int, int]:
    """(moves stored, lost: acked but not stored once, doubled: a client id stored twice)."""
    con = sqlite3.connect(db)
    rows = con.execute("SELECT game, client, n FROM moves WHERE client IS NOT NULL").fetchall()
    total = con.execute("SELECT count(*) FROM moves").fetchone()[0]
    con.close()
    stored: dict[tuple[str, str], list[int]] = {}
    for gid, cid, n in rows:
        stored.setdefault((gid, cid), []).append(n)
    lost = sum(1 for k, v in t.acked.items() if stored.get(k) != [v])
    doubled = sum(1 for v in stored.values() if len(v) > 1)
    unacked = sum(1 for k in stored if k not in t.acked)
    return total, lost + unacked, doubled


def commit_ms(folder: Path, n: int = 50) -> float:
    """The median time of one committed transaction (WAL, synchronous=FULL) in `folder`: the
    floor of a move's path, this machine's disk flush, measured in the same run."""
    con = sqlite3.connect(folder / "peer.db", isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=FULL")
    con.execute("CREATE TABLE t (x)")
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        con.execute("BEGIN")
        con.execute("INSERT INTO t VALUES (?)", (i,))
        con.execute("COMMIT")
        times.append(time.perf_counter() - t0)
    con.close()
    for p in folder.glob("peer.db*"):
        p.unlink()
    return 1000 * statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=20.0, help="how long the clients play")
    ap.add_argument("--think", type=float, default=1.0,
                    help="seconds a client thinks before each move")
    ap.add_argument("--warmup", type=float, default=5.0,
                    help="seconds at the start left out of the second latency figures")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not 1 <= args.games <= 2000 or not 1 <= args.clients <= 4000 or args.seconds > 600:
        ap.error("at most 2000 games, 4000 clients, 600 seconds")
    folder = Path(tempfile.mkdtemp(prefix="artproject-bench-"))
    db = folder / "bench.db"
    flush = commit_ms(folder)
    proc = subprocess.Popen([sys.executable, "-m", "artproject", "serve", "--port", "0",
                             "--db", str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        port = int(line.split(":")[3].split()[0])
        cpu0, t0 = cpu_seconds(proc.pid), time.perf_counter()
        tally, games = asyncio.run(run(args, f"http://127.0.0.1:{port}",
                                       f"ws://127.0.0.1:{port}", proc.pid))
        wall, cpu = time.perf_counter() - t0, cpu_seconds(proc.pid) - cpu0
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(120)
    total, lost, doubled = check(db, tally)
    lat = sorted(tally.latency)
    q = statistics.quantiles(lat, n=100) if len(lat) >= 2 else [0.0] * 99
    settled = sorted(x for x, t0 in zip(tally.latency, tally.at, strict=True)
                     if t0 >= tally.play + args.warmup)
    qs = statistics.quantiles(settled, n=100) if len(settled) >= 2 else [0.0] * 99
    print(f"{len(games)} games, {args.clients} clients, {args.seconds:.0f} s of play "
          f"(think {args.think} s), {wall:.1f} s in all ({tally.setup:.1f} s to create and "
          "join the games)")
    print(f"moves stored {total} ({total / wall:.0f}/s); client moves timed {len(lat)} "
          f"({len(lat) / args.seconds:.0f}/s)")
    print(f"move -> announcement: p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms, "
          f"max {lat[-1] * 1000 if lat else 0:.1f} ms; after the first {args.warmup:.0f} s "
          f"(every game's first decision at once): p50 {qs[49] * 1000:.1f} ms, "
          f"p99 {qs[98] * 1000:.1f} ms")
    print(f"one SQLite commit alone (WAL, synchronous=FULL, same disk, same run): {flush:.1f} "
          f"ms; p50 = {q[49] * 1000 / flush:.1f} of them")
    print(f"server CPU {cpu:.1f} s over {wall:.1f} s ({100 * cpu / wall:.0f}% of a core); "
          f"while the clients played {tally.server_cpu:.1f} s over {tally.played:.1f} s, "
          f"{1000 * tally.server_cpu / max(1, len(lat)):.2f} ms a move; "
          f"clients' CPU {tally.client_cpu:.1f} s; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    print(f"resends {tally.resends}, answered as duplicates {tally.duplicates}; errors "
          f"{tally.errors or 'none'}")
    print(f"lost {lost}, doubled {doubled}")
    for p in folder.iterdir():
        p.unlink()
    folder.rmdir()
    return 0 if lost == 0 and doubled == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
