"""Check every name in a DSL tree against the loaded rules, then compile it to Python.

Compilation happens once, when the rules load: a city effect, hook, movement cost or
property becomes flat generated Python source, made into functions with one exec each
(constants live in the functions' globals), that the core runs during play with no
parsing, name lookup or tree walking left on the hot path.

The compiler is the same for every game; what the names, functions and statements mean is
the game's own declaration (`Words`, dsl/words.py): The A.R.T. Project's in
core/art/words.py, Art of War's in core/aow/words.py. The Python it writes touches a state
only through the names of the game's facade (`Words.facade`), checked by the tests.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

import attrs

from ..core.errors import RulesError, closest
from . import ast as a
from .printer import expr as show_expr
from .text import GRAMMAR, Origin
from .words import DEFAULT, UNKNOWN, Code, Words

MULTIPLIER: Final = re.compile(r"x[0-9]+\Z")  # `x2` reads as a multiplier, never a name
Fn = Callable[[Any, Any], Any]  # a compiled expression or step: fn(state, context)


def keywords() -> frozenset[str]:
    """The grammar's own words (`gain`, `every`, `other`...): no game may name a thing so."""
    return frozenset(re.findall(r'"([a-z_]+)"', GRAMMAR.read_text(encoding="utf-8")))


@attrs.frozen
class Scope:
    """The names a rule text of The A.R.T. Project may use: the loaded rules' resources,
    symbols, cities, roads (another game's words read a scope of their own)."""

    resources: tuple[str, ...]
    symbols: tuple[str, ...]
    cities: dict[str, int]
    # each attribute roads have, with the values they give it (None: values that are lists
    # or tables, not told)
    road_attrs: Mapping[str, frozenset[Any] | None] = attrs.Factory(dict)
    cities_of: dict[str, tuple[int, ...]] = attrs.Factory(dict)


def _default_words() -> Words:
    """The default game's words, which it gives when imported (dsl/words.py `DEFAULT`): the
    compiler imports no game."""
    if not DEFAULT:
        raise TypeError("Compiler(scope) without words: no game has given its words yet")
    return DEFAULT[0]


_KINDS: Final = {"int": "a number", "bool": "a condition", "str": "a text"}


def _a(kind: str) -> str:
    """A value's kind in words: "a number", "a player"."""
    return _KINDS.get(kind, f"a {kind}")


def _value(node: a.Expr, kind: str) -> str:
    """A value as an error names it: its text and its kind in the DSL's words,
    "`symbol(tokyo)` (a text)", "`lost(tokyo)` (true or false)"."""
    shown = show_expr(node)
    shown = shown if len(shown) <= 30 else shown[:27] + "..."
    return f"`{shown}` ({'true or false' if kind == 'bool' else _a(kind)})"


