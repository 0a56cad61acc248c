"""Tensors: a state as a flat list of numbers with a fixed, documented layout per game,
rules and player count, for learning libraries (the adapters turn it into a numpy array;
the kernel itself imports no numpy).

A game declares its layouts as `Segment`s (its `tensor_segments(kind)` hook, for the kinds
`observation` and `information_state`): each a name, a shape, what it means, and the
function that writes it for a viewer (a player, or TEAM: the whole team, every private
fact of it seen).
The layout is made once per rules and player count; writing a tensor fills a list of
zeros segment by segment. A writer sets numbers one by one (`out[i] = x`, `out[i] += x`),
never a slice at once, so that it writes a list or, as alike, float32 numbers in place
(`Layout.write_view`: the adapters' arrays, no list converted). Nothing here runs during
play.

A segment may name its `Source`: what its numbers are a function of (an expression over the
state, with the layout's constants and the viewer), and how a copy of it is kept. An
adapter writing a seat's tensor every step keeps the seat's buffer and rewrites only the
segments whose source changed since its last write (`Layout.incremental_writer`): a step
changes a few segments of many.
"""

from __future__ import annotations

import ast
import struct
from collections.abc import Callable, Sequence
from math import prod
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from .errors import GameError
from .writing import Lines as Lines  # (the writers' helpers, for the games: core/writing.py)
from .writing import Row as Row
from .writing import RowLines as RowLines
from .writing import Write as Write
from .writing import field as field
from .writing import inlined as inlined
from .writing import numbers as numbers
from .writing import one_hot as one_hot
from .writing import put as put

if TYPE_CHECKING:
    from .machine import Machine

KINDS: Final = ("observation", "information_state")

# How a segment's source is kept to be compared at the next write (`Source`):
IS: Final = "is"  # an immutable value, compared by identity (a name, a constant object)
VALUE: Final = "value"  # an immutable value, compared by value (a number)
LIST: Final = "list"  # a list of numbers or names (changed in place: a copy kept)
LISTS: Final = "lists"  # a list of such lists (a copy of each kept)
ITEMS: Final = "items"  # a list of values and lists (a copy of each list kept)
ROWS: Final = "rows"  # a list of lists, a row of each segment per list: rows compared apart
LIVE: Final = "live"  # an object changed in place, or None: written whenever not None
EVERY: Final = "every"  # nothing compared: written at every write (changes at most)
KEEPS: Final = (IS, VALUE, LIST, LISTS, ITEMS, ROWS, LIVE, EVERY)


class Source(NamedTuple):
    """What a segment's numbers are a function of, with the layout's constants (rules,
    player count) and the viewer: `expr`, an expression of Python over the state `st` and
    the viewer `v`, and how its value is kept to compare at the next write (`keep`, one of
    KEEPS). Segments of one source are rewritten together when it changes. Tests compare
    the tensors written so with those written from scratch over random play."""

    expr: str
    keep: str = VALUE


class Segment(NamedTuple):
    """One named part of a tensor: its shape (row-major), meaning and writer, and the
    bounds every number of it lies within (one-hot and 0/1 flags: 0 to 1; a count: 0 to
    what the rules allow, from the game's components)."""

    name: str
    shape: tuple[int, ...]
    meaning: str
    write: Write
    high: float = 1.0
    low: float = 0.0
    source: Source | None = None  # (`incremental_writer`'s; a field's or numbers' own value)

    @property
    def size(self) -> int:
        return prod(self.shape)


