"""What a game's tensor segments are written with (core/tensors.py, whose `Segment` names a
writer): a writer sets a segment's numbers for a viewer one by one; `numbers` and `field`
read them off the state, `inlined` gives a writer's lines of Python too, for the layout's
generated writers (`Row`: a row of a segment of a `ROWS` source), `one_hot` and `put` set
numbers. core/tensors.py gives them all under its own name too."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any, NamedTuple

# (state, viewer, out, at): write the segment's numbers into out[at:at + size]
Write = Callable[[Any, int, list[float], int], None]


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


class Row(NamedTuple):
    """The lines that set one row of a segment (`inlined`'s `row`) from `h`, its source's
    row, on zeros, and the names they use; `guard`: an expression (of `v`) without which
    the row stays 0 (neither cleared nor set); `covers`: the lines set every number of
    the row (none cleared before)."""

    lines: list[str]
    names: dict[str, Any]
    guard: str | None = None
    covers: bool = False


RowLines = Callable[[int, int, str], Row]


def inlined(write: Write, lines: Lines, row: RowLines | None = None) -> Write:
    """`write` given as lines of Python for the layout's one-call writer too (no call a
    segment, in the adapters' step): `lines(at, prefix)` gives the lines that set the
    segment from offset `at` (reading `st`, `v`, setting `out[...]` one by one) and the
    names they use (each starting with `prefix`: the writer's own); `row(at, r, prefix)`,
    for a segment of a `ROWS` source, the `Row` that sets its `r`-th row alone. Tests
    compare them over random play."""
    def write_(st: Any, v: int, out: list[float], at: int) -> None:
        write(st, v, out, at)
    write_.inline = lines  # type: ignore[attr-defined]  # (read by `_view_writer`)
    write_.row = row  # type: ignore[attr-defined]  # (read by `_incremental_lines`)
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
