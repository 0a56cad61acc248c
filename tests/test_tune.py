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
