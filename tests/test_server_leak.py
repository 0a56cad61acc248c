"""The leak test (docs/server.md, "Security model"): every frame the server makes for each
seat over whole games of both games is recorded, with the game as it was; no frame may
depend on anything its seat cannot know, and no other seat's hidden card may appear in one.

Two checks: (1) the frame is the same for a resampled game (`resample`: every card the seat
cannot see drawn anew, the deck reshuffled, what the seat saw kept), so nothing hidden went
into it; (2) directly, no card in another seat's hand appears in it before the rules show it,
its events are the seat's information state's, and no other seat's token appears anywhere.

And every message as it goes out (not only the frame inside it): each message queued for a
connection (`Conn.put`), each text a WebSocket sends, each JSON answer of the lobby, over
whole Art of War games of 2 to 7 players (persons and bots) and an A.R.T. game, checked
directly and against the same message remade from a resampled game (see "every message
sent" below). A `last` that named another seat's face-down card got past the frame checks;
it fails these.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytest.importorskip("httpx")

from websockets.exceptions import ConnectionClosed

from artproject.core.hooks import NOBODY
from artproject.core.machine import Machine
from artproject.server import frames as frames_module
from artproject.server import live as live_module
from artproject.server import lobby as lobby_module
from artproject.web.views import table as table_of
from tests.serving import Client, Running, play_out, running

Record = tuple[int, tuple[int, int, int], Machine, dict[str, Any]]


@pytest.fixture
def recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
             ) -> Iterator[tuple[Running, list[Record]]]:
    records: list[Record] = []
    real = lobby_module.frame

    def recording(game: Machine, seat: int, since: tuple[int, int, int],
                  ) -> tuple[dict[str, Any], tuple[int, int, int]]:
        out = real(game, seat, since)
        records.append((seat, since, game.clone(), out[0]))
        return out

    monkeypatch.setattr(lobby_module, "frame", recording)
    yield from ((srv, records) for srv in running(tmp_path / "games.db"))


def _cards(x: Any) -> Iterator[dict[str, Any]]:
    """Every card face (a dict with an id and its sections) anywhere in a frame."""
    if isinstance(x, dict):
        if "id" in x and "sections" in x:
            yield x
        for v in x.values():
            yield from _cards(v)
    elif isinstance(x, list):
        for v in x:
            yield from _cards(v)


def _same_for_a_resampled_game(seat: int, since: tuple[int, int, int], st: Machine,
                               f: dict[str, Any]) -> None:
    for seed in (1, 2):
        other = st.resample([] if seat == NOBODY else [seat], seed)
        assert frames_module.frame(other, seat, since)[0] == f, (seat, len(st.history))


def _play(srv: Running, records: list[Record], body: dict[str, Any], people: list[str],
          seed: int) -> tuple[str, dict[str, str], list[Client]]:
    from artproject.policies import make_policy, policies_of

    g = srv.create(**body)
    live = srv.lobby.games[g["id"]]
    bot = make_policy("heuristic", seed, policies_of(live.state.game))

    def guide() -> str:  # the heuristic's choice, so the game lasts (the test's, not a seat's)
        return str(bot(live.state.clone()))

    tokens = {s: srv.join(g["id"], s) for s in people}
    clients = [Client(srv.ws_url, g["id"], {"type": "hello", "token": tokens[s]})
               for s in people]
    spy = Client(srv.ws_url, g["id"], {"type": "hello", "spectate": True})
    for c in [*clients, spy]:
        c.until(lambda m: m["type"] == "welcome")
    play_out(clients, seed, guide=guide)
    for c in [*clients, spy]:
        c.drain(0.1)
    return g["id"], tokens, [*clients, spy]


def _common(records: list[Record], tokens: dict[str, str], clients: list[Client],
            people: list[str]) -> None:
    # enough frames to mean something: moves that arrive together are told in one frame,
    # so the count falls on a loaded machine (68 seen at load 12, over 100 when quiet)
    assert len(records) > 40
    assert {seat for seat, _, _, _ in records} >= {*range(len(people)), NOBODY}
    for seat, since, st, f in records:
        _same_for_a_resampled_game(seat, since, st, f)
        text = json.dumps(f)
        for s, token in tokens.items():
            assert token not in text, s
        told = [str(e) for e in st.information_state(seat)[3]]  # the kernel's own
        assert f["events"] == told[since[0]:] and since[0] + len(f["events"]) == len(told)
    _received(records, tokens, clients, people)


def _received(records: list[Record], tokens: dict[str, str], clients: list[Client],
              people: list[str]) -> None:
    """What the clients received is what was recorded; nothing else carries a view."""
    seats = {s: i for i, s in enumerate(people)}
    for c, s in zip(clients, [*people, None], strict=True):
        seat = seats[s] if s is not None else NOBODY
        made = {json.dumps(f["view"], sort_keys=True) for se, _, _, f in records if se == seat}
        got = [m for m in c.got if "view" in m]
        assert got and all(json.dumps(m["view"], sort_keys=True) in made for m in got)
        assert all(m["type"] in ("welcome", "state", "ack", "error", "seats", "pong")
                   for m in c.got)
        for m in c.got:
            for token in tokens.values():
                assert token not in json.dumps(m)


def test_no_art_of_war_frame_shows_another_seats_card(
        recorded: tuple[Running, list[Record]]) -> None:
    srv, records = recorded
    people = ["p1", "p2", "p3"]
    _, tokens, clients = _play(srv, records, {"game": "art-of-war", "seats": [
        "person", "person", "person", "bot:heuristic"]}, people, seed=7)
    _common(records, tokens, clients, people)
    dealt = re.compile(r"^(p\d) (is dealt|takes) ([a-z_]+)")
    drew = re.compile(r"^(p\d) draws ([a-z_]+)$")
    for seat, _, st, f in records:
        view = f["view"]
        mine = sorted(st.rules.cards[k].name for k in st.hands[seat]) if seat >= 0 else []
        assert sorted(c["name"] for c in view["hand"]) == mine
        table = view["table"]
        if table is not None and not table["revealed"]:
            for p, shown in table["cards"].items():
                assert shown == "?" or p == view["seat"], (p, shown, seat)
        for e in f["events"]:
            m = dealt.match(e)
            assert m is None or m.group(1) == view["seat"] or m.group(3) == "a", e
            m = drew.match(e)
            if m and m.group(2) not in ("a",) and m.group(1) != view["seat"]:
                card = st.rules.cards[st.rules.index[m.group(2)]]
                assert card.on_draw, e  # only a card played at once is shown to all


def test_no_art_frame_shows_another_players_card(
        recorded: tuple[Running, list[Record]]) -> None:
    srv, records = recorded
    people = ["p1", "p2", "p3"]
    _, tokens, clients = _play(srv, records, {"game": "art-project", "board": "japan",
                                              "difficulty": "easy", "seats": [
        "person", "person", "person"]}, people, seed=8)
    _common(records, tokens, clients, people)
    faces = 0
    for seat, _, st, f in records:
        hidden = {c for q, h in enumerate(st.hands) if q != seat for c in h}
        shown = {c["id"] for c in _cards(f)}
        assert not shown & hidden, (seat, shown & hidden)
        assert {c["id"] for c in f["view"]["hand"]} == (set(st.hands[seat]) if seat >= 0
                                                       else set())
        faces += len(shown)
        for e in f["events"]:
            for q, h in enumerate(st.hands):
                if q != seat:
                    for c in h:
                        assert e != f"p{q + 1} draws {c}", e
    assert faces  # the frames did show cards (the seat's own, the chain, the discard)


# ==================================================================== every message sent
# The frame records above see only what `frame()` returns; a message carries more (`last`,
# `seats`, the table, the status), and the lobby's HTTP answers carry summaries. Here every
# message queued for a connection (Conn.put, the one place a message to a seat is queued),
# every text the server's WebSockets send, and every JSON answer of the lobby is recorded
# with the game as it was; each is checked directly (no token, no seed, every event and
# `last` the seat's information state's) and by remaking it, by the lobby's own code, from
# a game resampled for its seat (nothing it carries may differ: nothing hidden went in).

Snapshot = tuple[Machine, Any, str, list[dict[str, Any]]]  # state, last, status, seats


class Wire:
    """What the server sent: messages queued (seat, message, game), WebSocket texts, and
    lobby answers (body, every game)."""

    def __init__(self) -> None:
        self.on = True
        self.queued: list[tuple[int, dict[str, Any], Snapshot]] = []
        self.texts: list[str] = []
        self.answers: list[tuple[Any, dict[str, Snapshot]]] = []


def _snap(live: live_module.Live) -> Snapshot:
    return (live.state.clone(), live.last, live.status, [s.summary() for s in live.seats])


@pytest.fixture
def wire(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Running, Wire]]:
    from starlette.responses import JSONResponse
    from starlette.websockets import WebSocket

    from artproject.server import app as app_module

    w = Wire()
    holder: list[Running] = []
    put, send_text = live_module.Conn.put, WebSocket.send_text

    def queued(conn: live_module.Conn, msg: dict[str, Any] | None) -> None:
        if w.on and msg is not None and not conn.closed:
            games = holder[0].lobby.games.values()
            live = next((g for g in games if conn in g.conns()), None)
            assert live is not None, msg
            w.queued.append((conn.seat, json.loads(json.dumps(msg)), _snap(live)))
        put(conn, msg)

    async def sent(ws: WebSocket, text: str) -> None:
        w.texts.append(text)
        await send_text(ws, text)

    class Answer(JSONResponse):
        def render(self, content: Any) -> bytes:
            if w.on:
                w.answers.append((json.loads(json.dumps(content)),
                                  {g.id: _snap(g) for g in holder[0].lobby.games.values()}))
            return super().render(content)

    monkeypatch.setattr(live_module.Conn, "put", queued)
    monkeypatch.setattr(WebSocket, "send_text", sent)
    monkeypatch.setattr(app_module, "JSONResponse", Answer)
    for srv in running(tmp_path / "games.db"):
        holder.append(srv)
        yield srv, w


def _told(st: Machine, seat: int) -> list[str]:
    return [str(e) for e in st.information_state(seat)[3]]


def _shadow(srv: Running, live: live_module.Live, snap: Snapshot, seat: int, seed: int,
            ) -> tuple[live_module.Live, live_module.Conn]:
    """The game `snap` with what `seat` cannot see drawn anew, as a Live the lobby's own
    code can tell of, and a connection of `seat`'s in it."""
    st, last, status, _ = snap
    other = st.resample([] if seat == NOBODY else [seat], seed)
    seats = [live_module.Seat(s.index, s.kind, s.bot, s.name, s.token) for s in live.seats]
    shadow = live_module.Live(live.id, other, live.name, seats, live.bot_seed, status,
                               live.created, live.options)
    if last is not None:  # the last move as it is in the resampled game's history
        i = max(i for i, a in enumerate(st.history) if a is last[1] or str(a) == str(last[1]))
        shadow.last = last[0], other.history[i]
    conn = live_module.Conn(seat)
    (shadow.spectators if seat == NOBODY else seats[seat].conns).add(conn)
    return shadow, conn


