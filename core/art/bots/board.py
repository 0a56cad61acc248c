"""What the heuristic bot reads from the rules, worked out once per rules and kept in
`rules.cache` (`board`): the distances and roads, the rules' constants, each card's weights
and its cheap score written out as plain Python, the facts of a move's cost."""

from __future__ import annotations

import dis
from collections import deque
from collections.abc import Callable, Iterable
from types import CodeType
from typing import Any, Final

from ...actions import Action
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


def _needs(res: dict[str, int], cost: Iterable[tuple[str, int]]) -> tuple[tuple[int, int], ...]:
    """A card's cost summed by resource: (resource index, or -1 for health, which the van
    holds none of; n), in the order the cost first names them."""
    need: dict[str, int] = {}
    for k, n in cost:
        need[k] = need.get(k, 0) + n
    return tuple((res.get(k, -1) if k != "health" else -1, n) for k, n in need.items())


class _Card:
    """A card as the bot weighs it, worked out once per rules."""

    __slots__ = ("agents", "agents_top", "base", "clues", "cost_weight", "gains",
                 "need", "need_health", "need_res", "placing")

    def __init__(self, rules: Rules, card: int) -> None:
        c = rules.cards[card]
        res = {k: i for i, k in enumerate(rules.resources)}
        self.cost_weight = sum(n for _, n in c.cost) * 0.6
        self.need = _needs(res, c.cost)
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
        # the most the agents it places can add to its score (see planning.py `_weigh`):
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
        "carry",
        "city_lost",
        "city_symbol",
        "clues",
        "costs",
        "dist",
        "dist_to",
        "later",
        "lost_at",
        "need",
        "res_cap",
        "steps",
        "symbol_cities",
        "toward",
        "track_symbols",
        "weigh",
    )

    def __init__(self, rules: Rules) -> None:
        p = rules.params
        self.dist, road = _roads_between(rules)
        # per city: the roads to it from every city (the columns of `dist`)
        self.dist_to = tuple(zip(*self.dist, strict=True))
        self.anywhere = rules.params["rules.movement"] == "anywhere"
        self.costs = _Costs(rules)  # the move costs met, each as `cost_facts` gives it
        self.steps = _steps(rules, road, self.anywhere, self.costs)
        self.toward = _Toward(self.dist_to, self.steps[0])
        self.carry = bool(p["rules.carry_artworks"])
        self.lost_at = int(p["rules.lost_city_at"])
        self.need = int(p["rules.clues_per_artwork"])
        self.bonus = int(p["rules.weapon_bonus"])
        self.boost_i = rules.resources.index(p["rules.boost_resource"])
        self.res_cap = int(p["components.resource_tokens"])
        self.cards = {i: _Card(rules, i) for i in rules.cards}
        self.weigh = _weighers(self.cards, self.res_cap)
        self.clues = {i: tuple(set(c.clues)) for i, c in rules.cards.items()}  # distinct
        self.city_lost = bool(rules.hooks.get("city_lost"))
        self.city_symbol = tuple(c.symbol for c in rules.cities)
        self.symbol_cities = tuple(rules.by_symbol.get(s, ()) for s in rules.symbols)
        self.track_symbols = tuple(s.symbol for s in rules.track)
        # per city: how late the track asks for its symbol, negated (not at all: last)
        last = list(self.track_symbols)
        self.later = tuple(-(last.index(c.symbol) if c.symbol in last else len(last))
                           for c in rules.cities)


# a move from a city, as the bot weighs it: the destination, the context its cost is worked
# out in (who pays, where, the road), that cost's facts (`cost_facts`; None where the
# rules' cost reads the state: worked out at each decision), the mover's move and carry
Step = tuple[int, Ctx, Any, Action, Action]
Steps = dict[int, tuple[dict[str, Step], ...]]


