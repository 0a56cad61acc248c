"""Scenario files: the rulebook as executable tests, for any game.

A scenario starts a game (the game's own keys set it up: its rules, players, a position),
plays actions in the text notation and checks facts (the game's expressions) after any
step, or that an action is refused. See docs/scenarios.md.

Besides a game's own words, its checks read the kernel's (`CheckedWords`): who decides now
(`deciding`: a player, the team, chance or nobody) and what a player sees, read only from
the game's `observation` and `information_state` (`view`, `shows`, `knows`); a game adds
words of its own for checks (`CheckWords`, from its `scenario_checker`): those are
scenario_words.py's. A step checks the events (whole, a part, whole words, their order),
the legal actions (some, or exactly these) and the returns: scenario_steps.py plays the
steps this module has read and compiled.

Every key is declared once (core/schema.py): the kernel's here (`ScenarioSpec`,
`StepSpec`), a game's in its subclass of them (its `scenario_spec()`), and the whole file
is structured against them before anything runs, every shape error reported at once. A
file that is wrong in meaning (an unknown name, a position that cannot exist) raises
RulesError before any step runs too. Once the game runs, every failure is reported: a
step's failed checks do not stop the later steps; only a step that cannot be played (a
refused action, the engine failing) ends the scenario there, saying which steps were not
run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any, Final, NamedTuple

import attrs

from . import checks
from .actions import Action, players_named
from .errors import GameError, Location, RulesError, RulesErrors
from .games import game_class
from .machine import Machine
from .scenario_steps import EVENT_KEYS, Step, Stop, guard, play_steps
from .schema import Dsl, declared, make_section, param, params_of, section, structure
from .sources import SourceMap, path_text, read_toml

Fail = Callable[..., RulesError]


# ====================================================================== the files' keys
class StepKey(NamedTuple):
    """What a game's own step key does: compile(value, state, fail, *path) -> compiled, once
    before the game starts; run(state, compiled, seen) -> failures (or raising Stop), after
    the step's action."""

    compile: Callable[..., Any]
    run: Callable[[Any, Any, int], list[str]]


def step_key(meaning: str, does: StepKey, **declared: Any) -> Any:
    """A game's own step key (in its subclass of `StepSpec`): declared like any key, with
    what it does."""
    f = param(meaning, default=None, **declared)
    return attrs.field(default=None, metadata={**f.metadata, "step": does})


@section("step key")
@attrs.frozen(kw_only=True)
class StepSpec:
    """A step of a scenario: one [[step]] table."""

    do: str | None = param("an action to apply; the scenario fails if it is refused",
                           default=None, expects="an action in the notation")
    refuse: str | None = param("an action that must be refused, leaving the state untouched",
                               default=None, expects="an action in the notation")
    reason: str | None = param("text the refusal's message must contain", default=None)
    expect: tuple[Dsl, ...] = param(
        "expressions that must hold after the step: the game's words and the checks' own "
        "(`deciding`, `view()`, `shows()`, `knows()`: docs/scenarios.md)", dsl="expr",
        factory=tuple)
    events: tuple[str, ...] = param("whole events that must be logged in the step",
                                    factory=tuple)
    not_events: tuple[str, ...] = param("whole events that must not be logged",
                                        factory=tuple)
    events_like: tuple[str, ...] = param("texts some event of the step must contain",
                                         factory=tuple)
    not_events_like: tuple[str, ...] = param("texts no event of the step may contain",
                                             factory=tuple)
    events_with: tuple[str, ...] = param(
        "words some event of the step must hold as whole words, in a row (`turn 2` matches "
        "`turn 2 p3`; `draw` does not match `blind_draw p1`)", factory=tuple)
    not_events_with: tuple[str, ...] = param("words no event of the step may hold as whole "
                                             "words, in a row", factory=tuple)
    events_in_order: tuple[str, ...] = param(
        "events of the step, each matched as `events_with` matches, logged in this order "
        "(others may come between)", factory=tuple)
    legal: tuple[str, ...] = param("actions that must be legal after the step",
                                   factory=tuple, expects="a list of actions")
    illegal: tuple[str, ...] = param("actions that must not be legal after the step",
                                     factory=tuple, expects="a list of actions")
    only_legal: tuple[str, ...] | None = param(
        "exactly the legal actions after the step, in any order: no other is legal "
        "(`[]`: none, the game is over)", default=None, expects="a list of actions")
    returns: tuple[float, ...] | None = param(
        "each player's return after the step, p1 first (`returns()`: a finished game's "
        "result; all 0 while it goes on)", default=None, expects="a list of numbers, one "
        "per player")
    note: str = param("what the step shows", default="")