def _remade(srv: Running, live: live_module.Live, seat: int, m: dict[str, Any],
            snap: Snapshot, seed: int) -> dict[str, Any]:
    shadow, conn = _shadow(srv, live, snap, seat, seed)
    if m["type"] == "welcome":
        return srv.lobby.welcome(shadow, conn)
    srv.lobby.announce(shadow)
    out: dict[str, Any] = conn.queue.get_nowait()  # type: ignore[assignment]
    return out


KEYS = {"welcome": {"type", "game", "seat", "status", "seats", "table", "last", "version",
                    "view", "legal", "events", "events_from"},
        "state": {"type", "status", "last", "version", "view", "legal", "events",
                  "events_from"},
        "ack": {"type", "id", "version", "duplicate"}, "error": {"type", "code", "message",
                                                                  "id"},
        "seats": {"type", "seats"}, "pong": {"type"}}
SEAT_KEYS = {"seat", "kind", "name", "taken", "connected", "bot"}


def _check_message(srv: Running, live: live_module.Live, seat: int, m: dict[str, Any],
                   snap: Snapshot, secrets_: list[str]) -> None:
    text = json.dumps(m)
    for s in secrets_:
        assert s not in text, (seat, m)
    assert set(m) <= KEYS[m["type"]], m
    for s in m.get("seats", ()):
        assert set(s) <= SEAT_KEYS, s
    if m["type"] not in ("welcome", "state"):
        return
    st = snap[0]
    told = _told(st, seat)
    start = m["events_from"]
    assert m["events"] == told[start:start + len(m["events"])], (seat, m["events"])
    if m["last"] is not None:  # as the seat saw it: an entry of its information state
        assert m["last"]["action"] in told, (seat, m["last"])
    assert m.get("seats", snap[3]) == snap[3]
    for seed in (1, 2):
        again = _remade(srv, live, seat, m, snap, seed)
        drop = ("events", "events_from", "seats")
        assert {k: v for k, v in again.items() if k not in drop} == {
            k: v for k, v in m.items() if k not in drop}, (seat, len(st.history), seed)


