"""Nim's invariants."""

from __future__ import annotations

from typing import TYPE_CHECKING

from artproject.core.invariants import Violation

if TYPE_CHECKING:
    from .state import Nim


def heaps_shrink(st: Nim) -> None:
    """No heap is negative or above its start (N1, N2)."""
    for h, (now, start) in enumerate(zip(st.heaps, st.rules.heaps, strict=True)):
        if not 0 <= now <= start:
            raise Violation(f"heap {h + 1} holds {now} (N2)")


def zero_sum(st: Nim) -> None:
    if abs(sum(st.returns())) > 1e-9:
        raise Violation(f"the returns {st.returns()} do not sum to 0")


INVARIANTS = (heaps_shrink, zero_sum)
