"""Declared files: every key of every file a game reads, declared once (type, range or
choices, meaning) and structured with cattrs.

A game declares each table of its files as an attrs class whose fields are made by `param`
(`@section` registers it); `structure` turns a parsed document into that class, refusing a
value of the wrong type, out of its range or not among its choices with its key path and
what was expected. A table of the wrong shape (text where a table belongs) is one error,
never one per character. The same declarations give the generated reference
(`fields_of`) and let a game's checks read a key's range (`declaration`). The kernel's own
files are declared with it too (saves in saves.py, scenario files in scenario.py), and a
game adds its own keys to theirs (`save_spec`, `scenario_spec`, made with `make_section`);
a game's rule files are its own sections (A.R.T.'s: core/art/schema.py).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import UnionType
from typing import Any, Final, NewType, TypeVar, Union, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import (
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn, override

from .errors import closest, nearest

MAX_NUMBER: Final = 10_000  # every number in a rule file (and in its DSL) is at most this

# A name rule texts can read (lowercase letters, digits and _, not starting with a digit).
Name = NewType("Name", str)
_NAME: Final = re.compile(r"[a-z_][a-z0-9_]*\Z")
# A word on the command line (a difficulty): letters, digits, - and _, no commas.
Word = NewType("Word", str)
_WORD: Final = re.compile(r"[a-z0-9][a-z0-9_\-]*\Z")
# A text in the effect DSL, compiled when the rules load (docs/dsl.md); `dsl` says which kind.
Dsl = NewType("Dsl", str)
# Whole numbers from low to high, both ends included: `[1, 3]` (a [tune] range).
Range = NewType("Range", tuple[int, int])

T = TypeVar("T")


@attrs.frozen
class Param:
    """What the reference says about one key: its meaning, range or choices, ruling."""

    meaning: str
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] = ()
    dsl: str = ""  # the DSL start rule of a text: cost, effect, hook, expr, amounts, ...
    ruling: str = ""
    expects: str = ""  # what the reference says it expects, where the type alone says less


def param(meaning: str, *, lo: float | None = None, hi: float | None = None,
          choices: tuple[str, ...] = (), dsl: str = "", ruling: str = "", expects: str = "",
          default: Any = attrs.NOTHING, factory: Any = None) -> Any:
    """An attrs field that carries its declaration (for checking and for the reference)."""
    meta = {"param": Param(meaning, lo, hi, choices, dsl, ruling, expects)}
    if factory is not None:
        return attrs.field(factory=factory, metadata=meta)
    return attrs.field(default=default, metadata=meta)


def declaration(field: attrs.Attribute[Any]) -> Param:
    p = field.metadata.get("param")
    assert isinstance(p, Param), field.name
    return p


# ====================================================================== describing types
_PRIMITIVE_WORDS: Final = {int: "a whole number", float: "a number", bool: "true or false",
                           str: "text", Name: "a name (lowercase letters, digits, _)",
                           Word: "a word (lowercase letters, digits, - and _)",
                           Dsl: "DSL text"}
# Types of a value made of several (a range, a pair): their hook and their words, one and many
_COMPOUND: dict[Any, tuple[Callable[[Any, Any], Any], str, str]] = {}


def register_type(t: Any, hook: Callable[[Any, Any], Any], word: str, plural: str) -> None:
    """A type of its own (a NewType): `hook(value, t)` structures it (raising `Wrong`), the
    words say what it expects, one and many (`a range [low, high]...`, `ranges`)."""
    _COMPOUND[t] = (hook, word, plural)


def _range(p: Param | None, number: bool) -> str:
    if p is None or not number:
        return ""
    lo, hi = p.lo, p.hi
    lo_t = _num(lo) if lo is not None else None
    hi_t = _num(hi) if hi is not None else f"{MAX_NUMBER:,}"
    if lo_t is None:
        return f" from -{MAX_NUMBER:,} to {hi_t}"
    return f" from {lo_t} to {hi_t}"


def _num(x: float) -> str:
    return f"{int(x):,}" if x == int(x) else f"{x:,g}"


def describe(t: Any, p: Param | None = None) -> str:
    """What a value of type `t` (declared as `p`) must be, in the reference's words."""
    if p is not None and p.expects:
        return p.expects
    if p is not None and p.choices:
        return "one of: " + ", ".join(p.choices)
    if p is not None and p.dsl:
        many = get_origin(t) in (tuple, list)
        return f"a list of DSL {p.dsl}s (docs/dsl.md)" if many else f"DSL {p.dsl} (docs/dsl.md)"
    return _describe_type(t, p)


