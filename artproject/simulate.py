"""Whole games under a policy, and the report of how they ended."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from .core.actions import Action
from .core.errors import GameError
from .core.saves import new_game
from .core.state import State

Policy = Callable[[State], Action]
MAX_DECISIONS = 100_000  # a game that needs more has a rule that never ends: an error


def random_policy(seed: int) -> Policy:
    """Random legal actions from its own seeded generator: a random verb, then one of its actions.

    Picking the verb first keeps a verb with many actions (thirty `draw`s, say) from
    crowding out the one `done`, so random games reach every phase.
    """
    rng = random.Random(seed)

    def choose(st: State) -> Action:
        legal = st.legal_actions()
        verbs = sorted({a.verb for a in legal})
        verb = verbs[rng.randrange(len(verbs))]
        return rng.choice([a for a in legal if a.verb == verb])

    return choose


def cautious_policy(seed: int) -> Policy:
    """Like `random`, but never takes an action that costs health when another does not.

    Each candidate is tried on a clone, so this is slower; it plays deeper games, which
    the tests use to reach every phase.
    """
    rng = random.Random(seed)

    def choose(st: State) -> Action:
        legal = st.legal_actions()
        health = sum(st.health)
        safe = []
        for a in legal:
            c = st.clone()
            c.apply(a)
            if sum(c.health) >= health and c.outcome != "lost":
                safe.append(a)
        pool = safe or legal
        verbs = sorted({a.verb for a in pool})
        verb = verbs[rng.randrange(len(verbs))]
        return rng.choice([a for a in pool if a.verb == verb])

    return choose


POLICIES: dict[str, Callable[[int], Policy]] = {"random": random_policy,
                                                "cautious": cautious_policy}


def play(st: State, policy: Policy, limit: int = MAX_DECISIONS) -> int:
    """Play `st` to its end; the number of decisions taken."""
    n = 0
    while st.outcome is None:
        st.apply(policy(st))
        n += 1
        if n >= limit:
            raise GameError(f"the game did not end within {limit} decisions")
    return n


def cause_of(reason: str) -> str:
    """A loss reason with the player named generically, to count causes together."""
    return re.sub(r"\bp[1-6]\b", "a player", reason)


def simulate(mission: str | Path, players: int, difficulty: str, games: int, seed: int,
             variants: Iterable[str | Path] = (), policy: str = "random") -> dict[str, Any]:
    """Play `games` games from seeds seed, seed+1, ...; the same arguments, the same report."""
    variants = tuple(variants)
    make = POLICIES[policy]
    won = rounds = decisions = 0
    causes: Counter[str] = Counter()
    name = ""
    for i in range(games):
        st = new_game(mission, players, difficulty, seed + i, variants)
        name = st.rules.name
        decisions += play(st, make(seed + i))
        rounds += st.round
        if st.outcome == "won":
            won += 1
        else:
            causes[cause_of(st.reason)] += 1
    return {
        "mission": name, "players": players, "difficulty": difficulty, "games": games,
        "seed": seed, "policy": policy, "variants": [str(v) for v in variants],
        "won": won, "lost": games - won,
        "causes": dict(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))),
        "average_rounds": rounds / games, "average_decisions": decisions / games,
    }
