"""Kuhn poker's bots: `random` (a random legal action) and `heuristic`, which plays, with
two players and three cards, Kuhn's own equilibrium (bluffing a third of the time: its
value to the first player is -1/18), and otherwise bets and calls with the highest card
only. A policy is a function from a state to one of its legal actions, made from a seed;
`POLICIES` names them. A bot reads only its own card and the betting (K1).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from ..actions import Action
from .betting import ANSWER, V_BET, V_CALL, V_CHECK, V_FOLD
from .state import Kuhn

Policy = Callable[[Kuhn], Action]

# Kuhn's equilibrium with alpha = 1/3 (two players; cards 0 jack, 1 queen, 2 king): the
# chance of betting (or calling), by seat, what came before and the card.
ALPHA: Final = 1 / 3
_EQUILIBRIUM: Final = {
    (0, "open"): (ALPHA, 0.0, 3 * ALPHA),  # p1 opens: bluff the jack, bet the king
    (0, "answer"): (0.0, ALPHA + 1 / 3, 1.0),  # p1 checked, p2 bet: call the queen at times
    (1, "open"): (1 / 3, 0.0, 1.0),  # p1 checked: bluff the jack, bet the king
    (1, "answer"): (0.0, 1 / 3, 1.0),  # p1 bet: call the queen a third of the time
}


def random_policy(seed: int) -> Policy:
    """A random legal action, from its own seeded generator."""
    rng = random.Random(seed)

    def choose(st: Kuhn) -> Action:
        return rng.choice(st.legal_actions())
    return choose


def heuristic_policy(seed: int) -> Policy:
    """Kuhn's equilibrium where it is known (see the module's text), else the highest card
    bets and calls and every other checks and folds."""
    rng = random.Random(seed)

    def choose(st: Kuhn) -> Action:
        me = st.turn
        card = st.hands[me]
        known = st.players == 2 and len(st.rules.cards) == 3
        answer = st.wait == ANSWER
        if known:
            aggressive = rng.random() < _EQUILIBRIUM[(me, "answer" if answer else "open")][card]
        else:
            aggressive = card == len(st.rules.cards) - 1
        verb = (V_CALL if aggressive else V_FOLD) if answer else (
            V_BET if aggressive else V_CHECK)
        return st.registry.act(verb, me)
    return choose


POLICIES: Final[dict[str, Callable[..., Any]]] = {  # (seed) -> Policy
    "heuristic": heuristic_policy, "random": random_policy}