def _describe_type(t: Any, p: Param | None) -> str:
    origin, args = get_origin(t), get_args(t)
    if origin is tuple or origin is list:
        return f"a list of {_plural(args[0], p)}"
    if origin is dict:
        return "a table" if args[1] is Any else \
            f"a table of {_plural(args[0])} = {describe(args[1], p)}"
    if origin in (Union, UnionType):  # X | None: absent, or an X; a list or a table
        return " or ".join(describe(a, p) for a in args if a is not type(None))
    if attrs.has(t):
        return "a table"
    if t in _COMPOUND:
        return _COMPOUND[t][1]
    word = _PRIMITIVE_WORDS.get(t, getattr(t, "__name__", str(t)))
    return word + _range(p, t in (int, float))


def _plural(t: Any, p: Param | None = None) -> str:
    if attrs.has(t) or get_origin(t) is dict:
        return "tables"
    if t in (int, float):
        return ("whole numbers" if t is int else "numbers") + _range(p, True)
    if t in _COMPOUND:
        return _COMPOUND[t][2]
    return {Name: "names", Word: "words", str: "texts", Dsl: "DSL texts"}.get(t, describe(t))


def what(value: Any) -> str:
    """A value as the error shows it: its kind and (shortened) repr."""
    kind = {bool: "a boolean", int: "a whole number", float: "a number", str: "text",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)
    if isinstance(value, dict | list):
        return kind
    text = repr(value)
    return f"{kind} {text[:40] + '...' if len(text) > 40 else text}"


# ====================================================================== the converter
class Wrong(ValueError):
    """A value that is not what its key expects; the message says what was."""


