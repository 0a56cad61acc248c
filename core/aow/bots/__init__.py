"""Art of War's bots. Every policy is a function from a state to one of its legal actions,
made from a seed; `POLICIES` names them (simulate's `--policy`, for this game):

    random     a random verb, then a random action of it (the first game's baseline)
    heuristic  heuristic.py: weighs each choice by its odds (odds.py) and what it stands
               to win or lose (judge.py)
    simple     simple.py: the first heuristic, kept as a baseline
    ismcts     the search bot (artproject/search.py) on top of the heuristic

Each reads only what its player may know (W19).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ....policies import random_policy
from .heuristic import Heuristic, Policy, heuristic_policy
from .simple import simple_policy

# the decisions the search bot searches: the rest (drawing, the Wise Men, discards) are
# the heuristic's
SEARCHED: Final = ("turn", "bet", "play", "answer", "response")


def ismcts_policy(seed: int, budget: int = 128, depth: int = 400, tree: int = 2,
                  margin: float = 0.0, z: float = 1.0) -> Policy:
    """The search bot (artproject/search.py) for one player: information-set MCTS over what
    that player may know, the heuristic bot playing every seat in its simulations and
    taking the decisions it does not search. Options as the first game's ismcts; its
    simulations are cheap (games of a few turns) and its choices closer, so it searches
    more and trusts a smaller lead (docs/ai.md)."""
    from ....search import Ismcts

    return Ismcts(seed, Heuristic(seed), Heuristic(seed + 1), budget=budget, depth=depth,
                  tree=tree, margin=margin, z=z, kinds=SEARCHED)


POLICIES: Final[dict[str, Callable[..., Any]]] = {
    "random": random_policy, "heuristic": heuristic_policy, "simple": simple_policy,
    "ismcts": ismcts_policy}

__all__ = ["POLICIES", "SEARCHED", "Heuristic", "heuristic_policy", "ismcts_policy",
           "simple_policy"]
