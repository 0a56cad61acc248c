"""docs/web.md shows every screenshot the browser tests take, and `artproject serve
--watch FILE` serves the web client as the page says (the command itself, in a process)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "web.md"


def test_the_page_shows_every_screenshot_the_tests_take() -> None:
    shown = set(re.findall(r"!\[[^\]]*\]\(web/([\w.-]+\.png)\)", PAGE.read_text()))
    taken = set()
    for test in (ROOT / "tests" / "web").glob("test_*.py"):
        taken |= set(re.findall(r'shoot\(\w+, "([\w.-]+\.png)"', test.read_text()))
    assert taken and shown == taken
    on_disk = {p.name for p in (ROOT / "docs" / "web").glob("*.png")}
    assert on_disk == taken, "a screenshot no test takes, or one not written yet"


def test_serve_watch_serves_the_client(tmp_path: Path) -> None:
    mission = tmp_path / "harbour.toml"
    mission.write_text((ROOT / "missions" / "japan.toml").read_text())
    proc = subprocess.Popen(
        [sys.executable, "-m", "artproject", "serve", "--port", "0", "--db",
         str(tmp_path / "games.db"), "--watch", str(mission)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert url, line
        with httpx.Client(base_url=url.group(0), timeout=30) as http:
            for page in ("/", "/watch", "/replay", "/replay/x/1", "/play/abc"):
                r = http.get(page)
                assert r.status_code == 200 and 'src="/static/js/app.js"' in r.text
            assert http.get("/static/js/games/art-project.js").status_code == 200
            watched = http.get("/api/watch").json()
            assert watched["errors"] == [] and watched["table"]["board"] == "japan"
            assert len(watched["table"]["cities"]) == 8
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Traceback" not in err


def test_the_client_needs_nothing_from_the_internet() -> None:
    """Every page's asset is the server's own: no address with a scheme or a host in the
    shipped HTML, CSS or scripts (an SVG's namespace is a name, not a fetch)."""
    static = ROOT / "artproject" / "web" / "static"
    files = [p for p in static.rglob("*") if p.suffix in (".html", ".css", ".js", ".svg")]
    assert len(files) >= 10
    for f in files:
        text = f.read_text()
        text = text.replace("http://www.w3.org/2000/svg", "")
        assert not re.search(r"(https?:)?//[\w.-]+\.\w+/", text.replace("://${", "")), f
        for ref in re.findall(r'(?:src|href)="([^"]+)"', text):
            assert ref.startswith(("/", "#")), (f, ref)
        for ref in re.findall(r'from "([^"]+)"', text):
            assert ref.startswith("./") or ref.startswith("../"), (f, ref)