SEED: Final = param("the seed of the game's chance (its seeded generator)", lo=-(2**63),
                    hi=2**64 - 1, default=0, expects="a whole number (64 bits)")


@section()
@attrs.frozen(kw_only=True)
class ScenarioSpec:
    """A scenario file (docs/scenarios.md)."""

    about: str = param("one line: what the scenario proves", default="")
    cites: tuple[str, ...] = param("the rulebook passages and rulings it checks",
                                   factory=tuple)
    game: str | None = param("the game it plays (default: the default game)", default=None)
    seed: int = SEED
    step: tuple[StepSpec, ...] = param("[[step]]: the steps, in order", factory=tuple)
    invariants: bool = param("check the game's invariants after every step, and its chance "
                             "nodes once the steps are played", default=False)
    properties: bool = param("check the rules' own properties after every step",
                             default=False)


class RuleFile(NamedTuple):
    """A game's rule file, as a scenario given one tells it (`scenario_spec`): the section
    its keys are declared in, what such a file is ("a ... file") and how it is used."""

    spec: type[Any]
    what: str
    how: str


# Each game's scenario spec and its rule file (`scenario_spec`'s `rules`)
_RULE_FILES: dict[type[Any], RuleFile] = {}


def scenario_spec(keys: type[Any], steps: type[Any] | None = None,
                  rules: RuleFile | None = None) -> type[Any]:
    """A game's scenario files: the kernel's keys with the game's own (`keys`, an attrs class
    of `param` fields: its rules, team, position...) and its own step keys (`steps`, of
    `step_key` fields), each declared once; `rules`: the game's rule file, so that one run
    as a scenario is told for what it is."""
    step = make_section("StepFile", StepSpec.__doc__ or "", [
        *declared(StepSpec), *(declared(steps) if steps is not None else ())],
        keys.__module__, "step key")
    kernel = {k[0]: k for k in declared(ScenarioSpec)}
    head = [kernel[k] for k in ("about", "cites", "game", "seed")]
    tail = [("step", tuple[step, ...], kernel["step"][2]),  # type: ignore[valid-type]
            kernel["invariants"],
            kernel["properties"]]
    spec = make_section("ScenarioFile", ScenarioSpec.__doc__ or "",
                        [*head, *declared(keys), *tail], keys.__module__)
    if rules is not None:
        _RULE_FILES[spec] = rules
    return spec


def step_spec(spec: type[Any]) -> type[Any]:
    """The [[step]] section of a scenario spec."""
    step: Any = attrs.fields_dict(spec)["step"].type
    return step.__args__[0]  # type: ignore[no-any-return]


def step_keys(spec: type[Any]) -> tuple[tuple[str, StepKey], ...]:
    """A scenario spec's own step keys (`step_key`) and what each does."""
    return tuple((f.name, f.metadata["step"]) for f in attrs.fields(step_spec(spec))
                 if "step" in f.metadata)


@attrs.frozen
class Result:
    file: str
    passed: bool
    failures: tuple[str, ...]
    steps: int
    about: str = ""


