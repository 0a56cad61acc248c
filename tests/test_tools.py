"""The tools for players and authors: play, render, new; the heuristic bot and policies."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from artproject import load_rules, new_game, save_game, shipped_missions
from artproject.core.art.bots import POLICIES, heuristic_policy
from artproject.core.art.screen import screen
from artproject.policies import register_policy
from artproject.render import render
from artproject.simulate import play, simulate_grid, wilson

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str, cwd: Path = ROOT, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "artproject", *args], capture_output=True,
                          text=True, cwd=cwd, input=stdin, check=False)


# ---------------------------------------------------------------- render
@pytest.mark.parametrize("mission", shipped_missions())
def test_render_shows_every_city_and_road(mission: str) -> None:
    rules = load_rules(mission)
    root = ET.fromstring(render(rules).split("?>", 1)[1])
    assert root.tag == f"{SVG}svg"
    cities = {g.get("data-city") for g in root.iter(f"{SVG}g") if g.get("data-city")}
    assert cities == {c.name for c in rules.cities}
    lines = {(ln.get("data-from"), ln.get("data-to")) for ln in root.iter(f"{SVG}line")}
    roads = {(rules.cities[a].name, rules.cities[r.dst].name)
             for a, rs in enumerate(rules.neighbours) for r in rs if r.dst > a}
    assert lines == roads
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert str(rules.track[0].threat) in texts


def test_render_and_play_show_the_threat_the_team_faces(tmp_path: Path) -> None:
    """A game's track shows each space's threat with what its team's size adds
    (rules.threat_by_players, docs/missions.md); the board alone shows the printed one."""
    v = tmp_path / "team.toml"
    v.write_text("[rules]\nthreat_by_players = [0, 0, 0, 7, 0, 0]\n", encoding="utf-8")
    g = new_game("japan", players=4, seed=1, variants=[v])
    printed = [s.threat for s in g.rules.track]

    def shown(svg: str) -> list[str | None]:
        root = ET.fromstring(svg.split("?>", 1)[1])
        return [t.text for g in root.iter(f"{SVG}g") if g.get("id") == "track"
                for t in g.iter(f"{SVG}text")]
    assert all(str(t + 7) in shown(render(g.rules, g)) for t in printed)
    assert all(str(t) in shown(render(g.rules)) for t in printed)
    assert str(max(printed) + 7) not in shown(render(g.rules))
    assert f"[{printed[0] + 7}/" in screen(g, 0) and f"threat {printed[0] + 7}," in screen(g, 0)


def test_render_a_position(tmp_path: Path) -> None:
    g = new_game("japan", players=2, seed=2, phase="battle",
                 position={"lost": ["osaka"], "artworks": ["kyoto"], "agents": {"kyoto": 4}})
    save = tmp_path / "g.json"
    save_game(g, save)
    out = tmp_path / "pos.svg"
    r = run("render", "--save", str(save), "-o", str(out))
    assert r.returncode == 0, r.stderr
    root = ET.parse(out).getroot()
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "4" in texts and any(t and t.startswith("round 1") for t in texts)
    assert run("render", "-o", str(out)).returncode == 2


# ---------------------------------------------------------------- new
def test_new_mission_checks_unchanged_and_is_not_overwritten(tmp_path: Path) -> None:
    r = run("new", "harbour", "--from", "egypt", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "harbour.toml").read_text()
    assert 'extends = "egypt"' in text and "# [rules]" in text
    assert run("check", "harbour.toml", cwd=tmp_path).returncode == 0
    assert load_rules(tmp_path / "harbour.toml").name == "harbour"
    r = run("new", "harbour", cwd=tmp_path)
    assert r.returncode == 2 and "already exists" in r.stderr
    assert (tmp_path / "harbour.toml").read_text() == text
    assert run("new", "Bad Name", cwd=tmp_path).returncode == 2
    assert run("new", "x", "--from", "japn", cwd=tmp_path).returncode == 2


# ---------------------------------------------------------------- play
def test_play_a_scripted_session(tmp_path: Path) -> None:
    script = "done\nfoo\n99\nview p2\n\n1\n\nundo\nsave g.json\nhelp\n"
    r = run("play", "--seed", "4", "--players", "2", cwd=tmp_path, stdin=script)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "-- pass the screen to p2, then press Enter" in out and "-- decide: plan" in out
    assert "! unknown verb 'foo'" in out
    assert "! no action numbered 99" in out
    assert "p2's hand:" in out
    assert "undone" in out or "cannot be undone" in out
    assert "saved to g.json" in out and "commands:" in out
    assert "end of input: saved to artproject-autosave.json" in out
    assert (tmp_path / "g.json").exists() and (tmp_path / "artproject-autosave.json").exists()
    # the autosave continues where the session stopped, and its own autosave takes a fresh
    # name: the first game's stays (issue 11: ending a new game overwrote the last one's)
    first = (tmp_path / "artproject-autosave.json").read_text()
    r = run("play", "--load", "artproject-autosave.json", cwd=tmp_path, stdin="quit\n")
    assert r.returncode == 0 and "saved to artproject-autosave-2.json; bye" in r.stdout
    assert (tmp_path / "artproject-autosave.json").read_text() == first


def test_play_never_saves_over_a_file_it_did_not_write(tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text('extends = "japan"\n')
    script = "save mine.toml\nsave g.json\ndone\nsave g.json\nsave mine.toml --force\nquit\n"
    r = run("play", "--seed", "4", cwd=tmp_path, stdin=script)
    assert r.returncode == 0, r.stderr
    assert "! mine.toml already exists and this session did not write it; nothing was " \
        "written (save mine.toml --force replaces it)" in r.stdout
    assert r.stdout.count("saved to g.json") == 2  # its own file: saved over
    assert "artproject-save" in mine.read_text()  # forced
    assert len(list(tmp_path.glob(".*"))) == 0  # no temporary file left


def test_play_shows_only_the_viewers_hand() -> None:
    from artproject.core.art.screen import screen

    g = new_game("japan", players=3, seed=5)
    g.apply("done")
    text = screen(g, 1)
    for c in g.hands[1]:
        assert f"[{c}]" in text
    for c in g.hands[0] + g.hands[2]:
        assert f"[{c}]" not in text
    assert "p1's hand (clue backs)" in text


# ---------------------------------------------------------------- policies, simulate
def test_heuristic_beats_random() -> None:
    def wins(policy: str) -> int:
        cells = simulate_grid(["japan"], ["easy"], [2], 40, 1, policy=policy)
        return int(cells[0]["won"])

    assert wins("heuristic") > wins("random") + 5


def test_policy_plugins() -> None:
    def first(seed: int):  # type: ignore[no-untyped-def]
        return lambda st: st.legal_actions()[-1]

    register_policy("last-action", first)
    try:
        cells = simulate_grid(["japan"], ["easy"], [2], 3, 0, policy="last-action")
        assert cells[0]["games"] == 3
    finally:
        del POLICIES["last-action"]


def test_heuristic_plays_every_board() -> None:
    for m in shipped_missions():
        for players in (1, 2, 4, 6):
            g = new_game(m, players=players, difficulty="easy", seed=players)
            assert play(g, heuristic_policy(players)) < 5000


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_the_bot_finds_the_cities_whose_fall_loses() -> None:
    """Rio's hook makes every district with a symbol fatal; Japan has no such city."""
    from artproject.core.art.bots import Heuristic

    rio = new_game("rio", 2, "easy", 1)
    names = {rio.rules.cities[c].name for c in Heuristic(1).critical(rio)}
    assert names == {c.name for c in rio.rules.cities if c.symbol}
    assert Heuristic(1).critical(new_game("japan", 2, "easy", 1)) == frozenset()


