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


def make_copier(cls: type, fields: Iterable[Field], template: Any,
                given: tuple[str, ...] = ()) -> Callable[..., Any]:
    """A copy of `template` as `clone` makes it, generated for that one object: `copier(*given)`
    sets the fields named in `given` from its arguments, the shared ones from one tuple (its
    unpacking stores them, where clone reads each from the template), the lists of whole
    numbers (or empty) as literals. For a template that is never changed nor handed out (a new
    game's set-up is a copy of one: see art/setup.py), so its values can be kept."""
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    shared: list[Any] = []
    lines = [f"def copier({', '.join(given)}):", "    c = _new(_cls)"]
    lines += [f"    c.{n} = {n}" for n in given]
    for f in fields:
        if f.name in given:
            continue
        v = getattr(template, f.name)
        if f.copy in (SHARE, DERIVED, RESET):
            shared.append((f.name, f.reset if f.copy == RESET else v))
        else:
            lines.append(f"    c.{f.name} = {_copied(f, v, env)}")
    if shared:
        env["_shared"] = tuple(v for _, v in shared)
        lines.append(f"    {', '.join(f'c.{n}' for n, _ in shared)}, = _shared")
    lines.append("    return c")
    exec(compile("\n".join(lines), f"<copier of {cls.__name__}>", "exec"), env)  # trusted
    fn: Callable[..., Any] = env["copier"]
    return fn


def _copied(f: Field, v: Any, env: dict[str, Any]) -> str:
    """The expression that copies field `f` of value `v` (a literal, or `v` kept in `env`)."""
    if f.copy == LIST and all(x.__class__ is int for x in v):
        return repr(list(v))  # a literal (empty, or whole numbers): no call
    if f.copy == LISTS and not any(v):
        return "[" + ", ".join("[]" for _ in v) + "]"
    if f.copy == COPY and v is None:
        return "None"
    env[f"_v_{f.name}"] = v
    copy = {LIST: "_v_{n}.copy()", LISTS: "[x.copy() for x in _v_{n}]",
            COPY: "_v_{n}.copy()"}.get(f.copy)
    if copy is None:
        raise ValueError(f"field {f.name}: unknown copy mode {f.copy!r}")
    return copy.format(n=f.name)


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