class Compiler:
    """Parses, checks and compiles rule texts; gathers every error instead of stopping."""

    def __init__(self, scope: Any, words: Words | None = None) -> None:
        self.scope = scope
        self.words = words if words is not None else _default_words()
        self.errors: list[RulesError] = []
        self._env: dict[str, Any] = {**self.words.env, "__made__": [], "__codes__": []}
        self._text = ""
        self._origin = Origin()
        self._rules_text = False  # compiling a rule (effect, hook, cost): no hidden cards
        self._values: dict[Any, tuple[frozenset[Any], str]] = {}  # (see `note_values`)

    @property
    def made(self) -> list[Any]:
        """Every function made so far, in the order made (a pickle names one by its place)."""
        made: list[Any] = self._env["__made__"]
        return made

    # ---- entry points -------------------------------------------------------------
    def parse(self, text: str, start: str, origin: Origin | None = None) -> Any:
        self._text, self._origin = text, origin or Origin()
        from .parser import parse  # Lark, only when a text is parsed

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
        return tuple((self.kind(x, allowed), x.count) for x in tree)

    def placements(self, text: str, origin: Origin | None = None,
                   ) -> tuple[tuple[str, int], ...] | None:
        """A.R.T.'s card section `agents` (its scope's symbols)."""
        tree = self.parse(text, "placements", origin)
        if tree is None:
            return None
        out = []
        for p in tree:
            if p.target not in self.scope.symbols:
                self.err(f"unknown artwork symbol {p.target!r}"
                         + closest(p.target, self.scope.symbols), p)
            if p.count < 1:
                self.err_at("a placement needs at least x1", p.count_at)
            out.append((p.target, p.count))
        return tuple(out)

    def symbols(self, text: str, origin: Origin | None = None) -> tuple[int, ...] | None:
        """A.R.T.'s card section `clues` (its scope's symbols, R9)."""
        tree = self.parse(text, "symbols", origin)
        if tree is None:
            return None
        out: list[int] = []
        for r in tree:
            name = r.parts[0]
            if name not in self.scope.symbols:
                self.err(f"unknown clue symbol {name!r}" + closest(name, self.scope.symbols), r)
            elif self.scope.symbols.index(name) in out:
                self.err(f"clue symbol {name!r} twice on one card (R9)", r)
            else:
                out.append(self.scope.symbols.index(name))
        if not 1 <= len(tree) <= 2:
            self.err(f"a card bears 1 or 2 clue symbols, not {len(tree)} (R9)", tree[0])
        return tuple(out)

    def effect(self, text: str, origin: Origin | None = None,
               bound: frozenset[str] = frozenset()) -> tuple[Fn, ...] | None:
        tree = self.parse(text, "effect", origin)
        self._rules_text = True
        try:
            return None if tree is None else self._stmts(tree, bound)
        finally:
            self._rules_text = False

    def hook(self, text: str, origin: Origin | None = None) -> Any:
        """A hook: the game's `Hook` value (event, condition, steps, text)."""
        self._rules_text = True
        try:
            return self._hook(text, origin)
        finally:
            self._rules_text = False

    def _hook(self, text: str, origin: Origin | None) -> Any:
        tree = self.parse(text, "hook", origin)
        if tree is None:
            return None
        events = self.words.events
        if tree.event not in events:
            self.err(f"unknown event {tree.event!r}" + closest(tree.event, events)
                     + "; events are: " + ", ".join(events), tree)
        bound = self.words.bound_by(tree.event)
        cond = None
        if tree.cond is not None:
            cond = self._fn("st, ctx", "return " + self.condition_code(tree.cond, bound))
        return self.words.hook(tree.event, cond, self._stmts(tree.body, bound), text)

    def expr(self, text: str, origin: Origin | None = None, bound: frozenset[str] = frozenset(),
             rules: bool = False, condition: bool = False) -> Fn | None:
        """An expression; `rules`: part of a card's or a board's rules, so it may not read
        what the players cannot see (a scenario's check or a property may); `condition`: it
        must be true or false (a property's check: a number there would always hold)."""
        tree = self.parse(text, "expr", origin)
        self._rules_text = rules
        try:
            return None if tree is None else self.expr_node(tree, bound, condition)
        finally:
            self._rules_text = False

    def expr_node(self, node: a.Expr, bound: frozenset[str] = frozenset(),
                  condition: bool = False) -> Fn:
        """Compile an already parsed expression (positions refer to the last parsed text);
        `condition`: it must be true or false (a scenario's expect)."""
        code = self.condition_code(node, bound, None) if condition else self._expr(node, bound)[0]
        fn: Fn = self._fn("st, ctx", "return " + code)
        return fn

    def cost(self, text: str, origin: Origin | None = None,
             ) -> Callable[[Any, Any], tuple[tuple[str, int], ...]] | None:
        """A.R.T.'s movement cost (amounts of its scope's resources, or a condition)."""
        tree = self.parse(text, "cost", origin)
        self._rules_text = True
        try:
            return None if tree is None else self._cost(tree)
        finally:
            self._rules_text = False

    # ---- checking helpers ---------------------------------------------------------
    def err(self, message: str, node: Any) -> None:
        """An error at `node` of the text being compiled."""
        self.err_at(message, node.at)

    def err_at(self, message: str, pos: a.Pos) -> None:
        """An error at position `pos` of the text being compiled."""
        self.errors.append(RulesError(message, self._origin.locate(pos, self._text)))

    _err = err

    def kind(self, amount: a.Amount, allowed: tuple[str, ...]) -> str:
        """An amount's kind among `allowed` (a plural read as its singular)."""
        kind = amount.kind
        if kind not in allowed and kind.endswith("s") and kind[:-1] in allowed:
            kind = kind[:-1]
        if kind not in allowed:
            self.err(f"unknown kind {amount.kind!r}" + closest(amount.kind, allowed)
                     + "; expected one of: " + ", ".join(allowed), amount)
        if amount.count < 1:  # (at the number: the kind's word is `at`)
            self.err_at("an amount must be at least 1", amount.count_at)
        return kind

    _kind = kind

    # ---- code generation ------------------------------------------------------------
    # Every text compiles to flat Python source, turned into a function once with eval():
    # no tree of closures to walk during play. Constants live in the function's globals.
    def const(self, value: Any) -> str:
        """A name in the generated code's globals holding `value`."""
        name = f"_k{len(self._env)}"
        self._env[name] = value
        return name

    _const = const

    def fn(self, params: str, body: str) -> Any:
        """A function made from generated source (`def _f(params): body`)."""
        return self._fn(params, body)

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
    def _stmts(self, stmts: Iterable[a.Stmt], bound: frozenset[str]) -> tuple[Fn, ...]:
        return tuple(self.stmt(s, bound) for s in stmts)

    def stmt(self, s: a.Stmt, bound: frozenset[str]) -> Fn:
        """A statement as a step: fn(state, context)."""
        fn: Fn = self._fn("st, ctx", self.stmt_code(s, bound))
        return fn

    def stmt_code(self, s: a.Stmt, bound: frozenset[str]) -> str:
        """A statement's Python: `if` and blocks here, call statements from the game's
        declarations, the rest (gain, lose, for each...) the game's own."""
        if isinstance(s, a.If):
            cond = self.condition_code(s.cond, bound)
            code = f"if {cond}:\n" + indent(self.stmt_code(s.then, bound))
            if s.otherwise is not None:
                code += "\nelse:\n" + indent(self.stmt_code(s.otherwise, bound))
            return code
        if isinstance(s, a.Block):
            # a block runs its statements one by one from the queue: any of them may ask
            return f"st.push_ops({self._const(self._stmts(s.stmts, bound))}, ctx)"
        if isinstance(s, a.Do):
            return self._do(s, bound)
        if isinstance(s, a.Place) and s.count < 1:  # as `gain 0 fuel` is: no rule places 0
            self.err_at("an amount must be at least 1", s.count_at)
        return self.words.statement(self, s, bound)

    def _do(self, s: a.Do, bound: frozenset[str]) -> str:
        statements = self.words.statements
        sig = statements.get(s.name)
        if sig is None:
            known = ", ".join(statements) or "none"
            self.err(f"unknown statement {s.name!r}" + closest(s.name, statements)
                     + f"; statements of {self.words.game or 'this game'}: {known}", s)
            return "pass"
        code = self._args(s.name, sig, s.args, s, bound)
        return "pass" if code is None else sig[2].format(*code)

    def _cost(self, c: a.Cost) -> Callable[[Any, Any], tuple[tuple[str, int], ...]]:
        fn: Callable[[Any, Any], tuple[tuple[str, int], ...]] = self._fn(
            "st, ctx", "return " + self._cost_code(c))
        return fn

    def _cost_code(self, c: a.Cost) -> str:
        pairs = tuple((self._kind(x, (*self.scope.resources, "health")), x.count)
                      for x in c.amounts)
        if c.cond is None or c.otherwise is None:
            return self._const(pairs)
        cond = self.condition_code(c.cond, frozenset({"road", "player"}))
        return f"({self._const(pairs)} if {cond} else {self._cost_code(c.otherwise)})"

    # ---- expressions --------------------------------------------------------------
    def condition_code(self, e: a.Expr, bound: frozenset[str], after: str | None = "if",
                       ) -> str:
        """A condition's Python: `e` must be true or false, where the language needs a
        condition (after `if`, `not`, around `and` and `or`, a check): a number or a text
        there would always hold (Python's truth) or never, and its author meant a
        comparison. `after`: the word it follows, for the error (None: a whole check)."""
        code, kind = self._expr(e, bound)
        self._want_condition(kind, e, f" after {after!r}" if after else "")
        return code

    def _want_condition(self, kind: str, node: Any, where: str) -> None:
        if kind in ("bool", "?"):
            return
        hint = ""
        if kind == "int" and not isinstance(node, a.Num):  # a count, its comparison meant
            shown = show_expr(node, 4)
            hint = f"; compare it, as in `{shown if len(shown) <= 30 else '...'} > 0`"
        self._err(f"expected a condition (true or false){where}, not {_a(kind)}{hint}", node)

    def expr_code(self, e: a.Expr, bound: frozenset[str]) -> Code:
        """An expression's Python and its kind."""
        if isinstance(e, a.Num):
            return str(e.value), "int"
        if isinstance(e, a.Str):
            return repr(e.value), "str"
        if isinstance(e, a.Bool):
            return repr(e.value), "bool"
        if isinstance(e, a.Ref):
            return self.words.ref(self, e, bound)
        if isinstance(e, a.Call):
            return self.words.call(self, e, bound)
        if isinstance(e, a.Choice):
            return self._choice(e, bound)
        if isinstance(e, a.Unary):
            if e.op == "not":
                return f"(not {self.condition_code(e.operand, bound, 'not')})", "bool"
            code, t = self._expr(e.operand, bound)
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
            self._err(f"cannot compare {_value(e.left, lt)} with {_value(e.right, rt)}: "
                      "they are of different kinds", e)
        elif self._values:
            self._never_equal(e, lt)
        kind = "int" if e.op in "+-*" else "bool"
        return f"({lc} {e.op} {rc})", kind

    _expr = expr_code

    def note_values(self, node: a.Expr, values: frozenset[Any], what: str) -> None:
        """The only values `node` (a name the game's words read) can take, told by `what`
        ("the roads' `ferry`"): compared with a constant none of them is, it is an error
        (a condition that never holds, or always)."""
        self._values[node] = (values, what)

    def _never_equal(self, e: a.Binary, kind: str) -> None:
        """`==`/`!=` of a name whose values are known (`note_values`) with a constant that
        is none of them: an error, with the nearest value."""
        for name, const in ((e.left, e.right), (e.right, e.left)):
            known = self._values.get(name)
            if known is None or not isinstance(const, a.Str | a.Num | a.Bool):
                continue
            values, what = known
            if const.value not in values:
                shown = sorted(map(str, values))
                near = closest(str(const.value), shown) if isinstance(const, a.Str) else ""
                listed = ", ".join(v or '""' for v in shown[:12])  # ("": none, as for outcome)
                more = f" and {len(shown) - 12} more" if len(shown) > 12 else ""
                self._err(f"{_value(name, kind)} is never {show_expr(const)}: "
                          f"{what} are {listed}{more}{near}", const)

    def _choice(self, e: a.Choice, bound: frozenset[str]) -> Code:
        """`A if COND else B`: COND a condition, A and B of one kind (the choice's)."""
        cc = self.condition_code(e.cond, bound)
        tc, tt = self._expr(e.then, bound)
        oc, ot = self._expr(e.otherwise, bound)
        if tt != ot and "?" not in (tt, ot):
            self._err(f"the two values of an 'if … else' are {_a(tt)} and {_a(ot)}: they must "
                      "be of one kind", e)
        return f"({tc} if {cc} else {oc})", ot if tt == "?" else tt

    def _chain(self, e: a.Binary, bound: frozenset[str]) -> Code:
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
            if logic:
                self._want_condition(t, operand, f" on each side of {e.op!r}")
            else:
                self._want(t, "int", operand)
            code.append(c if op is None else f"{op} {c}")
        return "(" + " ".join(code) + ")", "bool" if logic else "int"

    def hidden(self, name: str, node: Any) -> None:
        """Refuse, in a rule, a name only checks may read (what the players cannot see)."""
        if self._rules_text and name in self.words.hidden:
            self._err(f"{name} reads cards the players cannot see: it is for scenario "
                      f"checks and properties, not for {self.words.rules}", node)

    _hidden = hidden

    def _want(self, got: str, want: str, node: Any) -> None:
        if got not in (want, "?"):
            self._err(f"expected a number here, not {_a(got)}", node)

    def plain_ref(self, e: a.Ref, bound: frozenset[str]) -> Code:
        """The names every game's words have: a bound name, a declared name, a player."""
        head, rest = e.parts[0], e.parts[1:]
        words = self.words
        if rest:
            self._err(f"unknown name {'.'.join(e.parts)!r}", e)
            return UNKNOWN
        if head in bound:
            return f"ctx.{head}", head
        if head in words.names:
            self._hidden(head, e)
            kind, code = words.names[head]
            return code, kind
        if head in words.players:
            return str(words.players.index(head)), "player"
        self._err(f"unknown name {head!r}" + closest(head, words.known(self, bound)), e)
        return UNKNOWN

    def call_args(self, e: a.Call, bound: frozenset[str]) -> tuple[list[str], Any] | None:
        """A call of a declared function: its arguments' code, checked against its
        declaration (None, with the error noted, when it cannot be made)."""
        args = [self._expr(x, bound) for x in e.args]
        calls = self.words.calls
        sig = calls.get(e.name)
        self._hidden(f"{e.name}()", e)
        if sig is None:
            self._err(f"unknown function {e.name!r}" + closest(e.name, calls)
                      + "; functions are: " + ", ".join(calls), e)
            return None
        codes = self._check_args(e.name, sig, args, e.args, e)
        return None if codes is None else (codes, sig)

    def _args(self, name: str, sig: Any, nodes: tuple[a.Expr, ...], at: Any,
              bound: frozenset[str]) -> list[str] | None:
        return self._check_args(name, sig, [self._expr(x, bound) for x in nodes], nodes, at)

    def _check_args(self, name: str, sig: Any, args: list[Code], nodes: tuple[a.Expr, ...],
                    at: Any) -> list[str] | None:
        want = sig[0]
        if len(args) != len(want):
            self._err(f"{name}() takes {len(want)} argument(s), not {len(args)}", at)
            return None
        for (_, got), need, node in zip(args, want, nodes, strict=True):
            if got not in need and got != "?":
                self._err(f"{name}() wants {' or '.join(_a(k) for k in need)} here, not "
                          f"{_value(node, got)}", node)
        return [c for c, _ in args]


def indent(code: str) -> str:
    """Python code, indented one level."""
    return "\n".join("    " + ln for ln in code.splitlines())


# Operators that chain (left to right, one precedence): and, or, + and -, *.
_CHAINS: Final = {"and": ("and",), "or": ("or",), "+": ("+", "-"), "-": ("+", "-"),
                  "*": ("*",)}