class Layout:
    """A tensor's segments in order, each at its offset; `size` numbers in all."""

    __slots__ = ("_incremental", "_own", "_view", "_write", "kind", "offsets", "segments",
                 "size")

    def __init__(self, kind: str, segments: Sequence[Segment]) -> None:
        view = getattr(segments, "view", None)  # a game's own (`Segments`)
        self.kind, self.segments = kind, tuple(segments)
        self.offsets: list[int] = []
        at = 0
        for s in self.segments:
            self.offsets.append(at)
            at += s.size
        self.size = at
        self._write = _flat_writer(self)
        self._view: Callable[..., None] | None = view  # else made at the first `write_view`
        self._own = view is not None  # (the game's own one-call writer)
        self._incremental: Callable[[], Callable[..., None]] | None = None  # (its maker)

    def tensor(self, st: Any, viewer: int) -> list[float]:
        """The state as `viewer` sees it, `size` numbers (counts and flags as the game keeps
        them: ints and bools among the floats; `Numeric` and `Seated` give floats)."""
        out = [0.0] * self.size
        self._write(st, viewer, out)
        return out

    def write_view(self, st: Any, viewer: int, out: memoryview, buf: Any) -> None:
        """Write the state as `viewer` sees it into `out`, a memoryview of float32 numbers
        (format "f") over the writable buffer `buf` (which holds them from its byte 0),
        all of them 0 before: the same numbers as `tensor`, each converted by C's cast to
        float as it is set (numpy's conversion; tests compare them). A writer that sets a
        slice raises TypeError (see the module's text)."""
        self.view_writer()(st, viewer, out, buf)

    def view_writer(self) -> Callable[..., None]:
        """The function `write_view` calls, (state, viewer, out, buf) -> None (for a caller
        that writes a tensor every step)."""
        write = self._view
        if write is None:
            write = self._view = _view_writer(self)
        return write

    def incremental_writer(self) -> Callable[..., None] | None:
        """A new writer (state, viewer, out, buf) -> None, `write_view`'s numbers, that
        keeps a copy of each segment's source and rewrites only the segments whose source
        changed since its last call (a segment without one: every call): `out` (over `buf`)
        must hold what this writer last wrote, a buffer of its own. Its first call writes
        everything; a call for another viewer than the last writes again the segments whose
        lines read the viewer (one buffer serves every seat in turn). A call that raises leaves
        the buffer undefined (make a new writer). `writer.save(buf)` gives what the buffer
        and the writer hold now, `writer.restore(saved, buf)` puts it back (a position the
        next writes may be nearer to: a game's start); `writer.viewed(state, viewer, out,
        buf)` writes for a viewer at the position it last wrote (the same state: only what
        reads the viewer). None for a layout the game writes by its own one-call writer
        (`Segments`): `write_view` on zeros then."""
        if self._own:
            return None
        make = self._incremental
        if make is None:
            make = self._incremental = _incremental_maker(self)
        return make()

    def bounds(self) -> tuple[list[float], list[float]]:
        """The lowest and highest value of each number (its segment's bounds)."""
        low: list[float] = []
        high: list[float] = []
        for s in self.segments:
            low += [float(s.low)] * s.size
            high += [float(s.high)] * s.size
        return low, high

    def rows(self) -> list[tuple[str, int, tuple[int, ...], str]]:
        """(name, offset, shape, meaning) of each segment: the documented layout."""
        return [(s.name, at, s.shape, s.meaning)
                for s, at in zip(self.segments, self.offsets, strict=True)]

    def split(self, tensor: Sequence[float]) -> dict[str, list[float]]:
        """A tensor cut into its segments, by name (flat, row-major)."""
        return {s.name: list(tensor[at:at + s.size])
                for s, at in zip(self.segments, self.offsets, strict=True)}