# ====================================================================== running a file
def run_scenario(path: str | Path, variants: tuple[str | Path, ...] = ()) -> Result:
    """Run one scenario file; RulesError when the file itself is wrong, GameError for an
    argument of the wrong type (a path or name; a list of variants, never one text)."""
    path = Path(checks.ref(path, "path"))
    variants = checks.refs(variants, "variants")
    doc, smap = read_toml(path)

    def fail(msg: str, *p: Any) -> RulesError:
        return RulesError(msg, smap.locate(p), path_text(p))

    if not doc:  # (nothing to set up or check: not a scenario that passes, as check says)
        raise fail("empty file: not a scenario")
    cls = _game_of(doc, fail)
    spec, rest, errors = _shape_on(doc, cls.scenario_spec() or ScenarioSpec, fail)
    try:  # (the position as written: its entries' own checks tell their shape errors too)
        st, begin = cls.scenario_setup(spec, doc, path, variants, smap.locate, fail)
    except SetupErrors as err:  # the steps are still checked, against the game it left
        errors, st = [*errors, *err.errors], err.state
    except RulesError as err:  # (no game to check the steps with: what was found so far)
        _raise_all([*errors, *_flat(err)])
        raise
    steps = _compile_steps(rest, st, step_keys(type(spec)), smap, fail, errors)
    _raise_all(errors)
    always = (spec.invariants, spec.properties)
    try:
        guard(begin)
    except Stop as stop:
        return Result(str(path), False, (f"{path}: setting up the position: {stop}",),
                      len(steps), spec.about)
    failures = play_steps(st, steps, always, str(path))
    return Result(str(path), not failures, tuple(failures), len(steps), spec.about)


class SetupErrors(RulesErrors):
    """Mistakes in a scenario's set-up (a position's entries, a difficulty) that leave a game
    to check the steps against (`state`: set up without them): the runner reports them with
    the steps' own, all at once."""

    def __init__(self, errors: list[RulesError], state: Machine) -> None:
        super().__init__(errors)
        self.state = state


def _place(err: RulesError) -> tuple[int, int]:
    """Where a mistake is in its file (line, column): the order they are reported in."""
    return (err.where.line, err.where.column) if err.where is not None else (0, 0)


def _flat(err: RulesError) -> list[RulesError]:
    return list(err.errors) if isinstance(err, RulesErrors) else [err]


def collect(errors: list[RulesError], run: Callable[..., Any], *args: Any) -> Any:
    """`run(*args)`, or None with its mistakes added to `errors` (one or several)."""
    try:
        return run(*args)
    except RulesError as err:
        errors.extend(_flat(err))
        return None


def load_located(load: Callable[[], Any], refs: list[tuple[tuple[Any, ...] | None, str]],
                 fail: Fail) -> Any:
    """A scenario's rules, `load()`ed; a mistake that names no line of a file (no such file,
    an unknown name, not a file of the game) is put at the key that names the file: the
    `refs`' path (None: not the file's, a command line's) whose reference it names, the
    first's when it names none."""
    try:
        return load()
    except RulesErrors:
        raise
    except (RulesError, GameError) as err:
        where = getattr(err, "where", None)
        if where is not None and where.line:
            raise  # a mistake inside the file, at its own line
        text = str(err)  # (a reference quoted, or the message's head, before one only inside)
        named = [(text.startswith(ref) or repr(ref) in text, len(ref), i)
                 for i, (_, ref) in enumerate(refs) if ref and ref in text]
        path = refs[max(named)[2] if named else 0][0]
        if path is None:
            raise
        raise fail(str(err), *path) from None


def set_position(st: Machine, start: Callable[[], Machine],
                 apply: Callable[[Machine, Mapping[str, Any]], None], pos: Mapping[str, Any],
                 locate: Callable[[tuple[Any, ...]], Location], itemwise: tuple[str, ...] = (),
                 prefix: str = "position", together: tuple[str, ...] = (),
                 ) -> list[RulesError]:
    """Set `pos` on `st` (`apply`); when it is wrong, every mistake of its entries: each
    entry set alone on a game of its own (`start()`), a table's keys one by one (but a
    table named in `together`, whose keys the game reads together) and a list named in
    `itemwise` (whose items mean the same at any place) item by item; then the
    position's own first mistake, where its entries disagree."""
    try:
        apply(st, pos)
        return []
    except RulesError as whole:
        found: list[RulesError] = []
        for key, value in pos.items():
            found += _entry_errors(start, apply, key, value, key in itemwise,
                                   partial(_moved, locate, prefix, key), key in together)
        told = {str(e) for e in found}
        return found + [e for e in _flat(whole) if str(e) not in told]