def _number(value: Any, t: type, p: Param | None) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float) or (
            t is int and not isinstance(value, int)):
        raise Wrong(f"expected {describe(t, p)}, not {what(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise Wrong(f"expected {describe(t, p)}, not {value}")
    lo = p.lo if p is not None and p.lo is not None else -MAX_NUMBER
    hi = p.hi if p is not None and p.hi is not None else MAX_NUMBER  # only a seed goes higher
    if not lo <= value <= hi:
        raise Wrong(f"{value} is out of range: expected {describe(t, p)}")
    return t(value)


def _text(value: Any, t: Any, p: Param | None) -> str:
    if not isinstance(value, str):
        raise Wrong(f"expected {describe(t, p)}, not {what(value)}")
    if t is Name and not _NAME.match(value):
        raise Wrong(f"{value!r} is not a name: expected lowercase letters, digits and _, "
                    "starting with a letter or _ (the DSL reads names so)")
    if t is Word and not _WORD.match(value):
        raise Wrong(f"{value!r} is not a word: expected lowercase letters, digits, - and _")
    if p is not None and p.choices and value not in p.choices:
        raise Wrong(f"unknown value {value!r}{closest(value, p.choices)}; expected one of: "
                    + ", ".join(p.choices))
    return value


class _Held:
    """What stands in for a wrong value while the rest of a document is structured."""

    def __repr__(self) -> str:
        return "HELD"


# Every hook lets it through unchecked (core/salvage.py puts it where a value was wrong).
HELD: Final = _Held()


def _passing(hook: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    return lambda v, t: v if v is HELD else hook(v, t)


def checked(value: Any, t: Any, p: Param | None = None) -> Any:
    """A primitive value, checked against its type and declaration (`Wrong` if it is not)."""
    if value is HELD:
        return value
    if t in (int, float):
        return _number(value, t, p)
    if t is bool:
        if not isinstance(value, bool):
            raise Wrong(f"expected true or false, not {what(value)}")
        return value
    return _text(value, t, p)


CONVERTER: Final = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
_PRIMITIVES: Final = (int, float, bool, str, Name, Word, Dsl)
for _t in _PRIMITIVES:
    CONVERTER.register_structure_hook(_t, lambda v, t: checked(v, t, None))


def _is_seq(t: Any) -> bool:
    return get_origin(t) in (tuple, list)


def _inner(p: Param | None) -> Param | None:
    """A declaration as its items see it: the range holds, the field's own wording not."""
    return None if p is None else attrs.evolve(p, expects="")


def gathered(items: Iterable[tuple[Any, Any]], one: Callable[[Any, Any], T], t: Any,
             ) -> list[T]:
    """`one(place, value)` for each (place, value) of a list (places: indexes) or a table
    (keys); every error is gathered with its place, as cattrs gathers a class's, and raised
    together at the end."""
    out, errors = [], []
    for place, x in items:
        try:
            out.append(one(place, x))
        except Exception as exc:
            exc.__notes__ = [*getattr(exc, "__notes__", []),
                             IterableValidationNote(f"@ {place!r}", place, t)]
            errors.append(exc)
    if errors:
        raise IterableValidationError(f"While structuring {t}", errors, t)
    return out


def _seq_hook(t: Any, p: Param | None = None) -> Callable[[Any, Any], Any]:
    item = get_args(t)[0]
    item_hook = _hook_for(item, _inner(p) if item in (int, float) or _is_seq(item) else None)

    def hook(value: Any, _: Any) -> Any:
        if not isinstance(value, list):
            raise Wrong(f"expected {describe(t, p)}, not {what(value)}")
        out = gathered(enumerate(value), lambda _, x: item_hook(x, item), item)
        return tuple(out) if get_origin(t) is tuple else out
    return hook


def _map_hook(t: Any, p: Param | None) -> Callable[[Any, Any], Any]:
    key_t, val_t = get_args(t)
    val_hook = _hook_for(val_t, _inner(p))

    def hook(value: Any, _: Any) -> Any:
        if not isinstance(value, dict):
            raise Wrong(f"expected {describe(t, p)}, not {what(value)}")
        return dict(gathered(value.items(), lambda k, v: (checked(k, key_t, None),
                                                           val_hook(v, val_t)), val_t))
    return hook


def _hook_for(t: Any, p: Param | None) -> Callable[[Any, Any], Any]:
    """The structure hook for a field of type `t` declared as `p` (HELD let through)."""
    return _passing(_hook(t, p))


def _hook(t: Any, p: Param | None) -> Callable[[Any, Any], Any]:
    args = get_args(t)
    if args and type(None) in args:
        inner = [a for a in args if a is not type(None)]
        one = inner[0] if len(inner) == 1 else Union[tuple(inner)]  # noqa: UP007 - built
        inner_hook = _hook_for(one, p)
        return lambda v, _: None if v is None else inner_hook(v, one)
    if get_origin(t) in (Union, UnionType):
        return _union_hook(t, p)
    if t in _PRIMITIVES:
        return lambda v, _: checked(v, t, p)
    if t in _COMPOUND:
        return _COMPOUND[t][0]
    if _is_seq(t):
        return _seq_hook(t, p)
    if get_origin(t) is dict:
        return _map_hook(t, p)
    return CONVERTER.get_structure_hook(t)


def _low_high(value: Any, _: Any) -> tuple[int, int]:
    """A Range: two whole numbers, the low end first (whether what it bounds takes them is
    a game's check of meaning)."""
    if not (isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)):
        shown = repr(value) if isinstance(value, list) and len(repr(value)) <= 40 else what(value)
        raise Wrong(f"expected a range [low, high] of two whole numbers, not {shown}")
    low, high = value
    if low > high:
        raise Wrong(f"an empty range: its low end {low} is above its high end {high}")
    return low, high


register_type(Range, _low_high, "a range [low, high] of two whole numbers", "ranges")


def _union_hook(t: Any, p: Param | None) -> Callable[[Any, Any], Any]:
    """A list or a table (`[3, 2]` or `{ p2 = 1 }`): chosen by the value's shape."""
    by_shape = {(list if _is_seq(a) else dict): (a, _hook_for(a, _inner(p)))
                for a in get_args(t)}

    def hook(value: Any, _: Any) -> Any:
        shape = list if isinstance(value, list) else dict if isinstance(value, dict) else None
        if shape not in by_shape:
            raise Wrong(f"expected {describe(t, p)}, not {what(value)}")
        kind, inner = by_shape[shape]
        return inner(value, kind)
    return hook


def _section_hook(cls: type[Any], special: Mapping[str, Callable[[Any, Any], Any]],
                  ) -> Callable[[Any, Any], Any]:
    """A table: refuses anything else as one error, then structures its keys (all errors)."""
    overrides = {f.name: override(struct_hook=_passing(special[f.name]) if f.name in special
                                  else _hook_for(f.type, f.metadata.get("param")))
                 for f in attrs.fields(cls)}
    inner = make_dict_structure_fn(cls, CONVERTER, **overrides)  # type: ignore[arg-type]

    def hook(value: Any, _: Any) -> Any:
        if not isinstance(value, dict):
            raise Wrong(f"expected {describe(cls)}, not {what(value)}")
        return inner(value, cls)
    return hook


# How an unknown key of each section is called in an error ("unknown position entry 'x'").
KEY_WORDS: Final[dict[type[Any], str]] = {}


def section(key: str = "key", special: Mapping[str, Callable[[Any, Any], Any]] | None = None,
            ) -> Callable[[type[T]], type[T]]:
    """Register an attrs class as a declared section (a decorator: `@section()`); `key` is
    what its keys are called in an error, `special` gives a key a hook of its own (a table
    whose other keys are not mistakes: a road's attributes)."""
    def register(cls: type[T]) -> type[T]:
        attrs.resolve_types(cls)  # type: ignore[type-var]  # text annotations, read in place
        CONVERTER.register_structure_hook(cls, _section_hook(cls, special or {}))
        KEY_WORDS[cls] = key
        return cls
    return register


Declared = tuple[str, Any, Any]  # a key's name, type and `param(...)` field


def make_section(name: str, doc: str, fields: Iterable[Declared], module: str,
                 key: str = "key") -> type[Any]:
    """A section made from declarations kept elsewhere (name, type, `param(...)` field): a
    game's position entries, declared beside its state's fields; a save's keys, the kernel's
    around the game's."""
    # a field as `param` made it, given its type (its default: attrs keeps it as `_default`)
    cls = attrs.make_class(name, {n: attrs.field(type=t, default=f._default, metadata=f.metadata)
                                  for n, t, f in fields}, frozen=True, kw_only=True)
    cls.__doc__, cls.__module__ = doc, module
    return section(key)(cls)


def declared(cls: type[Any]) -> list[Declared]:
    """Each key of a declared attrs class (name, type, field), in order."""
    attrs.resolve_types(cls)
    return [(f.name, f.type, attrs.field(default=f.default, metadata=f.metadata))
            for f in attrs.fields(cls)]


# ====================================================================== errors -> paths
Path_ = tuple[Any, ...]


def problems(exc: BaseException, path: Path_ = ()) -> Iterator[tuple[Path_, str]]:
    """Each error inside a cattrs exception, with its key path and a message."""
    for where, msg, _ in classified(exc, path):
        yield where, msg


def classified(exc: BaseException, path: Path_ = (), top: frozenset[str] | None = None,
               ) -> Iterator[tuple[Path_, str, str | None]]:
    """`problems`, each with, for a key no declaration has (dropping it changes nothing
    that is declared), the declared key it is nearest to ("" if none: a misspelt key's
    value was meant for that one, which then reads its default); None for the others.
    `top`: the document's own keys (default: those of the class `exc` structured), so
    that one written below a table, which TOML puts in that table, is told so."""
    if top is None:
        cl = getattr(exc, "cl", None)
        top = frozenset(params_of(cl)) if isinstance(cl, type) and attrs.has(cl) \
            else frozenset()
    if isinstance(exc, ClassValidationError | IterableValidationError):
        for sub in exc.exceptions:
            yield from classified(sub, (*path, *_note_path(sub)), top)
    elif isinstance(exc, ForbiddenExtraKeysError):
        known = [f.name.rstrip("_") for f in attrs.fields(exc.cl)]
        kind = KEY_WORDS.get(exc.cl, "key")
        for k in sorted(exc.extra_fields):
            yield (*path, k), f"unknown {kind} {k!r}{closest(k, known)}" \
                f"{_below_a_table(k, path, top)}; expected one of: " + ", ".join(known), \
                nearest(k, known)
    elif isinstance(exc, KeyError):
        yield path, "missing: this key is required", None
    elif isinstance(exc, Wrong):
        yield path, str(exc), None
    else:  # a hook of ours that failed: said plainly, never a traceback
        yield path, f"invalid value ({exc})", None


def _below_a_table(key: str, path: Path_, top: frozenset[str]) -> str:
    """Where a table's unknown key is one of the document's own: TOML puts every key below
    a [table] header in that table, so it belongs above the first one."""
    if not path or key not in top:
        return ""
    return (f" ({key!r} is a top-level key: write it above the file's first [table] "
            "header, as every key below a header belongs to that table)")


def _note_path(exc: BaseException) -> Path_:
    for note in getattr(exc, "__notes__", ()):
        if isinstance(note, IterableValidationNote):
            return (note.index,)
        name = getattr(note, "name", None)
        if name is not None:
            return (name,)
    return ()


def structure(value: Any, cls: type[T]) -> tuple[T | None, list[tuple[Path_, str]]]:
    """`value` as a `cls`, or None and every problem found (key path, message)."""
    try:
        return CONVERTER.structure(value, cls), []
    except (ClassValidationError, IterableValidationError, Wrong) as exc:
        return None, list(problems(exc))


# ====================================================================== the reference
def fields_of(cls: type[Any]) -> list[tuple[str, str, Param, str]]:
    """(key, what it expects, declaration, default) for every key of a section, in order."""
    out = []
    for f in attrs.fields(cls):
        p = declaration(f)
        if f.default is attrs.NOTHING:
            default = "required"
        elif isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
            default = "empty"
        elif f.default is None:
            default = "none"
        else:
            default = f"`{_toml(f.default)}`"
        out.append((f.name.rstrip("_"), describe(f.type, p), p, default))
    return out


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return f'"{v}"' if isinstance(v, str) else str(v)


def params_of(cls: type[Any]) -> tuple[str, ...]:
    """The keys of a section, in order."""
    return tuple(f.name.rstrip("_") for f in attrs.fields(cls))
