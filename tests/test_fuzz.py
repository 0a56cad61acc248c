"""The fuzz harness, bounded: mutants of every shipped file and of saves raise only the
project's own errors (python tools/fuzz.py runs the same at length)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import fuzzing


def test_mutants_raise_only_our_errors() -> None:
    files = 2 * len(fuzzing.shipped_files())  # every shipped file, twice over
    tally = fuzzing.run(files=files, saves=60, seed=11)
    assert tally.files == files and tally.saves == 60
    assert tally.refused > files // 2 and tally.accepted > 0  # the mutants do bite
    assert tally.findings == [], "\n".join(
        f"{f.kind} seed {f.seed} ({f.source}; {f.mutation}): {f.error} at {f.where}"
        for f in tally.findings)


def test_the_harness_reports_what_is_not_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(path: Path) -> object:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(fuzzing, "check", broken)
    tally = fuzzing.run(files=3, saves=0, seed=1)
    assert len(tally.findings) == 3
    f = tally.findings[0]
    assert f.error == "ZeroDivisionError: a bug" and f.text and "test_fuzz.py" in f.where
    again = fuzzing.Tally()
    ws = fuzzing.Workspace()
    try:  # a finding's seed makes its mutant again
        fuzzing.fuzz_file(fuzzing.ROOT / f.source, f.seed, ws, again)
    finally:
        ws.close()
    assert again.findings[0].text == f.text


def test_mutants_of_a_tune_section_raise_only_our_errors() -> None:
    """The [tune] section (issue 16's, declared in the schema like every key): mutants of a
    mission with one of every kind, and the variants `tune` would write from those that
    load, played."""
    source = fuzzing.ROOT / "tests" / "missions" / "harbour-tunable.toml"
    tally = fuzzing.Tally()
    ws = fuzzing.Workspace()
    try:
        for seed in range(40):
            fuzzing.fuzz_file(source, seed, ws, tally)
    finally:
        ws.close()
    assert tally.refused > 0 and tally.tuned > 0, tally
    assert tally.findings == [], "\n".join(
        f"seed {f.seed} ({f.mutation}): {f.error} at {f.where}" for f in tally.findings)


def test_issue_27s_classes_stay_fixed() -> None:
    """Writers aimed at devices, FIFOs, folders and dangling links; damaged stores; the play
    prompt given the other game's and mutated saves; hostile arguments to every public
    function: each ends in the project's own refusal, nothing replaced or lost."""
    tally = fuzzing.run_hardening(devices=14, stores=40, prompts=12, calls=150, seed=27)
    assert (tally.devices, tally.stores, tally.prompts, tally.calls) == (14, 40, 12, 150)
    assert tally.refused > 100 and tally.accepted > 10  # the mutants do bite
    assert tally.findings == [], "\n".join(
        f"{f.kind} seed {f.seed} ({f.source}; {f.mutation}): {f.error} at {f.where}"
        for f in tally.findings)
