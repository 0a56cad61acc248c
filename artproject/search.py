"""The search bot (`--policy ismcts`): information-set Monte Carlo tree search on top of the
kernel's copies, with the heuristic bot as its rollout policy.

At a decision worth a search (one of `kinds`, the decisions its game's bot declares worth
it, or any when none are named; with two or more legal actions; every other decision is
the base policy's, at no cost), the bot:

1. draws determinizations, one a round: copies of the game its side cannot tell from the
   real one (the game's `resample`: what the side cannot see drawn anew, and the dice and
   draws to come from a seed of the bot's own);
2. runs about `budget` simulations by sequential halving: in each stage every action still
   in the running is simulated once in each of that stage's worlds (common random numbers:
   the actions are compared on the same draws and dice, so few simulations tell them
   apart), then the better half goes on (the base policy's choice always), half the budget
   spread over these stages and the other half comparing the last two. A simulation goes
   down a tree over its side's decisions (a node per sequence of its decisions from the root: an
   information set of the side, the same in every world), choosing at each node by UCB1
   among the actions legal in that world, up to `tree` decisions deep, then on by the
   rollout policy (the heuristic) for at most `depth` decisions; its value is the game's
   return at its end, or its shaped score where the depth limit cut it;
3. takes the root action of the best mean value, but keeps the base policy's choice
   unless another beats it by more than `margin` and by `z` standard errors of their
   paired differences.

The side is the whole team in a cooperative game (it sees every hand, as the heuristic
does) and the deciding player in a competitive one. See docs/ai.md for its cost and
strength.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .core.actions import TEAM, Action
from .core.errors import GameError
from .core.machine import Machine

Policy = Callable[[Any], Action]

def _ours(player: int, side: tuple[int, ...]) -> bool:
    """A decision of the side's (the tree grows on those only: another player's is the
    rollout policy's, never chosen to suit the side)."""
    return player == TEAM or player in side


