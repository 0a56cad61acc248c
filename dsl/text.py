"""Where a DSL text sits in its file, and the grammar's file: what the rest of the engine
needs of the DSL's front end without Lark (dsl/parser.py imports Lark, and is imported only
when a text is parsed: rules thawed from the cache, core/frozen.py, parse nothing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from ..core.errors import Location
from . import ast as a

GRAMMAR: Final = Path(__file__).with_name("effects.lark")


class Origin:
    """Where a DSL text sits in its file, so positions inside it map to file positions."""

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
        if line <= 1:
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
