"""Check every name in a DSL tree against the loaded rules, then compile it to closures.

Compilation happens once, when the rules load: a card section, city effect, hook, movement
cost or property becomes a tuple of plain Python callables that the core runs during play,
with no parsing or name lookup left on the hot path.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from typing import Any, Final

import attrs

from ..core.errors import RulesError, closest
from ..core.rules import Ctx, Fn, Hook, Op
from . import ast as a
from .parser import Origin, parse

# Events the core announces; `ctx` names what a hook may read about the event.
EVENTS: Final = {
    "round_start": "a round begins (before its first phase boundary)",
    "mission_end": "every mission card of the round has been played",
    "movement_end": "the team has finished moving (before collection)",
    "artwork_uncovered": "an artwork is placed on `city`",
    "artwork_collected": "the artwork of `city` goes onto the track",
    "battle_won": "the team won the battle in `city`",
    "battle_lost": "the team conceded the battle in `city`",
    "city_lost": "`city` has just become lost",
    "round_end": "the end of round checks are done",
}
PLAYER_NAMES: Final = tuple(f"p{i}" for i in range(1, 7))
_EXTRA_KINDS: Final = {"health", "resource", "clue"}
_CMP: Final[dict[str, Callable[[Any, Any], Any]]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge, "+": operator.add, "-": operator.sub,
    "*": operator.mul,
}
# Names readable in any expression, with their type and reader.
_STATE_REFS: Final[dict[str, tuple[str, Fn]]] = {
    "threat": ("int", lambda s, c: s.threat()),
    "ally_cost": ("int", lambda s, c: s.ally_cost()),
    "round": ("int", lambda s, c: s.round),
    "hq": ("int", lambda s, c: s.hq),
    "allies": ("int", lambda s, c: s.allies),
    "track": ("int", lambda s, c: len(s.track)),
    "lost_cities": ("int", lambda s, c: sum(s.lost)),
    "deck": ("int", lambda s, c: s.deck_size()),
    "players": ("int", lambda s, c: s.players),
    "health": ("int", lambda s, c: sum(s.health)),
    "final_round": ("bool", lambda s, c: s.final_round),
    "artworks": ("int", lambda s, c: sum(s.artworks)),
    "chain": ("int", lambda s, c: sum(len(ch) for ch in s.chains)),
    "discard": ("int", lambda s, c: len(s.discard)),
    "strength": ("int", lambda s, c: s.strength()),
    "agent_strength": ("int", lambda s, c: s.agent_strength(s.b_city) if s.b_city >= 0 else 0),
    "outcome": ("str", lambda s, c: s.outcome or ""),
    "phase": ("str", lambda s, c: s.phase),
    "wait": ("str", lambda s, c: s.wait or ""),
}
_RESERVE_KINDS: Final = ("health", "agent", "artwork", "marker", "ally")


@attrs.frozen
class Scope:
    """The names a rule text may use: the loaded rules' resources, symbols, cities, roads."""

    resources: tuple[str, ...]
    symbols: tuple[str, ...]
    cities: dict[str, int]
    road_attrs: frozenset[str] = frozenset()
    cities_of: dict[str, tuple[int, ...]] = attrs.Factory(dict)


