"""Scenario files: the rulebook as executable tests.

A scenario starts a game from a mission and seed, sets any part of the position, forces
dice, plays actions in the text notation and checks facts (DSL expressions) after any step,
or that an action is refused. See docs/scenarios.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from ..dsl import ast as a
from ..dsl.compiler import Compiler
from ..dsl.printer import expr as show_expr
from ..missions import DEFAULT
from .actions import Action
from .errors import ArtError, GameError, Location, RulesError, closest
from .loader import SourceMap, path_text, read_toml, scope_of
from .position import apply_position
from .rules import Ctx, Fn
from .state import PHASES, State

_TOP: Final = ("about", "cites", "mission", "variants", "cards", "players", "difficulty",
               "seed", "phase", "position", "step", "invariants", "properties")
_CTX: Final = Ctx()
_STEP: Final = ("do", "refuse", "reason", "expect", "events", "legal", "illegal", "note")


@attrs.frozen
class Result:
    file: str
    passed: bool
    failures: tuple[str, ...]
    steps: int
    about: str = ""


def run_scenario(path: str | Path, variants: tuple[str | Path, ...] = ()) -> Result:
    """Run one scenario file; RulesError when the file itself is wrong."""
    path = Path(path)
    doc, smap = read_toml(path)

    def fail(msg: str, *p: Any) -> RulesError:
        return RulesError(msg, smap.locate(p), path_text(p))

    for k in doc:
        if k not in _TOP:
            raise fail(f"unknown key {k!r}" + closest(k, _TOP) + "; expected one of: "
                       + ", ".join(_TOP), k)
    mission = doc.get("mission", DEFAULT)
    if not isinstance(mission, str):
        raise fail("'mission' must be a name or a path", "mission")
    if mission.endswith(".toml") and not Path(mission).is_absolute():
        mission = str(path.parent / mission)
    extra = doc.get("variants", [])
    if not isinstance(extra, list) or not all(isinstance(v, str) for v in extra):
        raise fail("'variants' must be a list of names or paths", "variants")
    variants = (*variants, *(str(path.parent / v) if v.endswith(".toml") else v for v in extra))
    players, seed = doc.get("players", 2), doc.get("seed", 0)
    difficulty, phase = doc.get("difficulty", "medium"), doc.get("phase", "mission")
    if not isinstance(players, int) or not 1 <= players <= 6:
        raise fail("'players' must be 1 to 6", "players")
    if not isinstance(seed, int):
        raise fail("'seed' must be a whole number", "seed")
    if phase not in PHASES:
        raise fail(f"unknown phase {phase!r}" + closest(str(phase), PHASES)
                   + "; expected one of: " + ", ".join(PHASES), "phase")

    from .loader import load_rules

    cards = doc.get("cards")
    if cards is not None:
        if not isinstance(cards, str):
            raise fail("'cards' must be the path of a card file", "cards")
        cards = str(path.parent / cards) if not Path(cards).is_absolute() else cards
    rules = load_rules(mission, variants, cards=cards)
    try:
        st = State.new(rules, players, str(difficulty), seed, start=False, log=True)
    except GameError as err:
        raise fail(str(err), "difficulty") from None
    pos = doc.get("position", {})
    if not isinstance(pos, dict):
        raise fail("'position' must be a table", "position")
    apply_position(st, pos, smap.locate)
    st.start = {"phase": phase, "position": pos}
    st.start_round(phase)

    comp = Compiler(scope_of(rules))
    steps = doc.get("step", [])
    if not isinstance(steps, list):
        raise fail("'step' must be an array of tables ([[step]])", "step")
    checks = [_compile_step(s, i, comp, smap, fail) for i, s in enumerate(steps)]
    for k in ("invariants", "properties"):
        if not isinstance(doc.get(k, False), bool):
            raise fail(f"'{k}' must be true or false", k)
    always = (doc.get("invariants", False), doc.get("properties", False))
    failures: list[str] = []
    seen = 0  # a step's events are those since the previous step (the first: since setup)
    for i, (step, compiled) in enumerate(zip(steps, checks, strict=True)):
        before = st.clone() if always[0] else None
        failures += _run_step(st, step, compiled, i, smap, seen)
        seen = len(st.log)
        if not failures:
            failures += _run_checks(st, before, step, i, smap, *always)
        if failures:
            break
    about = doc.get("about", "")
    return Result(str(path), not failures, tuple(failures), len(steps),
                  about if isinstance(about, str) else "")


# an expectation: its text, its check, its two sides (a comparison) to show, its place
Check = tuple[str, Fn, Fn | None, Fn | None, str, Location]


def _compile_step(step: Any, i: int, comp: Compiler, smap: SourceMap, fail: Any) -> list[Check]:
    if not isinstance(step, dict):
        raise fail("a step is a table", "step", i)
    for k in step:
        if k not in _STEP:
            raise fail(f"unknown step key {k!r}" + closest(k, _STEP) + "; expected one of: "
                       + ", ".join(_STEP), "step", i, k)
    for k in ("do", "refuse"):
        if k in step:
            if not isinstance(step[k], str):
                raise fail("expected an action in the notation, such as 'move p2 CITY'",
                           "step", i, k)
            try:
                Action.parse(step[k])
            except GameError as err:
                raise fail(str(err), "step", i, k) from None
    for k in ("expect", "events", "legal", "illegal"):
        if k in step and (not isinstance(step[k], list)
                          or not all(isinstance(x, str) for x in step[k])):
            raise fail("expected a list of strings", "step", i, k)
    out: list[Check] = []
    for j, text in enumerate(step.get("expect", [])):
        p = ("step", i, "expect", j)
        tree = comp.parse(text, "expr", smap.origin(p, text))
        fn = comp.expr_node(tree) if tree is not None else None
        if comp.errors or fn is None:
            raise comp.errors[0]
        left = right = None
        left_text = ""
        if isinstance(tree, a.Binary) and tree.op in ("==", "!=", "<", "<=", ">", ">="):
            left, right = comp.expr_node(tree.left), comp.expr_node(tree.right)
            left_text = show_expr(tree.left)
        out.append((text, fn, left, right, left_text, smap.locate(p)))
    return out


def _run_checks(st: State, before: State | None, step: Mapping[str, Any], i: int,
                smap: SourceMap, invariants: bool, properties: bool) -> list[str]:
    """The file-wide checks: the game's invariants, the mission's own properties."""
    from .invariants import Violation, check_invariants, check_properties, check_step

    where = smap.locate(("step", i)).prefix()
    try:
        if invariants:
            check_invariants(st)
            if before is not None and "do" in step:
                check_step(before, Action.parse(step["do"]), st)
        if properties:
            check_properties(st)
    except Violation as v:
        return [f"{where}: step {i + 1}: {v}"]
    return []


def _run_step(st: State, step: Mapping[str, Any], checks: list[Check], i: int,
              smap: SourceMap, seen: int) -> list[str]:
    where = smap.locate(("step", i)).prefix()
    out: list[str] = []
    if "do" in step:
        try:
            st.apply(step["do"])
        except ArtError as err:
            return [f"{where}: step {i + 1}: {step['do']!r} was refused: {err}"]
    if "refuse" in step:
        before = st.fingerprint()
        try:
            st.apply(step["refuse"])
        except GameError as err:
            reason = step.get("reason")
            if reason and reason not in str(err):
                out.append(f"{where}: step {i + 1}: {step['refuse']!r} was refused, but with "
                           f"{str(err)!r}, not a reason containing {reason!r}")
            if st.fingerprint() != before:
                out.append(f"{where}: step {i + 1}: a refused action changed the state")
        else:
            return [f"{where}: step {i + 1}: {step['refuse']!r} was allowed; expected it "
                    "to be refused"]
    new_events = st.events()[seen:]
    for want in step.get("events", []):
        if not any(want in e for e in new_events):
            out.append(f"{where}: step {i + 1}: no event containing {want!r}; events were:\n"
                       + "\n".join(f"      {e}" for e in new_events))
    legal = {str(x) for x in st.legal_actions()}
    for x in step.get("legal", []):
        if str(Action.parse(x)) not in legal:
            out.append(f"{where}: step {i + 1}: {x!r} should be legal; legal: "
                       + ", ".join(sorted(legal)))
    for x in step.get("illegal", []):
        if str(Action.parse(x)) in legal:
            out.append(f"{where}: step {i + 1}: {x!r} should not be legal")
    for shown, fn, left, right, left_text, loc in checks:
        ctx = _CTX
        if not fn(st, ctx):
            detail = ""
            if left is not None and right is not None:
                detail = f" ({left_text} is {left(st, ctx)!r}, expected {right(st, ctx)!r})"
            out.append(f"{loc.prefix()}: step {i + 1}: expected {shown}{detail}")
    return out
