"""How long the web client's pages take to load on loopback, in a real browser.

    python bench/web.py [--loads N]

Starts `artproject serve` (a fresh database in a temporary folder, `--watch` on a copy of
Japan) on a free loopback port and opens each page N times (10 by default) in headless
Chromium (Debian's, /usr/bin/chromium), each load in a fresh browser context (nothing
cached: the first visit), timing from the navigation's start to the page's content drawn
(the lobby's form, a replay step's board, a game's board, the watched board) by the page's
own clock (`performance.now()`). Prints the median and the slowest of each page, in
milliseconds, beside the same for a bare static file (the browser's own cost of a fresh
context and a navigation, the same run). Run it under `nice` on a busy machine: the
figures are wall time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=10)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from artproject import web
    from tests.serving import Running

    tmp = Path(tempfile.mkdtemp(prefix="artproject-bench-web-"))
    watched = tmp / "harbour.toml"
    watched.write_text((ROOT / "missions" / "japan.toml").read_text())
    web.configure(watch=watched)
    srv = Running(tmp / "games.db")
    try:
        game = srv.create(game="art-project", board="japan", seats=["person", "bot:heuristic"])
        token = srv.join(game["id"], "p1")
        transcript = ROOT / "tests" / "transcripts" / "japan-2p-medium-seed1-heuristic.txt"
        rid = srv.http.post("/api/replays?name=t.txt", content=transcript.read_bytes()).json()["id"]
        pages = {"a bare file": ("/static/icon.svg", "svg"),  # the peer: the browser's own part
                 "lobby": ("/", "#create-game"),
                 "replay step": (f"/replay/{rid}/40?view=all", ".replay-board svg.board"),
                 "play": (f"/play/{game['id']}", ".play-board svg.board"),
                 "watch": ("/watch", ".watch-board svg.board")}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--no-sandbox"])
            for name, (path, ready) in pages.items():
                times = []
                for _ in range(args.loads):
                    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
                    ctx.add_init_script(
                        "localStorage.setItem('artproject.seat." + game["id"] + "', "
                        + repr('{"seat": "p1", "token": "' + token + '"}') + ")")
                    page = ctx.new_page()
                    page.goto(srv.url + path)
                    page.wait_for_selector(ready)
                    times.append(page.evaluate("performance.now()"))
                    ctx.close()
                print(f"{name:13} median {statistics.median(times):6.0f} ms, "
                      f"slowest {max(times):6.0f} ms ({args.loads} loads)")
            browser.close()
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
