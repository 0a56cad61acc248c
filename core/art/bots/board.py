"""What the heuristic bot reads from the rules, worked out once per rules and kept in
`rules.cache` (`board`): the distances and roads, the rules' constants, each card's weights
and its cheap score written out as plain Python, the facts of a move's cost."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from ..registry import ALLY_PAWN
from ..rules import Ctx, Rules


def distances(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Roads between every two cities (1 everywhere when pawns move anywhere)."""
    return board(rules).dist


def _roads_between(rules: Rules) -> tuple[tuple[tuple[int, ...], ...], dict[tuple[int, int], Any]]:
    n = len(rules.cities)
    if rules.params["rules.movement"] == "anywhere":
        return tuple(tuple(0 if a == b else 1 for b in range(n)) for a in range(n)), {}
    out = []
    for a in range(n):
        dist = [99] * n
        dist[a] = 0
        q = deque([a])
        while q:
            c = q.popleft()
            for r in rules.neighbours[c]:
                if dist[r.dst] == 99:
                    dist[r.dst] = dist[c] + 1
                    q.append(r.dst)
        out.append(tuple(dist))
    first: dict[tuple[int, int], Any] = {}
    for src, roads in enumerate(rules.neighbours):
        for r in roads:
            first.setdefault((src, r.dst), r)  # the first road between two cities
    return tuple(out), first


class _Card:
    """A card as the bot weighs it, worked out once per rules."""

    __slots__ = ("agents", "agents_top", "base", "clues", "cost_weight", "gains",
                 "need", "need_health", "need_res", "placing")

    def __init__(self, rules: Rules, card: int) -> None:
        c = rules.cards[card]
        res = {k: i for i, k in enumerate(rules.resources)}
        self.cost_weight = sum(n for _, n in c.cost) * 0.6
        need: dict[str, int] = {}
        for k, n in c.cost:
            need[k] = need.get(k, 0) + n
        # (resource index, or -1 for health: the van holds none, n)
        self.need = tuple((res.get(k, -1) if k != "health" else -1, n) for k, n in need.items())
        # the same apart: what the van holds none of (always short), and the rest
        self.need_health = sum(n for i, n in self.need if i < 0)
        self.need_res = tuple((i, n) for i, n in self.need if i >= 0)
        self.base = 0.0 - self.cost_weight  # a score's start (as `0.0; score -= cost_weight`)
        self.gains = tuple((res[k] if k != "health" else -1, n) for k, n in c.gain)
        self.placing = sum(n * max(1, len(rules.by_symbol.get(sym, ()))) for sym, n in c.agents)
        # (cities, n, and the weights the score takes n times, worked out once)
        self.agents = tuple((rules.by_symbol.get(sym, ()), n, 1.5 * n, 0.5 * n, 1.0 * n)
                            for sym, n in c.agents)
        self.clues = c.clues
        # the most the agents it places can add to its score (see `Heuristic._scorer`):
        # each city takes at least the plain weight
        self.agents_top = -sum(0.5 * n * len(cities) for cities, n, *_ in self.agents)


class _Board:
    """What the bot reads from the rules, worked out once per rules (kept in `rules.cache`):
    distances, roads, constants and each card's weights."""

    __slots__ = (
        "anywhere",
        "bonus",
        "boost_i",
        "cards",
        "city_lost",
        "city_symbol",
        "clues",
        "costs",
        "dist",
        "later",
        "lost_at",
        "need",
        "res_cap",
        "steps",
        "symbol_cities",
        "track_symbols",
        "weigh",
    )

    def __init__(self, rules: Rules) -> None:
        p = rules.params
        self.dist, road = _roads_between(rules)
        self.anywhere = rules.params["rules.movement"] == "anywhere"
        self.steps = _steps(rules, road, self.anywhere)
        self.lost_at = int(p["rules.lost_city_at"])
        self.need = int(p["rules.clues_per_artwork"])
        self.bonus = int(p["rules.weapon_bonus"])
        self.boost_i = rules.resources.index(p["rules.boost_resource"])
        self.res_cap = int(p["components.resource_tokens"])
        self.cards = {i: _Card(rules, i) for i in rules.cards}
        self.weigh = _weighers(self.cards, self.res_cap)
        self.clues = {i: tuple(set(c.clues)) for i, c in rules.cards.items()}  # distinct
        self.costs = _Costs(rules)  # the move costs met, each as `cost_facts` gives it
        self.city_lost = bool(rules.hooks.get("city_lost"))
        self.city_symbol = tuple(c.symbol for c in rules.cities)
        self.symbol_cities = tuple(rules.by_symbol.get(s, ()) for s in rules.symbols)
        self.track_symbols = tuple(s.symbol for s in rules.track)
        # per city: how late the track asks for its symbol, negated (not at all: last)
        last = list(self.track_symbols)
        self.later = tuple(-(last.index(c.symbol) if c.symbol in last else len(last))
                           for c in rules.cities)