def _check_answer(srv: Running, body: Any, games: dict[str, Snapshot],
                  tokens: dict[str, str], secrets_: list[str]) -> None:
    """A lobby answer: public (no seat's token but a join's own, no seed), and each game's
    summary and table the same for a game resampled for no one."""
    text = json.dumps(body)
    own = body.get("token") if isinstance(body, dict) else None
    if own is not None:  # a join's answer: the joiner's own token, once, and no other's
        assert own in tokens.values() and text.count(own) == 1
    for s in secrets_:
        assert s not in text or s == own, body
    summaries = body.get("games", []) if isinstance(body, dict) else []
    if isinstance(body, dict) and "id" in body:
        summaries = [body]
    for g in summaries:
        if g.get("id") not in games or g["id"] not in srv.lobby.games:
            continue
        live, snap = srv.lobby.games[g["id"]], games[g["id"]]
        shadow, _ = _shadow(srv, live, snap, NOBODY, 3)
        assert {k: v for k, v in shadow.summary().items() if k != "seats"} == {
            k: v for k, v in g.items() if k != "seats"}, g
        assert g["seats"] == snap[3]
    if isinstance(body, dict) and "cells" not in body and not {"games", "id", "error",
                                                               "token", "left"} & set(body):
        for snap in games.values():  # a table: the same for every deal of the game
            if table_of(snap[0]) == body:
                assert table_of(snap[0].resample([], 4)) == body
                break
        else:
            raise AssertionError(f"an answer that is no game's table: {text[:200]}")


