"""Syntax tree back to DSL text that the parser reads back to an equal tree (a round trip)."""

from __future__ import annotations

from typing import Any

from . import ast as a

_PREC = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
         "+": 5, "-": 5, "*": 6}
_WHERE = {"@hq": "hq", "@every": "every city", "@every_other": "every other city"}


def _quote(s: str) -> str:
    return f"'{s}'" if '"' in s else f'"{s}"'


def _atom(e: a.Num | a.Str | a.Bool | a.Ref | a.Call) -> str:
    """A number, text, truth, name or call as written."""
    if isinstance(e, a.Num):
        return str(e.value)
    if isinstance(e, a.Str):
        return _quote(e.value)
    if isinstance(e, a.Bool):
        return "true" if e.value else "false"
    if isinstance(e, a.Ref):
        return ".".join(e.parts)
    return f"{e.name}({', '.join(expr(x) for x in e.args)})"


def expr(e: a.Expr, outer: int = 0) -> str:
    """An expression, parenthesised only where precedence needs it."""
    if not isinstance(e, a.Choice | a.Unary | a.Binary):
        return _atom(e)
    if isinstance(e, a.Choice):  # the loosest binding: bracketed inside any operator
        text = f"{expr(e.then, 1)} if {expr(e.cond, 1)} else {expr(e.otherwise)}"
        return f"({text})" if outer > 0 else text
    if isinstance(e, a.Unary):
        if e.op == "not":
            text, prec = f"not {expr(e.operand, 3)}", 3
        else:
            text, prec = f"-{expr(e.operand, 7)}", 7
        return f"({text})" if prec < outer else text
    prec = _PREC[e.op]
    if prec == 4:  # comparisons do not chain: both sides bind tighter
        text = f"{expr(e.left, 5)} {e.op} {expr(e.right, 5)}"
    else:  # left-associative: the right side needs strictly tighter binding
        tail = []
        node: a.Expr = e
        while isinstance(node, a.Binary) and _PREC[node.op] == prec:  # a chain, unrecursed
            tail.append(f"{node.op} {expr(node.right, prec + 1)}")
            node = node.left
        text = " ".join([expr(node, prec), *reversed(tail)])
    return f"({text})" if prec < outer else text


def amounts(items: tuple[a.Amount, ...]) -> str:
    return ", ".join(f"{x.count} {x.kind}" for x in items) if items else "nothing"


def placements(items: tuple[a.Placement, ...]) -> str:
    if not items:
        return "nothing"
    return ", ".join(p.target if p.count == 1 else f"{p.target} x{p.count}" for p in items)


def symbols(items: tuple[a.Ref, ...]) -> str:
    return ", ".join(".".join(r.parts) for r in items)


def stmt(s: a.Stmt) -> str:
    if isinstance(s, a.Gain | a.Pay | a.Lose):
        return f"{_VERBS[type(s)]} {amounts(s.amounts)}"
    if isinstance(s, a.Place):
        noun = "agent" if s.count == 1 else "agents"
        return f"place {s.count} {noun} in {_WHERE.get(s.where, s.where)}"
    if isinstance(s, a.EndGame):
        word = "win" if s.won else "defeat"
        return word if s.reason is None else f"{word} {_quote(s.reason)}"
    if isinstance(s, a.If):
        text = f"if {expr(s.cond)} then {_nested(s.then)}"
        return text if s.otherwise is None else f"{text} else {_nested(s.otherwise)}"
    if isinstance(s, a.Do):
        return f"{s.name}({', '.join(expr(x) for x in s.args)})"
    if isinstance(s, a.ForEach):
        return _for_each(s)
    return "{ " + effect(s.stmts) + " }"


_VERBS: dict[type, str] = {a.Gain: "gain", a.Pay: "pay", a.Lose: "lose"}


def _for_each(s: a.ForEach) -> str:
    text = "for each other player" if s.others else "for each player"
    if s.city is not None:
        text += f" in {s.city}"
    if s.cond is not None:
        text += f" if {expr(s.cond)}"
    return f"{text} do {_nested(s.body)}"


def _nested(s: a.Stmt) -> str:
    # An `if` without else inside a `then` would capture a following else: brace it.
    if isinstance(s, a.If | a.ForEach):
        return "{ " + stmt(s) + " }"
    return stmt(s)


def effect(stmts: tuple[a.Stmt, ...]) -> str:
    return "; ".join(stmt(s) for s in stmts)


def cost(c: a.Cost) -> str:
    text = amounts(c.amounts)
    if c.cond is not None and c.otherwise is not None:
        text += f" if {expr(c.cond)} else {cost(c.otherwise)}"
    return text


def hook(h: a.Hook) -> str:
    head = f"on {h.event}" + (f" if {expr(h.cond)}" if h.cond is not None else "")
    return f"{head}: {effect(h.body)}"


def show(node: Any, start: str) -> str:
    """Print `node` as text that parses back from start rule `start`."""
    printers: dict[str, Any] = {"amounts": amounts, "placements": placements,
                                "symbols": symbols, "effect": effect, "cost": cost,
                                "hook": hook, "expr": expr}
    return str(printers[start](node))
