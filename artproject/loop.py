"""A game played to its end by a policy, and the numbers every game's results are told in:
what simulate, the sweep and each game's part of them share (below both, so that neither
imports the other back).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, Final

from .core.actions import Action
from .core.errors import GameError

MAX_DECISIONS: Final = 100_000  # a game that needs more has a rule that never ends: an error


def play(st: Any, policy: Callable[[Any], Action], limit: int = MAX_DECISIONS) -> int:
    """Play `st` to its end; the number of decisions taken. With explicit chance, each
    chance node takes the outcome the game's own generator draws (the policy decides the
    decisions only)."""
    n = 0
    while st.outcome is None:
        if st.explicit and st.is_chance_node():
            st.apply(st.sample_chance())
            continue
        st.apply(policy(st))
        n += 1
        if n >= limit:
            raise GameError(f"the game did not end within {limit} decisions")
    return n


def cause_of(reason: str) -> str:
    """An end's reason with the player named generically, to count causes together."""
    return re.sub(r"\bp[1-9]\b", "a player", reason)


def wilson(won: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = won / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))
