"""How a pickled game names the rule steps on its work stack.

Most queued steps are module-level functions, which pickle by name. The others come from the
rules: a mission's compiled effects (functions the DSL compiler made), its hooks, a road.
A pickle names these through the rules, which pickle by reference to their files: a
compiled function by its place in the compiler's list of functions made (the same files
compile to the same list), a hook by its event and place, a road by its ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..machine import by_name
from .rules import Ctx, Hook, Road, Rules

if TYPE_CHECKING:
    from .state import State


class Ref(NamedTuple):
    """A rule object named through the rules: ("dsl", i), ("hook", event, i), ("road", a, b)."""

    key: tuple[Any, ...]


def _refs(rules: Rules) -> tuple[dict[int, Ref], dict[Ref, Any]]:
    """Both ways between the rules' objects and their names (worked out once per rules)."""
    cached = rules.cache.get("pickle_refs")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    to: dict[int, Ref] = {}
    back: dict[Ref, Any] = {}

    def add(ref: Ref, obj: Any) -> None:
        to[id(obj)] = ref
        back[ref] = obj

    made: list[Any] = []
    for event, hooks in rules.hooks.items():
        for i, h in enumerate(hooks):
            add(Ref(("hook", event, i)), h)
            for op in h.ops:
                made = op.__globals__.get("__made__", made)
    for ops in rules.city_effects:
        for op in ops:
            made = op.__globals__.get("__made__", made)
    made = getattr(rules.move_cost, "__globals__", {}).get("__made__", made)
    for i, fn in enumerate(made):
        add(Ref(("dsl", i)), fn)
    for roads in rules.neighbours:
        for r in roads:
            add(Ref(("road", r.src, r.dst)), r)
    rules.cache["pickle_refs"] = (to, back)
    return to, back


def op_ref(st: State, fn: Any) -> Any:
    """A queued step's function as a pickle names it."""
    if by_name(fn):
        return fn
    ref = _refs(st.rules)[0].get(id(fn))
    if ref is None:
        raise TypeError(f"a queued step {fn!r} is neither a module-level function nor a "
                        "rule of this game's rules: the game cannot be pickled")
    return ref


def arg_ref(st: State, ref: Any) -> Any:
    """A queued step's argument as a pickle names it (hooks, roads, functions in it)."""
    x = ref
    if isinstance(x, Ctx):
        return x if x.road is None else Ctx(x.player, x.city, arg_ref(st, x.road))
    if isinstance(x, Hook | Road):
        return _refs(st.rules)[0][id(x)]
    if callable(x) and not isinstance(x, type) and not by_name(x):
        return op_ref(st, x)
    if type(x) is tuple:
        return tuple(arg_ref(st, y) for y in x)
    return x


def op_from(st: State, ref: Any) -> Any:
    return _refs(st.rules)[1][ref] if isinstance(ref, Ref) else ref


def arg_from(st: State, ref: Any) -> Any:
    x = ref
    if isinstance(x, Ref):
        return _refs(st.rules)[1][x]
    if isinstance(x, Ctx):
        return x if x.road is None else Ctx(x.player, x.city, arg_from(st, x.road))
    if type(x) is tuple:
        return tuple(arg_from(st, y) for y in x)
    return x
