"""The invariant framework: a game's invariants, checked after every step by `artproject
verify`, scenario files (`invariants = true`) and the tests; what one action may change;
the rules' own properties. Each game lists its checks (`INVARIANTS`, `STEP_CHECKS`,
`PROPERTY_CHECKS` on its state class); this module runs them and adds the machine's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Action

if TYPE_CHECKING:
    from .machine import Machine


class Violation(Exception):
    """An invariant or property that does not hold, with a rule check that shows it if any."""

    def __init__(self, message: str, check: str | None = None) -> None:
        super().__init__(message)
        self.check = check


def check_invariants(st: Machine) -> None:
    """Raise Violation naming the first invariant `st` breaks."""
    for check in type(st).INVARIANTS:
        check(st)
    if st.outcome is None and not st.legal_actions():
        raise Violation(f"no legal action while the team must decide {st.wait!r}")


def check_step(before: Machine, action: Action, after: Machine) -> None:
    """What one action may change (the game's step checks)."""
    for check in type(after).STEP_CHECKS:
        check(before, action, after)


def check_properties(st: Machine) -> None:
    """The rules' own properties (a game's `PROPERTY_CHECKS`)."""
    for check in type(st).PROPERTY_CHECKS:
        check(st)


def events_between(before: Machine, after: Machine) -> list[tuple[Any, ...]]:
    """The events `after` has that `before` had not, as recorded tuples."""
    if before.logging and after.logging:  # recorded: no need to write them out as text
        return after.log[len(before.log):]
    return [tuple(line.split()) for line in after.events()[len(before.events()):]]