def _flat_writer(lay: Layout) -> Callable[[Any, int, list[float]], None]:
    """Every segment's writer called in turn, as one flat function made once per layout
    (no loop, each writer and offset a constant: a tensor a step, for learners)."""
    space: dict[str, Any] = {}
    body = []
    for i, (s, at) in enumerate(zip(lay.segments, lay.offsets, strict=True)):
        read = getattr(s.write, "read", None)  # a segment of plain numbers (`numbers`)
        attr = getattr(s.write, "attr", None)  # the state's attribute (`field`)
        if read is None:
            space[f"w{i}"] = s.write
            body.append(f"    w{i}(st, v, out, {at})")
        elif attr is not None and attr.isidentifier():
            body += [f"    x = st.{attr}",
                     f"    out[{at}:{at + s.size}] = x" if s.size > 1 else
                     f"    out[{at}] = x[0] if x.__class__ is list or x.__class__ is tuple "
                     "else x"]
        elif s.size > 1:
            space[f"r{i}"] = read
            body.append(f"    out[{at}:{at + s.size}] = r{i}(st)")
        else:
            space[f"r{i}"] = read
            body += [f"    x = r{i}(st)",
                     f"    out[{at}] = x[0] if x.__class__ is list or x.__class__ is tuple "
                     "else x"]
    code = f"def write(st, v, out):\n{chr(10).join(body or ['    pass'])}\n"
    exec(compile(code, f"<tensor writer of {lay.kind}>", "exec"), space)  # code made above
    made: Callable[[Any, int, list[float]], None] = space["write"]
    return made


class Segments(tuple[Segment, ...]):
    """A layout's segments, given with the game's own `Layout.write_view` for them (`view`:
    (state, viewer, out, buf) -> None): one function that sets what the segments' writers
    set, for a game whose tensor an adapter writes every step (fewer calls than a writer a
    segment). It must give the same numbers: tests compare the two over random play."""

    view: Callable[..., None] | None

    def __new__(cls, segments: Sequence[Segment],
                view: Callable[..., None] | None = None) -> Segments:
        made = super().__new__(cls, segments)
        made.view = view
        return made


UNROLL: Final = 8  # plain numbers set one by one up to this many; more: packed at once


def _view_writer(lay: Layout) -> Callable[..., None]:
    """`Layout.write_view` for a layout, as one flat function (as `_flat_writer`; a
    segment of plain numbers set one by one, or packed into the buffer when long)."""
    space: dict[str, Any] = {}
    body = []
    for i, (s, at) in enumerate(zip(lay.segments, lay.offsets, strict=True)):
        if s.size:  # (else nothing to set)
            body += [f"    {line}" for line in _set_lines(s, at, i, space)]
    code = f"def write(st, v, out, buf):\n{chr(10).join(body or ['    pass'])}\n"
    exec(compile(code, f"<tensor view writer of {lay.kind}>", "exec"), space)  # made above
    made: Callable[..., None] = space["write"]
    return made


def _set_lines(s: Segment, at: int, i: int, space: dict[str, Any]) -> list[str]:
    """The lines that set segment `s` (the `i`-th, at `at`) on zeros, for the view writers
    (the names they use put in `space`)."""
    read = getattr(s.write, "read", None)
    attr = getattr(s.write, "attr", None)
    inline = getattr(s.write, "inline", None)  # its own lines (`inlined`)
    if inline is not None:
        lines, names = inline(at, f"i{i}_")
        space.update(names)
        return list(lines)
    if read is None:
        space[f"w{i}"] = s.write
        return [f"w{i}(st, v, out, {at})"]
    return [_read_line(read, attr, i, space), *_store_lines(s, at, i, space)]


def _read_line(read: Any, attr: str | None, i: int, space: dict[str, Any]) -> str:
    """`x = ` the numbers of a segment of plain numbers (`numbers`, `field`)."""
    if attr is not None and attr.isidentifier():
        return f"x = st.{attr}"
    space[f"r{i}"] = read
    return f"x = r{i}(st)"


def _store_lines(s: Segment, at: int, i: int, space: dict[str, Any]) -> list[str]:
    """The lines that store `x`, a segment's plain numbers, from `at`."""
    if s.size == 1:
        return [f"out[{at}] = x[0] if x.__class__ is list or x.__class__ is tuple else x"]
    if s.size <= UNROLL:
        return [", ".join(f"out[{at + j}]" for j in range(s.size)) + " = x"]
    space[f"k{i}"] = struct.Struct(f"={s.size}f").pack_into
    return [f"k{i}(buf, {4 * at}, *x)"]


