"""Compiled rules to bytes and back, for the cache on disk (core/cache.py).

A `Rules` holds functions the DSL compiler made (effects, hooks, costs, properties), which
pickle cannot name. Frozen, they travel as their code (marshalled, in the order made) and a
pickle of everything else that names each of them by its place in that order; the
compiler's constants (its functions' globals) go along. Thawing runs the code again into one
namespace, as the compiler did, so a thawed rules' functions and a pickled game's references
to them (pickling.py: "the same files compile to the same list") are as compiled, with no
file parsed, checked or compiled (the helpers the code calls, its game's words, come by
reference: core/art/words.py).
"""

from __future__ import annotations

import io
import marshal
import pickle
from types import MappingProxyType
from typing import Any

import attrs

from .rules import Rules

_FIELDS = tuple(f.name for f in attrs.fields(Rules) if f.init)


def _proxy(d: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(d)


def _rules(values: tuple[Any, ...]) -> Rules:
    return Rules(**dict(zip(_FIELDS, values, strict=True)))


class _Freezer(pickle.Pickler):
    def __init__(self, out: io.BytesIO, made: list[Any]) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self.made = {id(fn): i for i, fn in enumerate(made)}

    def persistent_id(self, obj: Any) -> Any:
        i = self.made.get(id(obj))
        return None if i is None else i

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is MappingProxyType:
            return _proxy, (dict(obj),)
        if type(obj) is Rules:  # by value here (its own pickle names it by its files)
            return _rules, (tuple(getattr(obj, k) for k in _FIELDS),)
        return NotImplemented


class _Thawer(pickle.Unpickler):
    def __init__(self, data: io.BytesIO, made: list[Any]) -> None:
        super().__init__(data)
        self.made = made

    def persistent_load(self, pid: Any) -> Any:
        return self.made[pid]


def freeze(rules: Rules) -> bytes | None:
    """The rules as bytes; None when they hold something that cannot be kept so."""
    env = getattr(rules.move_cost, "__globals__", None)
    if env is None or "__codes__" not in env:
        return None
    made, codes = env["__made__"], env["__codes__"]
    consts = {k: v for k, v in env.items() if k not in ("__builtins__", "__made__", "__codes__")}
    out = io.BytesIO()
    try:
        _Freezer(out, made).dump((consts, rules))
        return marshal.dumps((marshal.dumps(codes), out.getvalue()))
    except (pickle.PicklingError, TypeError, AttributeError, ValueError):
        return None


def thaw(data: bytes) -> Rules:
    """Rules from `freeze`'s bytes (any damage raises)."""
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
    if not isinstance(rules, Rules):
        raise TypeError("not frozen rules")
    return rules