def _play_wired(srv: Running, w: Wire, body: dict[str, Any], people: list[str],
                seed: int) -> tuple[str, dict[str, str], list[Client]]:
    from artproject.policies import make_policy, policies_of

    g = srv.create(**body)
    gid = g["id"]
    live = srv.lobby.games[gid]
    bot = make_policy("heuristic", seed, policies_of(live.state.game))
    asked = [0]

    def guide() -> str:  # the heuristic's choice (so the game lasts); now and then, the
        asked[0] += 1    # lobby's pages a seat's browser reads
        if asked[0] % 5 == 1:
            for path in ("/api/games", "/api/games?all=1", f"/api/games/{gid}",
                         f"/api/games/{gid}/table", "/api/catalog",
                         f"/api/games/{gid}/nothing"):
                srv.http.get(path)
            srv.http.post(f"/api/games/{gid}/join", json={"seat": "p1"})  # taken: refused
        return str(bot(live.state.clone()))

    tokens = {s: srv.join(gid, s) for s in people}
    clients = [Client(srv.ws_url, gid, {"type": "hello", "token": tokens[s]}) for s in people]
    spy = Client(srv.ws_url, gid, {"type": "hello", "spectate": True})
    for c in [*clients, spy]:
        c.until(lambda m: m["type"] == "welcome")
    clients[0].send({"type": "ping"})
    clients[0].send({"type": "sync"})
    clients[-1].move("no such move")
    spy.move("done")  # a spectator's move: refused
    play_out(clients, seed, guide=guide)
    late = Client(srv.ws_url, gid, {"type": "hello", "token": tokens[people[0]]})
    late.until(lambda m: m["type"] == "welcome")  # the finished game, told again
    for c in [*clients, spy, late]:
        c.drain(0.1)
    stranger = Client(srv.ws_url, gid, {"type": "hello", "token": "x" * 32})
    with contextlib.suppress(ConnectionClosed):  # refused, and closed
        stranger.drain(0.1)
    assert stranger.got[0]["code"] == "bad-token"
    return gid, tokens, [*clients, spy, late, stranger]


