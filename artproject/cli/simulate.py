"""`artproject simulate`: a grid of games on a backend, into a store, as a table, JSON or CSV."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .options import (
    _backend,
    _check_counts,
    _game,
    _items,
    _list,
    _paths_given,
    _players,
    _policy_key,
    _variants_once,
)
from .output import _Interrupted, _say

TYPE_CHECKING = False  # typing itself is not imported: the command starts the sooner
if TYPE_CHECKING:
    from typing import Any


def _simulate(args: argparse.Namespace) -> int:
    """simulate, any game's: its rules x its difficulties (a game with any) x player counts,
    its policies, and its table (core/games.py `game_tools`)."""
    from ..core.games import game_tools

    _paths_given(args, store="--store")
    game = _game(args)
    tools = game_tools(game)
    _check_counts(args, policies=False)
    # an unknown policy or option, or a number out of range; then spelt one way, and each
    # variant once, by its shipped name where it is one: the store's keys (docs/scaling.md)
    args.policy = _policy_key(args.policy, tools, game)
    args.variant = _variants_once(args.variant, game)
    missions, diffs, players = _grid(args, game, tools)
    cells = _sweep(args, missions, diffs, players, game=game)
    return _print_cells(args, cells, tools.report_csv, tools.report_text)


def _print_cells(args: argparse.Namespace, cells: list[dict[str, Any]],
                 csv: Callable[[list[dict[str, Any]]], str],
                 text: Callable[[list[dict[str, Any]]], str]) -> int:
    """A sweep's cells as JSON, CSV (`csv`) or the game's table (`text`)."""
    if args.json:
        import json

        print(json.dumps(cells, indent=1))
    elif args.csv:
        print(csv(cells), end="")
    else:
        print(text(cells))
    return 0


def _grid(args: argparse.Namespace, game: str, tools: Any,
          ) -> tuple[list[str], list[str], list[int]]:
    """The rules files, difficulties and player counts; every rules file loads before a
    game. `all` is every shipped rules file of the game (its tools' `shipped_rules`, else its
    own rules); the difficulties are those every rules file has (`_difficulties`; none:
    `-`, for a game without)."""
    from ..core.games import game_class

    title = game_class(game).TITLE
    if args.mission == "all":
        missions = list(getattr(tools, "shipped_rules", lambda: [tools.DEFAULT_RULES])())
    else:
        missions = _items(_rules_ref(args.mission, tools), "--mission",
                          f"{title}'s rules: a shipped name or a file, a list, or all")
    missions, loaded = _distinct(missions, _loaded(missions, args.variant, tools), tools)
    ranges = [tools.players(rules) for rules in loaded]
    players = _players(args.players, low=max(lo for lo, _ in ranges),
                       high=min(hi for _, hi in ranges))  # what every rules file allows
    return (missions, _difficulties(args.difficulty, tools, dict(zip(missions, loaded,
                                                                      strict=True)), title),
            players)


def _loaded(missions: list[str], variants: list[str], tools: Any) -> list[Any]:
    """Each rules file with the variants layered on; a variant named by a file that is
    there without .toml (`v.json`) is told why it was read as a shipped name, as a mission
    is (core/art/loader.py)."""
    from pathlib import Path

    from ..core.errors import ArtError, GameError
    from ..core.sources import is_name

    try:
        return [tools.load_rules(m, variants) for m in missions]
    except ArtError as err:
        for ref in variants:
            if is_name(ref) and f"unknown variant {ref!r}" in str(err) and Path(ref).is_file():
                raise GameError(f"{err}; the file {ref} is there, but a variant file's name "
                                "ends in .toml (a name without is a shipped variant's): "
                                f"rename it {ref}.toml") from None
        raise


def _distinct(missions: list[str], loaded: list[Any], tools: Any,
              ) -> tuple[list[str], list[Any]]:
    """The rules files once each by what they are, not how they were named: a file named
    twice (by its path and by its name) is counted once, with a note, as `NAME,NAME` is;
    two different rules of one name are refused (a row of the results is named by its
    mission: two such rows could not be told apart, and the store would mix them up)."""
    from ..core.errors import GameError

    seen: dict[str, tuple[str, str]] = {}  # rules name -> (digest, the first reference)
    twice: dict[str, list[str]] = {}
    keep = []
    for ref, rules in zip(missions, loaded, strict=True):
        digest = str(tools.rules_digest(rules))
        first = seen.setdefault(rules.name, (digest, ref))
        if first[1] == ref:
            keep.append((ref, rules))
        elif first[0] == digest:
            twice.setdefault(rules.name, [first[1]]).append(ref)
        else:
            raise GameError(f"--mission: {first[1]} and {ref} are both the mission "
                            f"{rules.name!r}, with different rules; a row of the results is "
                            "named by its mission: simulate them one at a time, or give one "
                            "another name")
    for name, refs in twice.items():
        _say(f"artproject: note: --mission names {name} more than once ({', '.join(refs)}); "
             "each is counted once")
    return [ref for ref, _ in keep], [rules for _, rules in keep]


def _rules_ref(mission: str | None, tools: Any) -> str:
    """--mission as the game reads it: not given, the game's own rules (the default game's:
    its first board); given, what it names, which the game's loader refuses when it is
    another game's."""
    return str(tools.DEFAULT_RULES) if mission is None else mission


