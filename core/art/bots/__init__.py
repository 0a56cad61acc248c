"""The A.R.T. Project's bots: `random` (the tools' own, artproject/policies), `cautious`,
`heuristic` (the `Heuristic` bot, whose parts are this package's modules: heuristic.py
names them) and `ismcts` (the tools' search, artproject/search.py, on top of it, searching
the decisions in `SEARCHED`). `POLICIES` names them for the tools (core/art/tools.py).

A policy factory takes a seed (and, if it has any, its options as keywords) and returns a
function from a state to one of its legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from ....policies import random_policy
from ...actions import Action
from ..state import State
from .heuristic import Heuristic

Policy = Callable[[State], Action]

# the decisions worth a search: planning and playing cards, moves, battles, and a battle
# being lost; the rest (phase boundaries, who pays, dice to reroll...) are the heuristic's
SEARCHED: Final = ("plan", "play", "move", "battle", "losing")


def cautious_policy(seed: int) -> Policy:
    """Like `random`, but never takes an action that costs health when another does not.

    Each candidate is tried on a clone, so this is slower; it plays deeper games, which
    the tests and `verify` use to reach every phase.
    """
    rng = random.Random(seed)

    def choose(st: State) -> Action:
        legal = st.legal_actions()
        health = sum(st.health)
        safe = []
        for a in legal:
            c = st.clone()
            c.apply(a)
            # a question of who pays a health token (R5's unlock) means health is paid
            if sum(c.health) >= health and c.outcome != "lost" and c.wait != "hurt":
                safe.append(a)
        pool = safe or legal
        verbs = sorted({a.verb for a in pool})
        verb = verbs[rng.randrange(len(verbs))]
        return rng.choice([a for a in pool if a.verb == verb])

    return choose


def heuristic_policy(seed: int) -> Policy:
    """The heuristic bot (see `Heuristic`)."""
    return Heuristic(seed)


def ismcts_policy(seed: int, budget: int = 32, depth: int = 400, tree: int = 2,
                  margin: float = 0.2, z: float = 2.0) -> Policy:
    """The search bot (artproject/search.py): information-set MCTS with the heuristic bot as
    its rollouts and for the decisions it does not search. `budget`: simulations a searched
    decision; `depth`: decisions a simulation plays before the shaped score judges it;
    `tree`: the side's decisions deep the tree grows; `margin`: how much better than the
    heuristic's choice another must be to be taken."""
    from ....search import Ismcts

    return Ismcts(seed, Heuristic(seed), Heuristic(seed + 1), budget=budget, depth=depth,
                  tree=tree, margin=margin, z=z, kinds=SEARCHED)


POLICIES: Final[dict[str, Callable[..., Any]]] = {  # (seed, **options) -> Policy
    "random": random_policy, "cautious": cautious_policy, "heuristic": heuristic_policy,
    "ismcts": ismcts_policy}

__all__ = ["POLICIES", "SEARCHED", "Heuristic", "Policy", "cautious_policy",
           "heuristic_policy", "ismcts_policy", "random_policy"]
