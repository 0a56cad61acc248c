"""What reaches a browser besides the frame: the `last` of a `state` message. The play page
never shows it (it shows the last event as its seat saw it), but it is on the wire."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.serving import Client, running


@pytest.mark.xfail(strict=True, reason="the server's state message carries `last`, the "
                   "action as played: another seat's face-down card by name (issue 23's "
                   "leak rule); strict: passes once the server sends `last` as each seat "
                   "saw it, and then this mark must go")
def test_the_last_move_names_no_card_another_seat_laid_face_down(tmp_path: Path) -> None:
    for srv in running(tmp_path / "games.db"):
        game = srv.create(game="art-of-war", seats=["person", "person"])
        one = Client(srv.ws_url, game["id"], {"type": "hello",
                                               "token": srv.join(game["id"], "p1")})
        two = Client(srv.ws_url, game["id"], {"type": "hello",
                                               "token": srv.join(game["id"], "p2")})
        try:
            for _ in range(40):  # p1 challenges, bets and lays a card face down
                one.drain()
                assert one.frame is not None
                plays = [a for a in one.frame["legal"] if a["verb"] in ("challenge", "bet")]
                plays += [a for a in one.frame["legal"] if a["verb"] == "play"]
                if not plays:
                    if one.frame["legal"]:
                        one.move(one.frame["legal"][0]["text"], one.frame["version"])
                        continue
                    two.drain()
                    assert two.frame is not None
                    if two.frame["legal"]:
                        two.move(two.frame["legal"][0]["text"], two.frame["version"])
                    continue
                one.move(plays[0]["text"], one.frame["version"])
                if plays[0]["verb"] == "play":
                    card = plays[0]["slots"]["card"]
                    msg = two.until(lambda m: m.get("type") == "state"
                                    and str((m.get("last") or {}).get("action", ""))
                                    .startswith("play p1"))
                    assert card not in str(msg["last"]), msg["last"]
                    return
            raise AssertionError("p1 laid no card face down")
        finally:
            one.close()
            two.close()