Steps = dict[int, tuple[dict[Any, tuple[int, Ctx]], ...]]


def _steps(rules: Rules, road: dict[tuple[int, int], Any], anywhere: bool) -> Steps:
    """Per mover (a player or the ally pawn), per city, per destination's name: the
    destination and the context its cost is worked out in (who pays, where, the road)."""
    n = len(rules.cities)
    ways = [[d for d in range(n) if d != c and (anywhere or (c, d) in road)]
            for c in range(n)]
    return {who: tuple({rules.cities[d].name: (d, Ctx(0 if who == ALLY_PAWN else who, d,
                                                      road.get((c, d))))
                        for d in ways[c]} for c in range(n))
            for who in (*range(6), ALLY_PAWN)}


def _weighers(cards: dict[int, _Card], res_cap: int,
              ) -> dict[int, Callable[[list[int], int, list[float]], tuple[float, Any, float]]]:
    """Per card, the cheap part of its score (see `Heuristic._scorer`'s `weigh`) written out
    as plain Python, once per rules: `(van, spare health, clue part per symbol) -> (score
    before the agents' part, the clue parts, the most the score can be)`. The same float
    operations in the same order as the loops over the card's needs and gains would do."""
    src: list[str] = []
    for k, c in enumerate(cards.values()):
        src += [f"def w{k}(van, spare, ps):", f"    score = {c.base!r}",
                f"    short = {c.need_health}"]
        for i, n in c.need_res:
            src += [f"    v = van[{i}]", f"    if v < {n}:", f"        short += {n} - v"]
        src += ["    if short:", "        score -= short * (6.0 if short > spare else 1.0)"]
        for i, n in c.gains:
            if i < 0:
                src.append(f"    score += {2.0 * n!r}")
            else:
                src += [f"    v = van[{i}]", f"    room = {res_cap} - v",
                        f"    score += ({n} if {n} <= room else room) * (1.2 if v < 2 else 0.8)"]
        names = [f"a{k}" for k in range(len(c.clues))]
        src += [f"    {a} = ps[{sym}]" for a, sym in zip(names, c.clues, strict=True)]
        src.append(f"    return score, ({''.join(a + ', ' for a in names)}), "
                   f"score + {c.agents_top!r} + ({' + '.join(names) or '0'}) + 1e-6")
    space: dict[str, Any] = {}
    exec(compile("\n".join(src), "<the heuristic's card weights>", "exec"), space)
    return {card: space[f"w{k}"] for k, card in enumerate(cards)}


def board(rules: Rules) -> _Board:
    b = rules.cache.get("heuristic")
    if b is None:
        b = rules.cache["heuristic"] = _Board(rules)
    assert isinstance(b, _Board)
    return b


def cost_facts(rules: Rules, cost: tuple[tuple[str, int], ...],
                ) -> tuple[tuple[tuple[int, int], ...], int]:
    """A cost as the bot weighs it: what it needs of each resource (index, or -1 for health:
    the van holds none), the kinds together, and its size."""
    need: dict[str, int] = {}
    for k, n in cost:
        need[k] = need.get(k, 0) + n
    index = {k: i for i, k in enumerate(rules.resources)}
    return (tuple((index[k] if k != "health" else -1, n) for k, n in need.items()),
            sum(n for _, n in cost))


class _Costs(dict[Any, tuple[tuple[tuple[int, int], ...], int]]):
    """`cost_facts` of each move cost, worked out when first asked for."""

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def __missing__(self, cost: Any) -> tuple[tuple[tuple[int, int], ...], int]:
        facts = self[cost] = cost_facts(self.rules, cost)
        return facts
