"""Hostile clients and bad input (docs/server.md, "Security model"): each answered with a
JSON error or a close, never a traceback, never a change to a game; everyone else served."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytest.importorskip("httpx")

from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.serving import Client, Running, running


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[Running]:
    yield from running(tmp_path / "games.db", ("https://games.example.org",))


def _seated(srv: Running, game: str = "art-of-war", **more: Any) -> tuple[str, list[Client]]:
    g = srv.create(game=game, seats=["person", "person"], **more)
    out = []
    for seat in ("p1", "p2"):
        c = Client(srv.ws_url, g["id"], {"type": "hello", "token": srv.join(g["id"], seat)})
        c.until(lambda m: m["type"] == "welcome")
        out.append(c)
    return g["id"], out


def _closed(c: Client) -> int:
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            c.recv(10)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


def _error(c: Client, msg: Any) -> dict[str, Any]:
    c.send(msg)
    return c.until(lambda m: m["type"] == "error")


def test_bad_messages_are_answered_and_the_connection_stays(srv: Running) -> None:
    gid, (c1, _c2) = _seated(srv)
    v = srv.lobby.games[gid].state.history.copy()
    assert _error(c1, "{not json")["code"] == "bad-json"
    assert _error(c1, "[1, 2]")["code"] == "bad-json"
    assert _error(c1, {"type": "dance"})["code"] == "unknown-type"
    assert _error(c1, {"type": "move", "action": "draw p1"})["code"] == "bad-message"
    assert _error(c1, {"type": "move", "id": "x" * 65, "action": "d"})["code"] == "bad-message"
    assert _error(c1, {"type": "move", "id": "a", "action": 7})["code"] == "bad-message"
    assert _error(c1, {"type": "move", "id": "a", "action": "draw p1",
                       "version": "one"})["code"] == "bad-message"
    assert _error(c1, json.dumps({"type": "ping", "pad": "x" * 5000}))["code"] == "too-large"
    assert _error(c1, "[" * 2000 + "]" * 2000)["code"] == "bad-json"  # deeply nested
    assert _error(c1, b"\x00\x01binary")["code"] == "bad-json"
    c1.send({"type": "ping"})
    assert c1.until(lambda m: m["type"] == "pong")
    assert srv.lobby.games[gid].state.history == v


def test_moves_that_are_not_the_seats_are_refused_with_the_reason(srv: Running) -> None:
    gid, (c1, c2) = _seated(srv)
    live = srv.lobby.games[gid]
    before = live.state.fingerprint()
    assert c1.move("bogus p1")["code"] == "malformed"
    assert c1.move("draw p2")["code"] == "foreign"
    for text in ("draw p7", "draw p9", "draw p3"):  # (this game's players, not the most)
        r = c1.move(text)
        assert (r["code"], r["message"]) == ("malformed", f"'{text}': '{text[-2:]}' is not a "
                                             "player; expected p1..p2"), r
    for text in ("challenge p1 foo", "take foo"):  # (a word in a player's place too)
        r = c1.move(text)
        assert (r["code"], r["message"]) == ("malformed", f"'{text}': 'foo' is not a "
                                             "player; expected p1..p2"), r
    assert c2.move("draw p2")["code"] == "illegal"  # p1 decides first
    r = c1.move("bet p1 99")
    assert r["code"] == "illegal", r
    assert r["message"].endswith("you may: draw p1, take p1, challenge p1 p2"), r
    assert c1.move("draw p1", version=5)["code"] == "stale"
    spy = Client(srv.ws_url, gid, {"type": "hello", "spectate": True})
    spy.until(lambda m: m["type"] == "welcome")
    assert spy.move("draw p1")["code"] == "spectator"
    assert live.state.fingerprint() == before
    ok = c1.move("draw p1", version=0)
    assert ok == {"type": "ack", "id": ok["id"], "version": 1, "duplicate": False}
    c1.send({"type": "move", "id": ok["id"], "action": "draw p1"})  # a resend: applied once
    again = c1.until(lambda m: m["type"] == "ack" and m["duplicate"])
    assert again["version"] == 1 and len(live.state.history) == 1


def test_a_refusal_never_names_another_seats_cards(srv: Running) -> None:
    gid, (c1, _c2) = _seated(srv, "art-project", board="japan")
    c1.move("done")  # the boundary before the mission phase: the team's (p1's)
    c1.drain(0.1)
    theirs = srv.lobby.games[gid].state.hands[1]
    for card in (*theirs, 999):
        r = c1.move(f"play p2 {card}")
        assert r["code"] == "foreign"
        r = c1.move(f"play p1 {card}")
        assert r["code"] == "illegal" and f"card {card} is not in p1's hand" in r["message"]
        assert "p2" not in r["message"], r


def test_tokens_and_hellos(srv: Running) -> None:
    g = srv.create(game="art-of-war", seats=["person", "person"])
    c = Client(srv.ws_url, g["id"], {"type": "hello", "token": "not-a-token"})
    assert c.recv()["code"] == "bad-token" and _closed(c) == 4401
    c = Client(srv.ws_url, g["id"], {"type": "hello"})
    assert c.recv()["code"] == "bad-token" and _closed(c) == 4401
    c = Client(srv.ws_url, g["id"], {"type": "ping"})
    assert c.recv()["code"] == "hello-first" and _closed(c) == 4400
    c = Client(srv.ws_url, g["id"], b"\x00hello")
    assert c.recv()["code"] == "hello-first" and _closed(c) == 4400
    token = srv.join(g["id"], "p1")
    c = Client(srv.ws_url, g["id"], {"type": "hello", "token": token})
    c.until(lambda m: m["type"] == "welcome")
    c.send({"type": "hello", "token": token})
    assert c.until(lambda m: m["type"] == "error")["code"] == "hello-first"
    assert _closed(c) == 4400
    c = Client(srv.ws_url, "no-such-game", {"type": "hello", "spectate": True})
    assert c.recv()["code"] == "no-such-game" and _closed(c) == 4404
    # a token is a seat of its own game only
    other = srv.create(game="art-of-war", seats=["person", "person"])
    c = Client(srv.ws_url, other["id"], {"type": "hello", "token": token})
    assert c.recv()["code"] == "bad-token"
    # leave: the token stops working, the seat is open again
    r = srv.http.post(f"/api/games/{g['id']}/leave", json={"token": token})
    assert r.json() == {"left": "p1"}
    c = Client(srv.ws_url, g["id"], {"type": "hello", "token": token})
    assert c.recv()["code"] == "bad-token"
    assert srv.join(g["id"], "p1") != token


def test_a_page_of_another_origin_is_refused(srv: Running) -> None:
    g = srv.create(game="art-of-war", seats=["person", "person"])
    with pytest.raises((InvalidStatus, ConnectionClosed)):
        c = Client(srv.ws_url, g["id"], {"type": "hello", "spectate": True},
                   headers={"Origin": "http://evil.example"})
        c.recv()
    for origin in (srv.url, "https://games.example.org"):
        c = Client(srv.ws_url, g["id"], {"type": "hello", "spectate": True},
                   headers={"Origin": origin})
        assert c.recv()["type"] == "welcome"
    r = srv.http.post("/api/games", json={"game": "art-of-war", "seats": ["person"] * 2},
                      headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and r.json()["error"] == "origin"


def test_a_flood_is_limited_then_closed_and_others_are_served(srv: Running) -> None:
    _gid, (c1, c2) = _seated(srv)
    for _ in range(400):
        try:
            c1.send({"type": "ping"})
        except ConnectionClosed:
            break
    codes = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            m = c1.recv(10)
            codes.append(m.get("code"))
    assert "rate-limited" in codes and closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4429
    c2.send({"type": "ping"})
    assert c2.until(lambda m: m["type"] == "pong")


def test_a_message_too_large_for_the_protocol_closes_the_connection(srv: Running) -> None:
    _gid, (c1, c2) = _seated(srv)
    c1.send("x" * 20000)
    assert _closed(c1) == 1009
    c2.send({"type": "ping"})
    assert c2.until(lambda m: m["type"] == "pong")


def test_the_lobby_answers_bad_requests_in_json(srv: Running) -> None:
    post = srv.http.post
    assert post("/api/games", content=b"{}").status_code == 415
    r = post("/api/games", content=b"{oops", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad-json"
    r = post("/api/games", content=b" " * 5000, headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    for body, code in (({"game": "chess"}, "bad-game"),
                       ({"game": "art-of-war", "seats": ["person"]}, "bad-option"),
                       ({"game": "art-of-war", "seats": ["person", "bot:genius"]}, "bad-option"),
                       ({"game": "art-project", "board": "mars", "seats": ["person"]},
                        "bad-option"),
                       ({"game": "art-project", "seats": ["person"], "variants": ["nope"]},
                        "bad-option")):
        r = post("/api/games", json=body)
        assert r.status_code == 400 and r.json()["error"] == code, (body, r.text)
    assert srv.http.get("/api/games/nope").json()["error"] == "no-such-game"
    assert srv.http.get("/api/nothing").status_code == 404
    g = srv.create(game="art-of-war", seats=["person", "bot:random"])
    assert post(f"/api/games/{g['id']}/join", json={"seat": "p2"}).json()["error"] == \
        "not-a-person-seat"
    assert post(f"/api/games/{g['id']}/join", json={"seat": "p9"}).status_code == 404
    srv.join(g["id"], "p1")
    assert post(f"/api/games/{g['id']}/join", json={"seat": "p1"}).status_code == 409
    assert post(f"/api/games/{g['id']}/leave", json={"token": "x"}).status_code == 403


@pytest.mark.parametrize(("body", "said"), [
    ({"game": "art-of-war", "seats": ["person", "person"], "variants": ["duel", "duel"]},
     "duel named more than once"),
    ({"game": "art-project", "seats": ["person"], "variants": ["no-ally-dice", "team-threat",
                                                               "no-ally-dice"]},
     "no-ally-dice named more than once"),
    ({"game": "art-of-war", "seats": ["person", "person"], "board": "japan"},
     "art-of-war takes no 'board'"),
    ({"game": "kuhn", "seats": ["person", "person"], "difficulty": "easy"},
     "kuhn takes no 'difficulty'"),
    ({"game": "art-project", "seats": ["person"], "seed": 7}, "art-project takes no 'seed'"),
])
def test_a_create_request_naming_what_its_game_does_not_take_is_refused(
        srv: Running, body: dict[str, Any], said: str) -> None:
    """A variant named twice, or an option of another game (Art of War and Kuhn poker take
    no board), was accepted (201) and the extra silently dropped."""
    r = srv.http.post("/api/games", json=body)
    assert r.status_code == 400 and r.json()["error"] == "bad-option", r.text
    assert said in r.json()["message"], r.text
    assert srv.lobby.games == {}


def _serve(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "artproject", "serve", "--port", "0",
                           "--db", str(db)], capture_output=True, text=True, timeout=60)


def test_a_database_not_ours_or_newer_is_refused_untouched(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("my notes\n")
    theirs = tmp_path / "theirs.db"
    con = sqlite3.connect(theirs)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    newer = tmp_path / "newer.db"
    con = sqlite3.connect(newer)
    con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.execute("INSERT INTO meta VALUES ('format', 'artproject-server'), ('version', '99')")
    con.commit()
    con.close()
    for db, why in ((text, "not an SQLite database"), (theirs, "not an artproject server"),
                    (newer, "newer")):
        was = db.read_bytes()
        r = _serve(db)
        assert r.returncode == 2, r
        assert r.stderr.count("\n") == 1 and why in r.stderr and "Traceback" not in r.stderr
        assert db.read_bytes() == was
    assert sorted(p.name for p in tmp_path.iterdir()) == ["newer.db", "notes.db", "theirs.db"]


def test_a_server_that_cannot_listen_creates_no_database(tmp_path: Path) -> None:
    """`serve --port BUSY --db new.db` exits 2 saying why, and leaves no new.db behind (it
    was created, 40 KB, before the port was found busy); a database that was there stays."""
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = str(taken.getsockname()[1])
    try:
        new = tmp_path / "other.db"
        r = subprocess.run([sys.executable, "-m", "artproject", "serve", "--port", port,
                            "--db", str(new)], capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and "cannot listen" in r.stderr, r
        assert "Traceback" not in r.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == [], "a database was created"
        old = tmp_path / "games.db"
        for srv in running(old):
            srv.create(game="kuhn", seats=["person", "person"])
        was = old.read_bytes()
        r = subprocess.run([sys.executable, "-m", "artproject", "serve", "--port", port,
                            "--db", str(old)], capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and "cannot listen" in r.stderr, r
        assert old.read_bytes() == was
    finally:
        taken.close()


def test_a_stored_game_that_does_not_replay_is_refused_at_start(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    for srv in running(db):
        g = srv.create(game="art-of-war", seats=["person", "person"])
        c = Client(srv.ws_url, g["id"], {"type": "hello", "token": srv.join(g["id"], "p1")})
        c.until(lambda m: m["type"] == "welcome")
        srv.join(g["id"], "p2")
        assert c.move("take p1")["type"] == "ack"
        c.close()
    con = sqlite3.connect(db)
    con.execute("UPDATE moves SET action = 'draw p2'")  # edited outside the server
    con.commit()
    con.close()
    r = _serve(db)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r
    assert g["id"] in r.stderr and "does not replay" in r.stderr


def test_the_message_limit_counts_bytes_not_characters(srv: Running) -> None:
    _gid, (c1, _c2) = _seated(srv)
    for pad, answer in ((1400, "too-large"), (1300, "pong")):
        text = json.dumps({"type": "ping", "pad": "\u20ac" * pad}, ensure_ascii=False)
        assert len(text) < 4096  # in characters; 3 bytes each
        c1.send(text)
        got = c1.until(lambda m: m["type"] in ("error", "pong"))
        assert got.get("code", got["type"]) == answer, (len(text.encode()), got)
