"""A game played to its end by a policy, and the numbers every game's results are told in:
what simulate, the sweep and each game's part of them share (below both, so that neither
imports the other back).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
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


def interval_text(lo: float, hi: float) -> str:
    """An interval as the tables print it, in percent to one decimal, rounded once from
    the exact bounds (`wilson`'s: never from bounds already rounded, which can differ)."""
    return f"{100 * lo:.1f}-{100 * hi:.1f}%"


def ranked_causes(causes: Mapping[str, int]) -> list[tuple[str, int]]:
    """Causes of loss, the most frequent first, a tie by name: the same order whatever
    order the games were counted in (simulate's batches, a store's rows)."""
    return sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))


def main_cause(causes: Mapping[str, int]) -> str:
    """The main cause of loss of a cell: the most frequent, a tie the first by name ("" if
    no game was lost)."""
    ranked = ranked_causes(causes)
    return ranked[0][0] if ranked else ""