def _check_wire(srv: Running, w: Wire, gid: str, tokens: dict[str, str],
                clients: list[Client]) -> None:
    w.on = False
    live = srv.lobby.games[gid]
    secrets_ = [*tokens.values(), str(live.state.seed), str(live.bot_seed)]
    queued = {json.dumps(m, sort_keys=True) for _, m, _ in w.queued}
    kinds = set()
    for text in w.texts:  # every text sent was a message checked, or a refusal before hello
        m = json.loads(text)
        kinds.add(m["type"])
        if json.dumps(m, sort_keys=True) not in queued:
            assert m["type"] == "error" and set(m) <= KEYS["error"], m
            for s in secrets_:
                assert s not in text
    got = [json.dumps(m, sort_keys=True) for c in clients for m in c.got]
    sent = {json.dumps(json.loads(t), sort_keys=True) for t in w.texts}
    assert set(got) <= sent  # what the clients read is what was recorded as sent
    assert {"welcome", "state", "ack", "error", "seats", "pong"} <= kinds, kinds
    assert len(w.queued) > 40
    for seat, m, snap in w.queued:
        _check_message(srv, live, seat, m, snap, secrets_)
    assert len(w.answers) > 10
    for body, games in w.answers:
        _check_answer(srv, body, games, tokens, secrets_)


WAR_SEATS = {2: ["person", "person"], 3: ["person", "bot:random", "person"],
             4: ["person", "person", "person", "bot:heuristic"],
             5: ["bot:heuristic", "person", "person", "bot:random", "person"],
             6: ["person", "bot:heuristic", "person", "bot:heuristic", "person", "person"],
             7: ["person", "person", "bot:random", "person", "bot:heuristic", "person",
                 "bot:heuristic"]}


@pytest.mark.parametrize("players", sorted(WAR_SEATS))
def test_no_art_of_war_message_shows_what_its_seat_may_not_see(
        wire: tuple[Running, Wire], players: int) -> None:
    srv, w = wire
    seats = WAR_SEATS[players]
    people = [f"p{i + 1}" for i, s in enumerate(seats) if s == "person"]
    gid, tokens, clients = _play_wired(srv, w, {"game": "art-of-war", "seats": seats},
                                       people, seed=players)
    _check_wire(srv, w, gid, tokens, clients)


def test_no_art_message_shows_what_its_seat_may_not_see(wire: tuple[Running, Wire]) -> None:
    srv, w = wire
    people = ["p1", "p2", "p3"]
    gid, tokens, clients = _play_wired(srv, w, {"game": "art-project", "board": "japan",
                                                "difficulty": "easy", "seats": [
        "person", "person", "person"]}, people, seed=9)
    _check_wire(srv, w, gid, tokens, clients)
    for seat, m, snap in w.queued:  # no other player's card, by id, in any message
        st = snap[0]
        hidden = {c for q, h in enumerate(st.hands) if q != seat for c in h}
        assert not {c["id"] for c in _cards(m)} & hidden, (seat, m["type"])
