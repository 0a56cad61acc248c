"""run_scenario's arguments checked at its entry: a GameError naming the argument, never
Python's TypeError nor a list of variants read letter by letter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from artproject import GameError
from artproject.core.scenario import run_scenario

BATTLE = Path(__file__).parent / "scenarios" / "battle-example.toml"


@pytest.mark.parametrize(("args", "says"), [
    ((None,), "path must be"),
    ((3,), "path must be"),
    (("",), "path must be a non-empty text"),
    ((BATTLE, "reroll-any-dice"), "variants must be a list of names or files, not str"),
    ((BATTLE, None), "variants must be a list of names or files, not NoneType"),
    ((BATTLE, [None]), "variants[0] must be"),
])
def test_a_bad_argument_is_a_game_error_naming_it(args: tuple[Any, ...], says: str) -> None:
    with pytest.raises(GameError) as err:
        run_scenario(*args)
    assert says in str(err.value)


def test_good_arguments_still_run() -> None:
    assert run_scenario(BATTLE).passed
    assert run_scenario(str(BATTLE), ["reroll-any-dice"]).passed
    assert run_scenario(BATTLE, ("reroll-any-dice",)).passed
