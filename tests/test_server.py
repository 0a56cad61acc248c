"""`artproject serve` (docs/server.md): whole games played by clients over real WebSockets to
a real server on loopback, with its database a real SQLite file."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytest.importorskip("httpx")
pytest.importorskip("starlette")

from websockets.exceptions import ConnectionClosed

from tests.serving import Client, Running, play_out, running


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[Running]:
    yield from running(tmp_path / "games.db")


def test_catalog_names_both_games_their_boards_and_bots(srv: Running) -> None:
    games = {g["game"]: g for g in srv.http.get("/api/catalog").json()["games"]}
    art, war = games["art-project"], games["art-of-war"]
    assert art["players"] == [1, 6] and war["players"] == [2, 7]
    assert "japan" in art["options"]["board"]["values"]
    assert "hard" in art["options"]["difficulty"]["values"]
    assert "refused-card-hand" in war["variants"] and "no-ally-dice" in art["variants"]
    assert {"random", "heuristic", "ismcts"} <= set(art["bots"]) & set(war["bots"])


def test_the_catalog_in_the_docs_is_the_servers(srv: Running) -> None:
    """docs/server.md's `GET /api/catalog` example is what the server answers, whole."""
    page = (Path(__file__).parent.parent / "docs" / "server.md").read_text()
    example = re.search(r"### `GET /api/catalog`.*?```json\n(.*?)```", page, re.S)
    assert example is not None
    assert json.loads(example.group(1)) == srv.http.get("/api/catalog").json()


def test_an_art_game_played_to_the_end_by_two_people_and_a_bot(srv: Running) -> None:
    g = srv.create(game="art-project", board="japan", difficulty="easy",
                   seats=["person", "bot:heuristic", "person"], name="friday")
    assert g["status"] == "waiting" and [s["kind"] for s in g["seats"]] == [
        "person", "bot", "person"]
    assert [x["id"] for x in srv.http.get("/api/games").json()["games"]] == [g["id"]]
    t1 = srv.join(g["id"], "p1", "Ann")
    c1 = Client(srv.ws_url, g["id"], {"type": "hello", "token": t1})
    welcome = c1.until(lambda m: m["type"] == "welcome")
    assert welcome["seat"] == "p1" and welcome["status"] == "waiting"
    assert welcome["table"]["board"] == "japan" and welcome["table"]["cities"]
    assert c1.move("done")["code"] == "not-started"
    t3 = srv.join(g["id"], "p3", "Bo")
    c3 = Client(srv.ws_url, g["id"], {"type": "hello", "token": t3})
    c3.until(lambda m: m["type"] == "welcome")
    assert srv.http.get("/api/games").json()["games"] == []  # no open seat left
    last = play_out([c1, c3], seed=1)
    assert last["view"]["outcome"] in ("won", "lost")
    summary = srv.http.get(f"/api/games/{g['id']}").json()
    assert summary["status"] == "over" and summary["moves"] == last["version"]
    # every move is in the database, once, in order
    rows = srv.store.rows("SELECT n FROM moves WHERE game = ? ORDER BY n", (g["id"],))
    assert [r[0] for r in rows] == list(range(1, last["version"] + 1))
    c1.close()
    c3.close()


def test_an_art_of_war_game_played_to_the_end_by_three_people(srv: Running) -> None:
    g = srv.create(game="art-of-war", seats=["person", "person", "person"])
    clients = []
    for seat in ("p1", "p2", "p3"):
        c = Client(srv.ws_url, g["id"], {"type": "hello", "token": srv.join(g["id"], seat)})
        w = c.until(lambda m: m["type"] == "welcome")
        assert w["table"]["seats"] == ["p1", "p2", "p3"]
        assert {k["name"] for k in w["table"]["cards"]} >= {"farmer", "queen", "king"}
        assert len(w["view"]["hand"]) == 6 and w["view"]["hand"][0]["score"] >= 1
        clients.append(c)
    assert srv.http.get(f"/api/games/{g['id']}/table").json() == w["table"]
    last = play_out(clients, seed=2)
    assert last["view"]["outcome"] is not None and last["view"]["standing"]
    for c in clients:
        c.close()


def test_bots_alone_play_a_game_that_a_spectator_watches(srv: Running) -> None:
    g = srv.create(game="art-of-war", seats=["bot:heuristic", "bot:random"])
    assert g["status"] == "playing"
    spy = Client(srv.ws_url, g["id"], {"type": "hello", "spectate": True})
    spy.until(lambda m: m.get("view", {}).get("outcome") is not None, 120)
    assert spy.frame is not None and spy.frame["seat"] is None if "seat" in spy.frame else True
    assert all(not m.get("legal") for m in spy.got)
    assert all(m["view"]["hand"] == [] for m in spy.got if "view" in m)
    spy.close()


