"""`game.agent_strength(city)`, a public function docs/api.md names, raised Python's
TypeError for a city's name ("helsinki"): it takes a name or an index, and refuses anything
else with a GameError naming `city`."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from artproject import GameError, new_game


def test_a_city_by_name_or_index() -> None:
    g = new_game("scandinavia", players=2, seed=1)
    i = g.rules.city_index["helsinki"]
    want = g.agents[i] + g.threat() + g.hq
    assert g.agent_strength("helsinki") == g.agent_strength(i) == want
    assert g.agent_strength(np.int64(i)) == want


@pytest.mark.parametrize(("city", "said"), [
    ("helsinki", "city: unknown city 'helsinki' on japan"),
    ("tokio", "city: unknown city 'tokio' on japan (did you mean 'tokyo'?)"),
    (-1, "city must be a city's name or its index (0 to 7), not int -1"),
    (8, "city must be a city's name or its index (0 to 7), not int 8"),
    (1.0, "city must be a city's name or its index (0 to 7), not float 1.0"),
    (True, "city must be a city's name or its index (0 to 7), not bool True"),
    (None, "city must be a city's name or its index (0 to 7), not NoneType None"),
])
def test_anything_else_is_a_game_error_naming_city(city: Any, said: str) -> None:
    g = new_game("japan", players=2, seed=1)
    with pytest.raises(GameError) as info:
        g.agent_strength(city)
    assert str(info.value) == said
