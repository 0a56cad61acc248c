"""The invariant framework: a game's invariants, checked after every step by `artproject
verify`, scenario files (`invariants = true`) and the tests; what one action may change;
the rules' own properties. Each game lists its checks (`INVARIANTS`, `STEP_CHECKS`,
`PROPERTY_CHECKS` on its state class); this module runs them and adds the machine's own.
"""

from __future__ import annotations

import math
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
    """Raise Violation naming the first invariant `st` breaks: the game's own, then the
    machine's (a decision pending while the game goes on, a chance node's outcomes, the
    returns within the game's `return_range()`)."""
    for check in type(st).INVARIANTS:
        check(st)
    if st.outcome is None and not st.legal_actions():
        if st.wait is None:
            raise Violation("no decision is pending though the game is not over: a step "
                            "ended without pausing for the next decision (st.pause) or "
                            "ending the game (st.outcome)")
        raise Violation(f"no legal action for the decision pending ({st.wait}) though the "
                        "game is not over")
    if st.is_chance_node():
        check_chance(st)
    if st.outcome is not None:
        check_returns(st)


def check_chance(st: Machine) -> None:
    """At a chance node, its outcomes (`chance_outcomes()`): at least one, each chance from
    0 to 1, summing to 1 (docs/api.md, "Chance"; the adapters pass them on as they are)."""
    outcomes = st.chance_outcomes()
    probs = [p for _, p in outcomes]
    bad = [f"{a} {p!r}" for a, p in outcomes if not 0.0 <= p <= 1.0]
    total = math.fsum(probs)
    if not outcomes or bad or not math.isclose(total, 1.0, rel_tol=0.0, abs_tol=1e-9):
        listed = ", ".join(f"{a} {p:g}" for a, p in outcomes) or "none"
        why = (f"a chance out of 0..1 ({', '.join(bad)})" if bad else
               "none listed" if not outcomes else f"they sum to {total:g}, not 1")
        raise Violation(f"the chance outcomes at {st.wait} break the kernel's contract "
                        f"(each from 0 to 1, summing to 1): {why}; outcomes: {listed}")


def check_chance_replayed(st: Machine) -> None:
    """A game played with sampled chance, played again from its start with explicit chance
    (its `restart` of a copy whose chance is explicit): at each chance node its outcomes
    are checked (`check_chance`) and the seeded generator's outcome taken, as the sampled
    game drew it; the game's decisions in between. Sampled chance has no chance node to
    check, so this is how `verify` and scenario files (`invariants = true`) reach them. A
    game played with explicit chance, or reseeded, was checked at its own nodes or has no
    one replay: nothing to do."""
    from .errors import ArtError

    if st.explicit or st.reseeds:
        return
    twin = st.clone()
    twin.explicit = True
    again = twin.restart(False)
    for a in (*st.history, None):
        while again.is_chance_node():
            check_chance(again)
            again.apply(again.sample_chance())
        if a is None:
            break
        try:
            again.apply(a)
        except ArtError as err:
            raise Violation(f"the game played again with explicit chance refused {a}: "
                            f"{err}") from None


def check_resample(st: Machine, seed: int = 0) -> None:
    """Each seat's `resample` (a copy the seat cannot tell from the game, what search
    determinizes with) keeps what the seat knows and sees: its information state and its
    observation."""
    for p in range(st.num_players()):
        twin = st.resample([p], seed)
        if twin.information_state(p) != st.information_state(p):
            raise Violation(f"resample([{p}]) changed what p{p + 1} knows (its information "
                            f"state): the copy must be one p{p + 1} cannot tell from the game")
        if twin.observation(p) != st.observation(p):
            raise Violation(f"resample([{p}]) changed what p{p + 1} sees (its observation): "
                            f"the copy must be one p{p + 1} cannot tell from the game")


def check_returns(st: Machine) -> None:
    """A game over: each seat's return within the game's declared `return_range()` (the
    adapters declare it: OpenSpiel's min and max utility)."""
    lo, hi = st.return_range()
    got = st.returns()
    out = [f"p{i + 1} {r:g}" for i, r in enumerate(got)
           if not (lo - 1e-9 <= r <= hi + 1e-9)]
    if out:
        raise Violation(f"returns {', '.join(out)} lie outside the game's return_range() "
                        f"({float(lo)}, {float(hi)}): widen return_range() or mend returns()")


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
