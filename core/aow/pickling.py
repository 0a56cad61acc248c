"""How a pickle of Art of War names the compiled card texts on its work stack (the state's
`_op_ref` and `_op_from`; core/machine.py pickles the rest)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..machine import by_name

if TYPE_CHECKING:
    from .state import War


def op_ref(st: War, fn: Any) -> Any:
    """A queued step as a pickle names it: a module-level function as itself, a compiled
    card text by its place among the functions the compiler made ("dsl", i)."""
    if by_name(fn):
        return fn
    for i, made in enumerate(st.rules.made):
        if made is fn:
            return ("dsl", i)
    raise TypeError(f"a queued step {fn!r} is neither a module-level function nor a "
                    "compiled card text: the game cannot be pickled")


def op_from(st: War, ref: Any) -> Any:
    if isinstance(ref, tuple) and len(ref) == 2 and ref[0] == "dsl":
        return st.rules.made[ref[1]]
    return ref
