"""Where a DSL text sits in its file, and the grammar's file: what the rest of the engine
needs of the DSL's front end without Lark (dsl/parser.py imports Lark, and is imported only
when a text is parsed: rules thawed from the cache, core/frozen.py, parse nothing).

Positions are 1-based lines and columns, a column counting characters (Unicode code
points), as Python's tomllib and most editors count them: `日本` is two columns, not six
bytes. A DSL text is a TOML string's value, which is not always the file's text: an escape
(`\\"`, `\\t`, `\\u00e9`) is one character of the value but several of the file, and a
line-ending backslash in a multi-line basic string (`\"\"\"`) drops the newline and the
indentation after it. `Origin.locate` reads the string in the file as TOML does to find where
each character of the value was written.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Final

from ..core.errors import Location
from . import ast as a

GRAMMAR: Final = Path(__file__).with_name("effects.lark")

# TOML's one-letter escapes in basic strings (\e is TOML 1.1's); \uXXXX, \UXXXXXXXX and
# \xHH (TOML 1.1) are read by their digits
_ESCAPES: Final = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"',
                   "\\": "\\", "e": "\x1b"}
_DIGITS: Final = {"u": 4, "U": 8, "x": 2}
_DELIMITERS: Final = ('"""', "'''", '"', "'")
Piece = tuple[str, int, int]  # what a piece of the file reads as, and its 0-based line, column


class Origin:
    """Where a DSL text sits in its file, so positions inside it map to file positions:
    `line` and `column`, where the string's value begins (just inside its opening quotes,
    or at the start of the line after a multi-line string's opening quotes)."""

    __slots__ = ("column", "file", "line", "lines")

    def __init__(self, file: str = "<text>", line: int = 1, column: int = 1,
                 lines: list[str] | None = None) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.lines = lines  # the whole file's lines, for the caret display

    def locate(self, pos: a.Pos, text: str) -> Location:
        """The file location of (line, column) inside `text`."""
        line, col = pos
        found = self._in_file(_offset(text, line, col), text)
        if found is not None:
            fline, fcol = found
        elif line <= 1:  # not a string of the file as TOML reads it: as if written verbatim
            fline, fcol = self.line, self.column + col - 1
        else:
            fline, fcol = self.line + line - 1, col
        if self.lines is not None and 0 < fline <= len(self.lines):
            src = self.lines[fline - 1]
        else:
            text_lines = text.splitlines() or [""]
            src = text_lines[min(max(line, 1), len(text_lines)) - 1]
            if line <= 1 and self.column > 1:
                src = " " * (self.column - 1) + src
        return Location(self.file, fline, fcol, src.rstrip("\n"))

    def _in_file(self, offset: int, text: str) -> tuple[int, int] | None:
        """The file's line and column of `text[offset]` (of the closing quotes, at the end),
        read from the string in the file; None where the file does not hold `text` there as
        a TOML string (a text made in code, a value not found)."""
        quote = self._delimiter()
        if quote is None or self.lines is None:
            return None
        done = 0
        for reads, line, col in _pieces(self.lines, self.line - 1, self.column - 1, quote):
            if not reads:  # a line-ending backslash: nothing of the value
                continue
            if done >= offset:
                return line + 1, col + 1
            if text[done:done + len(reads)] != reads:
                return None  # the file says something else here: not this text's string
            done += len(reads)
        return None

    def _delimiter(self) -> str | None:
        """The quotes that open the string the text begins in, read before its start."""
        lines, line, col = self.lines, self.line, self.column
        if lines is None or not 0 < line <= len(lines):
            return None
        if col == 1:  # a multi-line string's value begins on the line after its quotes
            above = lines[line - 2].rstrip(" \t") if line > 1 else ""
            return above[-3:] if above[-3:] in ('"""', "'''") else None
        before = lines[line - 1][:col - 1]
        return next((q for q in _DELIMITERS if before.endswith(q)), None)


def _offset(text: str, line: int, col: int) -> int:
    """The index in `text` of 1-based (line, column), as the parser counts them (a line
    ends at each newline)."""
    lines = text.split("\n")
    line = min(max(line, 1), len(lines))
    return min(sum(len(ln) + 1 for ln in lines[:line - 1]) + max(col, 1) - 1, len(text))


def _pieces(lines: list[str], line: int, col: int, quote: str) -> Iterator[Piece]:
    """The pieces of a TOML string from (line, col) on (0-based), as TOML reads them: each
    with what it reads as (a character, an escape's character, a newline; "" for a
    line-ending backslash) and where it is. It stops where the file or its reading ends;
    the caller stops at the value's end."""
    basic, multi = quote[0] == '"', len(quote) == 3
    while line < len(lines):
        src = lines[line]
        if col >= len(src):
            if not multi:
                return
            yield "\n", line, col
            line, col = line + 1, 0
        elif basic and src[col] == "\\":
            rest = src[col + 1:]
            if multi and not rest.strip(" \t"):  # a line-ending backslash
                yield "", line, col
                line, col = _after_blanks(lines, line + 1)
                continue
            reads, size = _escape(rest)
            if reads is None:
                return
            yield reads, line, col
            col += size
        else:
            yield src[col], line, col
            col += 1


def _after_blanks(lines: list[str], line: int) -> tuple[int, int]:
    """The first character that is not a space, a tab or a newline, from `line` on."""
    while line < len(lines):
        stripped = lines[line].lstrip(" \t")
        if stripped:
            return line, len(lines[line]) - len(stripped)
        line += 1
    return line, 0


def _escape(rest: str) -> tuple[str | None, int]:
    """What the escape whose backslash precedes `rest` reads as, and its length in the
    file (None where it is not one TOML knows)."""
    letter = rest[:1]
    if letter in _ESCAPES:
        return _ESCAPES[letter], 2
    digits = _DIGITS.get(letter)
    if digits is None:
        return None, 0
    try:
        return chr(int(rest[1:1 + digits], 16)), 2 + digits
    except ValueError:
        return None, 0
