"""Compiled rules to bytes and back, for the cache on disk (core/cache.py).

A `Rules` holds functions the DSL compiler made (effects, hooks, costs, properties), which
pickle cannot name. Frozen, they travel as their code (marshalled, in the order made) and a
pickle of everything else that names each of them by its place in that order; the
compiler's constants (its functions' globals) go along. Thawing runs the code again into one
namespace, as the compiler did, so a thawed rules' functions and a pickled game's references
to them (pickling.py: "the same files compile to the same list") are as compiled, with no
file parsed, checked or compiled (the helpers the code calls, its game's words, come by
reference: core/art/words.py). The freezing is every game's: core/frozen.py.
"""

from __future__ import annotations

from .. import frozen
from .rules import Rules


def freeze(rules: Rules) -> bytes | None:
    """The rules as bytes; None when they hold something that cannot be kept so."""
    return frozen.freeze(rules, getattr(rules.move_cost, "__globals__", None))


def thaw(data: bytes) -> Rules:
    """Rules from `freeze`'s bytes (any damage raises)."""
    return frozen.thaw(data, Rules)
