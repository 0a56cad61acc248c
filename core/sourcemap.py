"""Where each key of a TOML file is written, and where its value begins, by document path:
for errors at file:line:col. Read line by line without parsing the file (tomllib keeps no
positions): table headers, keys (dotted too), and the items of arrays and inline tables
however deep, so that an error about an element (`sizes = [[999]]`, `limits = { most = 99 }`)
points at that element, and an error about a key (`sizee = 4`) at the key.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Final

from ..dsl.text import Origin
from .errors import Location
from .files import MAX_NESTING

Path_ = tuple[Any, ...]
Pos = tuple[int, int]

# A per-player label (`p2`) names a list's item too: `seats = ["a", "b"]` is
# `{ p1 = "a", p2 = "b" }` (a game's positions may read either).
_PLAYER: Final = re.compile(r"p([1-9][0-9]?)")


class _Frame:
    """An array or inline table being read: its path, its bracket, its next item's index,
    and (in a table) the path of the value awaited, or None while its key is awaited."""

    __slots__ = ("index", "kind", "path", "value")

    def __init__(self, path: Path_, kind: str) -> None:
        self.path, self.kind, self.index = path, kind, 0
        self.value: Path_ | None = None


class _Scan:
    """Where a source map's reading of its file stands, line after line: the table, the
    count of each array of tables, the arrays and inline tables open (outermost first),
    and the quotes of a multi-line string that goes on past the line."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.table: Path_ = ()
        self.stack: list[_Frame] = []
        self.open: str | None = None