_NEW: Final = object()  # a kept source before the first write: equal to nothing
_COPY: Final = {IS: "x", VALUE: "x", LIST: "list(x)", LISTS: "[*map(list, x)]",
                ITEMS: "[list(y) if y.__class__ is list else y for y in x]"}


def _incremental_maker(lay: Layout) -> Callable[[], Callable[..., None]]:
    """`Layout.incremental_writer`'s maker for a layout: a generated function that makes
    a writer whose cells keep each source's copy (see `_incremental_lines`), with its
    `save(buf)`, `restore(saved, buf)` and `viewed`. A first write writes all; a write for
    another viewer than the last writes again only what reads the viewer (`_viewer_lines`),
    keeping the rest; `viewed` does only that, at the last write's position (no source
    compared)."""
    nbytes = 4 * lay.size
    space: dict[str, Any] = {"NEW": _NEW, "ZALL": bytes(nbytes)}
    cells, body, viewed, again = _incremental_lines(lay, space)
    fresh = [f"{c} = {first}" for c, first in cells.items()]
    names = ", ".join(["sv", *cells])
    rows = [c for c, first in cells.items() if first.startswith("[")]  # (changed in place)
    kept = ", ".join(["sv", *(f"list({c})" if c in rows else c for c in cells)])
    code = "\n".join([
        "def make():", "    sv = NEW", *(f"    {line}" for line in fresh),
        "    def write(st, v, out, buf):", f"        nonlocal {names}",
        "        if v != sv:",
        "            if sv is NEW:  # a first write: all of it",
        *(f"                {line}" for line in fresh), f"                buf[0:{nbytes}] = ZALL",
        "            else:  # another viewer's: what the viewer sees",
        *(f"                {line}" for line in viewed or ["pass"]),
        "            sv = v", *(f"        {line}" for line in body),
        "    def viewed(st, v, out, buf):", f"        nonlocal {names}",
        "        if sv is NEW:", "            return write(st, v, out, buf)",
        "        if v != sv:", *(f"            {line}" for line in viewed),
        "            sv = v", *(f"            {line}" for line in again),
        "    def save(buf):", f"        return (bytes(buf[0:{nbytes}]), {kept})",
        "    def restore(saved, buf):", f"        nonlocal {names}",
        f"        buf[0:{nbytes}] = saved[0]", f"        {names}, = saved[1:]",
        *(f"        {c} = list({c})" for c in rows),
        "    write.save, write.restore, write.viewed = save, restore, viewed",
        "    return write", ""])
    exec(compile(code, f"<incremental tensor writer of {lay.kind}>", "exec"), space)  # above
    made: Callable[[], Callable[..., None]] = space["make"]
    return made


def _incremental_lines(lay: Layout, space: dict[str, Any],
                       ) -> tuple[dict[str, str], list[str], list[str], list[str]]:
    """The incremental writer's cells (each with its value before a first write: a kept
    source, or a `LIVE` source's flag), its body and what a change of viewer does: each
    segment of plain numbers without a declared source compared by its own value; the
    segments of one declared source compared once, cleared and set again together when it
    changed; any other segment cleared and set every time. A change of viewer: each
    source's `_viewer_lines`; then, at the position last written (`viewed`), the lines
    that read the viewer (but a source of rows': set again from its kept rows)."""
    cells: dict[str, str] = {}
    body: list[str] = []
    viewed: list[str] = []
    again: list[str] = []  # (the lines a change of viewer at one position runs again)
    groups: dict[Source, list[tuple[Segment, int, int]]] = {}
    for i, (s, at) in enumerate(zip(lay.segments, lay.offsets, strict=True)):
        if s.size == 0:
            continue
        if s.source is not None:
            if s.source.keep not in KEEPS:
                raise ValueError(f"segment {s.name!r}: keep {s.source.keep!r} is none of "
                                 f"{', '.join(KEEPS)}")
            if s.source not in groups:
                groups[s.source] = []
                body.append(f"#{len(groups) - 1}")  # (the group's place, filled below)
            groups[s.source].append((s, at, i))
        else:
            block = _sourceless_lines(s, at, i, cells, space)
            body += block
            again += block if _reads_viewer(block) else []
    out: list[str] = []
    listed = list(groups.items())
    for line in body:
        if not line.startswith("#"):
            out.append(line)
            continue
        j = int(line[1:])
        source, members = listed[j]
        lines = _group_lines(f"g{j}", source, members, space)
        if source.keep != EVERY:
            first = cells[f"g{j}"] = ("False" if source.keep == LIVE else
                                      f"[{', '.join(['NEW'] * members[0][0].shape[0])}]"
                                      if source.keep == ROWS else "NEW")
            viewed += _viewer_lines(f"g{j}", first, source, members, lines, space)
        if _reads_viewer(lines) and not _from_kept_rows(source):
            again += lines
        out += lines
    return cells, out, viewed, again


