"""Text to syntax tree: the Lark facade of the effect DSL.

The grammar (`effects.lark`) is loaded once, LALR with Lark's cache. Lark's exceptions never
reach a user: they become `RulesError`s that name the file, line and column and say, in
this project's words, what was expected.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Final

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..core.errors import RulesError, closest
from ..core.schema import MAX_NUMBER  # as in the rule files
from . import ast as a
from .text import GRAMMAR, Origin

STARTS: Final = ("amounts", "placements", "symbols", "effect", "cost", "hook", "expr")

# Limits on one DSL text, refused with a clear error. Any text within them compiles: the
# generated Python nests no deeper than the text does (chains such as a + b + c are flat).
MAX_TEXT: Final = 10_000  # characters
MAX_DEPTH: Final = 32  # constructs inside each other: if, not, braces, calls, operators
MAX_SIZE: Final = 2_000  # parts: every name, number, operator and construct

# What each start rule is called in an error message.
KIND_WORDS: Final = {
    "amounts": "a list of amounts such as '1 fuel, 2 radio' (or 'nothing')",
    "placements": "a list of agent placements such as 'films x2, music' (or 'nothing')",
    "symbols": "a list of clue symbols such as 'films, music'",
    "effect": "an effect such as 'gain 2 fuel'",
    "cost": "a cost such as '1 fuel' or '2 fuel if road.thread == \"red\" else 1 fuel'",
    "hook": "a hook such as 'on artwork_collected: place 2 agents in central'",
    "expr": "an expression such as 'van.fuel <= 4'",
}
_TERMINAL_WORDS: Final = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a quoted string",
    "MULT": "a multiplier such as x2",
    "CMP": "a comparison (== != < <= > >=)",
    "ADDOP": "'+' or '-'",
    "MULOP": "'*'",
    "_SEP": "';'",
    "_IF": "'if'",
    "_AGENTS": "'agents'",
}


@cache
def _lark() -> Lark:
    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        start=list(STARTS),
        propagate_positions=True,
        maybe_placeholders=True,
        cache=True,
    )


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    if terminal == "$END":
        return "the end of the text"
    for t in _lark().terminals:
        if t.name == terminal and t.pattern.type == "str":
            return repr(t.pattern.value)
    return terminal.lower().strip("_")


def _expected(names: set[str]) -> str:
    words = sorted({_describe(n) for n in names})
    if not words:
        return ""
    if len(words) == 1:
        return f"; expected {words[0]}"
    return "; expected one of: " + ", ".join(words)


def _accepted(text: str, start: str, at: int) -> set[str]:
    """The terminals that `start`'s grammar takes at offset `at` of `text`, after the tokens
    before it. Not Lark's `err.expected`: that is the keys of the LALR state the error met,
    and a state is shared (an amount's in a card's cost, a cost's and a statement's) and
    met after reductions its lookahead did not warrant, so it names tokens that this text
    cannot take there (`1 fuel; 1 radio` as amounts was offered ';', 'if'). Each candidate
    here is fed to a copy of the parser (`accepts()`), which reduces and shifts as the
    real parse would."""
    ip = _lark().parse_interactive(text, start=start)
    try:
        for tok in ip.iter_parse():  # (a token is yielded before it is fed)
            if (tok.start_pos or 0) >= at:
                break
    except UnexpectedInput:  # the lexer stopped at `at`: every token before it was fed
        pass
    names: set[str] = ip.accepts()  # type: ignore[no-untyped-call]  # (Lark leaves it untyped)
    return names


def _expected_before(text: str, at: int, start: str) -> str:
    """What the grammar takes at a character the lexer could not read; nothing where the
    text before it is whole (a hint would list every way of going on)."""
    names = _accepted(text, start, at)
    return "" if "$END" in names else _expected(names)


_STATEMENT_WORDS: Final = ("gain", "pay", "lose", "place", "win", "defeat", "if", "for")


def _misspelt_statement(text: str, err: UnexpectedToken, expected: set[str],
                        ) -> tuple[str, int] | None:
    """`gian 1 fuel` reads as a call statement missing its '(': the word is the mistake.
    Its message (unknown statement, the statement word it may have meant) and where it
    begins in `text`, or None where the text is not such a word."""
    if expected != {"LPAR"}:
        return None
    before = list(re.finditer(r"[A-Za-z_]\w*", text[:err.token.start_pos or 0]))
    if not before:
        return None
    word = before[-1].group(0)
    hint = closest(word, _STATEMENT_WORDS)
    if hint:  # (a statement word misspelt)
        return f"unknown statement {word!r}{hint}", before[-1].start()
    # (else a call written without its parentheses, or a word that is none: which calls a
    # game has, its words know, not the grammar)
    return (f"{word!r} is no statement word, so it is read as a call, whose arguments are "
            f"written in parentheses: `{word}(...)`; a statement begins with "
            f"{', '.join(_STATEMENT_WORDS)} or '{{', or is a call"), before[-1].start()


def _syntax_error(err: UnexpectedInput, text: str, start: str, origin: Origin) -> RulesError:
    line, col = max(err.line, 1), max(err.column, 1)
    if isinstance(err, UnexpectedEOF) or (
        isinstance(err, UnexpectedToken) and err.token.type == "$END"
    ):
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        what = KIND_WORDS[start].split(" such")[0]
        msg = f"unexpected end of {what}{_expected(_accepted(text, start, len(text)))}"
    elif isinstance(err, UnexpectedToken):
        msg, at = _unexpected_token(err, text, start)
        if at is not None:
            line = text.count("\n", 0, at) + 1
            col = at - text.rfind("\n", 0, at)
    elif isinstance(err, UnexpectedCharacters):
        at = err.pos_in_stream or 0
        ch = text[at] if at < len(text) else "?"
        msg = f"unexpected character {ch!r}{_expected_before(text, at, start)}"
        if ch in "\"'" and ch not in text[at + 1:].split("\n", 1)[0]:
            msg = f"a text opened with {ch} is never closed: end it with {ch} on the same line"
    else:  # pragma: no cover - Lark has no other kinds today
        msg = "cannot read this"
    if not text.strip():
        msg = f"empty text; expected {KIND_WORDS[start]}"
    return RulesError(msg, origin.locate((line, col), text))


def _unexpected_token(err: UnexpectedToken, text: str, start: str) -> tuple[str, int | None]:
    """The message for a token the grammar does not take there, and the offset it is
    about where that is not the token's (a misspelt statement word before it)."""
    expected = _accepted(text, start, err.token.start_pos or 0)
    word = _misspelt_statement(text, err, expected)
    if word:
        return word
    return f"unexpected {str(err.token)!r}{_expected(expected)}", None


