"""Scenario files: the rulebook as executable tests, for any game.

A scenario starts a game (the game's own keys set it up: its rules, players, a position),
plays actions in the text notation and checks facts (the game's expressions) after any
step, or that an action is refused. See docs/scenarios.md.

Besides a game's own words, its checks read the kernel's (`CheckedWords`): who decides now
(`deciding`: a player, the team, chance or nobody) and what a player sees, read only from
the game's `observation` and `information_state` (`view`, `shows`, `knows`); a game adds
words of its own for checks (`CheckWords`, from its `scenario_checker`). A step checks the
events (whole, a part, whole words, their order), the legal actions (some, or exactly
these) and the returns.

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

import traceback
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple

import attrs

from ..dsl import ast as dsl
from ..dsl.words import UNKNOWN, Code, Words
from .actions import CHANCE, TEAM, TERMINAL, Action
from .errors import ArtError, GameError, Location, RulesError, RulesErrors, closest
from .games import game_class
from .machine import Machine
from .schema import Dsl, declared, make_section, param, section, structure
from .sources import SourceMap, path_text, read_toml

if TYPE_CHECKING:
    from ..dsl.compiler import Compiler

# the event checks: the key, whether the text must appear, and how a text matches an event:
# the whole event, a part of it, or whole words of it in a row
_EVENT_KEYS: Final = (("events", True, "whole"), ("not_events", False, "whole"),
                      ("events_like", True, "part"), ("not_events_like", False, "part"),
                      ("events_with", True, "words"), ("not_events_with", False, "words"))

Fail = Callable[..., RulesError]
# an expectation: its text, its check, its two sides (a comparison) to show, its place
Check = tuple[str, Callable[..., Any], Any, Any, str, Location]


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
    invariants: bool = param("check the game's invariants after every step", default=False)
    properties: bool = param("check the rules' own properties after every step",
                             default=False)


def scenario_spec(keys: type[Any], steps: type[Any] | None = None) -> type[Any]:
    """A game's scenario files: the kernel's keys with the game's own (`keys`, an attrs class
    of `param` fields: its rules, team, position...) and its own step keys (`steps`, of
    `step_key` fields), each declared once."""
    step = make_section("StepFile", StepSpec.__doc__ or "", [
        *declared(StepSpec), *(declared(steps) if steps is not None else ())],
        keys.__module__, "step key")
    kernel = {k[0]: k for k in declared(ScenarioSpec)}
    head = [kernel[k] for k in ("about", "cites", "game", "seed")]
    tail = [("step", tuple[step, ...], kernel["step"][2]),  # type: ignore[valid-type]
            kernel["invariants"],
            kernel["properties"]]
    return make_section("ScenarioFile", ScenarioSpec.__doc__ or "",
                        [*head, *declared(keys), *tail], keys.__module__)


Fact = tuple[Callable[..., Any], Any, Any, str]  # a fact, its two sides (if a comparison)


# ====================================================================== the checks' words
# Who a `player` value names besides p1, p2...: the players together (a decision of the
# whole team), chance (a chance node), nobody (the game is over; a drawn game's winner).
SEATS: Final = {"team": TEAM, "chance": CHANCE, "nobody": TERMINAL}


def seat_name(value: Any) -> Any:
    """A `player` value as a check shows it: p2, team, chance, nobody."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value >= 0:
            return f"p{value + 1}"
        return next((k for k, x in SEATS.items() if x == value), value)
    return value


@attrs.frozen
class CheckWords:
    """A game's words for scenario checks only, beside the words of its rules: names (name
    -> (kind, Python reading `st`)), functions (name -> the DSL's `Sig`) and the helpers
    their Python calls (docs/scenarios.md)."""

    names: Mapping[str, tuple[str, str]] = attrs.Factory(dict)
    calls: Mapping[str, Any] = attrs.Factory(dict)
    env: Mapping[str, Any] = attrs.Factory(dict)