def _sourceless_lines(s: Segment, at: int, i: int, cells: dict[str, str],
                      space: dict[str, Any]) -> list[str]:
    """A segment without a source: plain numbers compared by their own value (a cell of
    their own), else cleared and set every time."""
    read = getattr(s.write, "read", None)
    if read is None:
        return _clear_lines([(at, s.size)], space) + _set_lines(s, at, i, space)
    cells[f"c{i}"] = "NEW"
    return _own_value_lines(s, at, i, read, space)


def _viewer_lines(cell: str, first: str, source: Source,
                  members: list[tuple[Segment, int, int]], lines: list[str],
                  space: dict[str, Any]) -> list[str]:
    """What a change of viewer does to one source's segments: nothing if no line reads
    it; rows whose lines read it set again from the kept ones (`_from_kept_rows`); else
    all cleared, the cell as before a first write (all written again below)."""
    if not _reads_viewer(lines):
        return []
    if _from_kept_rows(source):
        return _rows_viewer_lines(cell, members, space)
    return [f"{cell} = {first}", *_clear_lines([(at, s.size) for s, at, _ in members], space)]


def _from_kept_rows(source: Source) -> bool:
    """A source of rows not read with the viewer: set again from its kept rows."""
    return source.keep == ROWS and not _reads_viewer([f"_ = {source.expr}"])


def _rows_viewer_lines(cell: str, members: list[tuple[Segment, int, int]],
                       space: dict[str, Any]) -> list[str]:
    """`_viewer_lines` for a source of rows: each segment whose row lines (or guard) read
    the viewer cleared, then each of its rows set from the row kept in `cell`."""
    out: list[str] = []
    n = members[0][0].shape[0]
    for s, at, i in members:
        rows: list[Row] = [s.write.row(at, r, f"i{i}_") for r in range(n)]  # type: ignore[attr-defined]
        if not any(_reads_viewer([*row.lines, f"_ = {row.guard or 0}"]) for row in rows):
            continue
        out += _clear_lines([(at, s.size)], space)
        for r, row in enumerate(rows):
            space.update(row.names)
            test = f"h is not NEW and ({row.guard})" if row.guard else "h is not NEW"
            out += [f"h = {cell}[{r}]", f"if {test}:", *(f"    {line}" for line in row.lines)]
    return out


def _reads_viewer(lines: list[str]) -> bool:
    """Whether these lines (a block of a generated writer) read the viewer, `v`."""
    return any(isinstance(node, ast.Name) and node.id == "v"
               for node in ast.walk(ast.parse("\n".join(lines))))


def _own_value_lines(s: Segment, at: int, i: int, read: Any, space: dict[str, Any],
                     ) -> list[str]:
    """A segment of plain numbers set again when they changed (kept in cell `c{i}`: the
    number itself for one, else a copy of the list)."""
    c = f"c{i}"
    first = _read_line(read, getattr(s.write, "attr", None), i, space)
    if s.size == 1:  # (the number compared: a one-number list never equals it, set anew)
        return [first, f"if x != {c}:",
                "    if x.__class__ is list or x.__class__ is tuple:", "        x = x[0]",
                f"    {c} = x", f"    out[{at}] = x"]
    return [first, f"if x != {c}:", f"    {c} = x if x.__class__ is tuple else list(x)",
            *(f"    {line}" for line in _store_lines(s, at, i, space))]


