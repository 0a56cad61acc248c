"""One table of a state's fields, read by clone, positions, fingerprints, pickling and the
information rules: a new field is one entry.

Each `Field` says how a copy takes it (shared, list copied, list of lists copied, an
object's own `copy()`, or reset), what the field is to the players (public, private to
its owner, hidden from everyone, or the machine's own bookkeeping), its key and encoding
in the fingerprint, and the position entries (`Entry`) that read and write it in the
position format of scenario files and saves. An entry is declared there once, with its type
and meaning: the position's schema (`position_section`, the reference's table, the shape
checks before any entry is read) is made from the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, NamedTuple

from . import schema

# how a clone takes a field
SHARE: Final = "share"  # the same value: immutable, or shared by design (rules, functions)
LIST: Final = "list"  # a list of immutable values: `.copy()`
LISTS: Final = "lists"  # a list of such lists
COPY: Final = "copy"  # an object with its own `copy()`, or None
RESET: Final = "reset"  # starts again from `reset` in a copy (per-decision counters)
DERIVED: Final = "derived"  # shared; rebuilt from the rules rather than pickled

# what a field is to the players (the information rules)
PUBLIC: Final = "public"  # everyone sees it
PRIVATE: Final = "private"  # per player: each sees only their own part
HIDDEN: Final = "hidden"  # no player sees it (what chance has yet to reveal, what is out)
MACHINE: Final = "machine"  # the engine's bookkeeping (the work stack, caches, the seed)


class Entry(NamedTuple):
    """A position entry: `key` in a position table, how `read(st, value, reader)` sets the
    state from it (the game's reader says where a mistake is; None: the game reads this
    entry together with others), how `write(st)` gives it (or SKIP to leave it out), and
    its declaration: the type of its value and `schema.param(...)` (meaning, range)."""

    key: str
    read: Callable[[Any, Any, Any], None] | None
    write: Callable[[Any], Any]
    info: str = PUBLIC
    type: Any = None
    param: Any = None


SKIP: Final = object()  # what `Entry.write` returns to leave its key out


class Field(NamedTuple):
    """One field of a state (see the module's text)."""

    name: str
    copy: str = SHARE
    info: str = PUBLIC
    fp: str | None = None  # its key in the fingerprint ("*": `enc` gives several keys)
    enc: Callable[[Any], Any] | None = None  # its fingerprint value (default: as is)
    entries: tuple[Entry, ...] = ()
    reset: Any = None


def make_clone(cls: type, fields: Iterable[Field]) -> Callable[[Any], Any]:
    """A field-by-field `clone(self)` for `cls`, generated once as flat code (a generic loop
    over the table would cost several times as much per copy)."""
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = ["def clone(self):", "    c = _new(_cls)"]
    for f in fields:
        n = f.name
        if f.copy in (SHARE, DERIVED):
            lines.append(f"    c.{n} = self.{n}")
        elif f.copy == LIST:
            lines.append(f"    c.{n} = self.{n}.copy()")
        elif f.copy == LISTS:
            lines.append(f"    c.{n} = [x.copy() for x in self.{n}]")
        elif f.copy == COPY:
            lines.append(f"    v = self.{n}")
            lines.append(f"    c.{n} = None if v is None else v.copy()")
        elif f.copy == RESET:
            env[f"_reset_{n}"] = f.reset
            lines.append(f"    c.{n} = _reset_{n}")
        else:
            raise ValueError(f"field {n}: unknown copy mode {f.copy!r}")
    lines.append("    return c")
    exec(compile("\n".join(lines), f"<clone of {cls.__name__}>", "exec"), env)  # trusted
    fn: Callable[[Any], Any] = env["clone"]
    fn.__qualname__ = f"{cls.__name__}.clone"
    fn.__doc__ = "An independent copy, field by field (the fields' table says how)."
    return fn


def fingerprint_of(st: Any, fields: Iterable[Field]) -> dict[str, Any]:
    """The fingerprint entries of the fields that have one."""
    out: dict[str, Any] = {}
    for f in fields:
        if f.fp is None:
            continue
        v = getattr(st, f.name)
        if f.enc is not None:
            v = f.enc(v)
        if f.fp == "*":
            out.update(v)
        else:
            out[f.fp] = v
    return out


def entries(fields: Iterable[Field]) -> tuple[Entry, ...]:
    """Every position entry, in table order (the order a position is applied in)."""
    return tuple(e for f in fields for e in f.entries)


def position_section(name: str, table: Iterable[Entry], module: str) -> type[Any]:
    """The schema of a position (core/schema.py): every entry optional, of its declared type."""
    fields = []
    for e in table:
        assert e.type is not None and e.param is not None, f"entry {e.key!r} is not declared"
        fields.append((e.key, e.type | None, e.param))
    return schema.make_section(name, "A position: any part of a game's state (scenarios' "
                               "[position], saves' start).", fields, module, "position entry")


def write_position(st: Any, table: Iterable[Entry]) -> dict[str, Any]:
    """The position of `st` (every entry that has something to say)."""
    out: dict[str, Any] = {}
    for e in table:
        v = e.write(st)
        if v is not SKIP:
            out[e.key] = v
    return out


def read_position(st: Any, pos: Mapping[str, Any], table: Iterable[Entry],
                  reader: Any) -> None:
    """Set the entries `pos` names that read on their own, in table order."""
    for e in table:
        if e.read is not None and e.key in pos:
            e.read(st, pos[e.key], reader)


def pickled(st: Any, fields: Iterable[Field]) -> dict[str, Any]:
    """The fields a pickle carries: all but the derived ones (rebuilt from the rules)."""
    return {f.name: getattr(st, f.name) for f in fields if f.copy != DERIVED}