def _at(value: Any, path: str) -> Any:
    """The part of a view at a dotted path (`a.p2.x`; a list by its index), "" if none."""
    for part in path.split("."):
        if isinstance(value, dict):
            value = value.get(part)
        elif isinstance(value, list | tuple) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return ""
    return "" if value is None else value


def _view(st: Machine, player: int, path: str) -> Any:
    """What `player`'s observation shows at `path` (only what the game lets them see)."""
    return _at(st.observation(player), path)


def _shows(st: Machine, player: int, path: str, x: Any) -> bool:
    """Whether `player`'s view at `path` holds `x`: a list with it, a table with it as a
    key, or that value itself."""
    v = _view(st, player, path)
    if isinstance(v, list | tuple):
        return x in v
    if isinstance(v, dict):
        return str(x) in v
    return bool(v == x)


def _knows(st: Machine, player: int, text: str) -> bool:
    """Whether `player`'s information state holds `text`: an action or chance event as
    they saw it (another's secret as the game shows it to them)."""
    return text in (str(x) for x in st.information_state(player)[3])


# the kernel's words in every game's checks: who decides now, and what a player sees
_NAMES: Final = {"deciding": ("player", "st.current_player()"),
                 **{k: ("player", str(v)) for k, v in SEATS.items()}}
_ANY: Final = ("int", "str", "bool", "player")
_SEES: Final = {"view": ((("player",), ("str",)), "?", "_scn_view(st, {0}, {1})"),
                "shows": ((("player",), ("str",), _ANY), "bool",
                          "_scn_shows(st, {0}, {1}, {2})"),
                "knows": ((("player",), ("str",)), "bool", "_scn_knows(st, {0}, {1})")}
_ENV: Final = {"_scn_view": _view, "_scn_shows": _shows, "_scn_knows": _knows,
               "_scn_seat": seat_name}


def _view_keys(st: Machine) -> tuple[str, ...] | None:
    """The entries of a player's view (to check a path's first part), None if unknown."""
    try:
        return tuple(st.observation(0))
    except Exception:  # a game not ready to show itself before it starts: no check
        return None


class CheckedWords(Words):
    """A game's `words` for its scenario checks: the kernel's check words and the game's own
    (`own`) added, a game's own winning over the kernel's and a name its rules know keeping
    its meaning there; a player beyond the game's count refused."""

    def __init__(self, words: Words, st: Machine, own: CheckWords) -> None:
        self.base = words
        self.game, self.statements, self.events = words.game, words.statements, words.events
        self.hidden, self.players = words.hidden, words.players
        self.facade, self.rules = words.facade, words.rules
        self.extra = {**_NAMES, **own.names}
        self.names = {**words.names, **self.extra}
        self.calls = {**words.calls, **_SEES, **own.calls}
        self.env = {**words.env, **_ENV, **own.env}
        self.count, self.entries = st.num_players(), _view_keys(st)

    def ref(self, comp: Compiler, e: dsl.Ref, bound: frozenset[str]) -> Code:
        head = e.parts[0]
        if len(e.parts) == 1 and head not in bound:
            if head in self.players and self.players.index(head) >= self.count:
                comp.err(f"no player {head!r} in a {self.count}-player game", e)
                return UNKNOWN
            if head in self.extra and head not in self.base.known(comp, bound):
                return self.extra[head][1], self.extra[head][0]
        return self.base.ref(comp, e, bound)

    def known(self, comp: Compiler, bound: frozenset[str]) -> list[str]:
        return [*self.base.known(comp, bound), *self.extra]

    def call(self, comp: Compiler, e: dsl.Call, bound: frozenset[str]) -> Code:
        if e.name not in _SEES or e.name in self.base.calls:
            return self.base.call(comp, e, bound)
        found = comp.call_args(e, bound)
        if found is None:
            return UNKNOWN
        codes, sig = found
        path = e.args[1] if e.name != "knows" else None
        head = path.value.split(".")[0] if isinstance(path, dsl.Str) else None
        if head is not None and self.entries is not None and head not in self.entries:
            comp.err(f"a player's view has no {head!r}" + closest(head, self.entries)
                     + "; it has: " + ", ".join(self.entries), path)
        if e.name == "shows" and comp.expr_code(e.args[2], bound)[1] == "player":
            codes[2] = f"_scn_seat({codes[2]})"  # a view names a player p2
        return sig[2].format(*codes), sig[1]

    def statement(self, comp: Compiler, s: dsl.Stmt, bound: frozenset[str]) -> str:
        return self.base.statement(comp, s, bound)


