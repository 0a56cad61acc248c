"""A game's compiled rules to bytes and back, for the cache on disk (core/cache.py).

Every game's rules are a frozen attrs class holding functions the DSL compiler made
(dsl/compiler.py: effects, expressions, costs), which pickle cannot name. Frozen, they
travel as their code (marshalled, in the order made) and a pickle of everything else that
names each of them by its place in that order; the compiler's constants (its functions'
globals: the game's words' helpers and the constants it set aside) go along. Thawing runs
the code again into one namespace, as the compiler did, so a thawed rules' functions and a
pickled game's references to them (by their place in the list made: the same files compile
to the same list) are as compiled, with no file parsed, checked or compiled.

The rules class itself pickles by reference to its files (core/sources.py, LoadedRules);
here it goes by value, rebuilt from its fields by the class (named by reference).
"""

from __future__ import annotations

import io
import marshal
import pickle
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, TypeVar

import attrs

R = TypeVar("R")


def _proxy(d: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(d)


def _fields(kind: type) -> tuple[str, ...]:
    return tuple(f.alias for f in attrs.fields(kind) if f.init)


def _rebuild(kind: type[R], values: tuple[Any, ...]) -> R:
    return kind(**dict(zip(_fields(kind), values, strict=True)))


class _Freezer(pickle.Pickler):
    def __init__(self, out: io.BytesIO, made: list[Any], kind: type) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self.made = {id(fn): i for i, fn in enumerate(made)}
        self.kind = kind

    def persistent_id(self, obj: Any) -> Any:
        i = self.made.get(id(obj))
        return None if i is None else i

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is MappingProxyType:
            return _proxy, (dict(obj),)
        if type(obj) is self.kind:  # by value here (its own pickle names it by its files)
            fields = attrs.fields(self.kind)
            return _rebuild, (self.kind, tuple(getattr(obj, f.name) for f in fields if f.init))
        return NotImplemented


class _Thawer(pickle.Unpickler):
    def __init__(self, data: io.BytesIO, made: list[Any]) -> None:
        super().__init__(data)
        self.made = made

    def persistent_load(self, pid: Any) -> Any:
        return self.made[pid]


def freeze(rules: Any, env: Mapping[str, Any] | None) -> bytes | None:
    """The rules as bytes, `env` the namespace their compiled functions were made in (any
    one's `__globals__`); None when they hold something that cannot be kept so."""
    if env is None or "__codes__" not in env or not attrs.has(type(rules)):
        return None
    made, codes = env["__made__"], env["__codes__"]
    consts = {k: v for k, v in env.items() if k not in ("__builtins__", "__made__", "__codes__")}
    out = io.BytesIO()
    try:
        _Freezer(out, made, type(rules)).dump((consts, rules))
        return marshal.dumps((marshal.dumps(codes), out.getvalue()))
    except (pickle.PicklingError, TypeError, AttributeError, ValueError):
        return None


def thaw(data: bytes, kind: type[R]) -> R:
    """Rules of class `kind` from `freeze`'s bytes (any damage raises)."""
    code_bytes, pickled = marshal.loads(data)
    env: dict[str, Any] = {}
    made: list[Any] = []
    codes = marshal.loads(code_bytes)
    for code in codes:
        exec(code, env)  # the compiler's own code, as it ran it (dsl/compiler.py `_fn`)
        made.append(env.pop("_f"))
    consts, rules = _Thawer(io.BytesIO(pickled), made).load()
    env.update(consts)
    env["__made__"], env["__codes__"] = made, list(codes)
    if type(rules) is not kind:
        raise TypeError(f"not frozen {kind.__name__}")
    return rules