def _steps(rules: Rules, road: dict[tuple[int, int], Any], anywhere: bool,
           costs: _Costs) -> Steps:
    """Per mover (a player or the ally pawn), per city, per destination's name: its `Step`."""
    n = len(rules.cities)
    ways = [[d for d in range(n) if d != c and (anywhere or (c, d) in road)]
            for c in range(n)]
    pure = not _reads_state(rules.move_cost)
    out: Steps = {}
    for who in (*range(6), ALLY_PAWN):
        rows = []
        for c in range(n):
            row: dict[str, Step] = {}
            for d in ways[c]:
                name = rules.cities[d].name
                ctx = Ctx(0 if who == ALLY_PAWN else who, d, road.get((c, d)))
                row[name] = (d, ctx, costs[rules.move_cost(None, ctx)] if pure else None,
                             Action("move", who, name), Action("carry", who, name))
            rows.append(row)
        out[who] = tuple(rows)
    return out


def _reads_state(cost: Callable[..., Any]) -> bool:
    """Whether the rules' move cost (DSL compiled to a Python function of the state and the
    context) may read the state: its first argument read anywhere, or code this cannot
    follow (a nested function, a shared cell, no code at all). Where it does not, a
    move's cost is the same for its road and payer at every decision: worked out once."""
    code = getattr(cost, "__code__", None)
    if code is None or code.co_argcount < 1 or code.co_cellvars or code.co_freevars \
            or any(isinstance(k, CodeType) for k in code.co_consts):
        return True
    state = code.co_varnames[0]
    return any(i.argval == state for i in dis.get_instructions(code))


def _weighers(cards: dict[int, _Card], res_cap: int,
              ) -> dict[int, Callable[[list[int], int, list[float]], tuple[float, Any, float]]]:
    """Per card, the cheap part of its score (see planning.py `_weigh`) written out
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


class _Nearest(dict[tuple[int, ...], tuple[int, ...]]):
    """Per cities wanted: the roads from each city to the nearest of them; worked out when
    first asked for."""

    def __init__(self, dist_to: tuple[tuple[int, ...], ...]) -> None:
        super().__init__()
        self.dist_to = dist_to

    def __missing__(self, wanted: tuple[int, ...]) -> tuple[int, ...]:
        to = self.dist_to
        near = to[wanted[0]] if len(wanted) == 1 else tuple(map(min, *map(to.__getitem__,
                                                                            wanted)))
        _keep(self, wanted, near)
        return near


class _Toward(dict[tuple[int, tuple[int, ...]], dict[str, int]]):
    """Per city and cities wanted: each move from the city that brings a pawn nearer the
    nearest city wanted, by the destination's name, and how many roads nearer; worked out
    when first asked for (the same for every mover: only who pays differs)."""

    def __init__(self, dist_to: tuple[tuple[int, ...], ...],
                 ways: tuple[dict[str, Step], ...]) -> None:
        super().__init__()
        self.nearest, self.ways = _Nearest(dist_to), ways

    def __missing__(self, key: tuple[int, tuple[int, ...]]) -> dict[str, int]:
        here, wanted = key
        near = self.nearest[wanted]
        out = {}
        at = near[here]
        for name, step in self.ways[here].items():
            gain = at - near[step[0]]
            if gain > 0:
                out[name] = gain
        _keep(self, key, out)
        return out


def _keep(memo: dict[Any, Any], key: Any, value: Any) -> None:
    """Keep a worked-out value (a table that fills as it is asked), up to `MEMO` of them:
    past it the table starts again, so that a long run's tables stay small."""
    if len(memo) >= MEMO:
        memo.clear()
    memo[key] = value


MEMO: Final = 4096  # values a table that fills as it is asked keeps (see `_keep`)


class _Costs(dict[Any, tuple[tuple[tuple[int, int], ...], int]]):
    """`cost_facts` of each move cost, worked out when first asked for."""

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def __missing__(self, cost: Any) -> tuple[tuple[tuple[int, int], ...], int]:
        facts = self[cost] = cost_facts(self.rules, cost)
        return facts
