"""Scenario files: the rulebook as executable tests, for any game.

A scenario starts a game (the game's own keys set it up: its rules, players, a position),
plays actions in the text notation and checks facts (the game's expressions) after any
step, or that an action is refused. See docs/scenarios.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from .errors import ArtError, GameError, Location, RulesError, closest
from .games import game_class
from .loader import SourceMap, path_text, read_toml
from .machine import Machine

_KERNEL_KEYS: Final = ("about", "cites", "game", "seed", "step", "invariants", "properties")
_STEP: Final = ("do", "refuse", "reason", "expect", "events", "legal", "illegal", "note")


@attrs.frozen
class Result:
    file: str
    passed: bool
    failures: tuple[str, ...]
    steps: int
    about: str = ""


# an expectation: its text, its check, its two sides (a comparison) to show, its place
Check = tuple[str, Callable[..., Any], Any, Any, str, Location]
Fail = Callable[..., RulesError]


def run_scenario(path: str | Path, variants: tuple[str | Path, ...] = ()) -> Result:
    """Run one scenario file; RulesError when the file itself is wrong."""
    path = Path(path)
    doc, smap = read_toml(path)

    def fail(msg: str, *p: Any) -> RulesError:
        return RulesError(msg, smap.locate(p), path_text(p))

    cls = _game_of(doc, fail)
    keys = (*_KERNEL_KEYS, *cls.SCENARIO_KEYS)
    for k in doc:
        if k not in keys:
            raise fail(f"unknown key {k!r}" + closest(k, keys) + "; expected one of: "
                       + ", ".join(keys), k)
    if not isinstance(doc.get("seed", 0), int):
        raise fail("'seed' must be a whole number", "seed")
    st = cls.scenario_start(doc, path, variants, smap.locate, fail)
    steps = doc.get("step", [])
    if not isinstance(steps, list):
        raise fail("'step' must be an array of tables ([[step]])", "step")
    compile_fact = st.scenario_checker()
    checks = [_compile_step(s, i, compile_fact, smap, fail, st) for i, s in enumerate(steps)]
    always = _file_checks(doc, fail)
    failures = _run_steps(st, steps, checks, smap, always)
    about = doc.get("about", "")
    return Result(str(path), not failures, tuple(failures), len(steps),
                  about if isinstance(about, str) else "")


def _game_of(doc: Mapping[str, Any], fail: Fail) -> type[Machine]:
    game = doc.get("game")
    if game is not None and not isinstance(game, str):
        raise fail("'game' must be a game's name", "game")
    try:
        return game_class(game)
    except GameError as err:
        raise fail(str(err), "game") from None


def _file_checks(doc: Mapping[str, Any], fail: Fail) -> tuple[bool, bool]:
    for k in ("invariants", "properties"):
        if not isinstance(doc.get(k, False), bool):
            raise fail(f"'{k}' must be true or false", k)
    return bool(doc.get("invariants", False)), bool(doc.get("properties", False))


def _run_steps(st: Machine, steps: list[Any], checks: list[list[Check]], smap: SourceMap,
               always: tuple[bool, bool]) -> list[str]:
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
    return failures


def _compile_step(step: Any, i: int, compile_fact: Callable[[str, Any], Any], smap: SourceMap,
                  fail: Fail, st: Machine) -> list[Check]:
    if not isinstance(step, dict):
        raise fail("a step is a table", "step", i)
    for k in step:
        if k not in _STEP:
            raise fail(f"unknown step key {k!r}" + closest(k, _STEP) + "; expected one of: "
                       + ", ".join(_STEP), "step", i, k)
    for k in ("do", "refuse"):
        if k in step:
            if not isinstance(step[k], str):
                raise fail("expected an action in the notation, such as 'done'", "step", i, k)
            try:
                st.registry.parse(step[k])
            except GameError as err:
                raise fail(str(err), "step", i, k) from None
    for k in ("expect", "events", "legal", "illegal"):
        if k in step and (not isinstance(step[k], list)
                          or not all(isinstance(x, str) for x in step[k])):
            raise fail("expected a list of strings", "step", i, k)
    out: list[Check] = []
    for j, text in enumerate(step.get("expect", [])):
        p = ("step", i, "expect", j)
        fn, left, right, left_text = compile_fact(text, smap.origin(p, text))
        out.append((text, fn, left, right, left_text, smap.locate(p)))
    return out


def _run_checks(st: Machine, before: Machine | None, step: Mapping[str, Any], i: int,
                smap: SourceMap, invariants: bool, properties: bool) -> list[str]:
    """The file-wide checks: the game's invariants, the rules' own properties."""
    from .invariants import Violation, check_invariants, check_properties, check_step

    where = smap.locate(("step", i)).prefix()
    try:
        if invariants:
            check_invariants(st)
            if before is not None and "do" in step:
                check_step(before, st.registry.parse(step["do"]), st)
        if properties:
            check_properties(st)
    except Violation as v:
        return [f"{where}: step {i + 1}: {v}"]
    return []


def _run_step(st: Machine, step: Mapping[str, Any], checks: list[Check], i: int,
              smap: SourceMap, seen: int) -> list[str]:
    where = smap.locate(("step", i)).prefix()
    if "do" in step:
        try:
            st.apply(step["do"])
        except ArtError as err:
            return [f"{where}: step {i + 1}: {step['do']!r} was refused: {err}"]
    if "refuse" in step:
        out = _refused(st, step, where, i)
        if out is None:
            return [f"{where}: step {i + 1}: {step['refuse']!r} was allowed; expected it "
                    "to be refused"]
    else:
        out = []
    out += _events(st, step, where, i, seen)
    out += _legal(st, step, where, i)
    out += _facts(st, checks, i)
    return out


def _refused(st: Machine, step: Mapping[str, Any], where: str, i: int) -> list[str] | None:
    """What is wrong with a refusal (None: the action was allowed)."""
    out: list[str] = []
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
        return out
    return None


def _events(st: Machine, step: Mapping[str, Any], where: str, i: int, seen: int) -> list[str]:
    new_events = st.events()[seen:]
    return [f"{where}: step {i + 1}: no event containing {want!r}; events were:\n"
            + "\n".join(f"      {e}" for e in new_events)
            for want in step.get("events", []) if not any(want in e for e in new_events)]


def _legal(st: Machine, step: Mapping[str, Any], where: str, i: int) -> list[str]:
    out: list[str] = []
    legal = {str(x) for x in st.legal_actions()}
    parse = st.registry.parse
    for x in step.get("legal", []):
        if str(parse(x)) not in legal:
            out.append(f"{where}: step {i + 1}: {x!r} should be legal; legal: "
                       + ", ".join(sorted(legal)))
    for x in step.get("illegal", []):
        if str(parse(x)) in legal:
            out.append(f"{where}: step {i + 1}: {x!r} should not be legal")
    return out


def _facts(st: Machine, checks: list[Check], i: int) -> list[str]:
    out: list[str] = []
    ctx = st.NO_CONTEXT
    for shown, fn, left, right, left_text, loc in checks:
        if not fn(st, ctx):
            detail = ""
            if left is not None and right is not None:
                detail = f" ({left_text} is {left(st, ctx)!r}, expected {right(st, ctx)!r})"
            out.append(f"{loc.prefix()}: step {i + 1}: expected {shown}{detail}")
    return out

