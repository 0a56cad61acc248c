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
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from math import prod
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from .errors import GameError

if TYPE_CHECKING:
    from .machine import Machine

# (state, viewer, out, at): write the segment's numbers into out[at:at + size]
Write = Callable[[Any, int, list[float], int], None]
KINDS: Final = ("observation", "information_state")


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

    @property
    def size(self) -> int:
        return prod(self.shape)


class Layout:
    """A tensor's segments in order, each at its offset; `size` numbers in all."""

    __slots__ = ("_view", "_write", "kind", "offsets", "segments", "size")

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
        if s.size == 0:  # (nothing to set)
            continue
        read = getattr(s.write, "read", None)
        attr = getattr(s.write, "attr", None)
        inline = getattr(s.write, "inline", None)  # its own lines (`inlined`)
        if inline is not None:
            lines, names = inline(at, f"i{i}_")
            space.update(names)
            body += [f"    {line}" for line in lines]
            continue
        if read is None:
            space[f"w{i}"] = s.write
            body.append(f"    w{i}(st, v, out, {at})")
            continue
        if attr is not None and attr.isidentifier():
            body.append(f"    x = st.{attr}")
        else:
            space[f"r{i}"] = read
            body.append(f"    x = r{i}(st)")
        if s.size == 1:
            body.append(f"    out[{at}] = x[0] if x.__class__ is list or x.__class__ is tuple "
                        "else x")
        elif s.size <= UNROLL:
            body.append("    " + ", ".join(f"out[{at + j}]" for j in range(s.size)) + " = x")
        else:
            space[f"k{i}"] = struct.Struct(f"={s.size}f").pack_into
            body.append(f"    k{i}(buf, {4 * at}, *x)")
    code = f"def write(st, v, out, buf):\n{chr(10).join(body or ['    pass'])}\n"
    exec(compile(code, f"<tensor view writer of {lay.kind}>", "exec"), space)  # made above
    made: Callable[..., None] = space["write"]
    return made


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


# ---------------------------------------------------------------------- writers' helpers
def numbers(read: Callable[[Any], Any]) -> Write:
    """A writer of the numbers `read(state)` gives (one, or a list or tuple of the
    segment's size), as they are; the layout's flat writer calls `read` itself."""
    def write(st: Any, v: int, out: list[float], at: int) -> None:
        x = read(st)
        if isinstance(x, list | tuple):
            out[at:at + len(x)] = x
        else:
            out[at] = x
    write.read = read  # type: ignore[attr-defined]  # (read by _flat_writer)
    return write


def field(name: str) -> Write:
    """A writer of the state's attribute `name` as it is (`numbers`), read in place by the
    layout's generated writers (no call a segment)."""
    write = numbers(attrgetter(name))
    write.attr = name  # type: ignore[attr-defined]  # (read by the layout's generated writers)
    return write


Lines = Callable[[int, str], tuple[list[str], dict[str, Any]]]


def inlined(write: Write, lines: Lines) -> Write:
    """`write` given as lines of Python for the layout's one-call writer too (no call a
    segment, in the adapters' step): `lines(at, prefix)` gives the lines that set the
    segment from offset `at` (reading `st`, `v`, setting `out[...]` one by one) and the
    names they use (each starting with `prefix`: the writer's own). Tests compare the
    two over random play."""
    def write_(st: Any, v: int, out: list[float], at: int) -> None:
        write(st, v, out, at)
    write_.inline = lines  # type: ignore[attr-defined]  # (read by `_view_writer`)
    return write_


def one_hot(out: list[float], at: int, index: int) -> None:
    """Set out[at + index] to 1 (an index of -1, or None, sets nothing)."""
    if index is not None and index >= 0:
        out[at + index] = 1.0


def put(out: list[float], at: int, values: Sequence[float]) -> None:
    """Copy `values` (numbers: ints and flags as they are) into out from `at`, one by one
    (see the module's text)."""
    for i, x in enumerate(values, at):
        out[i] = x
