"""What `stale` means (docs/server.md): a move is refused as stale when the decision it was
chosen for was taken or changed since the version it names, and only then. In The A.R.T.
Project's planning several seats decide at once (R6, R8): two friends who tap a card at the
same moment both send the version their page showed, and the second was refused `stale`,
"that decision was already taken", though theirs was not and their card was still theirs to
play. A double tap, a turn that moved on, and a choice another's move closed stay stale."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from tests.serving import Client, Running, running


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[Running]:
    yield from running(tmp_path / "games.db")


def _seated(srv: Running, game: str, players: int, **more: Any) -> tuple[str, list[Client]]:
    g = srv.create(game=game, seats=["person"] * players, **more)
    out = []
    for i in range(players):
        c = Client(srv.ws_url, g["id"], {"type": "hello",
                                         "token": srv.join(g["id"], f"p{i + 1}")})
        c.until(lambda m: m["type"] == "welcome")
        out.append(c)
    return g["id"], out


def _at(c: Client, version: int) -> dict[str, Any]:
    """The client's frame at `version` (waiting for it)."""
    if c.frame is None or c.frame["version"] < version:
        c.until(lambda m: m["type"] == "state" and m["version"] >= version)
    assert c.frame is not None and c.frame["version"] == version, c.frame
    return c.frame


def _planning(srv: Running) -> tuple[str, list[Client]]:
    """A game of three persons at its first planning (version 1): every seat decides."""
    gid, cs = _seated(srv, "art-project", 3, board="japan")
    assert cs[0].move("done", 0)["type"] == "ack"
    for c in cs:
        _at(c, 1)
    assert srv.lobby.games[gid].state.deciding_seats() == [0, 1, 2]
    return gid, cs


def _verb(frame: dict[str, Any], verb: str) -> str:
    return str(next(a["text"] for a in frame["legal"] if a["verb"] == verb))


def _uninterrupted(srv: Running, gid: str, cs: list[Client]) -> tuple[Client, str, Client, str]:
    """Two seats and a card each, the second still theirs to play once the first is played
    (a card that gains health asks the team who receives it first: the second's play waits
    for that decision, a new one, and is not theirs to play until it is taken)."""
    st = srv.lobby.games[gid].state
    for one, two in ((1, 2), (2, 1)):
        for a in st.seat_actions(one):
            after = st.clone()
            after.apply(a)
            mine = [b for b in after.seat_actions(two) if str(b.verb) == "play"]
            if str(a.verb) == "play" and mine:
                return cs[one], str(a), cs[two], str(mine[0])
    raise AssertionError("every card played first interrupts the other's")


def test_two_seats_tapping_at_once_both_play(srv: Running) -> None:
    gid, cs = _planning(srv)
    first, card, second, other = _uninterrupted(srv, gid, cs)
    assert first.move(card, 1) == {"type": "ack", "id": "m1", "version": 2, "duplicate": False}
    # the second chose at version 1, as the first did; the game is at 2, and the card is
    # the second's still
    answer = second.move(other, 1)
    assert answer == {"type": "ack", "id": "m1", "version": 3, "duplicate": False}, answer
    assert [str(a) for a in srv.lobby.games[gid].state.history][1:] == [card, other]


def test_a_choice_another_move_closed_is_stale(srv: Running) -> None:
    """The first card played ends everyone's planning (R6): a draw chosen before it answers
    a decision that has changed."""
    gid, cs = _planning(srv)
    first, card, second, _ = _uninterrupted(srv, gid, cs)
    draw = _verb(second.frame or {}, "draw")
    assert first.move(card, 1)["type"] == "ack"
    r = second.move(draw, 1)
    assert r["code"] == "stale" and "closed that choice" in r["message"], r
    assert len(srv.lobby.games[gid].state.history) == 2
    # a card never held is illegal, whatever version it names, and says so
    seat = draw.split()[1]
    r = second.move(f"play {seat} 999", 1)
    assert r["code"] == "illegal" and f"999 is not in {seat}'s hand" in r["message"], r


def test_a_double_tap_is_stale(srv: Running) -> None:
    gid, (_p1, p2, _p3) = _planning(srv)
    cards = [a["text"] for a in (p2.frame or {})["legal"] if a["verb"] == "play"]
    assert p2.move(cards[0], 1)["type"] == "ack"
    # the other card tapped at once, the page still at version 1: p2's decision was taken
    r = p2.move(cards[1], 1)
    assert r["code"] == "stale" and "taken or changed at version 2" in r["message"], r
    assert len(srv.lobby.games[gid].state.history) == 2


def _quiet(frame: dict[str, Any]) -> str:
    """A move that ends a turn without a challenge when there is one (draw, take), else the
    first legal."""
    legal = frame["legal"]
    return str(next((a for a in legal if a["verb"] in ("draw", "take")), legal[0])["text"])


def test_a_turn_that_moved_on_is_stale(srv: Running) -> None:
    """Art of War: p1's turn, p2's, and p1's again, offering some of what p1's first did: a
    move chosen at p1's first turn answers a decision taken, though it is legal again."""
    gid, (p1, p2) = _seated(srv, "art-of-war", 2)
    first = [a["text"] for a in _at(p1, 0)["legal"]]
    assert p1.move(_quiet(_at(p1, 0)), 0)["type"] == "ack"
    theirs = 0
    for _ in range(100):
        n = len(srv.lobby.games[gid].state.history)
        mine, other = _at(p1, n), _at(p2, n)
        if theirs and set(first) & {a["text"] for a in mine["legal"]}:
            break
        mover = p2 if other["legal"] else p1
        theirs += mover is p2
        assert mover.move(_quiet(other if mover is p2 else mine), n)["type"] == "ack"
    now = [a["text"] for a in mine["legal"]]
    again = [a for a in first if a in now]
    assert again, (first, now)
    for text in again:
        r = p1.move(text, 0)
        assert r["code"] == "stale" and "taken or changed at version" in r["message"], r
    assert len(srv.lobby.games[gid].state.history) == n
    # and a version the game has not reached
    r = p1.move(again[0], 999)
    assert r["code"] == "stale" and "no version 999 yet" in r["message"], r
    assert p1.move(again[0], n)["type"] == "ack"
