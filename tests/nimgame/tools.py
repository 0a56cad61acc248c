"""What the tools ask of the test Nim: its bots only (the lobby's catalog lists them)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from artproject.core.actions import Action

from .state import Nim


def random_policy(seed: int) -> Callable[[Nim], Action]:
    rng = random.Random(seed)

    def choose(st: Nim) -> Action:
        return rng.choice(st.legal_actions())
    return choose


POLICIES: Final[dict[str, Callable[..., Any]]] = {"random": random_policy}
