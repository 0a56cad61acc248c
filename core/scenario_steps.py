"""Playing a scenario's steps (scenario.py compiles them before the game starts): each step's
action, then its checks: the events (whole, a part, whole words, their order), a refused
action, the legal actions (some, or exactly these), the returns, the facts, and the game's
invariants and properties when the file asks. Every failure is reported: a step's failed
checks do not stop the later steps; only a step that cannot be played (`Stop`: a refused
action, the engine failing) ends the scenario there, saying which steps were not run.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs

from .errors import ArtError, GameError, Location, RulesError
from .machine import Machine

if TYPE_CHECKING:
    from .scenario import StepKey

# the event checks: the key, whether the text must appear, and how a text matches an event:
# the whole event, a part of it, or whole words of it in a row
EVENT_KEYS: Final = (("events", True, "whole"), ("not_events", False, "whole"),
                     ("events_like", True, "part"), ("not_events_like", False, "part"),
                     ("events_with", True, "words"), ("not_events_with", False, "words"))
# an expectation: its text, its check, its two sides (a comparison) to show, its place
Check = tuple[str, Callable[..., Any], Any, Any, str, Location]


@attrs.frozen
class Step:
    """One [[step]], checked and compiled before the game starts."""

    n: int  # 1-based, as reported
    where: str  # file:line:col of the step
    raw: Mapping[str, Any]
    checks: tuple[Check, ...]
    extras: tuple[tuple[StepKey, Any], ...]  # the game's own step keys, compiled


class Stop(Exception):
    """The step cannot be played: the scenario ends here (its message is the failure)."""


# ====================================================================== playing the steps
def play_steps(st: Machine, steps: list[Step], always: tuple[bool, bool],
               path: str = "") -> list[str]:
    """Every step in turn; every failure reported, the later steps run unless one could
    not be played. With the invariants checked (`always[0]`), once every step is played,
    the game's chance nodes too: its sampled chance played again as explicit chance, each
    node's outcomes checked (`check_chance_replayed`; `path`: the file, for a scenario of
    no steps)."""
    failures: list[str] = []
    seen = 0  # a step's events are those since the previous step (the first: since setup)
    for k, step in enumerate(steps):
        before = st.clone() if always[0] else None
        try:
            failures += guard(partial(run_step, st, step, seen))
            seen = len(st.log)
            failures += _run_checks(st, before, step, *always)
        except Stop as stop:
            failures.append(f"{step.where}: step {step.n}: {stop}")
            if k + 1 < len(steps):
                rest = f"{k + 2}" if k + 2 == len(steps) else f"{k + 2}-{len(steps)}"
                failures.append(f"{step.where}: step {step.n}: the game cannot go on: "
                                f"step {rest} not run")
            break
    else:
        if always[0]:
            failures += _chance_checked(st, f"{steps[-1].where}: after step {steps[-1].n}"
                                        if steps else f"{path}: after the set-up")
    return failures


def _chance_checked(st: Machine, where: str) -> list[str]:
    """The chance nodes the game has passed, checked (invariants.check_chance_replayed): a
    failure told `where`, else none."""
    from .invariants import Violation, check_chance_replayed

    def replayed() -> None:
        try:
            check_chance_replayed(st)
        except Violation as v:
            raise Stop(f"its chance played again as explicit chance: {v}") from None

    try:
        guard(replayed)
    except Stop as stop:
        return [f"{where}: {stop}"]
    return []


def guard(run: Callable[[], Any]) -> Any:
    """Run a piece of the game; an error the engine did not mean to raise becomes Stop,
    so one broken scenario is reported and the others still run."""
    try:
        return run()
    except (Stop, RulesError):
        raise
    except Exception as err:  # a bug in the engine: reported as a failure, not raised
        frame = traceback.extract_tb(err.__traceback__)[-1]
        raise Stop(f"the engine failed: {type(err).__name__}: {err} (at "
                   f"{Path(frame.filename).name}:{frame.lineno} in {frame.name})") from None


def _run_checks(st: Machine, before: Machine | None, step: Step, invariants: bool,
                properties: bool) -> list[str]:
    """The file-wide checks: the game's invariants, the rules' own properties; a broken
    invariant ends the scenario (the game is no longer one the rules can reach)."""
    from .invariants import Violation, check_invariants, check_properties, check_step

    try:
        if invariants:
            check_invariants(st)
            if before is not None and "do" in step.raw:
                check_step(before, st.registry.parse(step.raw["do"]), st)
        if properties:
            check_properties(st)
    except Violation as v:
        raise Stop(str(v)) from None
    return []


def run_step(st: Machine, step: Step, seen: int) -> list[str]:
    raw = step.raw
    out: list[str] = []
    if "do" in raw:
        try:
            st.apply(raw["do"])
        except ArtError as err:
            raise Stop(f"{raw['do']!r} was refused: {err}") from None
    for sk, compiled in step.extras:
        out += sk.run(st, compiled, seen)
    if "refuse" in raw:
        out += _refused(st, raw)
    events = [st.event_text(e) for e in st.log[seen:]]
    out += _event_checks(raw, events)
    out += _order_check(raw.get("events_in_order", ()), events)
    out += _legal_checks(st, raw)
    out += _returns_check(st, raw.get("returns"))
    return [f"{step.where}: step {step.n}: {m}" for m in out] + _expectations(st, step)


def _refused(st: Machine, raw: Mapping[str, Any]) -> list[str]:
    before = st.fingerprint()
    try:
        st.apply(raw["refuse"])
    except GameError as err:
        out = []
        reason = raw.get("reason")
        if reason and reason not in str(err):
            out.append(f"{raw['refuse']!r} was refused, but with {str(err)!r}, not a reason "
                       f"containing {reason!r}")
        if st.fingerprint() != before:
            out.append("a refused action changed the state")
        return out
    raise Stop(f"{raw['refuse']!r} was allowed; expected it to be refused")


def _matches(event: str, text: str, how: str) -> bool:
    """Whether `event` is `text` (whole), contains it (part), or holds its words, whole and
    in a row (words: `turn 2` is in `turn 2 p3`, `draw` is not in `blind_draw p1`)."""
    if how == "whole":
        return event == text
    if how == "part":
        return text in event
    got, want = event.split(), text.split()
    return any(got[k:k + len(want)] == want for k in range(len(got) - len(want) + 1))


def _shown(events: Sequence[str]) -> str:
    return "".join(f"\n      {e}" for e in events) or " none"


def _event_checks(raw: Mapping[str, Any], events: Sequence[str]) -> list[str]:
    """`events` / `not_events`: whole events (`EVENT WORD...`, as logged) that must (not)
    happen in the step; `events_like` / `not_events_like`: a part of an event will do;
    `events_with` / `not_events_with`: whole words of an event, in a row."""
    out = []
    for key, wanted, how in EVENT_KEYS:
        for text in raw.get(key, []):
            hits = [e for e in events if _matches(e, text, how)]
            what = {"whole": repr(text), "part": f"containing {text!r}",
                    "words": f"with the words {text!r}"}[how]
            if wanted and not hits:
                out.append(f"no event {what} ({key}); events were:{_shown(events)}")
            elif not wanted and hits:
                out.append(f"an event {what} happened ({key}): {hits[0]!r}")
    return out


def _order_check(texts: Sequence[str], events: Sequence[str]) -> list[str]:
    """`events_in_order`: each text matches an event (by its words) after the event the one
    before it matched."""
    k, after = 0, ""
    for text in texts:
        found = next((j for j in range(k, len(events)) if _matches(events[j], text, "words")),
                     None)
        if found is None:
            where = f" after {after!r}" if after else ""
            earlier = any(_matches(e, text, "words") for e in events[:k])
            more = " (it came before)" if earlier else ""
            return [f"no event with the words {text!r}{where}{more} (events_in_order); "
                    f"events were:{_shown(events)}"]
        k, after = found + 1, events[found]
    return []


def _legal_checks(st: Machine, raw: Mapping[str, Any]) -> list[str]:
    out = []
    legal = {str(x) for x in st.legal_actions()}
    parse = st.registry.parse
    for x in raw.get("legal", []):
        if str(parse(x)) not in legal:
            out.append(f"{x!r} should be legal; legal: " + ", ".join(sorted(legal)))
    for x in raw.get("illegal", []):
        if str(parse(x)) in legal:
            out.append(f"{x!r} should not be legal")
    if "only_legal" in raw:
        want = {str(parse(x)) for x in raw["only_legal"]}
        missing, extra = sorted(want - legal), sorted(legal - want)
        if missing or extra:
            said = [f"not legal: {', '.join(missing)}"] if missing else []
            said += [f"legal too: {', '.join(extra)}"] if extra else []
            out.append("the legal actions are not those of only_legal: " + "; ".join(said))
    return out


def _returns_check(st: Machine, want: Sequence[float] | None) -> list[str]:
    """`returns`: each player's return, as `returns()` gives it."""
    if want is None:
        return []
    got = st.returns()
    if len(got) == len(want) and all(abs(g - w) < 1e-9 for g, w in zip(got, want, strict=True)):
        return []
    shown = ", ".join(f"{x:g}" for x in got)
    over = "" if st.is_over() else " (the game is not over)"
    return [f"returns are [{shown}], expected [{', '.join(f'{x:g}' for x in want)}]{over}"]


def _expectations(st: Machine, step: Step) -> list[str]:
    out = []
    ctx = st.NO_CONTEXT
    for shown, fn, left, right, left_text, loc in step.checks:
        if not fn(st, ctx):
            detail = ""
            if left is not None and right is not None:
                detail = f" ({left_text} is {left(st, ctx)!r}, expected {right(st, ctx)!r})"
            out.append(f"{loc.prefix()}: step {step.n}: expected {shown}{detail}")
    return out