def _entry_errors(start: Callable[[], Machine],
                  apply: Callable[[Machine, Mapping[str, Any]], None], key: str, value: Any,
                  itemwise: bool, moved: Callable[[RulesError, int], RulesError],
                  together: bool = False) -> list[RulesError]:
    """One entry's mistakes (see `set_position`)."""
    found: list[RulesError] = []
    if isinstance(value, Mapping) and len(value) > 1 and not together:
        for k, v in value.items():
            collect(found, apply, start(), {key: {k: v}})
    elif itemwise and isinstance(value, list) and len(value) > 1:
        for j, v in enumerate(value):
            one: list[RulesError] = []
            collect(one, apply, start(), {key: [v]})
            found += [moved(e, j) for e in one]
    if not found:
        collect(found, apply, start(), {key: value})
    return found


def _moved(locate: Callable[[tuple[Any, ...]], Location], prefix: str, key: str,
           err: RulesError, j: int) -> RulesError:
    """An item's mistake, found with the item set alone (`key[0]`), told at its own index."""
    at = f"{prefix}.{key}"
    if err.path.startswith(f"{at}[0]"):
        err.path = f"{at}[{j}]{err.path[len(at) + 3:]}"
        err.where = locate((prefix, key, j))
    return err


def _game_of(doc: Mapping[str, Any], fail: Fail) -> type[Machine]:
    game = doc.get("game")
    if game is not None and not isinstance(game, str):
        raise fail("'game' must be a game's name", "game")
    try:
        return game_class(game)
    except GameError as err:
        raise fail(str(err), "game") from None


def _raise_all(errors: list[RulesError]) -> None:
    """Every mistake of the file at once (each once), in the file's order; none: nothing."""
    if errors:
        raise _all_of(errors)


def _all_of(errors: list[RulesError]) -> RulesError:
    """The mistakes (one at least) as one error: each once, in the file's order."""
    errors = sorted({(e.path, e.message): e for e in errors}.values(), key=_place)
    return errors[0] if len(errors) == 1 else RulesErrors(errors)


def _shape(doc: Mapping[str, Any], cls: type[ScenarioSpec], fail: Fail) -> Any:
    """The file structured by its game's declarations: every shape error at once."""
    spec, _, errors = _shape_on(doc, cls, fail)
    _raise_all(errors)
    return spec


def _shape_on(doc: Mapping[str, Any], cls: type[ScenarioSpec], fail: Fail,
              ) -> tuple[Any, Mapping[str, Any], list[RulesError]]:
    """The file structured by its game's declarations: every shape error at once. Where
    they all lie in the position's entries or the steps' keys, the file without those is
    checked on (the spec, the document and the shape errors); else they are raised."""
    spec, found = structure(dict(doc), cls)
    if spec is None:
        errors = [fail(msg, *p) for p, msg in found]
        rules = _rule_file(doc, cls, fail)
        if rules is not None:  # (not a scenario at all: nothing of it to check on)
            raise _all_of([rules, *errors])
        rest = _without(doc, [p for p, _ in found], cls)
        spec = None if rest is None else structure(dict(rest), cls)[0]
        if spec is None or rest is None:
            raise _all_of(errors)
        return spec, rest, errors
    return spec, doc, []


def _rule_file(doc: Mapping[str, Any], cls: type[Any], fail: Fail) -> RulesError | None:
    """What a file is when it is the game's rule file, not a scenario (none of the keys only
    a scenario has, and some only a rule file has: decided by their declarations); None
    for a scenario."""
    rule = _RULE_FILES.get(cls)
    if rule is None:
        return None
    theirs, ours = set(params_of(rule.spec)), set(params_of(cls))
    if (ours - theirs) & doc.keys():
        return None
    own = [k for k in doc if k in theirs - ours]
    if not own:
        return None
    return fail(f"{rule.what}, not a scenario (its keys {', '.join(own)} are a rule file's, "
                f"none is a scenario's): {rule.how}")