DOC = Path(__file__).resolve().parent.parent / "docs" / "server.md"
SERVER = Path(__file__).resolve().parent.parent / "artproject" / "server"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.S | re.M)


def test_the_docs_examples_are_json_and_name_every_error_code() -> None:
    blocks = _blocks("json")
    assert len(blocks) >= 15
    for b in blocks:
        json.loads(b)
    text = DOC.read_text(encoding="utf-8")
    source = "\n".join(p.read_text(encoding="utf-8") for p in SERVER.glob("*.py"))
    codes = set(re.findall(r'(?:Refused|error)\(\s*"([a-z-]+)"', source))
    assert {"bad-json", "illegal", "foreign", "stale", "bad-token", "rate-limited"} <= codes
    for code in codes:
        assert re.search(rf"[` ]{code}`", text), code  # `code` or `409 code`


def test_the_docs_script_plays_a_game_to_the_end(srv: Running,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    (script,) = _blocks("python")
    assert 'url = "http://127.0.0.1:8000"' in script
    exec(compile(script.replace("http://127.0.0.1:8000", srv.url), "docs/server.md", "exec"),
         {})
    assert capsys.readouterr().out.startswith("over: ")


def test_a_person_plays_the_search_bot_which_thinks_off_the_loop(srv: Running) -> None:
    g = srv.create(game="art-of-war", seats=["person", "bot:ismcts"])
    c = Client(srv.ws_url, g["id"], {"type": "hello", "token": srv.join(g["id"], "p1")})
    c.until(lambda m: m["type"] == "welcome")
    last = play_out([c], seed=6)
    assert last["view"]["outcome"] is not None
    moved = {m["last"]["seat"] for m in c.got if m["type"] == "state" and m["last"]}
    assert moved == {"p1", "p2"}
    c.close()


def test_a_seat_left_mid_game_is_open_again_and_its_new_holder_sees_the_game(
        srv: Running) -> None:
    g = srv.create(game="art-of-war", seats=["person", "person"])
    t1, t2 = srv.join(g["id"], "p1", "Ann"), srv.join(g["id"], "p2", "Bo")
    c1 = Client(srv.ws_url, g["id"], {"type": "hello", "token": t1})
    c2 = Client(srv.ws_url, g["id"], {"type": "hello", "token": t2})
    for c in (c1, c2):
        c.until(lambda m: m["type"] == "welcome")
    assert c1.move("draw p1")["type"] == "ack"
    c2.until(lambda m: m["type"] == "state" and m["version"] == 1)
    assert srv.http.post(f"/api/games/{g['id']}/leave", json={"token": t2}).json() == {
        "left": "p2"}
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            c2.recv(10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
    seats = c1.until(lambda m: m["type"] == "seats")["seats"]
    assert seats[1]["taken"] is False
    listed = srv.http.get("/api/games").json()["games"]
    assert [x["id"] for x in listed] == [g["id"]] and listed[0]["status"] == "playing"
    t3 = srv.join(g["id"], None, "Cy")  # the first open seat: p2's
    c3 = Client(srv.ws_url, g["id"], {"type": "hello", "token": t3})
    w = c3.until(lambda m: m["type"] == "welcome")
    assert w["seat"] == "p2" and w["version"] == 1 and "draw p1" in w["events"]
    assert len(w["view"]["hand"]) == w["view"]["seats"][1]["hand_size"]
    last = play_out([c1, c3], seed=9)
    assert last["view"]["outcome"] is not None
    for c in (c1, c3):
        c.close()


def test_the_server_is_on_no_import_path_but_the_serve_commands() -> None:
    import subprocess
    import sys

    code = ("import sys, artproject, artproject.cli\n"
            "from artproject import new_game\n"
            "g = new_game('art-of-war', players=2, seed=1); g.view(0); g.picture()\n"
            "print([m for m in ('starlette', 'uvicorn', 'websockets', 'artproject.server')"
            " if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(("game", "players", "more"), [
    ("art-project", 1, {"board": "usa", "difficulty": "hard"}),
    ("art-project", 6, {"board": "rio", "variants": ["no-ally-dice"]}),
    ("art-of-war", 7, {"variants": ["refused-card-hand"]})])
def test_every_team_size_and_a_variant_can_be_served(srv: Running, game: str, players: int,
                                                     more: dict[str, object]) -> None:
    g = srv.create(game=game, seats=["person"] + ["bot:random"] * (players - 1), **more)
    assert g["players"] == players and g["status"] == "waiting"
    assert all(g[k] == v for k, v in more.items())
    c = Client(srv.ws_url, g["id"], {"type": "hello", "token": srv.join(g["id"], "p1")})
    w = c.until(lambda m: m["type"] == "welcome")
    assert w["table"]["seats"] == [f"p{i + 1}" for i in range(players)]
    assert w["table"]["variants"] == more.get("variants", [])
    c.close()


def test_the_docs_views_and_tables_have_the_keys_the_games_send() -> None:
    from artproject import new_game

    real = {}
    for game in (new_game("japan", players=2, seed=1), new_game("art-of-war", players=3,
                                                                seed=1)):
        real[game.game, "view"] = set(game.view(0))
        real[game.game, "table"] = set(game.picture())
    shown = {}
    for b in _blocks("json"):
        doc = json.loads(b)
        if isinstance(doc, dict) and doc.get("game") in ("art-project", "art-of-war") \
                and "type" not in doc and "id" not in doc:
            shown[doc["game"], "view" if "seat" in doc else "table"] = set(doc)
    assert shown == real


def test_a_server_game_s_replay_tells_each_asker_only_what_it_may_see(srv: Running) -> None:
    """/api/replays/game-ID (docs/web.md): the public view for anyone, a seat's view of an
    unfinished game for its token's holder only, everything only once the game is over."""
    pytest.importorskip("artproject.web.app")
    from artproject.core.hooks import NOBODY

    g = srv.create(game="art-of-war", seats=["person", "person", "bot:random"])
    gid = g["id"]
    tokens = {s: srv.join(gid, s) for s in ("p1", "p2")}
    st = srv.lobby.games[gid].state
    n = len(st.history)
    base = f"/api/replays/game-{gid}"
    assert srv.http.get(base).json()["views"] == ["public"]
    mine = srv.http.get(base, headers={"X-Seat-Token": tokens["p2"]}).json()
    assert mine["views"] == ["p2", "public"] and not mine["over"] and mine["steps"] == n
    public = srv.http.get(f"{base}/{n}?view=public").json()
    assert public["view"] == st.view(NOBODY) and public["view"]["hand"] == []
    assert public["events"] == st.seen_events(NOBODY)[0]
    for who, token in [("p1", None), ("p1", tokens["p2"]), ("p1", "nonsense")]:
        r = srv.http.get(f"{base}/{n}?view={who}",
                         headers={"X-Seat-Token": token} if token else {})
        assert r.status_code == 403 and "holds p1's seat" in r.json()["error"], r.text
    r = srv.http.get(f"{base}/{n}?view=p1", headers={"X-Seat-Token": tokens["p1"]})
    assert r.status_code == 200 and r.json()["view"] == st.view(0)
    r = srv.http.get(f"{base}/0?view=all")
    assert r.status_code == 400 and "only for a finished game" in r.json()["error"]
    r = srv.http.get("/api/replays/game-nothing/0?view=public")
    assert r.status_code == 404 and "there is no game 'nothing'" in r.json()["error"]
    for text in (json.dumps(srv.http.get(base).json()), json.dumps(public)):
        for token in tokens.values():
            assert token not in text
        assert str(st.seed) not in text


def test_the_first_answer_to_a_seats_hello_is_its_welcome(srv: Running) -> None:
    """docs/server.md: "`welcome`: the answer to `hello`". A seat's hello also tells every
    connection of the game that the seat is now connected (`seats`); that news reached the
    new connection before its own welcome, so a client waiting for the answer to its hello
    read a `seats` first (a spectator's welcome was first already)."""
    g = srv.create(game="kuhn", seats=["person", "person"])
    one = Client(srv.ws_url, g["id"], {"type": "hello", "token": srv.join(g["id"], "p1")})
    two: Client | None = None
    try:
        first = one.recv()
        assert first["type"] == "welcome", [first["type"], one.recv()["type"]]
        assert first["seats"][0]["connected"] is True  # the welcome counts its own connection
        one.drain()
        two = Client(srv.ws_url, g["id"], {"type": "hello", "token": srv.join(g["id"], "p2")})
        first = two.recv()
        assert first["type"] == "welcome", [first["type"], two.recv()["type"]]
        assert [s["connected"] for s in first["seats"]] == [True, True]
        # the others still hear of it
        told = one.until(lambda m: m["type"] == "seats" and m["seats"][1]["connected"])
        assert told["seats"][1]["taken"] is True
        # and the new connection is not told again what its welcome holds
        two.drain(0.3)
        assert [m["type"] for m in two.got] == ["welcome"], [m["type"] for m in two.got]
    finally:
        one.close()
        if two is not None:
            two.close()
