"""Balance tools' defects: tune's seeds, settings and output path, the store's keys, the
backend options, a repeated variant and the win-rate plot's legend."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_scale import cli, one_line_error

MISSIONS = Path(__file__).parent / "missions"
TUNE = ("--target", "easy=0.5,hard=0.2", "--players", "1,2", "--games", "2", "--trials", "2")


@pytest.fixture
def ht(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copy(MISSIONS / "harbour-tunable.toml", tmp_path / "ht.toml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("seed", [2**32, 2**63 - 1 - 4])
def test_tune_takes_every_documented_seed(ht: Path, seed: int) -> None:
    """Optuna's sampler (numpy) takes seeds below 2**32 only: ours is reduced into its range,
    not a traceback; the highest seed tune accepts plays its fresh games too."""
    r = cli("tune", "ht.toml", *TUNE, "--seed", str(seed), "-o", "t.toml")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr


def test_tune_refuses_a_seed_whose_fresh_games_pass_the_limit(ht: Path) -> None:
    """The fresh games run to seed + 2 x games - 1: a seed that would pass 2**63 - 2 there is
    refused before anything is played."""
    top = 2**63 - 1 - 4
    msg = one_line_error(cli("tune", "ht.toml", *TUNE, "--seed", str(top + 1)))
    assert msg.startswith(f"artproject: --seed must be from 0 to {top} (tune plays"), msg


def test_tune_refuses_an_empty_output_path(ht: Path) -> None:
    msg = one_line_error(cli("tune", "ht.toml", *TUNE, "-o", ""))
    assert "-o: an empty path" in msg
    assert sorted(p.name for p in ht.iterdir()) == ["ht.toml"]


@pytest.mark.parametrize(("args", "message"), [
    (("--players", "2", "--target", "easy=0.5,hard=0.2"),
     "--players 2 plays no 1-player game, so [tune.solo] would choose solo.removed_cards "
     "blind"),
    (("--players", "1,2", "--target", "easy=0.5"),
     "--target names no hard rate, so [tune.difficulty] would choose difficulty.hard blind"),
])
def test_tune_refuses_settings_no_game_tests(ht: Path, args: tuple[str, ...],
                                             message: str) -> None:
    """A setting none of the games plays would be written untested: refused, naming it."""
    msg = one_line_error(cli("tune", "ht.toml", *args, "--games", "2", "--trials", "2",
                             "-o", "t.toml"))
    assert message in msg, msg
    assert sorted(p.name for p in ht.iterdir()) == ["ht.toml"]


@pytest.mark.parametrize("command", ["simulate", "tune"])
def test_connect_timeout_needs_dask(ht: Path, command: str) -> None:
    """--connect-timeout without --backend dask would be ignored: refused as --address is."""
    head = ("simulate", "--mission", "ht.toml", "--players", "2", "--games", "1") \
        if command == "simulate" else ("tune", "ht.toml", *TUNE)
    msg = one_line_error(cli(*head, "--connect-timeout", "5"))
    assert "--connect-timeout is for --backend dask" in msg


SHIPPED = Path(__file__).parent.parent / "missions" / "variants" / "team-threat.toml"
SIM = ("simulate", "--mission", "japan", "--players", "2", "--games", "2", "--seed", "3")


def stored(db: Path) -> list[tuple[str, str, int]]:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT variant, policy, seed FROM games ORDER BY seed").fetchall()


def test_a_shipped_variant_by_its_path_is_one_cell_with_its_name(tmp_path: Path) -> None:
    """`--variant team-threat` and the same file by its path are one cell of the store: the
    second run resumes (plays nothing), never counts the games twice."""
    db = tmp_path / "s.db"
    assert cli(*SIM, "--variant", "team-threat", "--store", str(db)).returncode == 0
    r = cli(*SIM, "--variant", str(SHIPPED.resolve()), "--store", str(db), "--json")
    assert r.returncode == 0, r.stderr
    assert stored(db) == [("team-threat", "heuristic", 3), ("team-threat", "heuristic", 4)]


def test_one_policy_spelt_three_ways_is_one_cell(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    for policy in ("ismcts:budget=2,depth=5", "ismcts:depth=5,budget=2",
                   "ismcts:budget=2, depth=5"):
        r = cli(*SIM, "--games", "1", "--policy", policy, "--store", str(db))
        assert r.returncode == 0, r.stderr
    assert stored(db) == [("", "ismcts:budget=2,depth=5", 3)]


def test_a_variant_given_twice_is_layered_once_with_a_note(tmp_path: Path) -> None:
    """A variant's hooks run once however often the file is named (by name and by path, or
    the same spelling twice): the results are the single variant's, and a note says so."""
    once = cli(*SIM, "--variant", "team-threat", "--json")
    twice = cli(*SIM, "--variant", "team-threat", "--variant", str(SHIPPED), "--json")
    assert twice.returncode == 0, twice.stderr
    assert twice.stdout == once.stdout
    assert ("artproject: note: --variant names team-threat more than once; each is counted "
            "once") in twice.stderr
    harbour = MISSIONS / "team-threat.toml"
    r = cli(*SIM, "--variant", str(harbour), "--variant", str(harbour), "--json")
    assert "more than once; each is counted once" in r.stderr
    assert r.stdout == cli(*SIM, "--variant", str(harbour), "--json").stdout


def test_the_win_rate_plot_labels_every_team_size(ht: Path) -> None:
    """A team size only another panel plays has a label too: one legend, every size."""
    import matplotlib

    matplotlib.use("Agg")
    from artproject.core.art.hall import plot_win_rate
    from artproject.store import Store

    few = ("--games", "1", "--difficulty", "easy", "--store", "s.db")
    assert cli("simulate", "--mission", "japan", "--players", "2,3", *few).returncode == 0
    assert cli("simulate", "--mission", "ht.toml", "--players", "2", *few).returncode == 0
    with Store.read("s.db") as store:
        fig = plot_win_rate(list(store.rows()))
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    labels = [t.get_text() for legend in (*legends, *fig.legends) for t in legend.get_texts()]
    assert sorted(labels) == ["2 players", "3 players"], labels
