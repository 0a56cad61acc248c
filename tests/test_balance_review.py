"""The balance tools after a second review: a policy at its defaults is one cell, the CSV
carries what the JSON does, plots keep their legends and titles inside, causes grouped by
kind, and the smaller refusals (a store folder, a variant not .toml, --address, a store in a
read-only folder, Art of War's fixed seat share)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from artproject.cli import main
from artproject.store import Row
from tests.test_scale import cli, one_line_error

SIM = ("simulate", "--mission", "japan", "--players", "2", "--games", "2", "--seed", "3")
FAST = "ismcts:budget=2"  # (a search of two playouts: quick, options to spell out)


def _policies(db: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(db) as conn:
        got = conn.execute("SELECT policy, seed FROM games ORDER BY policy, seed").fetchall()
    conn.close()
    return got


# ---------------------------------------------------------------- a policy spelt two ways
def test_an_option_at_its_default_is_the_same_cell(tmp_path: Path) -> None:
    db = tmp_path / "pol.db"
    for policy in (FAST, f"{FAST},tree=2", "ismcts:depth=400,budget=2"):
        r = cli(*SIM, "--policy", policy, "--store", str(db))
        assert r.returncode == 0, r.stderr
    assert _policies(db) == [(FAST, 3), (FAST, 4)]


def test_a_store_holding_the_spelt_out_form_joins_the_cell(tmp_path: Path) -> None:
    """A store written before defaults were left out holds `ismcts:budget=2,tree=2`: the
    report counts its games once with the short form's, and a sweep plays none again."""
    db = tmp_path / "old.db"
    assert cli(*SIM, "--policy", FAST, "--store", str(db)).returncode == 0
    with sqlite3.connect(db) as conn:  # as the code before wrote it, and the same games
        conn.execute("INSERT INTO games SELECT game, mission, variant, rules, difficulty, "
                     "players, seed, ? , outcome, cause, rounds, decisions, engine FROM games",
                     (f"{FAST},tree=2",))
    conn.close()
    assert len(_policies(db)) == 4
    report = cli("report", str(db))
    assert report.returncode == 0, report.stderr
    assert f"{FAST},tree=2" not in report.stdout and report.stdout.count(FAST) == 1
    r = cli(*SIM, "--policy", f"{FAST},tree=2", "--store", str(db), "--json")
    assert r.returncode == 0, r.stderr
    assert _policies(db) == [(FAST, 3), (FAST, 4)]
    assert main(["report", str(db)]) == 0


# ---------------------------------------------------------------- plots' layout
CAUSES = ("a player lost their last health token (R7)",
          "the final round ended before the last artwork was recovered (R20)",
          "a lost-city marker was needed and none was left (R2)",
          "an agent token was needed and none was left (R2)",
          "a pawn in lost tokyo cannot leave (R13)", "a pawn in lost osaka cannot leave (R13)")


def _rows(boards: int) -> list[Row]:
    return [Row("art", ["japan", "egypt", "rio", "usa"][b], "team-threat+each-triple", "0" * 64, d,
                p, s, "ismcts:budget=64,depth=300", "lost" if s % 3 else "won",
                CAUSES[s % len(CAUSES)], 5 + s % 9, 100, "test")
            for b in range(boards) for d in ("easy", "medium", "hard", "impossible")
            for p in (1, 2, 3, 4) for s in range(12)]


