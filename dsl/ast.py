"""The effect DSL's syntax tree: frozen, slotted attrs nodes that remember where they came from.

Positions (`at`) are `(line, column)` inside the parsed text and take no part in equality,
so a tree parsed from pretty-printed text compares equal to the original.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeAlias

import attrs

Pos: TypeAlias = tuple[int, int]
_AT = attrs.field(default=(0, 0), eq=False, repr=False)


@attrs.frozen
class Num:
    value: int
    at: Pos = _AT


@attrs.frozen
class Str:
    value: str
    at: Pos = _AT


@attrs.frozen
class Bool:
    value: bool
    at: Pos = _AT


@attrs.frozen
class Ref:
    """A name or a dotted path: `threat`, `van.fuel`, `road.thread`, `tokyo`."""

    parts: tuple[str, ...]
    at: Pos = _AT


@attrs.frozen
class Call:
    """A function of the game state: `agents(tokyo)`, `health(player)`."""

    name: str
    args: tuple[Expr, ...]
    at: Pos = _AT


@attrs.frozen
class Unary:
    op: str  # "not" or "-"
    operand: Expr
    at: Pos = _AT


@attrs.frozen
class Binary:
    op: str  # or and == != < <= > >= + - *
    left: Expr
    right: Expr
    at: Pos = _AT


@attrs.frozen
class Choice:
    """`A if COND else B`: A where COND holds, else B (two values of one kind)."""

    then: Expr
    cond: Expr
    otherwise: Expr
    at: Pos = _AT


Expr: TypeAlias = Num | Str | Bool | Ref | Call | Unary | Binary | Choice


@attrs.frozen
class Amount:
    """`2 fuel`: a count of a resource (or of health, clues, resources of the team's choice).
    `at` is the kind's word (an unknown kind is pointed at), `count_at` the number."""

    count: int
    kind: str
    at: Pos = _AT
    count_at: Pos = _AT


@attrs.frozen
class Placement:
    """`films x2`: agents placed on the city (or cities) of a symbol, or a named city.
    `at` is the symbol's word, `count_at` the multiplier (the symbol's where it has none)."""

    target: str
    count: int
    at: Pos = _AT
    count_at: Pos = _AT


@attrs.frozen
class Gain:
    amounts: tuple[Amount, ...]
    at: Pos = _AT


@attrs.frozen
class Pay:
    amounts: tuple[Amount, ...]
    at: Pos = _AT


@attrs.frozen
class Lose:
    amounts: tuple[Amount, ...]
    at: Pos = _AT


@attrs.frozen
class Place:
    """`place 2 agents in central`; where is a name, `hq`, `every city` or `every other city`."""

    count: int
    where: str  # a city or symbol name, or one of "@hq", "@every", "@every_other"
    at: Pos = _AT
    count_at: Pos = _AT  # where the count is (`at` is the city's name, when named)


@attrs.frozen
class EndGame:
    """`win` or `defeat "reason"`: the game ends at once."""

    won: bool
    reason: str | None
    at: Pos = _AT


@attrs.frozen
class If:
    cond: Expr
    then: Stmt
    otherwise: Stmt | None
    at: Pos = _AT


@attrs.frozen
class ForEach:
    """`for each [other] player [in CITY] [if COND] do STMT`: runs STMT with `player` bound;
    `other`: every player but the one the text runs for."""

    city: str | None
    cond: Expr | None
    body: Stmt
    at: Pos = _AT
    others: bool = False


@attrs.frozen
class Do:
    """`steal(1)`: a statement the game declares by name, with its arguments."""

    name: str
    args: tuple[Expr, ...]
    at: Pos = _AT


@attrs.frozen
class Block:
    stmts: tuple[Stmt, ...]
    at: Pos = _AT


Stmt: TypeAlias = Gain | Pay | Lose | Place | EndGame | If | ForEach | Block | Do


@attrs.frozen
class Cost:
    """A movement cost: `1 fuel`, or `2 fuel if road.thread == "red" else 1 fuel`."""

    amounts: tuple[Amount, ...]
    cond: Expr | None = None
    otherwise: Cost | None = None
    at: Pos = _AT


@attrs.frozen
class Hook:
    """`on EVENT [if COND]: STMTS`: run when the core announces EVENT."""

    event: str
    cond: Expr | None
    body: tuple[Stmt, ...]
    at: Pos = _AT


Node: TypeAlias = Expr | Stmt | Amount | Placement | Cost | Hook


def statements(node: Hook | Stmt | tuple[Stmt, ...]) -> Iterator[Stmt]:
    """Every statement a hook, statement or list of them holds, nested ones too (an `if`'s
    branches, a `for each`'s body, a block's statements): what a check of meaning reads
    (may this text win the game?) without matching words in its text."""
    todo: list[Stmt] = list(node.body if isinstance(node, Hook) else
                            node if isinstance(node, tuple) else (node,))
    while todo:
        st = todo.pop()
        yield st
        if isinstance(st, If):
            todo += [st.then, *([st.otherwise] if st.otherwise is not None else [])]
        elif isinstance(st, ForEach):
            todo.append(st.body)
        elif isinstance(st, Block):
            todo += st.stmts