def _without(doc: Mapping[str, Any], paths: list[tuple[Any, ...]], cls: type[Any],
             ) -> dict[str, Any] | None:
    """`doc` without the unknown keys, the position's entries and the steps' keys at `paths`
    (a copy); None where one lies elsewhere (a game's key, a whole section: nothing to check
    on with). An unknown key is dropped: no declared key reads it, so it hides no mistake."""
    import copy

    known = {f.name for f in attrs.fields(cls)}
    rest = copy.deepcopy(dict(doc))
    for p in paths:
        if len(p) == 1 and p[0] not in known:
            rest.pop(p[0], None)
        elif len(p) >= 2 and p[0] == "position" and isinstance(rest.get("position"), dict):
            rest["position"].pop(p[1], None)
        elif len(p) >= 3 and p[0] == "step" and isinstance(p[1], int) and isinstance(
                rest.get("step"), list) and isinstance(rest["step"][p[1]], dict):
            rest["step"][p[1]].pop(p[2], None)
        else:
            return None
    return rest


# ====================================================================== compiling the steps
def _compile_steps(doc: Mapping[str, Any], st: Machine, own: tuple[tuple[str, StepKey], ...],
                   smap: SourceMap, fail: Fail, errors: list[RulesError] | None = None,
                   ) -> list[Step]:
    """Every step compiled; every mistake of every step added to `errors` (each action, each
    expression, each value: none depends on a step being played), or raised, all at once,
    when no list is given."""
    compile_fact = st.scenario_checker()
    found: list[RulesError] = [] if errors is None else errors
    steps = [_compile_step(s, i, st, own, compile_fact, smap, fail, found)
             for i, s in enumerate(doc.get("step", []))]
    if errors is None:
        _raise_all(found)
    return steps


def _compile_step(step: Mapping[str, Any], i: int, st: Machine,
                  own: tuple[tuple[str, StepKey], ...], compile_fact: Callable[[str, Any], Any],
                  smap: SourceMap, fail: Fail, errors: list[RulesError]) -> Step:
    for k in ("do", "refuse"):  # the schema has checked every key's shape: now the notation
        if k in step:  # (an action to take names the game's own players; one refused may
            run = _action if k == "refuse" else _own_action  # not)
            collect(errors, run, st, step[k], fail, "step", i, k)
    for k in ("legal", "illegal", "only_legal"):
        for j, x in enumerate(step.get(k, [])):
            collect(errors, _action, st, x, fail, "step", i, k, j)
    errors += _check_values(step, st, fail, i)
    extras = tuple((sk, collect(errors, sk.compile, step[key], st, fail, "step", i, key))
                   for key, sk in own if key in step)
    checks = []
    for j, text in enumerate(step.get("expect", [])):
        p = ("step", i, "expect", j)
        fact = collect(errors, compile_fact, text, smap.origin(p, text))
        if fact is not None:
            fn, left, right, left_text = fact
            checks.append((text, fn, left, right, left_text, smap.locate(p)))
    return Step(i + 1, smap.locate(("step", i)).prefix(), step, tuple(checks), extras)


def _check_values(step: Mapping[str, Any], st: Machine, fail: Fail, i: int,
                  ) -> list[RulesError]:
    """What the schema cannot see in the event texts, `only_legal` and `returns`: an empty
    text, a player the game does not have, a return for each player; each mistake."""
    n = st.num_players()
    found = [fail("an empty text: give the words an event must hold", "step", i, key, j)
             for key, _, how in (*EVENT_KEYS, ("events_in_order", True, "words"))
             for j, text in enumerate(step.get(key, []))
             if how == "words" and not text.split()]
    for j, x in enumerate(step.get("only_legal", [])):
        try:
            who = st.registry.parse(x).player
        except GameError:
            continue  # (not in the notation: told by `_action`)
        if who >= n:
            found.append(fail(f"{x!r}: no player p{who + 1} in a {n}-player game", "step",
                              i, "only_legal", j))
    if "returns" in step and len(step["returns"]) != n:
        found.append(fail(f"{len(step['returns'])} returns for a {n}-player game: give one "
                          "per player, p1 first", "step", i, "returns"))
    return found


def _own_action(st: Machine, text: str, fail: Fail, *path: Any) -> Action:
    """`_action`, every player it names one of the game's (a mistake naming its players:
    the notation alone knows only the most its kind seats)."""
    try:
        players_named(st, text)
    except GameError as err:
        raise fail(str(err), *path) from None
    return _action(st, text, fail, *path)


def _action(st: Machine, text: str, fail: Fail, *path: Any) -> Action:
    try:
        return st.registry.parse(text)
    except GameError as err:
        raise fail(str(err), *path) from None
