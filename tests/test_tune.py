"""tune: the mission's own values are its first trial, the report says what each trial
changed, and the variant's header plays the tuned games again."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
from pathlib import Path

import pytest

from artproject.cli import main
from tests.test_scale import FAR  # a start far from the target: the search finds better values


def cli(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    assert code == 0, err.getvalue()
    return code, out.getvalue()


def after_column(report: str) -> list[str]:
    """The search table's "after" rates (its first table), as printed."""
    rows = []
    for line in report.splitlines()[2:]:
        if not line.strip():
            break
        rows.append(re.findall(r"\d+\.\d% \(\d+-\d+%\)", line)[-1])
    return rows


def test_the_header_plays_the_tuned_games_again(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The variant's header names every --variant tuned on, in order, before the file
    written: its command, run, gives the report's "after" numbers (it left out the
    --variant, and so played other rules than were tuned)."""
    monkeypatch.chdir(tmp_path)
    Path("harbour.toml").write_text(FAR)
    _, report = cli("tune", "harbour.toml", "--variant", "city-falls-at-4", "--target",
                    "easy=0.9", "--players", "2", "--games", "6", "--trials", "3", "--seed", "4",
                    "-o", "tv.toml")
    assert "wrote tv.toml" in report, report
    written, use = Path("tv.toml").read_text().splitlines()[:2]
    assert written.startswith("# Written by: artproject tune harbour.toml --variant "
                              "city-falls-at-4 --target easy=0.9 ")
    prefix = "# Use it as a variant: artproject "
    assert use.startswith(prefix + "simulate --mission harbour.toml --variant "
                          "city-falls-at-4 --variant tv.toml ")
    _, out = cli(*shlex.split(use[len(prefix):]), "--json")
    again = [f"{100 * c['win_rate']:.1f}% ({100 * c['ci95'][0]:.0f}-{100 * c['ci95'][1]:.0f}%)"
             for c in json.loads(out)]
    assert again == after_column(report)


def test_a_ramp_on_the_tracks_own_ends_keeps_the_track(tmp_path: Path) -> None:
    """Japan's threat track (2 4 6 8 9 10) is not a line: values on its own ends keep it
    (they drew the line 2 4 5 7 8 10, so the mission's own values were not the mission);
    other ends draw the line, and the file says which spaces it changes."""
    from artproject.core.art.loader import load_rules
    from artproject.core.art.tunables import variant_text

    japan = load_rules("japan", [])
    own = variant_text(japan, {"track.threat.first": 2, "track.threat.last": 10}, "own")
    assert "[[track]]" not in own
    (tmp_path / "own.toml").write_text(own)
    assert load_rules("japan", [str(tmp_path / "own.toml")]).track == japan.track
    line = variant_text(japan, {"track.threat.first": 2, "track.threat.last": 11}, "line")
    assert "# track threat: 2 4 6 8 9 10 -> 2 4 6 7 9 11 (a line between the ends)" in line
    (tmp_path / "line.toml").write_text(line)
    tuned = load_rules("japan", [str(tmp_path / "line.toml")]).track
    assert [s.threat for s in tuned] == [2, 4, 6, 7, 9, 11]
    assert [s.ally_cost for s in tuned] == [s.ally_cost for s in japan.track]


def pinned(tmp_path: Path, first: str, last: str) -> None:
    """A mission of Japan's rules whose threat ramp may move within these ranges."""
    cli("new", "pin", "--from", "japan")  # (in tmp_path, the current folder)
    with (tmp_path / "pin.toml").open("a") as f:
        f.write(f"\n[tune.track]\nthreat = {{ first = {first}, last = {last} }}\n")


def columns(report: str) -> tuple[list[str], list[str]]:
    """The search table's "before" and "after" rates, as printed."""
    rows = report[:report.index("\n\n")].splitlines()[2:]
    before = [re.findall(r"\d+\.\d% \(\d+-\d+%\)", line)[0] for line in rows]
    return before, after_column(report)


def test_the_missions_own_values_are_the_mission(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """With only the mission's own values to try, every trial is the mission: "after" is
    "before", the report says the values are the mission's own, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    pinned(tmp_path, "[2, 2]", "[10, 10]")
    _, report = cli("tune", "pin.toml", "--target", "easy=1.0,hard=1.0", "--players", "3",
                    "--games", "10", "--trials", "2", "-o", "pin-tuned.toml")
    before, after = columns(report)
    assert before == after, report
    assert "values: the mission's own (the best trial is the mission itself)" in report
    assert "nothing written (pin-tuned.toml not made)" in report
    assert not Path("pin-tuned.toml").exists()


def test_the_values_reported_are_the_after_columns(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """When the best trial is not kept (no better on fresh games), the values printed are
    still its own, the ones whose numbers the "after" columns show, with the track's
    spaces it would change (they were the mission's values beside the best's numbers)."""
    monkeypatch.chdir(tmp_path)
    pinned(tmp_path, "[1, 3]", "[8, 12]")
    _, report = cli("tune", "pin.toml", "--target", "easy=1.0,hard=1.0", "--players", "3",
                    "--games", "8", "--trials", "3", "--seed", "1")
    assert "kept the mission's own values: no trial beat them on fresh games" in report
    assert "values (the best trial's, the \"after\" columns'):" in report
    moved = re.findall(r"track\.threat\.(first|last) +(\d+) -> +(\d+)", report)
    assert len(moved) == 2 and any(a != b for _, a, b in moved), report
    first, last = (int(b) for _, _, b in moved)
    assert re.search(rf"track threat: 2 4 6 8 9 10 -> {first} .* {last} \(a line", report)
