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

# a start far from the target (one health at Easy): the search finds better values
FAR = """\
name = "harbour"
extends = "japan"

[difficulty]
easy = 1

[tune.difficulty]
easy = [1, 6]

[tune.setup]
agents_per_city = [1, 3]
"""


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

