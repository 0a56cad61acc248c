"""Property-based rules verification, any game's: can these rules ever break?

`verify()` asks the game (its tools' `verify`: core/games.py `game_tools`) to drive games
through legal actions chosen by Hypothesis (`search`), over every player count (and the
game's own axes: The A.R.T. Project's difficulties), checking after every step the game's
invariants (`check_invariants`) and whatever else the game checks (`play_checked`). A
failure is shrunk by Hypothesis to a short action sequence, which the game's
`counterexample_scenario` writes as a scenario file that reproduces it (`scenario_text`).
Imported only by `artproject verify`, the games' tools and the tests: Hypothesis stays out
of the core's import path.
"""

from __future__ import annotations

import json
import pickle
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final

import attrs

from .core.actions import Action
from .core.errors import ArtError
from .core.games import DEFAULT, game_tools
from .core.invariants import (
    Violation,
    check_chance_replayed,
    check_invariants,
    check_properties,
    check_resample,
    check_step,
)
from .core.saves import dumps, loads


# ====================================================================== one game
@attrs.frozen
class Example:
    """One game to try: who plays, at what difficulty, from which seed, with which choices."""

    players: int
    difficulty: str
    seed: int
    picks: tuple[int, ...]


def choose(legal: Sequence[Action], pick: int) -> Action:
    """A pick number (from 1) to an action: a verb first, then one of its actions."""
    pick -= 1
    verbs = sorted({a.verb for a in legal})
    verb = verbs[pick % len(verbs)]
    same = [a for a in legal if a.verb == verb]
    return same[(pick // len(verbs)) % len(same)]


@attrs.define
class Outcome:
    actions: list[str]
    steps: int
    violation: Violation | None = None


def play_checked(start: Callable[[], Any], ex: Example, default: Callable[[Any], Action],
                 max_steps: int, why_endless: str, check: Callable[[Any], None],
                 saves: bool, deep: bool) -> Outcome:
    """Any game's example: `start()` its game, take the example's picks (then `default`'s),
    check the invariants, the step and `check` after every decision; with `deep`, at a few
    positions in play a clone's move leaves its original alone (and the original's its
    clone) and the same action on each gives the same game, and after the game the same
    seed and actions give the same game and, with `saves`, a saved and loaded game is the
    same. Stop at the first violation."""
    actions: list[str] = []
    picks = iter(ex.picks)
    try:
        st = start()
        check_invariants(st)
        check(st)
        while st.outcome is None:
            if len(actions) >= max_steps:
                raise Violation(f"the game did not end within {max_steps} decisions{why_endless}")
            pick = next(picks, 0)
            action = choose(st.legal_actions(), pick) if pick else default(st)
            if deep and _probed(len(actions)):
                check_resample(st, len(actions))
                before = _apply_beside_clones(st, action)
            else:
                before = st.clone()
                st.apply(action)
            actions.append(str(action))
            check_invariants(st)
            check_step(before, action, st)
            check(st)
        if deep:
            _check_determinism(start, st, saves)
    except Violation as v:
        return Outcome(actions, len(actions), v)
    except ArtError as err:  # a rule file that makes the engine fail
        return Outcome(actions, len(actions), Violation(f"the engine refused: {err}"))
    return Outcome(actions, len(actions))


def _check_determinism(start: Callable[[], Any], st: Any, saves: bool) -> None:
    again = start()
    for a in st.history:
        again.apply(a)
    if again.fingerprint() != st.fingerprint():
        raise Violation("the same seed and actions gave a different game")
    if saves and loads(dumps(st)).fingerprint() != st.fingerprint():
        raise Violation("a saved and loaded game differs from the original")
    check_chance_replayed(st)
    check_resample(st)


def _probed(step: int) -> bool:
    """The decisions at which a game in play is cloned and both copies moved (the first,
    then the 2nd, 4th, 8th...: a few positions at every depth, a handful a game)."""
    return step & (step - 1) == 0


def _apply_beside_clones(st: Any, action: Action) -> Any:
    """Apply `action` to `st`, a game in play, checking that its clones are independent: a
    clone's move leaves the original as it was, the original's move leaves a clone taken
    before it as it was, and the same action on each gives the same game. The clone taken
    before the move, returned (for `check_step`)."""
    was = _snapshot(st)
    before, twin = st.clone(), st.clone()
    twin.apply(action)
    if _snapshot(st) != was:
        raise Violation(f"a clone's move ({action}) changed its original")
    st.apply(action)
    if _snapshot(before) != was:
        raise Violation(f"a move ({action}) changed a clone taken before it")
    if twin.fingerprint() != st.fingerprint():
        raise Violation(f"the same action ({action}) on a game and on its clone gave "
                        "different games")
    return before


def _snapshot(st: Any) -> Any:
    """The game's fingerprint as it is now (a fingerprint may hold the game's own lists,
    which a later move would change under it): a deep copy, by pickle (plain data: the
    quickest deep copy)."""
    return pickle.loads(pickle.dumps(st.fingerprint(), pickle.HIGHEST_PROTOCOL))


# ====================================================================== the search
@attrs.frozen
class Report:
    mission: str
    examples: int
    games: int
    steps: int
    players: tuple[int, ...]
    difficulties: tuple[str, ...]
    properties: tuple[str, ...]
    failure: Outcome | None = None
    example: Example | None = None

    def as_dict(self) -> dict[str, Any]:
        d = {"mission": self.mission, "examples": self.examples, "games": self.games,
             "steps": self.steps, "players": list(self.players),
             "difficulties": list(self.difficulties), "properties": list(self.properties),
             "holds": self.failure is None}
        if self.failure is not None and self.example is not None:
            d["counterexample"] = {"players": self.example.players,
                                   "difficulty": self.example.difficulty,
                                   "seed": self.example.seed, "actions": self.failure.actions,
                                   "violation": str(self.failure.violation)}
        return d


def verify(rules: Any, examples: int = 100, seed: int = 0,
           players: Sequence[int] | None = None, difficulties: Sequence[str] | None = None,
           progress: Callable[[int, int, int], None] | None = None,
           game: str = DEFAULT) -> Report:
    """Search a game's games under `rules` for one that breaks an invariant or what else
    the game checks; shrink the first found. `game`: the rules' game (the default game's
    when not given); `players`: the player counts tried (every one the rules allow when
    None); `difficulties` (a game with difficulties: the grid's second axis): those tried,
    every one of the rules' when None."""
    tools = _check_verify(rules, examples, seed, progress, game)
    low, high = tools.players(rules)
    told = _team_sizes(players, low, high)
    axes = {} if difficulties is None else {
        "difficulties": _difficulties(tools, rules, difficulties, game)}
    found: Report = tools.verify(rules, examples, seed, told, progress, **axes)
    return found


MAX_EXAMPLES: Final = 100_000  # games one search tries (as the command line's --examples)


def _check_verify(rules: Any, examples: Any, seed: Any, progress: Any, game: Any) -> Any:
    """verify's arguments, each of its type and range, and the rules the game's own (GameError
    naming the argument and what it takes): its game's tools."""
    from .core import checks
    from .core.errors import GameError

    tools = game_tools(checks.text(game, "game", empty=False))
    checks.whole(examples, "examples", 1, MAX_EXAMPLES)
    checks.seed(seed)
    if progress is not None and not callable(progress):
        raise GameError(f"progress must be a function of (games, examples, decisions), not "
                        f"{checks.what(progress)}")
    _check_rules(rules, game)
    return tools


def _check_rules(rules: Any, game: str) -> None:
    """Rules loaded for `game` (its state class declares their class: `rules: ...`);
    GameError naming what they are instead (another game's, or no rules at all)."""
    from .core.checks import what
    from .core.errors import GameError
    from .core.games import game_names
    from .core.sources import LoadedRules

    if not isinstance(rules, LoadedRules):
        raise GameError(f"rules must be a game's rules (from load_rules), not {what(rules)}")
    if isinstance(rules, _rules_class(game)):
        return
    theirs = [g for g in game_names() if isinstance(rules, _rules_class(g))]
    of = f"the {theirs[0]!r} game's" if theirs else "not its game's"
    raise GameError(f"the rules given ({rules.name}) are {of}, not rules of the game "
                    f"{game!r}: load them with the game's load_rules, or name their game "
                    "(game=...)")


def _rules_class(game: str) -> type:
    """The class of `game`'s rules, as its state class declares its `rules` field (any
    rules, where it declares none the tools can read)."""
    import typing

    from .core.games import game_class
    from .core.sources import LoadedRules

    try:
        declared = typing.get_type_hints(game_class(game)).get("rules")
    except (NameError, TypeError, AttributeError):  # (an annotation that cannot be resolved)
        declared = None
    return declared if isinstance(declared, type) else LoadedRules


def _team_sizes(players: Any, low: int, high: int) -> tuple[int, ...]:
    """The player counts to try: every one the rules allow (None), or those given, a list of
    whole numbers from `low` to `high` (GameError naming the one that is not)."""
    from .core import checks

    if players is None:
        return tuple(range(low, high + 1))
    return checks.sizes(players, "players", low, high)


def _difficulties(tools: Any, rules: Any, difficulties: Any, game: str) -> tuple[str, ...]:
    """The difficulties to try, a list of the rules' own (GameError naming one that is not,
    or any given for a game without difficulties)."""
    from .core import checks
    from .core.errors import GameError, closest
    from .core.games import game_class

    if not hasattr(tools, "difficulties"):
        raise GameError(f"difficulties: {game_class(game).TITLE} has no difficulty (leave "
                        "it None)")
    known = list(tools.difficulties(rules))
    names = checks.refs(difficulties, "difficulties")
    for i, d in enumerate(names):
        if checks.text(d, f"difficulties[{i}]") not in known:
            raise GameError(f"difficulties[{i}]: unknown difficulty {d!r}"
                            f"{closest(str(d), known)}; expected one of: {', '.join(known)}")
    if not names:
        raise GameError("difficulties must name at least one (None: every one)")
    return tuple(map(str, names))


def counterexample_scenario(rules: Any, ref: str, variants: Sequence[str], ex: Example,
                            failure: Outcome, game: str = DEFAULT) -> str:
    """A scenario file (TOML text) that replays a counterexample of `game`'s (the default
    game's when not given), by the game's tools."""
    return str(game_tools(game).counterexample_scenario(rules, ref, variants, ex, failure))


def search(play: Callable[[Example], Outcome], name: str, examples: int, seed: int,
           players: Sequence[int], diffs: tuple[str, ...], properties: tuple[str, ...],
           progress: Callable[[int, int, int], None] | None) -> Report:
    """Search the games `play` plays (one per Example of these players and difficulties)
    for one that breaks; shrink the first found (any game's verify: its rules' `name`,
    the `properties` they check)."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis import strategies as hs
    from hypothesis.errors import NoSuchExample

    strategy = hs.builds(Example, hs.sampled_from(tuple(players)), hs.sampled_from(diffs),
                         hs.integers(0, 2**32 - 1),
                         hs.lists(hs.one_of(hs.just(0), hs.integers(1, 10**6)),
                                  max_size=200).map(tuple))
    tally = {"games": 0, "steps": 0}

    def breaks(ex: Example) -> bool:
        out = play(ex)
        tally["games"] += 1
        tally["steps"] += out.steps
        if progress is not None:
            progress(tally["games"], examples, tally["steps"])
        return out.violation is not None

    # The seed makes the search itself repeatable: the same seed, the same examples.
    import random

    state = random.getstate()
    random.seed(seed)
    try:
        with _hypothesis_home():
            ex = find(strategy, breaks, settings=settings(
                max_examples=examples, database=None, deadline=None, derandomize=False,
                phases=[Phase.generate, Phase.shrink],
                suppress_health_check=list(HealthCheck)), random=random.Random(seed))
    except NoSuchExample:
        return Report(name, examples, tally["games"], tally["steps"], tuple(players), diffs,
                      properties)
    finally:
        random.setstate(state)
    failure = play(ex)
    return Report(name, examples, tally["games"], tally["steps"], tuple(players), diffs,
                  properties, failure, ex)


@contextmanager
def _hypothesis_home() -> Iterator[None]:
    """Hypothesis's own files (it keeps some even with no database: `.hypothesis/constants`)
    in a folder of the search's own, removed after it, never `.hypothesis/` in the folder
    verify is run from; the home Hypothesis had (the test suite's) put back. The home is
    the process's: one search at a time holds it (searches in threads wait their turn, as
    they must for the `random` state `search` seeds too)."""
    import tempfile

    from hypothesis import configuration

    with _HOME, tempfile.TemporaryDirectory(prefix="artproject-verify-") as home:
        # (the home set before, if any: Hypothesis has no public way to read it)
        before = vars(configuration).get("__hypothesis_home_directory")
        configuration.set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(before)


_HOME: Final = threading.RLock()  # held by the search that holds Hypothesis's home


def counterexample_head(failure: Outcome, ex: Example, variants: Sequence[str],
                        **keys: Any) -> dict[str, Any]:
    """The keys every game's counterexample scenario starts with (what broke, the team
    size, the seed, the variants, invariants checked after every step), then the game's
    own `keys` (its rules file, its difficulty...)."""
    return {"about": f"Counterexample found by artproject verify: {failure.violation}",
            "cites": ["artproject verify"], **keys, "variants": list(variants),
            "players": ex.players, "seed": ex.seed, "invariants": True}


def scenario_text(head: dict[str, Any], failure: Outcome) -> str:
    """A counterexample's scenario file (TOML text), any game's: `head`'s keys, then the
    failure's actions as steps, the last noting what broke (the set-up, if none was taken)."""
    import tomli_w

    v = failure.violation
    steps: list[dict[str, Any]] = [{"do": a} for a in failure.actions]
    if steps:
        steps[-1]["note"] = f"the step that breaks: {v}"
    else:
        steps.append({"note": f"the setup breaks: {v}"})
    return tomli_w.dumps({**head, "step": steps})


def report_json(report: Report) -> str:
    return json.dumps(report.as_dict(), indent=1)


__all__ = ["Example", "Outcome", "Report", "Violation", "check_invariants", "check_properties",
           "check_step", "counterexample_scenario", "play_checked", "scenario_text", "search",
           "verify"]