def _difficulties(text: str, tools: Any, loaded: dict[str, Any], title: str) -> list[str]:
    """--difficulty among the rules' (a game with difficulties: its tools' `difficulties`);
    a game without any takes the one cell `-`, and refuses one named.

    Every cell of the grid plays every mission, so a difficulty named must be one of each
    mission's (refused naming the missions without it), and `all` is those they all have,
    in the first's order (a note names what some have and others do not)."""
    from ..core.errors import GameError
    from ..sweep import NO_DIFFICULTY

    if not hasattr(tools, "difficulties"):
        if text != "medium":  # (the option's default)
            raise GameError(f"--difficulty {text!r}: {title} has no difficulty")
        return [NO_DIFFICULTY]
    own = {m: list(tools.difficulties(rules)) for m, rules in loaded.items()}
    every = [d for d in next(iter(own.values())) if all(d in ds for ds in own.values())]
    some = list(dict.fromkeys(d for ds in own.values() for d in ds if d not in every))
    if text == "all":
        return _shared(own, every, some)
    chosen = _list(text, every + some, "difficulty", "--difficulty")
    for d in chosen:
        lacking = [m for m, ds in own.items() if d not in ds]
        if lacking:
            raise GameError(f"--difficulty {d!r}: not a difficulty of {', '.join(lacking)} "
                            f"(whose are {', '.join(own[lacking[0]])}); every mission given "
                            "plays every difficulty: simulate them one at a time")
    return chosen


def _shared(own: dict[str, list[str]], every: list[str], some: list[str]) -> list[str]:
    """`--difficulty all` of several missions: the difficulties they all have (`every`),
    with a note naming the others (`some`) and the missions without them."""
    from ..core.errors import GameError

    if not every:
        raise GameError("--difficulty all: the missions share no difficulty ("
                        + "; ".join(f"{m}: {', '.join(ds)}" for m, ds in own.items())
                        + "): simulate them one at a time")
    if some:
        _say("artproject: note: --difficulty all plays the difficulties every mission has "
             f"({', '.join(every)}); not " + "; ".join(
                 f"{d} (not in {', '.join(m for m, ds in own.items() if d not in ds)})"
                 for d in some))
    return every


def _sweep(args: argparse.Namespace, missions: Sequence[str], diffs: Sequence[str],
           players: Sequence[int], game: str) -> list[dict[str, Any]]:
    """Run simulate's grid on its backend, into its store, with a progress bar; Ctrl-C stops
    the workers, keeps every finished batch in the store, and ends with one line."""
    from tqdm import tqdm

    from ..interrupts import sigint_deferred
    from ..store import Store
    from ..sweep import grid_of, plan_sweep, run_plan

    backend = store = None
    # Ctrl-C is held, and acted on between steps, from the backend's start to the sweep's
    # end: raised at any bytecode it could land in a Dask callback and be lost
    with sigint_deferred() as asked:
        try:
            backend = _backend(args)  # before the store: a cluster that does not answer
            store = Store.open(args.store) if args.store is not None else None  # (as
            # the cluster: a store refused changes nothing)
            if store is not None:  # a policy stored spelt out (before defaults were left
                store.respell(game, lambda p: _respelt(p, game))  # out) joins its cell
            grid = grid_of(missions, diffs, players, args.games, args.seed, args.variant,
                           args.policy, game)
            plan = plan_sweep(grid, store, backend.workers, lambda: _stop_if(asked))
            _stop_if(asked)
            return _swept(plan, backend, store, tqdm, run_plan, asked)
        finally:
            if backend is not None:
                backend.close()
            if store is not None:
                store.close()


def _respelt(policy: str, game: str) -> str:
    """A stored policy as the store keys it now (one it cannot read, a plug-in's not
    registered here, as it is)."""
    from ..core.errors import GameError
    from ..simulate import policy_key

    try:
        return policy_key(policy, game)
    except GameError:
        return policy


def _stop_if(asked: list[int]) -> None:
    """KeyboardInterrupt if Ctrl-C was pressed (while it was held)."""
    if asked:
        raise KeyboardInterrupt


def _swept(plan: Any, backend: Any, store: Any, tqdm: Any,
           run_plan: Callable[..., list[dict[str, Any]]], asked: list[int],
           ) -> list[dict[str, Any]]:
    """A planned sweep run with its progress bar; Ctrl-C tells what the store kept (one
    pressed as the last games ended too: held meanwhile, it is never lost)."""
    with tqdm(total=plan.total, initial=plan.done, unit="game", file=sys.stderr,
              disable=None, leave=False, desc="simulating", smoothing=0.1) as bar:
        def advance(n: int) -> None:
            bar.update(n)

        try:
            done = run_plan(plan, backend, store, advance)
            _stop_if(asked)
            return done
        except KeyboardInterrupt:
            bar.close()
            if store is None:
                raise
            raise _Interrupted(f"interrupted; {store.path} keeps every game finished "
                               f"({store.count()} in all): run the same command again "
                               "to play the rest") from None
