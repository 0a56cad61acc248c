"""verify's arguments checked where the library is entered: a wrong type or value is a
GameError naming the argument and what it takes, never Python's own error from deep inside
nor a rule's failure reported as a counterexample; rules of another game are refused."""

from __future__ import annotations

from typing import Any

import pytest

from artproject import GameError, load_rules
from artproject.core.games import game_tools
from artproject.verify import verify

JAPAN = load_rules("japan")


@pytest.mark.parametrize(("kw", "says"), [
    ({"rules": None}, "rules must be a game's rules"),
    ({"rules": "japan"}, "rules must be a game's rules"),
    ({"examples": 0}, "examples must be from 1"),
    ({"examples": 2.0}, "examples must be a whole number"),
    ({"seed": None}, "seed must be a whole number"),
    ({"seed": 2**70}, "seed must be from"),
    ({"seed": 1.5}, "seed must be a whole number"),
    ({"players": 3}, "players must be a list of team sizes"),
    ({"players": "2"}, "players must be a list of team sizes"),
    ({"players": [9]}, "players[0] must be from 1 to 6, not 9"),
    ({"players": [2, 0]}, "players[1] must be from 1 to 6"),
    ({"players": []}, "players must name at least one"),
    ({"progress": 5}, "progress must be a function"),
    ({"difficulties": "easy"}, "difficulties must be a list"),
    ({"difficulties": ["easy", "nightmare"]}, "difficulties[1]: unknown difficulty 'nightmare'"),
    ({"difficulties": [3]}, "difficulties[0] must be"),
    ({"difficulties": []}, "difficulties must name at least one"),
    ({"game": None}, "game must be"),
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"game": "kuhn"}, "the rules given (japan) are the 'art-project' game's, not rules of "
                       "the game 'kuhn'"),
    ({"game": "art-of-war"}, "not rules of the game 'art-of-war'"),
])
def test_a_bad_argument_is_a_game_error_naming_it(kw: dict[str, Any], says: str) -> None:
    args: dict[str, Any] = {"rules": JAPAN, "examples": 2, **kw}
    with pytest.raises(GameError) as err:
        verify(**args)
    assert says in str(err.value)


def test_another_games_rules_named_with_the_default_game_are_refused() -> None:
    kuhn = game_tools("kuhn").load_rules("kuhn", ())
    with pytest.raises(GameError, match="are the 'kuhn' game's, not rules of the game "
                                        "'art-project'"):
        verify(kuhn, examples=2)


def test_a_game_without_difficulties_refuses_them() -> None:
    kuhn = game_tools("kuhn").load_rules("kuhn", ())
    with pytest.raises(GameError, match="difficulties: Kuhn poker has no difficulty"):
        verify(kuhn, examples=2, game="kuhn", difficulties=["easy"])


def test_good_arguments_still_search() -> None:
    report = verify(JAPAN, examples=2, seed=3, players=(2,), difficulties=("easy",))
    assert report.failure is None and report.players == (2,)
    assert report.difficulties == ("easy",)
    kuhn = game_tools("kuhn").load_rules("kuhn", ())
    assert verify(kuhn, examples=2, game="kuhn").failure is None
