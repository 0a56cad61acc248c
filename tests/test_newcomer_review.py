"""A newcomer's findings, following the docs: a scenario's mistakes in the file's order and
all of them at once (an unknown key hides none), a mission file run as a scenario told so,
too many tokens told at the entry, a card file's consequences blamed on the `cards` key that
named it, the help and install hints that say what they mean, a mistyped option answered by
its command with the nearest name, a top-level key written below a table, and every --variant
refusal closed alike. Each through the real command (`artproject.cli.main`), as a user
meets it."""

from __future__ import annotations

from pathlib import Path

import pytest

from artproject.cli import main

ROOT = Path(__file__).resolve().parent.parent


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def heads(err: str) -> list[str]:
    """Each error's `file:line:col: path` head (the lines that are not source or caret)."""
    return [line.split(": ")[0] + ": " + line.split(": ")[1] for line in err.splitlines()
            if line and not line.startswith(" ") and ": " in line]


# ---------------------------------------------- 3. too many tokens, told at the entry
@pytest.mark.parametrize(("entry", "head", "says"), [
    ("hq = 99", "s.toml:3:6: position.hq",
     "the 99 agent tokens here take the count past the game's 40 "
     "(components.agent_tokens, R2): 115 in play, 75 too many"),
    ("agents = { tokyo = 50 }", "s.toml:3:20: position.agents.tokyo",
     "the 50 agent tokens here take the count past the game's 40"),
    ("health = [20, 20]", "s.toml:3:15: position.health[1]",
     "the 20 health tokens here take the count past the game's 25 "
     "(components.health_tokens, R2): 40 in play, 15 too many"),
    ("hq = 10\nagents = { tokyo = 20 }", "s.toml:4:20: position.agents.tokyo",
     "the 20 agent tokens here take the count past"),
])
def test_too_many_tokens_are_told_at_the_entry_that_overflows(
        workdir: Path, capsys: pytest.CaptureFixture[str], entry: str, head: str,
        says: str) -> None:
    (workdir / "s.toml").write_text(f'mission = "japan"\n[position]\n{entry}\n')
    status, _, err = cli(capsys, "scenario", "s.toml")
    assert status == 2
    assert err.startswith(f"{head}: {says}"), err