class Compiler:
    """Parses, checks and compiles rule texts; gathers every error instead of stopping."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.errors: list[RulesError] = []
        self._text = ""
        self._origin = Origin()

    # ---- entry points -------------------------------------------------------------
    def parse(self, text: str, start: str, origin: Origin | None = None) -> Any:
        self._text, self._origin = text, origin or Origin()
        try:
            return parse(text, start, self._origin)
        except RulesError as err:
            self.errors.append(err)
            return None

    def amounts(self, text: str, kinds: Iterable[str], origin: Origin | None = None,
                ) -> tuple[tuple[str, int], ...] | None:
        tree = self.parse(text, "amounts", origin)
        if tree is None:
            return None
        allowed = tuple(kinds)
        return tuple((self._kind(x, allowed), x.count) for x in tree)

    def placements(self, text: str, origin: Origin | None = None,
                   ) -> tuple[tuple[str, int], ...] | None:
        tree = self.parse(text, "placements", origin)
        if tree is None:
            return None
        out = []
        for p in tree:
            if p.target not in self.scope.symbols:
                self._err(f"unknown artwork symbol {p.target!r}"
                          + closest(p.target, self.scope.symbols), p)
            if p.count < 1:
                self._err("a placement needs at least x1", p)
            out.append((p.target, p.count))
        return tuple(out)

    def symbols(self, text: str, origin: Origin | None = None) -> tuple[int, ...] | None:
        tree = self.parse(text, "symbols", origin)
        if tree is None:
            return None
        out: list[int] = []
        for r in tree:
            name = r.parts[0]
            if name not in self.scope.symbols:
                self._err(f"unknown clue symbol {name!r}" + closest(name, self.scope.symbols), r)
            elif self.scope.symbols.index(name) in out:
                self._err(f"clue symbol {name!r} twice on one card (R9)", r)
            else:
                out.append(self.scope.symbols.index(name))
        if not 1 <= len(tree) <= 2:
            self._err(f"a card bears 1 or 2 clue symbols, not {len(tree)} (R9)", tree[0])
        return tuple(out)

    def effect(self, text: str, origin: Origin | None = None,
               bound: frozenset[str] = frozenset()) -> tuple[Op, ...] | None:
        tree = self.parse(text, "effect", origin)
        return None if tree is None else self._stmts(tree, bound)

    def hook(self, text: str, origin: Origin | None = None) -> Hook | None:
        tree = self.parse(text, "hook", origin)
        if tree is None:
            return None
        if tree.event not in EVENTS:
            self._err(f"unknown event {tree.event!r}" + closest(tree.event, EVENTS)
                      + "; events are: " + ", ".join(EVENTS), tree)
        bound = frozenset({"city"}) if "city" in EVENTS.get(tree.event, "") else frozenset()
        cond = self._bool(tree.cond, bound) if tree.cond is not None else None
        return Hook(tree.event, cond, self._stmts(tree.body, bound), text)

    def expr(self, text: str, origin: Origin | None = None, bound: frozenset[str] = frozenset(),
             ) -> Fn | None:
        tree = self.parse(text, "expr", origin)
        return None if tree is None else self._bool(tree, bound)

    def expr_node(self, node: a.Expr, bound: frozenset[str] = frozenset()) -> Fn:
        """Compile an already parsed expression (positions refer to the last parsed text)."""
        return self._bool(node, bound)

    def cost(self, text: str, origin: Origin | None = None,
             ) -> Callable[[Any, Ctx], tuple[tuple[str, int], ...]] | None:
        tree = self.parse(text, "cost", origin)
        return None if tree is None else self._cost(tree)

    # ---- checking helpers ---------------------------------------------------------
    def _err(self, message: str, node: Any) -> None:
        self.errors.append(RulesError(message, self._origin.locate(node.at, self._text)))

    def _kind(self, amount: a.Amount, allowed: tuple[str, ...]) -> str:
        kind = amount.kind
        if kind not in allowed and kind.endswith("s") and kind[:-1] in allowed:
            kind = kind[:-1]
        if kind not in allowed:
            self._err(f"unknown kind {amount.kind!r}" + closest(amount.kind, allowed)
                      + "; expected one of: " + ", ".join(allowed), amount)
        if amount.count < 1:
            self._err("an amount must be at least 1", amount)
        return kind

    def _city(self, name: str, node: Any, allow_symbol: bool = True) -> tuple[int, ...]:
        if name in self.scope.cities:
            return (self.scope.cities[name],)
        if allow_symbol and name in self.scope.symbols:
            return self.scope.cities_of.get(name, ())
        known = list(self.scope.cities) + (list(self.scope.symbols) if allow_symbol else [])
        self._err(f"unknown city {name!r}" + closest(name, known), node)
        return ()

    # ---- statements ---------------------------------------------------------------
    def _stmts(self, stmts: Iterable[a.Stmt], bound: frozenset[str]) -> tuple[Op, ...]:
        return tuple(self._stmt(s, bound) for s in stmts)

    def _stmt(self, s: a.Stmt, bound: frozenset[str]) -> Op:
        res = self.scope.resources
        if isinstance(s, a.Gain):
            pairs = tuple((self._kind(x, (*res, "health")), x.count) for x in s.amounts)
            return lambda st, ctx: st.gain_all(pairs, ctx)
        if isinstance(s, a.Pay):
            pairs = tuple((self._kind(x, (*res, "health")), x.count) for x in s.amounts)
            return lambda st, ctx: st.pay_all(pairs, ctx)
        if isinstance(s, a.Lose):
            kinds = (*res, *sorted(_EXTRA_KINDS))
            pairs = tuple((self._kind(x, kinds), x.count) for x in s.amounts)
            return lambda st, ctx: st.lose_all(pairs, ctx)
        if isinstance(s, a.Place):
            return self._place(s, bound)
        if isinstance(s, a.EndGame):
            won = s.won
            reason = s.reason or ("the rules say the team wins" if won else "the rules say so")
            return lambda st, ctx: st.end_game(won, reason)
        if isinstance(s, a.If):
            cond = self._bool(s.cond, bound)
            then = self._stmt(s.then, bound)
            other = self._stmt(s.otherwise, bound) if s.otherwise is not None else None

            def if_(st: Any, ctx: Ctx) -> None:
                if cond(st, ctx):
                    then(st, ctx)
                elif other is not None:
                    other(st, ctx)

            return if_
        if isinstance(s, a.ForEach):
            return self._for_each(s, bound)
        ops = self._stmts(s.stmts, bound)
        return lambda st, ctx: st.push_ops(ops, ctx)

    def _place(self, s: a.Place, bound: frozenset[str]) -> Op:
        n = s.count
        if s.where == "@hq":
            return lambda st, ctx: st.place_agents((-1,), n, ctx)
        if s.where == "@every":
            return lambda st, ctx: st.place_agents(st.every_city, n, ctx)
        if s.where == "@every_other":
            if "city" not in bound:
                self._err("'every other city' needs an event about a city", s)
            return lambda st, ctx: st.place_agents(
                tuple(c for c in st.every_city if c != ctx.city), n, ctx)
        if s.where == "city" and "city" in bound:
            return lambda st, ctx: st.place_agents((ctx.city,), n, ctx)
        cities = self._city(s.where, s)
        return lambda st, ctx: st.place_agents(cities, n, ctx)

    def _for_each(self, s: a.ForEach, bound: frozenset[str]) -> Op:
        inner = bound | {"player"}
        city = -1
        if s.city is not None:
            found = self._city(s.city, s, allow_symbol=False)
            city = found[0] if found else -1
        cond = self._bool(s.cond, inner) if s.cond is not None else None
        body = self._stmt(s.body, inner)

        def for_each(st: Any, ctx: Ctx) -> None:
            ctxs = [Ctx(p, ctx.city, ctx.road) for p in range(st.players)
                    if city < 0 or st.pawns[p] == city]
            st.push_many([(body, c) for c in ctxs if cond is None or cond(st, c)])

        return for_each

    def _cost(self, c: a.Cost) -> Callable[[Any, Ctx], tuple[tuple[str, int], ...]]:
        pairs = tuple((self._kind(x, (*self.scope.resources, "health")), x.count)
                      for x in c.amounts)
        if c.cond is None or c.otherwise is None:
            return lambda st, ctx: pairs
        cond = self._bool(c.cond, frozenset({"road", "player"}))
        other = self._cost(c.otherwise)
        return lambda st, ctx: pairs if cond(st, ctx) else other(st, ctx)

    # ---- expressions --------------------------------------------------------------
    def _bool(self, e: a.Expr, bound: frozenset[str]) -> Fn:
        fn, _ = self._expr(e, bound)
        return fn

    def _expr(self, e: a.Expr, bound: frozenset[str]) -> tuple[Fn, str]:
        if isinstance(e, a.Num | a.Str | a.Bool):
            v: Any = e.value
            kind = {a.Num: "int", a.Str: "str", a.Bool: "bool"}[type(e)]
            return (lambda st, ctx: v), kind
        if isinstance(e, a.Ref):
            return self._ref(e, bound)
        if isinstance(e, a.Call):
            return self._call(e, bound)
        if isinstance(e, a.Unary):
            f, t = self._expr(e.operand, bound)
            if e.op == "not":
                return (lambda st, ctx: not f(st, ctx)), "bool"
            self._want(t, "int", e)
            return (lambda st, ctx: -f(st, ctx)), "int"
        lf, lt = self._expr(e.left, bound)
        rf, rt = self._expr(e.right, bound)
        if e.op == "and":
            return (lambda st, ctx: lf(st, ctx) and rf(st, ctx)), "bool"
        if e.op == "or":
            return (lambda st, ctx: lf(st, ctx) or rf(st, ctx)), "bool"
        if e.op in ("+", "-", "*", "<", "<=", ">", ">="):
            self._want(lt, "int", e.left)
            self._want(rt, "int", e.right)
        elif lt != rt and "?" not in (lt, rt):
            self._err(f"cannot compare {lt} with {rt}", e)
        f2 = _CMP[e.op]
        kind = "int" if e.op in "+-*" else "bool"
        return (lambda st, ctx: f2(lf(st, ctx), rf(st, ctx))), kind

    def _want(self, got: str, want: str, node: Any) -> None:
        if got not in (want, "?"):
            self._err(f"expected a number here, not a {got}", node)

    def _ref(self, e: a.Ref, bound: frozenset[str]) -> tuple[Fn, str]:
        head, rest = e.parts[0], e.parts[1:]
        sc = self.scope
        if head == "van" and len(rest) == 1:
            if rest[0] in sc.resources:
                i = sc.resources.index(rest[0])
                return (lambda st, ctx: st.van[i]), "int"
            self._err(f"unknown resource {rest[0]!r}" + closest(rest[0], sc.resources), e)
            return _unknown
        if head == "reserve" and len(rest) == 1:
            name = rest[0]
            if name.endswith("s") and name[:-1] in (*sc.resources, *_RESERVE_KINDS):
                name = name[:-1]
            if name in (*sc.resources, *_RESERVE_KINDS):
                return (lambda st, ctx: st.reserve(name)), "int"
            self._err(f"unknown reserve {rest[0]!r}"
                      + closest(rest[0], (*sc.resources, *_RESERVE_KINDS)), e)
            return _unknown
        if head == "road" and len(rest) == 1:
            if "road" not in bound:
                self._err("'road' is only known in a movement cost", e)
            attr = rest[0]
            if attr in ("heading", "from", "to"):
                def road_attr(st: Any, ctx: Ctx) -> Any:
                    r = ctx.road
                    if r is None:
                        return None
                    if attr == "heading":
                        return r.heading
                    return st.rules.cities[r.src if attr == "from" else r.dst].name
                return road_attr, "?"
            if attr not in sc.road_attrs:
                self._err(f"no road has the attribute {attr!r}"
                          + closest(attr, (*sc.road_attrs, "heading", "from", "to")), e)
            return (lambda st, ctx: ctx.road.attrs.get(attr) if ctx.road else None), "?"
        if rest:
            self._err(f"unknown name {'.'.join(e.parts)!r}", e)
            return _unknown
        if head in bound:
            if head == "city":
                return (lambda st, ctx: ctx.city), "city"
            if head == "player":
                return (lambda st, ctx: ctx.player), "player"
        if head in _STATE_REFS:
            kind, fn = _STATE_REFS[head]
            return fn, kind
        if head in sc.cities:
            ci = sc.cities[head]
            return (lambda st, ctx: ci), "city"
        if head in sc.symbols:
            return (lambda st, ctx: head), "str"
        if head in PLAYER_NAMES:
            pi = PLAYER_NAMES.index(head)
            return (lambda st, ctx: pi), "player"
        known = [*_STATE_REFS, *sc.cities, *sc.symbols, *bound, "van", "reserve"]
        self._err(f"unknown name {head!r}" + closest(head, known), e)
        return _unknown

    def _call(self, e: a.Call, bound: frozenset[str]) -> tuple[Fn, str]:
        if e.name == "agents" and e.args == (a.Ref(("hq",)),):
            kind, fn = _STATE_REFS["hq"]
            return fn, kind
        args = [self._expr(x, bound) for x in e.args]
        sig = _CALLS.get(e.name)
        if sig is None:
            self._err(f"unknown function {e.name!r}" + closest(e.name, _CALLS)
                      + "; functions are: " + ", ".join(_CALLS), e)
            return _unknown
        want, result, impl = sig
        if len(args) != len(want):
            self._err(f"{e.name}() takes {len(want)} argument(s), not {len(args)}", e)
            return _unknown
        for (_, got), need, node in zip(args, want, e.args, strict=True):
            if got not in need and got != "?":
                self._err(f"{e.name}() wants {' or '.join(need)} here, not {got}", node)
        fns = tuple(f for f, _ in args)
        if len(fns) == 1:
            f0 = fns[0]
            return (lambda st, ctx: impl(st, f0(st, ctx))), result
        f0, f1 = fns
        return (lambda st, ctx: impl(st, f0(st, ctx), f1(st, ctx))), result


def _unknown_fn(st: Any, ctx: Ctx) -> None:
    return None


_unknown: Final[tuple[Fn, str]] = (_unknown_fn, "?")


def _agents(st: Any, c: Any) -> int:
    return int(st.agents[c]) if c >= 0 else int(st.hq)


def _on_track(st: Any, x: Any) -> bool:
    sym = st.rules.cities[x].symbol if isinstance(x, int) else x
    return sym in st.track


_CALLS: Final[dict[str, tuple[tuple[tuple[str, ...], ...], str, Callable[..., Any]]]] = {
    "agents": ((("city",),), "int", _agents),
    "pawns": ((("city",),), "int", lambda st, c: sum(1 for p in st.pawns if p == c)),
    "artwork": ((("city",),), "bool", lambda st, c: st.artwork_at(c)),
    "symbol": ((("city",),), "str", lambda st, c: st.rules.cities[c].symbol or ""),
    "lost": ((("city",),), "bool", lambda st, c: bool(st.lost[c])),
    "on_track": ((("city", "str"),), "bool", _on_track),
    "health": ((("player",),), "int", lambda st, p: st.health[p] if p < st.players else 0),
    "moved": ((("player",),), "bool", lambda st, p: p in st.moved),
    "clues": ((("str",),), "int", lambda st, s: st.clue_count(s)),
    "hand": ((("player",),), "int", lambda st, p: len(st.hands[p]) if p < st.players else 0),
    "at": ((("player",), ("city",)), "bool", lambda st, p, c: st.pawns[p] == c),
    "min": ((("int",), ("int",)), "int", min),
    "max": ((("int",), ("int",)), "int", max),
}