class SourceMap:
    """Where each key's value starts in a TOML file (`where`) and where the key itself is
    written (`keys`), by document path; for error locations."""

    _HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-]+)\s*\]\]?")
    _KEY = re.compile(r"^(\s*)([A-Za-z0-9_\-]+(?:\s*\.\s*[A-Za-z0-9_\-]+)*)\s*=\s*")
    _PART = re.compile(r"[A-Za-z0-9_\-]+")

    def __init__(self, file: str, text: str, real: Path | None = None) -> None:
        self.file = file
        self.real = real  # the file itself, to resolve paths written relative to it
        self.lines = text.splitlines()
        self.where: dict[Path_, Pos] = {}
        self.keys: dict[Path_, Pos] = {}
        scan = _Scan()
        for n, line in enumerate(self.lines, start=1):
            if scan.open is not None:  # inside a multi-line string: no key, header or item
                end = _ml_end(line, 0, scan.open)
                if end is not None:
                    scan.open = None
                    self._values(scan, n, line, end)
                continue
            if scan.stack:  # an array's next line: items only
                self._values(scan, n, line, 0)
                continue
            m = self._HEADER.match(line)
            if m and not self._KEY.match(line):
                self._header(scan, n, m)
                continue
            m = self._KEY.match(line)
            if m:
                self._key(scan, n, line, m)

    def _header(self, scan: _Scan, n: int, m: re.Match[str]) -> None:
        """A table's header, `[name]` or `[[name]]` (the next table of an array of them)."""
        brackets, name = m.group(1), m.group(2)
        parts = tuple(name.split("."))
        if brackets == "[[":
            scan.counts[name] = scan.counts.get(name, -1) + 1
            scan.table = (*parts, scan.counts[name])
        else:
            scan.table = parts
            self.keys[parts] = (n, m.start(2) + 1)
        # `[[a.b]]` makes the list `a.b` too: located at its first table's header
        self._implied(parts if brackets == "[[" else parts[:-1], n, 1)
        self.where[scan.table] = (n, 1)
        scan.stack = []

    def _key(self, scan: _Scan, n: int, line: str, m: re.Match[str]) -> None:
        """A key and where its value begins; an array's or inline table's items on the line,
        or a multi-line string that goes on past it."""
        spans = list(self._PART.finditer(m.group(2)))
        *outer, last = (s.group(0) for s in spans)
        self._implied((*scan.table, *outer), n, len(m.group(1)) + 1)
        key = (*scan.table, *outer, last)
        self.keys[key] = (n, m.start(2) + spans[-1].start() + 1)
        self.where[key] = (n, m.end() + 1)
        value = line[m.end():]
        if value[:1] in ("[", "{"):
            scan.stack = [_Frame(key, value[0])]
            self._values(scan, n, line, m.end() + 1)
        elif value[:3] in _ML_END and _ml_end(line, m.end() + 3, value[:3]) is None:
            scan.open = value[:3]

    def _implied(self, parts: Path_, n: int, col: int) -> None:
        """The tables a header or a dotted key makes without naming them (`[a.b.c]` makes
        `a` and `a.b`; `x.y = 1`, `x`): located there, unless they are located already, so
        that an error in one names a line."""
        for i in range(1, len(parts) + 1):
            self.where.setdefault(parts[:i], (n, col))

    # an array's or inline table's pieces: a multi-line string's opening quotes, a string,
    # a bracket or brace, a comma, an equals sign, a comment, or a bare key or value (a
    # number, true, a date, a dotted key)
    _PIECE = re.compile(r'"""|\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|[][{}#,=]|'
                        r'[^\s,\][{}#"\'=]+')

    def _values(self, scan: _Scan, n: int, line: str, pos: int) -> None:
        """Record where each item of the open arrays and inline tables begins on this line,
        from `pos`, and each inline table's keys; leaves `scan` as the line's end leaves it
        (the arrays still open, a multi-line string left open)."""
        stack = scan.stack
        while stack and (m := self._PIECE.search(line, pos)):
            tok, pos, frame = m.group(0), m.end(), stack[-1]
            if tok == "#":
                return
            if tok in ("]", "}"):
                stack.pop()
            elif tok == ",":
                frame.value = None
            elif frame.kind == "{" and frame.value is None:
                frame.value = self._inline_key(frame.path, tok, n, m.start() + 1)
            elif tok != "=":
                pos = self._item(scan, frame, tok, n, m.start(), pos, line)
                if scan.open is not None:
                    return

    def _inline_key(self, table: Path_, tok: str, n: int, col: int) -> Path_:
        """An inline table's key (bare, dotted or quoted), recorded where it is written."""
        if tok[:1] in ('"', "'"):
            try:
                parts: tuple[str, ...] = (str(tomllib.loads(f"k = {tok}")["k"]),)
            except tomllib.TOMLDecodeError:
                parts = (tok[1:-1],)
        else:
            parts = tuple(p.strip() for p in tok.split("."))
        self._implied((*table, *parts[:-1]), n, col)
        path = (*table, *parts)
        self.keys[path] = (n, col)
        return path

    def _item(self, scan: _Scan, frame: _Frame, tok: str, n: int, start: int, pos: int,
              line: str) -> int:
        """A value inside an array or inline table: where it begins; an array or table
        opened; a multi-line string that ends later on the line (where to read on) or goes
        on past it (`scan.open`)."""
        if len(scan.stack) > MAX_NESTING:  # (deeper than any file is read: its brackets
            path: Path_ = frame.path  # only followed, no path of each depth recorded)
        elif frame.kind == "[":
            path = (*frame.path, frame.index)
            frame.index += 1
            self.where[path] = (n, start + 1)
        else:
            path = frame.value or frame.path
            self.where[path] = (n, start + 1)
        if tok in ("[", "{"):
            scan.stack.append(_Frame(path, tok))
        elif tok in _ML_END:
            end = _ml_end(line, pos, tok)
            if end is None:
                scan.open = tok
                return len(line)
            return end
        return pos

    def at(self, line: int, col: int) -> Location:
        """The location of line:col, with its source line for the caret."""
        src = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return Location(self.file, line, col if src else 0, src)

    def _known(self, path: Path_) -> Path_:
        """`path` as the map knows it: an array of tables by its first table, a list's item
        by its per-player label (`seats.p2`: the list's second item)."""
        p = path
        if p not in self.where and (*p, 0) in self.where:
            return (*p, 0)  # an array of tables: its first table
        for i, step in enumerate(p):
            m = _PLAYER.fullmatch(step) if isinstance(step, str) else None
            if m and p[:i + 1] not in self.where and (*p[:i], 0) in self.where:
                p = (*p[:i], int(m.group(1)) - 1, *p[i + 1:])
        return p

    def locate(self, path: Path_) -> Location:
        """The location of `path`'s value, or of its nearest known ancestor; where `path`
        names a key written in the file, the Location knows the key's place too (`key`),
        for an error about the key itself (core/errors.py)."""
        p = self._known(path)
        key = None
        if p in self.keys and isinstance(p[-1], str):
            line, col = self.keys[p]
            key = Location(self.file, line, col, self.lines[line - 1], name=p[-1])
        while p:
            if p in self.where:
                line, col = self.where[p]
                return Location(self.file, line, col, self.lines[line - 1], key=key)
            p = p[:-1]
        return Location(self.file)

    def origin(self, path: Path_, value: str) -> Origin:
        """Where the DSL text at `path` begins (inside its quotes), for the DSL's positions."""
        loc = self.locate(path)
        if loc.line and loc.column:
            src = self.lines[loc.line - 1]
            col = loc.column
            quote = src[col - 1: col + 2]
            if quote in ('"""', "'''"):
                # A newline right after the opening """ (or ''') is not part of the value.
                if src[col + 2:].strip() == "":
                    return Origin(self.file, loc.line + 1, 1, self.lines)
                return Origin(self.file, loc.line, col + 3, self.lines)
            if quote[:1] in ('"', "'"):
                return Origin(self.file, loc.line, col + 1, self.lines)
        return Origin(self.file, loc.line or 1, 1, self.lines)


# The rest of a multi-line string from inside its opening quotes, up to its closing quotes
# (of which it may end with two more: `""""a"""""` is `"a""`), on one line
_ML_END: Final = {'"""': re.compile(r'(?:[^"\\]|\\.|\\$|"{1,2}(?!"))*"{3,5}'),
                  "'''": re.compile(r"(?:[^']|'{1,2}(?!'))*'{3,5}")}


def _ml_end(line: str, pos: int, quotes: str) -> int | None:
    """Where on `line` the multi-line string opened by `quotes` ends, reading from `pos`
    (just after its closing quotes), or None: it goes on past the line."""
    m = _ML_END[quotes].match(line, pos)
    return m.end() if m else None