def _pos(tok: Any) -> a.Pos:
    if isinstance(tok, Token):
        return (tok.line or 0, tok.column or 0)
    return (getattr(tok, "line", 0) or 0, getattr(tok, "column", 0) or 0)


class _When:
    __slots__ = ("expr",)

    def __init__(self, expr: a.Expr) -> None:
        self.expr = expr


def _unquote(tok: Token) -> str:
    return str(tok)[1:-1]


@v_args(meta=True)
class _ToAst(Transformer[Token, Any]):
    """Lark tree to `dsl.ast` nodes."""

    def amounts(self, meta: Any, items: list[Any]) -> tuple[a.Amount, ...]:
        return tuple(i for i in items if isinstance(i, a.Amount))

    def placements(self, meta: Any, items: list[Any]) -> tuple[a.Placement, ...]:
        return tuple(i for i in items if isinstance(i, a.Placement))

    def symbols(self, meta: Any, items: list[Token]) -> tuple[a.Ref, ...]:
        return tuple(a.Ref((str(t),), _pos(t)) for t in items)

    def effect(self, meta: Any, items: list[Any]) -> tuple[Any, ...]:
        return tuple(items)

    def expr(self, meta: Any, items: list[Any]) -> Any:
        return items[0]

    def cost(self, meta: Any, items: list[Any]) -> a.Cost:
        return a.Cost(items[0], at=_pos(meta))

    def cost_if(self, meta: Any, items: list[Any]) -> a.Cost:
        return a.Cost(items[0], items[1], items[2], at=_pos(meta))

    def hook(self, meta: Any, items: list[Any]) -> a.Hook:
        cond = items[1] if isinstance(items[1], _When) else None
        body = items[2:] if cond else items[1:]
        return a.Hook(str(items[0]), cond.expr if cond else None, tuple(body), at=_pos(meta))

    def when(self, meta: Any, items: list[Any]) -> _When:
        return _When(items[0])

    def in_city(self, meta: Any, items: list[Token]) -> str:
        return str(items[0])

    def amount(self, meta: Any, items: list[Token]) -> a.Amount:
        return a.Amount(int(items[0]), str(items[1]), at=_pos(items[1]), count_at=_pos(items[0]))

    def placement(self, meta: Any, items: list[Token | None]) -> a.Placement:
        name, mult = items
        assert name is not None
        return a.Placement(str(name), int(str(mult)[1:]) if mult else 1, at=_pos(name),
                           count_at=_pos(mult if mult else name))

    def gain(self, meta: Any, items: list[a.Amount]) -> a.Gain:
        return a.Gain(tuple(items), at=_pos(meta))

    def pay(self, meta: Any, items: list[a.Amount]) -> a.Pay:
        return a.Pay(tuple(items), at=_pos(meta))

    def lose(self, meta: Any, items: list[a.Amount]) -> a.Lose:
        return a.Lose(tuple(items), at=_pos(meta))

    def place(self, meta: Any, items: list[Any]) -> a.Place:
        count, where = items
        if isinstance(where, Token):  # a named city: errors point at the name
            return a.Place(int(count), str(where), at=_pos(where), count_at=_pos(count))
        return a.Place(int(count), where, at=_pos(meta), count_at=_pos(count))

    def at_name(self, meta: Any, items: list[Token]) -> Token:
        return items[0]

    def at_hq(self, meta: Any, items: list[Any]) -> str:
        return "@hq"

    def at_every(self, meta: Any, items: list[Any]) -> str:
        return "@every"

    def at_every_other(self, meta: Any, items: list[Any]) -> str:
        return "@every_other"

    def win(self, meta: Any, items: list[Token | None]) -> a.EndGame:
        return a.EndGame(True, _unquote(items[0]) if items[0] else None, at=_pos(meta))

    def defeat(self, meta: Any, items: list[Token | None]) -> a.EndGame:
        return a.EndGame(False, _unquote(items[0]) if items[0] else None, at=_pos(meta))

    def if_(self, meta: Any, items: list[Any]) -> a.If:
        return a.If(items[0], items[1], items[2], at=_pos(meta))

    def for_each(self, meta: Any, items: list[Any]) -> a.ForEach:
        city = next((i for i in items if isinstance(i, str)), None)
        cond = next((i.expr for i in items if isinstance(i, _When)), None)
        return a.ForEach(city, cond, items[-1], at=_pos(meta))

    def for_each_other(self, meta: Any, items: list[Any]) -> a.ForEach:
        cond = next((i.expr for i in items if isinstance(i, _When)), None)
        return a.ForEach(None, cond, items[-1], at=_pos(meta), others=True)

    def do(self, meta: Any, items: list[Any]) -> a.Do:
        args = tuple(i for i in items[1:] if i is not None)
        return a.Do(str(items[0]), args, at=_pos(items[0]))

    def block(self, meta: Any, items: list[Any]) -> Any:
        # `{ s }` is s itself: braces only group (and settle a dangling else).
        return items[0] if len(items) == 1 else a.Block(tuple(items), at=_pos(meta))

    def choice(self, meta: Any, items: list[Any]) -> a.Choice:
        return a.Choice(items[0], items[1], items[2], at=_pos(meta))

    def or_(self, meta: Any, items: list[Any]) -> a.Expr:
        return self._fold(meta, "or", items)

    def and_(self, meta: Any, items: list[Any]) -> a.Expr:
        return self._fold(meta, "and", items)

    def _fold(self, meta: Any, op: str, items: list[Any]) -> a.Expr:
        out: a.Expr = items[0]
        for item in items[1:]:
            out = a.Binary(op, out, item, at=_pos(meta))
        return out

    def not_(self, meta: Any, items: list[Any]) -> a.Unary:
        return a.Unary("not", items[0], at=_pos(meta))

    def neg(self, meta: Any, items: list[Any]) -> a.Unary:
        return a.Unary("-", items[0], at=_pos(meta))

    def cmp(self, meta: Any, items: list[Any]) -> a.Binary:
        return a.Binary(str(items[1]), items[0], items[2], at=_pos(meta))

    def sum(self, meta: Any, items: list[Any]) -> a.Expr:
        return self._chain(meta, items)

    def product(self, meta: Any, items: list[Any]) -> a.Expr:
        return self._chain(meta, items)

    def _chain(self, meta: Any, items: list[Any]) -> a.Expr:
        out: a.Expr = items[0]
        for i in range(1, len(items), 2):
            out = a.Binary(str(items[i]), out, items[i + 1], at=_pos(meta))
        return out

    def num(self, meta: Any, items: list[Token]) -> a.Num:
        return a.Num(int(items[0]), at=_pos(items[0]))

    def string(self, meta: Any, items: list[Token]) -> a.Str:
        return a.Str(_unquote(items[0]), at=_pos(items[0]))

    def true(self, meta: Any, items: list[Any]) -> a.Bool:
        return a.Bool(True, at=_pos(meta))

    def false(self, meta: Any, items: list[Any]) -> a.Bool:
        return a.Bool(False, at=_pos(meta))

    def ref(self, meta: Any, items: list[Token]) -> a.Ref:
        return a.Ref(tuple(str(t) for t in items), at=_pos(items[0]))

    def call(self, meta: Any, items: list[Any]) -> a.Call:
        args = tuple(i for i in items[1:] if i is not None)
        return a.Call(str(items[0]), args, at=_pos(items[0]))