# ---------------------------------------------------------------- benchmarks
@pytest.mark.parametrize(("script", "args", "expect"), [
    ("engine.py", ["--games", "40", "--full-games", "1", "--rounds", "1", "--cells", "japan:2",
                   "rio:6"], "us per decision step"),
    ("engine.py", ["--games", "40", "--full-games", "1", "--rounds", "1", "--cells", "japan:2"],
     "| japan | 2 |"),
    ("engine.py", ["--games", "40", "--full-games", "1", "--cells", "usa:4", "--profile"],
     "ncalls"),
    ("count.py", ["--games", "1", "--random", "2", "--dry-run"], "decisions counted"),
    ("digest.py", ["--games", "1", "--quick"], "digest of"),
    ("effects.py", [], "geometric mean ratio"),
    ("bot.py", ["--games", "1", "--rounds", "1", "--digest"], "bot/engine"),
    ("adapters.py", ["--game", "art-of-war", "--steps", "300", "--rounds", "1", "--floors"],
     "| art-of-war | openspiel's floor (a null game) |"),
    ("adapters.py", ["--game", "art-of-war", "--steps", "300", "--rounds", "1", "--parts"],
     "| art-of-war | gymnasium, a decision, reseeded every game |"),
    ("adapters.py", ["--game", "art-project", "--steps", "300", "--rounds", "1", "--full"],
     "| art-project, seats=players | gymnasium, heuristic games replayed |"),
    ("adapters.py", ["--game", "art-of-war", "--steps", "300", "--rounds", "1", "--replayed"],
     "| art-of-war | pettingzoo raw_env, random games replayed |"),
    ("ai.py", ["--steps", "200", "--rounds", "1", "--batch", "8", "--art-batch", "4"],
     "| batched The A.R.T. Project, Japan, 4 games a call, 2 players: inside step |"),
])
def test_benchmarks_run(script: str, args: list[str], expect: str) -> None:
    """The benchmark scripts still run (a smoke test: their figures are never asserted)."""
    r = subprocess.run([sys.executable, str(ROOT / "bench" / script), *args],
                       capture_output=True, text=True, cwd=ROOT, check=False)
    assert r.returncode == 0, r.stderr
    assert expect in r.stdout