def _group_lines(cell: str, source: Source, members: list[tuple[Segment, int, int]],
                 space: dict[str, Any]) -> list[str]:
    """The segments of one source compared once, cleared (but those of plain numbers, all
    set) and set again together when it changed."""
    if source.keep == ROWS:
        return _rows_lines(cell, source, members, space)
    clear = [(at, s.size) for s, at, _ in members if getattr(s.write, "read", None) is None]
    sets: list[str] = _clear_lines(clear, space)
    for s, at, i in members:
        sets += _set_lines(s, at, i, space)
    if source.keep == EVERY:
        return sets
    if source.keep == LIVE:
        return [f"if ({source.expr}) is not None:", f"    {cell} = True",
                *(f"    {line}" for line in sets), f"elif {cell}:", f"    {cell} = False",
                *(f"    {line}" for line in _clear_lines(clear, space) or ["pass"])]
    test = "is not" if source.keep == IS else "!="
    return [f"x = {source.expr}", f"if x {test} {cell}:", f"    {cell} = {_COPY[source.keep]}",
            *(f"    {line}" for line in sets)]


def _rows_lines(cell: str, source: Source, members: list[tuple[Segment, int, int]],
                space: dict[str, Any]) -> list[str]:
    """A `ROWS` source's segments: the whole compared once (`hs`), then each row (`h`,
    the `r`-th list) compared, its rows cleared and set again when it changed."""
    n = members[0][0].shape[0]
    out = [f"hs = {source.expr}", f"if hs != {cell}:"]
    for r in range(n):
        body: list[str] = []
        for s, at, i in members:
            row_of = getattr(s.write, "row", None)
            if row_of is None or s.shape[0] != n:
                raise ValueError(f"segment {s.name!r}: a source of rows needs {n} rows and "
                                 "their lines (`inlined`'s `row`)")
            row: Row = row_of(at, r, f"i{i}_")
            space.update(row.names)
            w = s.size // n
            lines = [*([] if row.covers else _clear_lines([(at + r * w, w)], space)),
                     *row.lines]
            body += [f"if {row.guard}:", *(f"    {line}" for line in lines)] \
                if row.guard else lines
        out += [f"    h = hs[{r}]", f"    if h != {cell}[{r}]:", f"        {cell}[{r}] = list(h)",
                *(f"        {line}" for line in body)]
    return out


def _clear_lines(spans: list[tuple[int, int]], space: dict[str, Any]) -> list[str]:
    """Lines setting these (offset, size) spans to 0: adjacent ones joined, a short one
    number by number, a longer one as bytes at once."""
    merged: list[list[int]] = []
    for at, size in sorted(spans):
        if merged and merged[-1][1] == at:
            merged[-1][1] = at + size
        else:
            merged.append([at, at + size])
    out = []
    for start, end in merged:
        if end - start <= 2:
            out += [f"out[{j}] = 0.0" for j in range(start, end)]
        else:
            space[f"Z{end - start}"] = bytes(4 * (end - start))
            out.append(f"buf[{4 * start}:{4 * end}] = Z{end - start}")
    return out


def layout(st: Machine, kind: str) -> Layout:
    """The game's `kind` layout, made once per rules and player count."""
    if kind not in KINDS:
        raise GameError(f"unknown tensor kind {kind!r}; kinds: {', '.join(KINDS)}")
    key = ("tensor", kind, st.num_players())
    cache = st.derived()
    out = cache.get(key)
    if out is None:
        out = cache[key] = Layout(kind, st.tensor_segments(kind))
    assert isinstance(out, Layout)
    return out
