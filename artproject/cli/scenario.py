"""`artproject scenario`: scenario files run (the rulebook as tests)."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.games import DEFAULT
from .check import _toml_files
from .output import _say


def _variant_game(ref: str) -> str:
    """The game a variant is for: its file's `game` key; a shipped name, the shipped file's."""
    from ..core.sources import game_of
    from ..missions import variant_file

    return game_of(variant_file(ref)) or DEFAULT


def _scenario(paths: Sequence[str], variants: Sequence[str], verbose: bool) -> int:
    from ..core.errors import RulesError
    from ..core.scenario import run_scenario
    from ..core.sources import game_of

    files = _toml_files(paths, "run")
    failed = bad = 0
    games = {v: _variant_game(v) for v in variants}
    told: set[str] = set()  # (an error every scenario of a board meets: a variant's, told once)
    for f in files:
        game = game_of(f) or DEFAULT  # a variant applies to the scenarios of its game
        try:
            res = run_scenario(f, tuple(v for v in variants if games[v] == game))
        except RulesError as err:
            bad += 1
            _tell_once(str(err), told)
            continue
        if res.passed:
            if verbose:
                print(f"pass  {f}  ({res.steps} steps) {res.about}")
        else:
            failed += 1
            print(f"FAIL  {f}")
            for line in res.failures:
                print(f"  {line}")
    print(f"{len(files) - failed - bad} passed, {failed} failed"
          + (f", {bad} could not be read" if bad else "")
          + (f" ({len(told)} error{'s' if len(told) > 1 else ''} above, each told once)"
             if bad > len(told) else ""))
    if bad:
        return 2
    return 1 if failed else 0


def _tell_once(error: str, told: set[str]) -> None:
    """Say `error` unless it was said already (noted in `told`)."""
    if error not in told:
        told.add(error)
        _say(error)
