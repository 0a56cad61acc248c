"""Policies' arguments checked where the library is entered: a policy's name, its seed, a
plug-in's name and factory, an option given once; each wrong one a GameError naming it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from artproject import GameError, new_game
from artproject.core.art.bots import POLICIES
from artproject.policies import make_policy, policy_maker, policy_spec, register_policy


@pytest.mark.parametrize(("call", "says"), [
    (lambda: make_policy(None, 1), "policy must be a non-empty text"),  # type: ignore[arg-type]
    (lambda: make_policy("", 1), "policy must be a non-empty text"),
    (lambda: policy_maker(1), "policy must be a non-empty text"),  # type: ignore[arg-type]
    (lambda: policy_spec(b"random"), "policy must be"),  # type: ignore[arg-type]
    (lambda: policy_maker("random", ["random"]), "policies must be a dict"),  # type: ignore[arg-type]
    (lambda: make_policy("random", None), "seed must be a whole number"),  # type: ignore[arg-type]
    (lambda: make_policy("random", 1.5), "seed must be a whole number"),  # type: ignore[arg-type]
    (lambda: make_policy("random", "1"), "seed must be a whole number"),  # type: ignore[arg-type]
    (lambda: make_policy("random", True), "seed must be a whole number"),
    (lambda: policy_maker("random")(None), "seed must be a whole number"),  # type: ignore[arg-type]
    (lambda: register_policy(1, lambda seed: None), "name must be a non-empty text"),  # type: ignore[arg-type]
    (lambda: register_policy("", lambda seed: None), "name must be a non-empty text"),
    (lambda: register_policy("a:b", lambda seed: None), "holds no ':'"),
    (lambda: register_policy("mine", None), "factory must be a function"),  # type: ignore[arg-type]
    (lambda: register_policy("mine", lambda seed: None, game=3), "game must be"),  # type: ignore[arg-type]
    (lambda: make_policy("ismcts:budget=8,budget=9", 1), "budget is given twice"),
    (lambda: make_policy("ismcts:budget=8, budget =8", 1), "budget is given twice"),
])
def test_a_bad_argument_is_a_game_error_naming_it(call: Callable[[], Any], says: str) -> None:
    with pytest.raises(GameError) as err:
        call()
    assert says in str(err.value)


def test_nothing_is_registered_by_a_refused_call() -> None:
    with pytest.raises(GameError):
        register_policy("mine", None)  # type: ignore[arg-type]
    assert "mine" not in POLICIES


def test_good_arguments_still_make_policies() -> None:
    st = new_game("japan", players=2, seed=1)
    for seed in (0, 2**64 - 1, -(2**63), 2**70, np.int64(7)):
        assert make_policy("random", seed)(st) in st.legal_actions()  # type: ignore[arg-type]
    assert policy_spec("ismcts:budget=8,depth=4")[1] == {"budget": 8, "depth": 4}
