"""Check every name in a DSL tree against the loaded rules, then compile it to Python.

Compilation happens once, when the rules load: a city effect, hook, movement cost or
property becomes flat generated Python source, made into functions with one exec each
(constants live in the functions' globals), that the core runs during play with no
parsing, name lookup or tree walking left on the hot path. The Python it writes touches a
state only through the names of `RuleState` (core/art/facade.py), checked by the tests.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Final

import attrs

from ..core.art.facade import agents_in as _agents
from ..core.art.facade import on_track as _on_track
from ..core.art.position import card_place, deck_card, final_from_bottom, final_from_top
from ..core.art.rules import Ctx, Fn, Hook, Op
from ..core.errors import RulesError, closest
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
    "round_end": "the round ends: after lost cities, before the final-round check (R27)",
}
PLAYER_NAMES: Final = tuple(f"p{i}" for i in range(1, 7))
_EXTRA_KINDS: Final = {"health", "resource", "clue"}
# Names readable in any expression, with their type and the Python that reads them.
_STATE_REFS: Final[dict[str, tuple[str, str]]] = {
    "threat": ("int", "st.threat()"),
    "ally_cost": ("int", "st.ally_cost()"),
    "round": ("int", "st.round"),
    "hq": ("int", "st.hq"),
    "allies": ("int", "st.allies"),
    "track": ("int", "len(st.track)"),
    "lost_cities": ("int", "sum(st.lost)"),
    "deck": ("int", "st.deck_size()"),
    "players": ("int", "st.players"),
    "health": ("int", "sum(st.health)"),
    "final_round": ("bool", "st.final_round"),
    "artworks": ("int", "sum(st.artworks)"),
    "chain": ("int", "sum(map(len, st.chains))"),
    "discard": ("int", "len(st.discard)"),
    # the final card's place in the deck (13th from the bottom at setup, R3; 0 once drawn)
    "final_from_bottom": ("int", "_final_from_bottom(st)"),
    "final_from_top": ("int", "_final_from_top(st)"),
    "strength": ("int", "st.strength()"),
    "agent_strength": ("int", "(0 if st.battle is None else st.agent_strength(st.battle.city))"),
    "outcome": ("str", "(st.outcome or '')"),
    "phase": ("str", "st.phase"),
    "wait": ("str", "st.wait_name()"),
}
_RESERVE_KINDS: Final = ("health", "agent", "artwork", "marker", "ally")
# what only a check may read (the deck's order, where each card lies): not a rule's business
_HIDDEN: Final = frozenset({"card()", "deck_top()", "final_from_bottom", "final_from_top"})


def _keywords() -> frozenset[str]:
    from .parser import GRAMMAR

    return frozenset(re.findall(r'"([a-z_]+)"', GRAMMAR.read_text(encoding="utf-8")))


# Words the DSL reads as something else: a city, symbol or resource may not be named so
# (a city named `hq` would read as the headquarters, one named `p1` as a player).
RESERVED: Final = (_keywords() | set(_STATE_REFS) | set(PLAYER_NAMES) | _EXTRA_KINDS
                   | {"van", "reserve", "road", "city", "player", "ally", "resources", "clues",
                      "heading", "from", "to"})
MULTIPLIER: Final = re.compile(r"x[0-9]+\Z")  # `x2` reads as a multiplier, never a name


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
        self._env: dict[str, Any] = {
            "_agents": _agents, "_on_track": _on_track, "_card_place": card_place,
            "_deck_card": deck_card, "_final_from_bottom": final_from_bottom,
            "_final_from_top": final_from_top, "__made__": [], "__codes__": []}
        self._text = ""
        self._origin = Origin()
        self._rules_text = False  # compiling a rule (effect, hook, cost): no hidden cards

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
        self._rules_text = True
        try:
            return None if tree is None else self._stmts(tree, bound)
        finally:
            self._rules_text = False

    def hook(self, text: str, origin: Origin | None = None) -> Hook | None:
        self._rules_text = True
        try:
            return self._hook(text, origin)
        finally:
            self._rules_text = False

    def _hook(self, text: str, origin: Origin | None) -> Hook | None:
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
        self._rules_text = True
        try:
            return None if tree is None else self._cost(tree)
        finally:
            self._rules_text = False

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

    # ---- code generation ------------------------------------------------------------
    # Every text compiles to flat Python source, turned into a function once with eval():
    # no tree of closures to walk during play. Constants live in the function's globals.
    def _const(self, value: Any) -> str:
        name = f"_k{len(self._env)}"
        self._env[name] = value
        return name

    def _fn(self, params: str, body: str) -> Any:
        src = f"def _f({params}):\n" + "\n".join("    " + ln for ln in body.splitlines())
        code = compile(src, "<dsl>", "exec")
        exec(code, self._env)  # trusted: made from a checked tree
        fn = self._env.pop("_f")
        # every function made, in the order made: a pickled game names a queued step by its
        # place here (compiling the same files again makes the same list); and its code, for
        # the compiled-rules cache (core/art/frozen.py)
        self._env["__made__"].append(fn)
        self._env["__codes__"].append(code)
        return fn

    # ---- statements ---------------------------------------------------------------
    def _stmts(self, stmts: Iterable[a.Stmt], bound: frozenset[str]) -> tuple[Op, ...]:
        return tuple(self._stmt(s, bound) for s in stmts)

    def _stmt(self, s: a.Stmt, bound: frozenset[str]) -> Op:
        fn: Op = self._fn("st, ctx", self._stmt_code(s, bound))
        return fn

    def _stmt_code(self, s: a.Stmt, bound: frozenset[str]) -> str:
        res = self.scope.resources
        if isinstance(s, a.Gain | a.Pay):
            pairs = tuple((self._kind(x, (*res, "health")), x.count) for x in s.amounts)
            verb = "gain_all" if isinstance(s, a.Gain) else "pay_all"
            return f"st.{verb}({self._const(pairs)}, ctx)"
        if isinstance(s, a.Lose):
            kinds = (*res, *sorted(_EXTRA_KINDS))
            pairs = tuple((self._kind(x, kinds), x.count) for x in s.amounts)
            return f"st.lose_all({self._const(pairs)}, ctx)"
        if isinstance(s, a.Place):
            return self._place(s, bound)
        if isinstance(s, a.EndGame):
            reason = s.reason or ("the rules say the team wins" if s.won else "the rules say so")
            return f"st.end_game({s.won}, {reason!r})"
        if isinstance(s, a.If):
            cond, _ = self._expr(s.cond, bound)
            code = f"if {cond}:\n" + _indent(self._stmt_code(s.then, bound))
            if s.otherwise is not None:
                code += "\nelse:\n" + _indent(self._stmt_code(s.otherwise, bound))
            return code
        if isinstance(s, a.ForEach):
            return self._for_each(s, bound)
        # a block runs its statements one by one from the queue: any of them may ask
        return f"st.push_ops({self._const(self._stmts(s.stmts, bound))}, ctx)"

    def _place(self, s: a.Place, bound: frozenset[str]) -> str:
        n = s.count
        if s.where == "@hq":
            return f"st.place_agents((-1,), {n}, ctx)"
        if s.where == "@every":
            return f"st.place_agents(st.every_city, {n}, ctx)"
        if s.where == "@every_other":
            if "city" not in bound:
                self._err("'every other city' needs an event about a city", s)
            return f"st.place_agents(tuple(c for c in st.every_city if c != ctx.city), {n}, ctx)"
        if s.where == "city" and "city" in bound:
            return f"st.place_agents((ctx.city,), {n}, ctx)"
        return f"st.place_agents({self._const(self._city(s.where, s))}, {n}, ctx)"

    def _for_each(self, s: a.ForEach, bound: frozenset[str]) -> str:
        inner = bound | {"player"}
        city = -1
        if s.city is not None:
            found = self._city(s.city, s, allow_symbol=False)
            city = found[0] if found else -1
        body = self._const(self._stmt(s.body, inner))
        cond = "True"
        if s.cond is not None:
            cond = self._const(self._fn("st, ctx", "return " + self._expr(s.cond, inner)[0]))
            cond += "(st, _c)"
        at = "True" if city < 0 else f"st.pawns[_p] == {city}"
        ctx_cls = self._const(Ctx)
        return (f"_items = []\nfor _p in range(st.players):\n    if {at}:\n"
                f"        _c = {ctx_cls}(_p, ctx.city, ctx.road)\n"
                f"        if {cond}:\n            _items.append(({body}, _c))\n"
                "st.push_many(_items)")

    def _cost(self, c: a.Cost) -> Callable[[Any, Ctx], tuple[tuple[str, int], ...]]:
        fn: Callable[[Any, Ctx], tuple[tuple[str, int], ...]] = self._fn(
            "st, ctx", "return " + self._cost_code(c))
        return fn

    def _cost_code(self, c: a.Cost) -> str:
        pairs = tuple((self._kind(x, (*self.scope.resources, "health")), x.count)
                      for x in c.amounts)
        if c.cond is None or c.otherwise is None:
            return self._const(pairs)
        cond, _ = self._expr(c.cond, frozenset({"road", "player"}))
        return f"({self._const(pairs)} if {cond} else {self._cost_code(c.otherwise)})"

    # ---- expressions --------------------------------------------------------------
    def _bool(self, e: a.Expr, bound: frozenset[str]) -> Fn:
        fn: Fn = self._fn("st, ctx", "return " + self._expr(e, bound)[0])
        return fn

    def _expr(self, e: a.Expr, bound: frozenset[str]) -> tuple[str, str]:
        if isinstance(e, a.Num):
            return str(e.value), "int"
        if isinstance(e, a.Str):
            return repr(e.value), "str"
        if isinstance(e, a.Bool):
            return repr(e.value), "bool"
        if isinstance(e, a.Ref):
            return self._ref(e, bound)
        if isinstance(e, a.Call):
            return self._call(e, bound)
        if isinstance(e, a.Unary):
            code, t = self._expr(e.operand, bound)
            if e.op == "not":
                return f"(not {code})", "bool"
            self._want(t, "int", e)
            return f"(-{code})", "int"
        if e.op in _CHAINS:
            return self._chain(e, bound)
        lc, lt = self._expr(e.left, bound)
        rc, rt = self._expr(e.right, bound)
        if e.op in ("<", "<=", ">", ">="):
            self._want(lt, "int", e.left)
            self._want(rt, "int", e.right)
        elif lt != rt and "?" not in (lt, rt):
            self._err(f"cannot compare {lt} with {rt}", e)
        kind = "int" if e.op in "+-*" else "bool"
        return f"({lc} {e.op} {rc})", kind

    def _chain(self, e: a.Binary, bound: frozenset[str]) -> tuple[str, str]:
        """`a + b - c`, `a and b and c`: one flat Python expression, however long (the
        parser folds a chain to the left, which Python would nest a bracket a term)."""
        ops = _CHAINS[e.op]
        tail: list[tuple[str, a.Expr]] = []
        node: a.Expr = e
        while isinstance(node, a.Binary) and node.op in ops:
            tail.append((node.op, node.right))
            node = node.left
        parts = [(None, node), *reversed(tail)]
        logic = e.op in ("and", "or")
        code = []
        for op, operand in parts:
            c, t = self._expr(operand, bound)
            if not logic:
                self._want(t, "int", operand)
            code.append(c if op is None else f"{op} {c}")
        return "(" + " ".join(code) + ")", "bool" if logic else "int"

    def _hidden(self, name: str, node: Any) -> None:
        if self._rules_text and name in _HIDDEN:
            self._err(f"{name} reads cards the players cannot see: it is for scenario "
                      "checks and properties, not for a mission's rules", node)

    def _want(self, got: str, want: str, node: Any) -> None:
        if got not in (want, "?"):
            self._err(f"expected a number here, not a {got}", node)

    def _ref(self, e: a.Ref, bound: frozenset[str]) -> tuple[str, str]:
        head, rest = e.parts[0], e.parts[1:]
        sc = self.scope
        if head == "van" and len(rest) == 1:
            if rest[0] in sc.resources:
                return f"st.van[{sc.resources.index(rest[0])}]", "int"
            self._err(f"unknown resource {rest[0]!r}" + closest(rest[0], sc.resources), e)
            return _UNKNOWN
        if head == "reserve" and len(rest) == 1:
            name = rest[0]
            if name.endswith("s") and name[:-1] in (*sc.resources, *_RESERVE_KINDS):
                name = name[:-1]
            if name in (*sc.resources, *_RESERVE_KINDS):
                return f"st.reserve({name!r})", "int"
            self._err(f"unknown reserve {rest[0]!r}"
                      + closest(rest[0], (*sc.resources, *_RESERVE_KINDS)), e)
            return _UNKNOWN
        if head == "road" and len(rest) == 1:
            if "road" not in bound:
                self._err("'road' is only known in a movement cost", e)
            attr = rest[0]
            if attr == "heading":
                return "(ctx.road.heading if ctx.road else None)", "?"
            if attr in ("from", "to"):
                end = "src" if attr == "from" else "dst"
                return f"(st.rules.cities[ctx.road.{end}].name if ctx.road else None)", "?"
            if attr not in sc.road_attrs:
                self._err(f"no road has the attribute {attr!r}"
                          + closest(attr, (*sc.road_attrs, "heading", "from", "to")), e)
            return f"(ctx.road.attrs.get({attr!r}) if ctx.road else None)", "?"
        if rest:
            self._err(f"unknown name {'.'.join(e.parts)!r}", e)
            return _UNKNOWN
        if head in bound and head in ("city", "player"):
            return f"ctx.{head}", head
        if head in _STATE_REFS:
            self._hidden(head, e)
            kind, code = _STATE_REFS[head]
            return code, kind
        if head in sc.cities:
            return str(sc.cities[head]), "city"
        if head in sc.symbols:
            return repr(head), "str"
        if head in PLAYER_NAMES:
            return str(PLAYER_NAMES.index(head)), "player"
        known = [*_STATE_REFS, *sc.cities, *sc.symbols, *bound, "van", "reserve"]
        self._err(f"unknown name {head!r}" + closest(head, known), e)
        return _UNKNOWN

    def _call(self, e: a.Call, bound: frozenset[str]) -> tuple[str, str]:
        if e.name == "agents" and e.args == (a.Ref(("hq",)),):
            return "st.hq", "int"
        args = [self._expr(x, bound) for x in e.args]
        sig = _CALLS.get(e.name)
        self._hidden(f"{e.name}()", e)
        if sig is None:
            self._err(f"unknown function {e.name!r}" + closest(e.name, _CALLS)
                      + "; functions are: " + ", ".join(_CALLS), e)
            return _UNKNOWN
        want, result, template = sig
        if len(args) != len(want):
            self._err(f"{e.name}() takes {len(want)} argument(s), not {len(args)}", e)
            return _UNKNOWN
        for (_, got), need, node in zip(args, want, e.args, strict=True):
            if got not in need and got != "?":
                self._err(f"{e.name}() wants {' or '.join(need)} here, not {got}", node)
        codes = [c for c, _ in args]
        if e.name == "agents" and codes[0].isdigit():
            return f"st.agents[{codes[0]}]", "int"  # a named city: a plain index
        return template.format(*codes), result


def _indent(code: str) -> str:
    return "\n".join("    " + ln for ln in code.splitlines())


_UNKNOWN: Final = ("None", "?")
# Operators that chain (left to right, one precedence): and, or, + and -, *.
_CHAINS: Final = {"and": ("and",), "or": ("or",), "+": ("+", "-"), "-": ("+", "-"),
                  "*": ("*",)}


# function -> (argument kinds, result kind, Python template over the arguments' code)
_CALLS: Final[dict[str, tuple[tuple[tuple[str, ...], ...], str, str]]] = {
    "agents": ((("city",),), "int", "_agents(st, {0})"),
    "pawns": ((("city",),), "int", "st.pawns.count({0})"),
    "artwork": ((("city",),), "bool", "st.artwork_at({0})"),
    "symbol": ((("city",),), "str", "(st.rules.cities[{0}].symbol or '')"),
    "lost": ((("city",),), "bool", "bool(st.lost[{0}])"),
    "on_track": ((("city", "str"),), "bool", "_on_track(st, {0})"),
    "health": ((("player",),), "int", "(st.health[{0}] if {0} < st.players else 0)"),
    "hand": ((("player",),), "int", "(len(st.hands[{0}]) if {0} < st.players else 0)"),
    "moved": ((("player",),), "bool", "({0} in st.moved)"),
    "at": ((("player",), ("city",)), "bool", "(st.pawns[{0}] == {1})"),
    "clues": ((("str",),), "int", "st.clue_count({0})"),
    # cards by number: where one lies ("deck", "hand p1", "chain" or "chain p2", "discard",
    # "removed"), and the nth card from the top of the deck where known (-1 where not)
    "card": ((("int",),), "str", "_card_place(st, {0})"),
    "deck_top": ((("int",),), "int", "_deck_card(st, {0})"),
    "min": ((("int",), ("int",)), "int", "min({0}, {1})"),
    "max": ((("int",), ("int",)), "int", "max({0}, {1})"),
}