_TO_AST: Final = _ToAst()


def _limits(tree: Tree[Token], text: str, origin: Origin) -> None:
    """Refuse a tree nested too deeply, too large, or with a number over the cap."""
    size = 0
    stack: list[tuple[Any, int]] = [(tree, 1)]
    while stack:  # no recursion: the tree may be as deep as the text is long
        node, depth = stack.pop()
        size += 1
        if isinstance(node, Token):
            _number(node, text, origin)
            continue
        if depth > MAX_DEPTH:
            raise RulesError(f"nested too deeply: at most {MAX_DEPTH} constructs (if, not, "
                             "braces, calls, operators) inside each other",
                             origin.locate(_first_pos(node), text))
        stack.extend((child, depth + 1) for child in node.children if child is not None)
    if size > MAX_SIZE:
        raise RulesError(f"too large: {size} parts (names, numbers, operators); a text has "
                         f"at most {MAX_SIZE}: split it into several hooks or effects",
                         origin.locate((1, 1), text))


def _number(tok: Token, text: str, origin: Origin) -> None:
    if tok.type not in ("INT", "MULT"):
        return
    digits = str(tok).lstrip("x")
    if len(digits) > 5 or int(digits) > MAX_NUMBER:
        shown = digits if len(digits) <= 12 else digits[:12] + "..."
        raise RulesError(f"{shown} is out of range: numbers are at most {MAX_NUMBER:,}",
                         origin.locate(_pos(tok), text))


def _first_pos(node: Tree[Token]) -> a.Pos:
    meta = node.meta
    if not getattr(meta, "empty", True):
        return (meta.line, meta.column)
    for tok in node.scan_values(lambda v: isinstance(v, Token)):
        return _pos(tok)
    return (1, 1)


def parse(text: str, start: str = "effect", origin: Origin | None = None) -> Any:
    """Parse DSL `text` from start rule `start`; raise RulesError with a location on a mistake."""
    if start not in STARTS:
        raise ValueError(f"unknown start rule {start!r}")
    origin = origin or Origin()
    if len(text) > MAX_TEXT:
        raise RulesError(f"too long: {len(text):,} characters; a DSL text has at most "
                         f"{MAX_TEXT:,}", origin.locate((1, 1), text[:200]))
    try:
        tree = _lark().parse(text, start=start)
    except UnexpectedInput as err:
        raise _syntax_error(err, text, start, origin) from None
    _limits(tree, text, origin)
    return _TO_AST.transform(tree)
