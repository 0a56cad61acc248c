"""`serve --origin`: the origins it allows may use the web client's routes as they may use the
lobby's (docs/server.md, "Security model"): open a file in the replay viewer, watch a
mission; a page of any other origin is refused there too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytest.importorskip("httpx")

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from tests.serving import Running, running

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = "https://games.example.org"
SAVE = ROOT / "tests" / "saves" / "japan-3p-midgame.json"


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[Running]:
    yield from running(tmp_path / "games.db", (ALLOWED,))


def _open(srv: Running, origin: str | None) -> tuple[int, str]:
    headers = {"Origin": origin} if origin is not None else {}
    r = srv.http.post("/api/replays?name=japan-3p-midgame.json", content=SAVE.read_bytes(),
                      headers=headers)
    return r.status_code, r.text


def test_an_allowed_origin_opens_files_in_the_replay_viewer(srv: Running) -> None:
    # the lobby lets the allowed origin create games...
    r = srv.http.post("/api/games", json={"game": "art-of-war", "seats": ["person"] * 2},
                      headers={"Origin": ALLOWED})
    assert r.status_code == 201, r.text
    # ...and the viewer lets it open a file, as it lets the server's own pages and scripts
    for origin in (ALLOWED, srv.url, None):
        status, text = _open(srv, origin)
        assert status == 200, (origin, text)
    status, text = _open(srv, "http://evil.example")
    assert status == 403 and "another origin" in text


def test_an_allowed_origin_may_watch_and_another_may_not(srv: Running) -> None:
    url = srv.ws_url + "/api/watch/socket"
    with (connect(url, additional_headers={"Origin": ALLOWED}, open_timeout=30) as ws,
          pytest.raises(ConnectionClosed) as closed):
        ws.recv(timeout=30)  # accepted, then closed: this server watches no file
    assert closed.value.rcvd is not None and closed.value.rcvd.reason == "no file watched"
    with (pytest.raises((InvalidStatus, ConnectionClosed)),
          connect(url, additional_headers={"Origin": "http://evil.example"},
                  open_timeout=30) as ws):
        ws.recv(timeout=30)