@pytest.mark.parametrize("boards", [1, 2, 4])
@pytest.mark.parametrize("plot", ["win-rate", "game-length", "causes-of-loss"])
def test_every_legend_and_title_lies_within_its_figure(boards: int, plot: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from artproject.core.art.hall import PLOTS

    fig = PLOTS[plot](_rows(boards))
    fig.draw_without_rendering()
    box = fig.bbox
    texts = [fig._suptitle, *fig.legends, *(ax.title for ax in fig.axes if ax.get_visible()),
             *(ax.get_legend() for ax in fig.axes if ax.get_legend() is not None)]
    for t in texts:
        ext = t.get_window_extent()
        assert box.x0 - 0.5 <= ext.x0 and ext.x1 <= box.x1 + 0.5, (plot, t)
        assert box.y0 - 0.5 <= ext.y0 and ext.y1 <= box.y1 + 0.5, (plot, t)


# ---------------------------------------------------------------- CSV as JSON
@pytest.mark.parametrize("game", ["art-project", "art-of-war", "kuhn"])
def test_the_csv_carries_what_the_json_does_to_four_decimals(game: str) -> None:
    import csv
    import io
    import json

    args = ["simulate", "--games", "3", "--seed", "5", "--variant", "team-threat"]
    if game != "art-project":
        args = ["simulate", "--game", game, "--players", "2", "--games", "3", "--seed", "5"]
    cells = json.loads(cli(*args, "--json").stdout)
    rows = list(csv.DictReader(io.StringIO(cli(*args, "--csv").stdout)))
    for c in cells:
        mine = [r for r in rows if r["players"] == str(c["players"])]
        for r in mine:
            assert r["variant"] == "+".join(c["variants"]) and r["seed"] == str(c["seed"])
            assert c["policy"] in (r.get("lineup"), r["policy"])
            for k, v in r.items():  # a fraction: four decimals, never `0.0`
                if "." in v and v.replace(".", "").lstrip("-").isdigit():
                    assert len(v.split(".")[1]) == 4, (k, v)
    if game == "art-project":
        (r,) = rows
        assert json.loads(r["causes"]) == cells[0]["causes"]
        assert (r["ci95_low"], r["lost"]) == (f"{cells[0]['ci95'][0]:.4f}", str(cells[0]["lost"]))


# ---------------------------------------------------------------- causes by kind
def test_causes_are_grouped_by_kind_with_each_city_s_share_told() -> None:
    """R13's reason names its city: the Hall of Fame lists the kind once, each city's count
    beside it, and the plot's legend gives the kind one entry."""
    import matplotlib

    matplotlib.use("Agg")
    from artproject.core.art.hall import PLOTS, cause_kind, hall_of_fame

    rows = _rows(1)
    text = hall_of_fame(rows, "test.db")
    r13 = [line for line in text.splitlines() if "(R13)" in line and line.startswith("  ")]
    assert len(r13) == 1, text
    assert "a pawn in a lost city cannot leave (R13): " in r13[0]
    assert "osaka" in r13[0] and "tokyo" in r13[0]
    assert cause_kind("a pawn in lost Rio de Janeiro cannot leave (R13)") == \
        "a pawn in a lost city cannot leave (R13)"
    assert cause_kind(CAUSES[0]) == CAUSES[0]
    fig = PLOTS["causes-of-loss"](rows)
    labels = [t.get_text().replace("\n", " ") for t in fig.legends[0].get_texts()]
    assert sum("(R13)" in t for t in labels) == 1, labels


def test_a_whole_mean_of_rounds_prints_one_decimal() -> None:
    from artproject.core.art.hall import hall_of_fame

    rows = [r._replace(rounds=13) for r in _rows(1)]
    lines = hall_of_fame(rows, "test.db").splitlines()
    assert all(" 13.0  " in line for line in lines[4:4 + 16]), lines[4]


# ---------------------------------------------------------------- Art of War's seat share
def test_a_policy_in_every_seat_has_no_interval_and_others_one_over_games() -> None:
    import json

    alone = ("simulate", "--game", "art-of-war", "--players", "2", "--games", "6")
    r = cli(*alone)
    assert r.returncode == 0, r.stderr
    assert "heuristic  50.0% (every seat: fixed)" in r.stdout, r.stdout
    (cell,) = json.loads(cli(*alone, "--json").stdout)
    assert cell["policies"][0]["ci95"] is None
    mixed = ("simulate", "--game", "art-of-war", "--players", "3", "--games", "10",
             "--policy", "heuristic,random", "--json")
    (cell,) = json.loads(cli(*mixed).stdout)
    for p in cell["policies"]:  # over games: the games' interval, scaled by seats a game
        from artproject.loop import wilson

        lo, hi = wilson(p["won"], p["games"])
        per = p["games"] / p["seat_games"]
        assert p["ci95"] == [round(lo * per, 4), round(hi * per, 4)]
        assert p["ci95"][0] <= p["win_rate"] <= p["ci95"][1]


# ---------------------------------------------------------------- the smaller refusals
def test_a_store_path_ending_in_a_slash_is_a_folder(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    msg = one_line_error(cli(*SIM, "--store", "newdir/"))
    assert msg == ("artproject: newdir/: a folder, not a store file: give the store's file "
                   "name (newdir/results.db)")
    assert list(tmp_path.iterdir()) == []


def test_a_variant_file_without_toml_is_told_as_a_mission_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.json").write_text((Path(__file__).parent / "missions" /
                                      "team-threat.toml").read_text())
    r = cli(*SIM, "--variant", "v.json")
    assert r.returncode == 2
    assert ("the file v.json is there, but a variant file's name ends in .toml (a name "
            "without is a shipped variant's): rename it v.json.toml") in r.stderr, r.stderr


def test_an_empty_address_names_the_option() -> None:
    msg = one_line_error(cli(*SIM, "--backend", "dask", "--address", ""))
    assert msg.startswith("artproject: --address: an empty address"), msg


def test_a_store_in_a_folder_sqlite_cannot_write_is_refused_before_a_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite writes STORE-journal beside the store at each batch: a read-only folder (here
    told by os.access, as root may write anywhere) is refused before anything is played,
    never after the games with 'run the same command again'."""
    import os

    db = tmp_path / "ro" / "s.db"
    db.parent.mkdir()
    assert cli(*SIM, "--games", "1", "--store", str(db)).returncode == 0
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == db.parent
                        and mode & os.W_OK else real(p, mode, **kw))
    msg = one_line_error(cli(*SIM, "--store", str(db)))
    assert "cannot be written to, and SQLite writes its journal (s.db-journal) there" in msg
    assert msg.endswith("nothing was played")
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)
    conn.close()


def test_the_library_s_sweep_keys_a_policy_as_the_command_line_does(tmp_path: Path) -> None:
    from artproject.simulate import simulate_grid
    from artproject.store import Store

    db = tmp_path / "lib.db"
    for policy in (f"{FAST},tree=2", FAST):
        with Store.open(db) as store:
            (cell,) = simulate_grid(["japan"], ["easy"], [2], 1, 0, policy=policy,
                                    store=store)
        assert cell["policy"] == FAST
    assert _policies(db) == [(FAST, 0)]