class _Node:
    """A tree node: the side's statistics per action (visits, total value)."""

    __slots__ = ("children", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.children: dict[Action, list[float]] = {}


class Ismcts:
    """The search bot (see the module's text); a policy: `bot(state)` is an action."""

    def __init__(self, seed: int, base: Policy, rollout: Policy, budget: int = 32,
                 depth: int = 400, tree: int = 2, margin: float = 0.2, z: float = 2.0,
                 c: float = 0.7, kinds: Sequence[str] | None = None) -> None:
        if budget < 1 or depth < 1 or tree < 1:
            raise GameError("ismcts: budget, depth and tree must be at least 1")
        self.rng = random.Random(seed)
        self.base, self.rollout = base, rollout
        self.budget, self.depth, self.tree = budget, depth, tree
        self.margin, self.z, self.c = margin, z, c
        self.kinds = None if kinds is None else frozenset(kinds)  # None: every decision
        self.searched = 0  # decisions searched, and simulations run (for the cost report)
        self.simulations = 0

    # ---------------------------------------------------------------- the decision
    def __call__(self, st: Machine) -> Action:
        choice = self.base(st)
        legal = st.legal_actions()
        if len(legal) < 2 or st.wait is None or not self._worth(st.wait.name):
            return choice
        return self.search(st, legal, choice)

    def _worth(self, kind: str) -> bool:
        """Whether a decision of this kind is searched."""
        return self.kinds is None or kind in self.kinds

    def _side(self, st: Machine) -> tuple[tuple[int, ...], int]:
        """Whom the bot plays for (their information is what it keeps) and whose value it
        counts: the whole team of a cooperative game, else the player deciding."""
        me = st.current_player()
        if st.UTILITY == "shared" or me == TEAM:
            return tuple(range(st.num_players())), 0
        return (me,), me

    def search(self, st: Machine, legal: list[Action], choice: Action) -> Action:
        """The action the search picks among `legal` (`choice`: the base policy's), by
        sequential halving: in each stage every action still in the running is simulated
        in the same fresh worlds, then the better half by mean value (the base policy's
        choice always among them) goes on, until two are left; the budget is shared
        evenly among the stages. A few worlds weed out the plainly worse actions, and most
        of the budget goes to comparing the best with the base policy's choice."""
        self.searched += 1
        side, me = self._side(st)
        values: dict[Action, list[float]] = {a: [] for a in legal}
        nodes: dict[tuple[Action, ...], _Node] = {}
        alive = list(legal)
        stages = max(1, math.ceil(math.log2(len(legal))))
        used = 0
        while True:
            if len(alive) > 2:  # half the budget weeds out, evenly over the stages
                rounds = max(1, self.budget // 2 // (stages * len(alive)))
            else:  # the rest compares the last two
                rounds = max(2, (self.budget - used) // len(alive))
            for _ in range(rounds):
                world = st.resample(side, self.rng.getrandbits(62))
                for a in alive:
                    values[a].append(self._simulate(world, a, nodes, side, me))
            used += rounds * len(alive)
            if len(alive) <= 2:
                break
            alive.sort(key=lambda a: (-_mean(values[a]), a != choice))
            keep = alive[:max(2, (len(alive) + 1) // 2)]
            if choice not in keep:
                keep[-1] = choice
            alive = keep
        self.simulations += used
        return self._decide({a: values[a] for a in alive}, choice)

    def _decide(self, values: dict[Action, list[float]], choice: Action) -> Action:
        """The best action by mean value, if it beats the base policy's choice by more than
        `margin` and by more than `z` standard errors of the paired differences (the two
        were simulated in the same worlds: the differences cancel the luck they share).
        Otherwise the base policy's choice: a noisy search must not undo a sound
        heuristic."""
        best = max(values, key=lambda a: (_mean(values[a]), a == choice))
        if best == choice:
            return choice
        diffs = [x - y for x, y in zip(values[best], values[choice], strict=True)]
        rounds = len(diffs)
        mean = sum(diffs) / rounds
        var = sum((d - mean) ** 2 for d in diffs) / (rounds - 1)
        return best if mean > self.margin and mean > self.z * math.sqrt(var / rounds) else choice

    # ---------------------------------------------------------------- one simulation
    def _simulate(self, world: Machine, first: Action, nodes: dict[tuple[Action, ...], _Node],
                  side: tuple[int, ...], me: int) -> float:
        g = world.clone()  # the world's future: the same for every root action
        g.apply(first)
        path: tuple[Action, ...] = (first,)
        visited: list[tuple[_Node, Action]] = []
        steps = 0
        while g.outcome is None and steps < self.depth:
            if g.explicit and g.is_chance_node():
                g.apply(g.sample_chance())
                continue
            legal = g.legal_actions()
            if (len(path) < self.tree and len(legal) > 1 and g.wait is not None
                    and self._worth(g.wait.name) and _ours(g.current_player(), side)):
                node = nodes.get(path)
                if node is None:
                    node = nodes[path] = _Node()
                a = self._select(node, g, legal)
                visited.append((node, a))
                path = (*path, a)
            else:
                a = self.rollout(g)
            g.apply(a)
            steps += 1
        value = g.returns()[me] if g.outcome is not None else g.shaped_score()[me]
        for node, a in visited:
            node.visits += 1
            s = node.children.setdefault(a, [0, 0.0])
            s[0] += 1
            s[1] += value
        return value

    def _select(self, node: _Node, g: Machine, legal: list[Action]) -> Action:
        """UCB1 among the actions legal in this world (an untried one first: the base
        policy's choice, then in order)."""
        kids = node.children
        base = self.rollout(g)
        if base not in kids:
            return base
        for a in legal:
            if a not in kids:
                return a
        n = sum(kids[a][0] for a in legal)
        log_n = math.log(max(n, 1))
        return max(legal, key=lambda a: kids[a][1] / kids[a][0]
                   + self.c * math.sqrt(log_n / kids[a][0]))


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


def search_policy(policies: Mapping[str, Callable[..., Policy]],
                  fallback: Callable[[int], Policy]) -> Callable[..., Policy]:
    """The search bot for a game whose bots are `policies` and that names none of its own
    (artproject/policies gives it to every such game): on top of its `heuristic` (else its
    `random`, else `fallback`) as base and rollout policy, searching every decision, with
    the search's own defaults. A game that wants other defaults, or only some decisions
    searched, names its own `ismcts` (as A.R.T. and Art of War do)."""

    def ismcts_policy(seed: int, budget: int = 32, depth: int = 400, tree: int = 2,
                      margin: float = 0.2, z: float = 2.0) -> Policy:
        """The search bot (artproject/search.py) on top of the game's heuristic."""
        base = policies.get("heuristic") or policies.get("random") or fallback
        return Ismcts(seed, base(seed), base(seed + 1), budget=budget, depth=depth,
                      tree=tree, margin=margin, z=z)

    return ismcts_policy
