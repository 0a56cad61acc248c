"""Scenario files: the rulebook as executable tests.

A scenario starts a game from a mission and seed, sets any part of the position, forces
dice, plays actions in the text notation and checks facts (DSL expressions) after any step,
or that an action is refused. See docs/scenarios.md.

A file that is wrong (a misspelt key, an unknown city, a position that cannot exist) raises
RulesError before any step runs. Once the game runs, every failure is reported: a step's
failed checks do not stop the later steps; only a step that cannot be played (a refused
action, the engine failing) ends the scenario there, saying which steps were not run.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Final

import attrs

from ..dsl import ast as a
from ..dsl.compiler import Compiler
from ..dsl.printer import expr as show_expr
from . import schema
from .actions import Action, parse_player
from .errors import ArtError, GameError, Location, RulesError, RulesErrors
from .loader import SourceMap, path_text, read_toml, scope_of
from .position import apply_position
from .rules import Ctx, Fn, Rules
from .state import State

_CTX: Final = Ctx()
# the event checks: the key, whether the text must appear, whether a part of an event will do
_EVENT_KEYS: Final = (("events", True, False), ("not_events", False, False),
                      ("events_like", True, True), ("not_events_like", False, True))

Fail = Callable[..., RulesError]
# an expectation: its text, its check, its two sides (a comparison) to show, its place
Check = tuple[str, Fn, Fn | None, Fn | None, str, Location]


@attrs.frozen
class Result:
    file: str
    passed: bool
    failures: tuple[str, ...]
    steps: int
    about: str = ""


@attrs.frozen
class _Step:
    """One [[step]], checked and compiled before the game starts."""

    n: int  # 1-based, as reported
    where: str  # file:line:col of the step
    raw: Mapping[str, Any]
    checks: tuple[Check, ...]
    pay_health: tuple[int, ...] | None  # the players who pay health in this step, in order


class _Stop(Exception):
    """The step cannot be played: the scenario ends here (its message is the failure)."""


def run_scenario(path: str | Path, variants: tuple[str | Path, ...] = ()) -> Result:
    """Run one scenario file; RulesError when the file itself is wrong."""
    path = Path(path)
    doc, smap = read_toml(path)

    def fail(msg: str, *p: Any) -> RulesError:
        return RulesError(msg, smap.locate(p), path_text(p))

    spec = _shape(doc, fail)
    rules = _rules_of(spec, path, variants)
    try:
        st = State.new(rules, spec.players, spec.difficulty, spec.seed, start=False, log=True)
    except GameError as err:
        raise fail(str(err), "difficulty") from None
    pos = doc.get("position", {})
    apply_position(st, pos, smap.locate)
    steps = _compile_steps(doc, rules, spec.players, smap, fail)
    always = (spec.invariants, spec.properties)
    st.start = {"phase": spec.phase, "position": pos}
    try:
        _guard(lambda: st.start_round(spec.phase))
    except _Stop as stop:
        return Result(str(path), False, (f"{path}: setting up the position: {stop}",),
                      len(steps), spec.about)
    failures = _play(st, steps, always)
    return Result(str(path), not failures, tuple(failures), len(steps), spec.about)


def _shape(doc: Mapping[str, Any], fail: Fail) -> schema.ScenarioSpec:
    """The file structured by the schema (core/schema.py): every shape error at once."""
    spec, found = schema.structure(dict(doc), schema.ScenarioSpec)
    if spec is None:
        errors = [fail(msg, *p) for p, msg in found]
        raise errors[0] if len(errors) == 1 else RulesErrors(errors)
    return spec


def _rules_of(spec: schema.ScenarioSpec, path: Path, variants: tuple[str | Path, ...],
              ) -> Rules:
    """The mission, its variants and card file, paths read relative to the scenario."""
    from .loader import load_rules

    def beside(ref: str) -> str:
        return str(path.parent / ref) if ref.endswith(".toml") and not Path(
            ref).is_absolute() else ref

    cards = None if spec.cards is None else beside(spec.cards) if spec.cards.endswith(
        ".toml") else spec.cards
    return load_rules(beside(spec.mission), (*variants, *map(beside, spec.variants)),
                      cards=cards)


# ====================================================================== compiling the steps
def _compile_steps(doc: Mapping[str, Any], rules: Rules, players: int, smap: SourceMap,
                   fail: Fail) -> list[_Step]:
    steps = doc.get("step", [])
    if not isinstance(steps, list):
        raise fail("'step' must be an array of tables ([[step]])", "step")
    comp = Compiler(scope_of(rules))
    return [_compile_step(s, i, comp, players, smap, fail) for i, s in enumerate(steps)]


def _compile_step(step: Any, i: int, comp: Compiler, players: int, smap: SourceMap,
                  fail: Fail) -> _Step:
    _check_step(step, i, fail)
    payers = None
    if "pay_health" in step:
        payers = tuple(_payer(x, players, fail, "step", i, "pay_health", j)
                       for j, x in enumerate(step["pay_health"]))
    checks = tuple(_compile_expect(text, comp, smap, ("step", i, "expect", j))
                   for j, text in enumerate(step.get("expect", [])))
    return _Step(i + 1, smap.locate(("step", i)).prefix(), step, checks, payers)


def _check_step(step: Any, i: int, fail: Fail) -> None:
    """A step's actions in the notation (the schema has checked every key's shape)."""
    for k in ("do", "refuse"):
        if k in step:
            _action(step[k], fail, "step", i, k)
    for k in ("legal", "illegal"):
        for j, x in enumerate(step.get(k, [])):
            _action(x, fail, "step", i, k, j)


def _action(text: Any, fail: Fail, *path: Any) -> Action:
    if not isinstance(text, str):
        raise fail("expected an action in the notation, such as 'move p2 CITY'", *path)
    try:
        return Action.parse(text)
    except GameError as err:
        raise fail(str(err), *path) from None


def _payer(text: str, players: int, fail: Fail, *path: Any) -> int:
    try:
        p = parse_player(text)
    except GameError as err:
        raise fail(str(err), *path) from None
    if p >= players:
        raise fail(f"no player {text!r} in a {players}-player game", *path)
    return p


def _compile_expect(text: str, comp: Compiler, smap: SourceMap, p: tuple[Any, ...]) -> Check:
    tree = comp.parse(text, "expr", smap.origin(p, text))
    fn = comp.expr_node(tree) if tree is not None else None
    if comp.errors or fn is None:
        raise comp.errors[0]
    left = right = None
    left_text = ""
    if isinstance(tree, a.Binary) and tree.op in ("==", "!=", "<", "<=", ">", ">="):
        left, right = comp.expr_node(tree.left), comp.expr_node(tree.right)
        left_text = show_expr(tree.left)
    return (text, fn, left, right, left_text, smap.locate(p))


# ====================================================================== playing the steps
def _play(st: State, steps: list[_Step], always: tuple[bool, bool]) -> list[str]:
    """Every step in turn; every failure reported, the later steps run unless one could
    not be played."""
    failures: list[str] = []
    seen = 0  # a step's events are those since the previous step (the first: since setup)
    for k, step in enumerate(steps):
        before = st.clone() if always[0] else None
        try:
            failures += _guard(partial(_run_step, st, step, seen))
            seen = len(st.log)
            failures += _run_checks(st, before, step, *always)
        except _Stop as stop:
            failures.append(f"{step.where}: step {step.n}: {stop}")
            if k + 1 < len(steps):
                rest = f"{k + 2}" if k + 2 == len(steps) else f"{k + 2}-{len(steps)}"
                failures.append(f"{step.where}: step {step.n}: the game cannot go on: "
                                f"step {rest} not run")
            break
    return failures


def _guard(run: Callable[[], Any]) -> Any:
    """Run a piece of the game; an error the engine did not mean to raise becomes _Stop,
    so one broken scenario is reported and the others still run."""
    try:
        return run()
    except (_Stop, RulesError):
        raise
    except Exception as err:  # a bug in the engine: reported as a failure, not raised
        frame = traceback.extract_tb(err.__traceback__)[-1]
        raise _Stop(f"the engine failed: {type(err).__name__}: {err} (at "
                    f"{Path(frame.filename).name}:{frame.lineno} in {frame.name})") from None


def _run_checks(st: State, before: State | None, step: _Step, invariants: bool,
                properties: bool) -> list[str]:
    """The file-wide checks: the game's invariants, the mission's own properties; a broken
    invariant ends the scenario (the game is no longer one the rules can reach)."""
    from .invariants import Violation, check_invariants, check_properties, check_step

    try:
        if invariants:
            check_invariants(st)
            if before is not None and "do" in step.raw:
                check_step(before, Action.parse(step.raw["do"]), st)
        if properties:
            check_properties(st)
    except Violation as v:
        raise _Stop(str(v)) from None
    return []


def _run_step(st: State, step: _Step, seen: int) -> list[str]:
    raw = step.raw
    out: list[str] = []
    if "do" in raw:
        try:
            st.apply(raw["do"])
        except ArtError as err:
            raise _Stop(f"{raw['do']!r} was refused: {err}") from None
    if step.pay_health is not None:
        out += _pay_health(st, step, seen)
    if "refuse" in raw:
        out += _refused(st, raw)
    events = [" ".join(str(x) for x in e[1:]) for e in st.log[seen:]]
    out += _event_checks(raw, events)
    out += _legal_checks(st, raw)
    return [f"{step.where}: step {step.n}: {m}" for m in out] + _expectations(st, step)


def _pay_health(st: State, step: _Step, seen: int) -> list[str]:
    """`pay_health`: the health tokens paid for missing resources in this step, in order.
    Where the team names the payer (R5: a `hurt` question) the listed player pays; where
    the rules name the payer (the mover, the card's player) the payment is checked."""
    want = step.pay_health or ()
    paid = _health_payments(st, seen)
    while st.wait == "hurt" and st.outcome is None and len(paid) < len(want):
        answer = Action("hurt", want[len(paid)])
        try:
            st.apply(answer)
        except GameError as err:
            raise _Stop(f"'{answer}' (pay_health) was refused: {err}") from None
        paid = _health_payments(st, seen)
    if list(want) == paid:
        return []
    names = ", ".join(f"p{p + 1}" for p in want) or "none"
    got = ", ".join(f"p{p + 1}" for p in paid) or "none"
    more = "; the team is still asked who pays (wait == \"hurt\")" if st.wait == "hurt" else ""
    return [f"expected health payments {names} (pay_health); paid: {got}{more} (a health "
            "token stands in only for a resource the van lacks, R4)"]


def _health_payments(st: State, seen: int) -> list[int]:
    """The players who paid a health token for a missing resource since log entry `seen`."""
    return [int(str(e[2])[1:]) - 1 for e in st.log[seen:] if e[1] == "health_for"]


def _refused(st: State, raw: Mapping[str, Any]) -> list[str]:
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
    raise _Stop(f"{raw['refuse']!r} was allowed; expected it to be refused")


def _event_checks(raw: Mapping[str, Any], events: Sequence[str]) -> list[str]:
    """`events` / `not_events`: whole events (`battle_won CITY 13 14`) that must (not)
    happen in the step; `events_like` / `not_events_like`: a part of an event will do."""
    out = []
    shown = "".join(f"\n      {e}" for e in events) or " none"
    for key, wanted, part in _EVENT_KEYS:
        for text in raw.get(key, []):
            hits = [e for e in events if (text in e if part else text == e)]
            what = f"containing {text!r}" if part else repr(text)
            if wanted and not hits:
                out.append(f"no event {what} ({key}); events were:{shown}")
            elif not wanted and hits:
                out.append(f"an event {what} happened ({key}): {hits[0]!r}")
    return out


def _legal_checks(st: State, raw: Mapping[str, Any]) -> list[str]:
    out = []
    legal = {str(x) for x in st.legal_actions()}
    for x in raw.get("legal", []):
        if str(Action.parse(x)) not in legal:
            out.append(f"{x!r} should be legal; legal: " + ", ".join(sorted(legal)))
    for x in raw.get("illegal", []):
        if str(Action.parse(x)) in legal:
            out.append(f"{x!r} should not be legal")
    return out


def _expectations(st: State, step: _Step) -> list[str]:
    out = []
    for shown, fn, left, right, left_text, loc in step.checks:
        if not fn(st, _CTX):
            detail = ""
            if left is not None and right is not None:
                detail = f" ({left_text} is {left(st, _CTX)!r}, expected {right(st, _CTX)!r})"
            out.append(f"{loc.prefix()}: step {step.n}: expected {shown}{detail}")
    return out