def fact_compiler(scope: Any, words: Any, st: Machine,
                  own: CheckWords | None = None) -> Callable[[str, Any], Fact]:
    """compile(text, origin) -> (fact, left, right, left text): a scenario's facts (DSL
    expressions) compiled in a game's `scope` with its `words` and its check words (`own`)
    for `st` (a game's `scenario_checker`); a comparison's two sides too, for the runner to
    show what each side was (a player by name)."""
    from ..dsl.compiler import Compiler
    from ..dsl.printer import expr as show_expr

    comp = Compiler(scope, CheckedWords(words, st, own or CheckWords()))

    def side(node: Any) -> Callable[..., Any]:
        fn = comp.expr_node(node)
        if comp.expr_code(node, frozenset())[1] != "player":
            return fn
        return lambda st, ctx: seat_name(fn(st, ctx))

    def compile_fact(text: str, origin: Any) -> Fact:
        tree = comp.parse(text, "expr", origin)
        fn = comp.expr_node(tree) if tree is not None else None
        if comp.errors or fn is None:
            raise comp.errors[0]
        left = right = None
        left_text = ""
        if isinstance(tree, dsl.Binary) and tree.op in ("==", "!=", "<", "<=", ">", ">="):
            left, right = side(tree.left), side(tree.right)
            left_text = show_expr(tree.left)
        return fn, left, right, left_text
    return compile_fact


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


@attrs.frozen
class _Step:
    """One [[step]], checked and compiled before the game starts."""

    n: int  # 1-based, as reported
    where: str  # file:line:col of the step
    raw: Mapping[str, Any]
    checks: tuple[Check, ...]
    extras: tuple[tuple[StepKey, Any], ...]  # the game's own step keys, compiled


class Stop(Exception):
    """The step cannot be played: the scenario ends here (its message is the failure)."""


# ====================================================================== running a file
def run_scenario(path: str | Path, variants: tuple[str | Path, ...] = ()) -> Result:
    """Run one scenario file; RulesError when the file itself is wrong."""
    path = Path(path)
    doc, smap = read_toml(path)

    def fail(msg: str, *p: Any) -> RulesError:
        return RulesError(msg, smap.locate(p), path_text(p))

    cls = _game_of(doc, fail)
    spec = _shape(doc, cls.scenario_spec() or ScenarioSpec, fail)
    st, begin = cls.scenario_setup(spec, doc, path, variants, smap.locate, fail)
    steps = _compile_steps(doc, st, step_keys(type(spec)), smap, fail)
    always = (spec.invariants, spec.properties)
    try:
        _guard(begin)
    except Stop as stop:
        return Result(str(path), False, (f"{path}: setting up the position: {stop}",),
                      len(steps), spec.about)
    failures = _play(st, steps, always)
    return Result(str(path), not failures, tuple(failures), len(steps), spec.about)


def _game_of(doc: Mapping[str, Any], fail: Fail) -> type[Machine]:
    game = doc.get("game")
    if game is not None and not isinstance(game, str):
        raise fail("'game' must be a game's name", "game")
    try:
        return game_class(game)
    except GameError as err:
        raise fail(str(err), "game") from None


def _shape(doc: Mapping[str, Any], cls: type[ScenarioSpec], fail: Fail) -> Any:
    """The file structured by its game's declarations: every shape error at once."""
    spec, found = structure(dict(doc), cls)
    if spec is None:
        errors = [fail(msg, *p) for p, msg in found]
        raise errors[0] if len(errors) == 1 else RulesErrors(errors)
    return spec


