"""What reaches a browser besides the frame: the `last` of a `state` message. The play page
never shows it (it shows the last event as its seat saw it), but it is on the wire."""

from __future__ import annotations

from pathlib import Path

from tests.serving import Client, running


def test_the_last_move_names_no_card_another_seat_laid_face_down(tmp_path: Path) -> None:
    for srv in running(tmp_path / "games.db"):
        game = srv.create(game="art-of-war", seats=["person", "person"])
        one = Client(srv.ws_url, game["id"], {"type": "hello",
                                               "token": srv.join(game["id"], "p1")})
        two = Client(srv.ws_url, game["id"], {"type": "hello",
                                               "token": srv.join(game["id"], "p2")})
        try:
            card = _lay_a_card(one, two)
            msg = two.until(lambda m: m.get("type") == "state"
                            and str((m.get("last") or {}).get("action", ""))
                            .startswith("play p1"))
            assert card not in str(msg["last"]), msg["last"]
        finally:
            one.close()
            two.close()


def _lay_a_card(one: Client, two: Client) -> str:
    """Play until p1 lays a card face down (challenging and betting on the way, p2 answering
    with its first legal action); the card's name."""
    for _ in range(40):
        one.drain()
        assert one.frame is not None
        mine = [a for a in one.frame["legal"] if a["verb"] in ("challenge", "bet", "play")]
        if mine:
            pick = min(mine, key=lambda a: ("challenge", "bet", "play").index(a["verb"]))
            one.move(pick["text"], one.frame["version"])
            if pick["verb"] == "play":
                return str(pick["slots"]["card"])
            continue
        mover = one if one.frame["legal"] else two
        mover.drain()
        assert mover.frame is not None
        if mover.frame["legal"]:
            mover.move(mover.frame["legal"][0]["text"], mover.frame["version"])
    raise AssertionError("p1 laid no card face down")