@pytest.mark.parametrize("game", ["art-of-war", "art-project"])
def test_adapters_bench_parts_take_their_parts_out(game: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """`bench/adapters.py --parts` measures raw_env with the tensor really taken out: no
    tensor is written in its loop (its stand-in once patched a method `last` no longer
    called, and the figure silently measured the whole step), and every patch is undone."""
    from artproject.adapters import _common
    from artproject.adapters import pettingzoo as pz

    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    import adapters as bench  # type: ignore[import-not-found]

    written: list[int] = []
    real = _common.Packers.written

    def counted(self: _common.Packers, *args: object, **kw: object) -> object:
        written.append(1)
        return real(self, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(_common.Packers, "written", counted)
    observe = pz._observe
    assert bench.pettingzoo_without(game, 60, ("tensor", "shaped")) >= 60  # (games played out)
    assert len(written) <= 1  # (the first, for the tensor's size)
    assert pz._observe is observe
    assert bench.pettingzoo(game, 60) >= 60 and len(written) > 30


def test_adapters_bench_measures_the_seating_it_is_given(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`bench/adapters.py --seats team` measures The A.R.T. Project with one seat for the
    team (every loop reads the bench's GAMES), a seat a player without it; the table's
    game column names the seating."""
    from artproject.adapters.pettingzoo import raw_env

    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    import adapters as bench  # type: ignore[import-not-found]

    monkeypatch.setitem(bench.GAMES, "art-project", dict(bench.GAMES["art-project"]))
    agents: list[list[str]] = []

    def measure(game: str, *args: object) -> dict[str, list[float]]:
        agents.append(raw_env(game=game, **bench.GAMES[game]).possible_agents)
        return {"engine": [2.0], "pettingzoo raw_env": [1.0]}

    monkeypatch.setattr(bench, "measure", measure)
    for seats, want in (["team"], ["team_0"]), ([], ["player_0", "player_1"]):
        monkeypatch.setattr(sys, "argv", ["adapters.py", "--game", "art-project",
                                          *(["--seats", *seats] if seats else [])])
        bench.main()
        assert agents.pop() == want
        label = f"art-project, seats={seats[0] if seats else 'players'}"
        assert (f"| {label} | pettingzoo raw_env | 1 | 1-1 | 2.0x (2.0-2.0) |"
                in capsys.readouterr().out)


def test_adapters_bench_reads_each_replay_against_the_engine_replaying_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`bench/adapters.py`'s ratio is the median of the rounds' own ratios, and a row of
    replayed games is read against the engine replaying the same games (it was read against
    the engine's random loop); `--replayed`'s recording is the random loop's own games,
    which the engine and `raw_env` replay decision for decision."""
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    import adapters as bench

    def measure(game: str, *args: object) -> dict[str, list[float]]:
        return {"engine": [8.0, 4.0, 6.0], "pettingzoo raw_env": [2.0, 2.0, 1.0],
                "engine, heuristic games replayed": [9.0, 9.0, 9.0],
                "pettingzoo raw_env, heuristic games replayed": [3.0, 3.0, 3.0],
                "engine, random games replayed": [10.0, 10.0, 10.0],
                "pettingzoo raw_env, random games replayed": [5.0, 4.0, 2.0]}

    monkeypatch.setattr(bench, "measure", measure)
    monkeypatch.setattr(sys, "argv", ["adapters.py", "--game", "art-of-war"])
    bench.main()
    out = capsys.readouterr().out
    assert "| art-of-war | pettingzoo raw_env | 2 | 1-2 | 4.0x (2.0-6.0) |" in out
    assert "raw_env, heuristic games replayed | 3 | 3-3 | 3.0x (3.0-3.0) |" in out
    assert "raw_env, random games replayed | 4 | 2-5 | 2.5x (2.0-5.0) |" in out
    games = bench.recorded("art-of-war", "random", 200)
    assert sum(len(actions) for *_, actions in games) >= 200
    assert games[0][0] == 0 and all(g[0] is None for g in games[1:])  # (`aec_loop`'s seeds)
    assert bench.native_full("art-of-war", 200, "random") == bench.pettingzoo_full(
        "art-of-war", 200, "random") == sum(len(actions) for *_, actions in games)


def test_play_points_to_the_ruling_that_ended_the_game() -> None:
    import io

    from artproject.play import run as play

    g = new_game("japan", players=2, seed=1, phase="movement",
                 position={"van": {"fuel": 0}, "health": [1, 3], "pawns": ["tokyo", "tokyo"]})
    out = io.StringIO()
    play(g, io.StringIO("move p1 nagoya\n"), out)
    assert ("== the team lost: p1 lost their last health token (R7) (rulings: "
            "docs/rulings.md)") in out.getvalue()


@pytest.mark.parametrize("game", ["japan", "art-of-war"])
def test_play_a_finished_game_tells_how_it_ended(tmp_path: Path, game: str) -> None:
    """A save of a game that has ended, loaded: the table and how the game ended (the
    standing, in Art of War), no decision to take, no 'None' in its place; exit 0."""
    import random

    g = new_game(game, players=2, seed=3)
    rng = random.Random(3)
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))
    save_game(g, tmp_path / "done.json")
    r = run("play", "--load", "done.json", cwd=tmp_path, stdin="quit\n")
    assert r.returncode == 0, r.stderr
    assert "None" not in r.stdout and "decide" not in r.stdout
    tail = r.stdout.rstrip("\n").splitlines()
    if game == "japan":
        assert tail[-1].startswith(f"== the team {g.outcome}: {g.reason}")
    else:
        assert r.stdout.startswith("== Art of War: turn ") and ", over" in tail[0]
        assert f"== {g.reason}" in tail and tail[-1].startswith("  ")  # (the standing)


# ---------------------------------------------------------------- the tuning tools
def test_the_deck_is_what_make_deck_makes(tmp_path: Path) -> None:
    """cards/mission-cards.toml is exactly what the command in its header writes (the deck
    docs/balance.md tells of), so that the deck can be made again and changed by its knobs."""
    deck = (ROOT / "cards" / "mission-cards.toml").read_text(encoding="utf-8")
    (command,) = [ln.removeprefix("#     ") for ln in deck.splitlines()
                  if ln.startswith("#     python tools/make_deck.py ")]
    out = tmp_path / "deck.toml"
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "make_deck.py"),
                        *command.split()[2:], "--out", str(out)],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert out.read_text(encoding="utf-8") == deck


@pytest.mark.parametrize("mode", [[], ["--house"]])
def test_tune_tracks_runs_and_writes_nothing(tmp_path: Path, mode: list[str]) -> None:
    """The track search, and with --house the house rule's numbers on the shipped track (a
    smoke test on two games a cell), print TOML to copy and leave the project's files as
    they were."""
    def files() -> dict[Path, bytes]:
        return {p: p.read_bytes() for d in ("missions", "cards") for p in (ROOT / d).rglob("*")
                if p.is_file()}
    before = files()
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "tune_tracks.py"), "usa",
                        "--games", "2", "--workers", "1", *mode],
                       capture_output=True, text=True, cwd=tmp_path, check=False)
    assert r.returncode == 0, r.stderr
    assert "team_threat_by_players = [" in r.stdout and "[[track]]" in r.stdout
    assert files() == before and not list(tmp_path.iterdir())
