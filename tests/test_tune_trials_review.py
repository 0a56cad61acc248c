"""A reviewer's findings on `tune` (docs/missions.md, "Tuning"): a range whose values the
rules would refuse is refused by `check` and by tune's own check, at its line, before a game
is played; a trial the rules still refuse is told by its values, never by a temporary file
since deleted; and a search, failing or not, leaves no temporary folder behind, not even
from a worker that is terminated."""

from __future__ import annotations

import multiprocessing
import tempfile
from pathlib import Path

import pytest

from tests.test_check_variant_review import HARBOUR, ROOT, cli


@pytest.fixture
def tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary folder of the test's own, for this process and those it starts."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def variants(folder: Path) -> list[str]:
    """The temporary folders of variants given as text in `folder`."""
    return sorted(p.name for p in folder.glob("artproject-variants-*"))


# ---------------------------------------------- 2. a threat range that a trial would break
FIXED = ('extends = "japan"\n[rules]\nthreat_by_players = [-2, 0, 0, 0, 0, 0]\n'
         "[tune.track]\nthreat = { first = [0, 2], last = [10, 12] }\n")
HOUSE = ('extends = "japan"\n[tune.track]\nthreat = { first = [0, 4], last = [10, 12] }\n'
         "[tune.threat_by_players]\n1 = [1, 2]\n")


def test_a_ramp_below_the_boards_own_team_threat_is_refused_at_its_line(
        workdir: Path, capsys: pytest.CaptureFixture[str], tmp: Path) -> None:
    (workdir / "tb.toml").write_text(FIXED)
    status, _, err = cli(capsys, "check", "tb.toml")
    assert status == 2
    assert err.startswith("tb.toml:5:10: tune.track.threat: the ramp's lowest end 0 would "
                          "bring the threat below 0 for 1 player"), err
    status, out, err = cli(capsys, "tune", "tb.toml", "--players", "1", "--target", "easy=0.5",
                           "--games", "1", "--trials", "2")
    assert (status, out) == (2, "")
    assert "tb.toml:5:10: tune.track.threat" in err and "artproject-variants" not in err
    assert sorted(p.name for p in workdir.iterdir()) == ["tb.toml", "tmp"]


def test_a_ramp_below_the_house_rules_team_threat_is_refused_with_the_variant(
        capsys: pytest.CaptureFixture[str], tmp: Path) -> None:
    line = Path(HARBOUR).read_text().splitlines().index(
        "threat = { first = [1, 4], last = [10, 16] }") + 1
    where = f"{HARBOUR}:{line}:10: tune.track.threat: the ramp's lowest end 1 would bring"
    status, _, err = cli(capsys, "check", HARBOUR)
    assert status == 0, err
    status, _, err = cli(capsys, "check", str(ROOT / "missions" / "variants" /
                                              "team-threat.toml"), "--mission", HARBOUR)
    assert status == 2 and err.startswith(where), err
    status, out, err = cli(capsys, "tune", HARBOUR, "--variant", "team-threat", "--players",
                           "1,2", "--target", "easy=0.6,hard=0.2", "--games", "1",
                           "--trials", "2", "-o", str(tmp / "out.toml"))
    assert (status, out) == (2, "") and where in err and "artproject-variants" not in err
    assert variants(tmp) == []


def test_a_tuned_team_sizes_low_end_counts_the_house_rules_number(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "tp.toml").write_text(HOUSE)
    assert cli(capsys, "check", "tp.toml")[0] == 0
    status, _, err = cli(capsys, "check", str(ROOT / "missions" / "variants" /
                                              "team-threat.toml"), "--mission", "tp.toml")
    assert status == 2
    assert "tp.toml:5:5: tune.threat_by_players.1: the range's low end 1 and the house rule " \
        "team-threat's -2 for 1 player would bring the track's lowest threat (0) below 0" in err


# ---------------------------------------------- 5. what the docs say of the test mission
def test_the_tunable_test_mission_has_a_tune_entry_of_every_kind() -> None:
    """Its header, docs/scaling.md and docs/verification.md say so (the fuzz harness mutates
    every kind from it)."""
    import attrs

    from artproject.core.art.schema import TuneSpec
    from artproject.core.sources import read_toml

    doc, _ = read_toml(Path(HARBOUR))
    assert sorted(doc["tune"]) == sorted(f.name for f in attrs.fields(TuneSpec))


# ---------------------------------------------- 2 and 4. a trial the rules refuse
TOKENS = 'extends = "japan"\n[tune.components]\nagent_tokens = [1, 10]\n'


def test_a_refused_trial_names_its_values_and_leaves_no_folder(
        workdir: Path, capsys: pytest.CaptureFixture[str], tmp: Path) -> None:
    (workdir / "at.toml").write_text(TOKENS)
    status, out, err = cli(capsys, "tune", "at.toml", "--players", "1", "--target",
                           "easy=0.5", "--games", "2", "--trials", "2", "--workers", "2")
    assert (status, out) == (2, "")
    assert err.startswith("components.agent_tokens: set-up places 16 agents"), err
    assert "\nartproject: the trial components.agent_tokens = " in err
    assert "artproject-variants" not in err and ".toml:" not in err
    assert variants(tmp) == []
    assert sorted(p.name for p in workdir.iterdir()) == ["at.toml", "tmp"]


def test_a_worker_terminated_after_its_batch_leaves_no_folder(tmp: Path) -> None:
    from artproject.sweep import Batch, _owned, play_batch

    text = "[rules]\nlost_city_at = 4\n"
    # a worker started afresh (as a cluster's are), given the parent's folder or none
    ctx = multiprocessing.get_context("spawn")
    with _owned((text,)) as folder:
        for given in (folder, ""):
            batch = Batch("japan", "japan", "", (), (text,), "easy", 1, "random", (1,),
                          folder=given)
            with ctx.Pool(1) as pool:
                _, _, rows = pool.apply(play_batch, (batch,))
                pool.terminate()  # SIGTERM: no exit handler of the worker runs
            assert len(rows) == 1
            assert variants(tmp) == [Path(folder).name], given
    assert variants(tmp) == []