# ====================================================================== compiling the steps
def _compile_steps(doc: Mapping[str, Any], st: Machine, own: tuple[tuple[str, StepKey], ...],
                   smap: SourceMap, fail: Fail) -> list[_Step]:
    compile_fact = st.scenario_checker()
    return [_compile_step(s, i, st, own, compile_fact, smap, fail)
            for i, s in enumerate(doc.get("step", []))]


def _compile_step(step: Mapping[str, Any], i: int, st: Machine,
                  own: tuple[tuple[str, StepKey], ...], compile_fact: Callable[[str, Any], Any],
                  smap: SourceMap, fail: Fail) -> _Step:
    for k in ("do", "refuse"):  # the schema has checked every key's shape: now the notation
        if k in step:
            _action(st, step[k], fail, "step", i, k)
    for k in ("legal", "illegal", "only_legal"):
        for j, x in enumerate(step.get(k, [])):
            _action(st, x, fail, "step", i, k, j)
    _check_values(step, st, fail, i)
    extras = tuple((sk, sk.compile(step[key], st, fail, "step", i, key))
                   for key, sk in own if key in step)
    checks = []
    for j, text in enumerate(step.get("expect", [])):
        p = ("step", i, "expect", j)
        fn, left, right, left_text = compile_fact(text, smap.origin(p, text))
        checks.append((text, fn, left, right, left_text, smap.locate(p)))
    return _Step(i + 1, smap.locate(("step", i)).prefix(), step, tuple(checks), extras)


def _check_values(step: Mapping[str, Any], st: Machine, fail: Fail, i: int) -> None:
    """What the schema cannot see in the event texts, `only_legal` and `returns`: an empty
    text, a player the game does not have, a return for each player."""
    n = st.num_players()
    for key, _, how in (*_EVENT_KEYS, ("events_in_order", True, "words")):
        for j, text in enumerate(step.get(key, [])):
            if how == "words" and not text.split():
                raise fail("an empty text: give the words an event must hold", "step", i,
                           key, j)
    for j, x in enumerate(step.get("only_legal", [])):
        who = st.registry.parse(x).player
        if who >= n:
            raise fail(f"{x!r}: no player p{who + 1} in a {n}-player game", "step", i,
                       "only_legal", j)
    if "returns" in step and len(step["returns"]) != n:
        raise fail(f"{len(step['returns'])} returns for a {n}-player game: give one per "
                   "player, p1 first", "step", i, "returns")


def _action(st: Machine, text: str, fail: Fail, *path: Any) -> Action:
    try:
        return st.registry.parse(text)
    except GameError as err:
        raise fail(str(err), *path) from None


# ====================================================================== playing the steps
def _play(st: Machine, steps: list[_Step], always: tuple[bool, bool]) -> list[str]:
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
        except Stop as stop:
            failures.append(f"{step.where}: step {step.n}: {stop}")
            if k + 1 < len(steps):
                rest = f"{k + 2}" if k + 2 == len(steps) else f"{k + 2}-{len(steps)}"
                failures.append(f"{step.where}: step {step.n}: the game cannot go on: "
                                f"step {rest} not run")
            break
    return failures


def _guard(run: Callable[[], Any]) -> Any:
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


def _run_checks(st: Machine, before: Machine | None, step: _Step, invariants: bool,
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


def _run_step(st: Machine, step: _Step, seen: int) -> list[str]:
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
    for key, wanted, how in _EVENT_KEYS:
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


def _expectations(st: Machine, step: _Step) -> list[str]:
    out = []
    ctx = st.NO_CONTEXT
    for shown, fn, left, right, left_text, loc in step.checks:
        if not fn(st, ctx):
            detail = ""
            if left is not None and right is not None:
                detail = f" ({left_text} is {left(st, ctx)!r}, expected {right(st, ctx)!r})"
            out.append(f"{loc.prefix()}: step {step.n}: expected {shown}{detail}")
    return out
