"""The leak test (docs/server.md, "Security model"): every frame the server makes for each
seat over whole games of both games is recorded, with the game as it was; no frame may
depend on anything its seat cannot know, and no other seat's hidden card may appear in one.

Two checks: (1) the frame is the same for a resampled game (`resample`: every card the seat
cannot see drawn anew, the deck reshuffled, what the seat saw kept), so nothing hidden went
into it; (2) directly, no card in another seat's hand appears in it before the rules show it,
its events are the seat's information state's, and no other seat's token appears anywhere.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytest.importorskip("httpx")

from artproject.core.hooks import NOBODY
from artproject.core.machine import Machine
from artproject.server import frames as frames_module
from artproject.server import lobby as lobby_module
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
    assert len(records) > 100
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
