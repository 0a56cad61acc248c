"""`artproject simulate`: a grid of games on a backend, into a store, as a table, JSON or CSV."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Sequence

from ..missions import DEFAULT
from .options import _backend, _check_counts, _game, _items, _list, _players
from .output import _Interrupted

TYPE_CHECKING = False  # typing itself is not imported: the command starts the sooner
if TYPE_CHECKING:
    from typing import Any


def _simulate(args: argparse.Namespace) -> int:
    if _game(args) != "art-project":
        return _simulate_war(args)
    _check_counts(args)
    missions, diffs, players = _grid(args)
    cells = _sweep(args, missions, diffs, players)
    return _print_cells(args, cells, report_csv, report_text)


def _simulate_war(args: argparse.Namespace) -> int:
    """simulate --game NAME (another game than the default): seat policies, per-seat and
    per-policy results, by the game's own tools (core/games.py `game_tools`)."""
    from ..core.errors import GameError
    from ..core.games import game_class, game_tools

    game = _game(args)
    tools, title = game_tools(game), game_class(game).TITLE
    _check_counts(args, policies=False)
    tools.policy_names(args.policy)
    if args.difficulty != "medium":
        raise GameError(f"--difficulty {args.difficulty!r}: {title} has no difficulty")
    rules = tools.DEFAULT_RULES if args.mission in (DEFAULT, "all") else args.mission
    missions = _items(rules, "--mission", f"{title}'s rules: {tools.DEFAULT_RULES} or a file")
    ranges = [tools.players(tools.load_rules(m, args.variant)) for m in missions]
    players = _players(args.players, low=max(lo for lo, _ in ranges),
                       high=min(hi for _, hi in ranges))  # what every rules file allows
    cells = _sweep(args, missions, ["-"], players, game=game)
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


def _grid(args: argparse.Namespace) -> tuple[list[str], list[str], list[int]]:
    """The missions, difficulties and player counts; every mission loads before a game."""
    from ..core.art.loader import shipped_missions

    missions = (shipped_missions() if args.mission == "all" else
                _items(args.mission, "--mission", "a mission's name or file, a list, or all"))
    rules = _rules_for(missions[0], args.variant)
    diffs = _list(args.difficulty, list(rules.difficulties), "difficulty", "--difficulty")
    players = _players(args.players)
    for m in missions[1:]:
        _rules_for(m, args.variant)
    return missions, diffs, players


def _sweep(args: argparse.Namespace, missions: Sequence[str], diffs: Sequence[str],
           players: Sequence[int], game: str = "art-project") -> list[dict[str, Any]]:
    """Run simulate's grid on its backend, into its store, with a progress bar; Ctrl-C stops
    the workers, keeps every finished batch in the store, and ends with one line."""
    from tqdm import tqdm

    from ..backends import sigint_deferred
    from ..store import Store
    from ..sweep import grid_of, plan_sweep, run_plan

    backend = store = None
    # Ctrl-C is held, and acted on between steps, from the backend's start to the sweep's
    # end: raised at any bytecode it could land in a Dask callback and be lost
    with sigint_deferred() as asked:
        try:
            backend = _backend(args)  # before the store: a cluster that does not answer
            store = Store.open(args.store) if args.store else None  # changes nothing
            grid = grid_of(missions, diffs, players, args.games, args.seed, args.variant,
                           args.policy, game)
            plan = plan_sweep(grid, store, backend.workers, lambda: _stop_if(asked))
            _stop_if(asked)
            return _swept(plan, backend, store, tqdm, run_plan)
        finally:
            if backend is not None:
                backend.close()
            if store is not None:
                store.close()


def _stop_if(asked: list[int]) -> None:
    """KeyboardInterrupt if Ctrl-C was pressed (while it was held)."""
    if asked:
        raise KeyboardInterrupt


def _swept(plan: Any, backend: Any, store: Any, tqdm: Any,
           run_plan: Callable[..., list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """A planned sweep run with its progress bar; Ctrl-C tells what the store kept."""
    with tqdm(total=plan.total, initial=plan.done, unit="game", file=sys.stderr,
              disable=None, leave=False, desc="simulating", smoothing=0.1) as bar:
        def advance(n: int) -> None:
            bar.update(n)

        try:
            return run_plan(plan, backend, store, advance)
        except KeyboardInterrupt:
            bar.close()
            if store is None:
                raise
            raise _Interrupted(f"interrupted; {store.path} keeps every game finished "
                               f"({store.count()} in all): run the same command again "
                               "to play the rest") from None


def _rules_for(mission: str, variants: Sequence[str]) -> Any:
    from ..core.art.loader import load_rules

    return load_rules(mission, variants)


def report_text(cells: list[dict[str, Any]]) -> str:
    """The Hall of Fame: win rates with 95% confidence intervals, then the causes of loss."""
    from tabulate import tabulate

    first = cells[0]
    head = (f"Hall of Fame: {first['policy']} policy, {first['games']} games a row, seeds "
            f"{first['seed']}..{first['seed'] + first['games'] - 1}"
            + (f", variants {', '.join(first['variants'])}" if first["variants"] else ""))
    rows = [[c["mission"], c["difficulty"], c["players"], c["won"], c["games"],
             f"{100 * c['win_rate']:.1f}%",
             f"{100 * c['ci95'][0]:.1f}-{100 * c['ci95'][1]:.1f}%",
             f"{c['average_rounds']:.1f}", next(iter(c["causes"]), "")] for c in cells]
    table = tabulate(rows, headers=["mission", "difficulty", "players", "won", "games",
                                    "win rate", "95% CI", "rounds", "main cause of loss"],
                     tablefmt="simple")
    causes: Counter[str] = Counter()
    for c in cells:
        causes.update(c["causes"])
    lost = sum(c["lost"] for c in cells)
    lines = [head, "", table, "",
             f"causes of loss ({lost} games; the rulings cited are told in docs/rulings.md):"]
    lines += [f"  {k:6d}  {cause}" for cause, k in causes.most_common()]
    return "\n".join(lines)


def report_csv(cells: list[dict[str, Any]]) -> str:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["mission", "difficulty", "players", "games", "won", "win_rate", "ci95_low",
                "ci95_high", "average_rounds", "average_decisions", "main_cause"])
    for c in cells:
        w.writerow([c["mission"], c["difficulty"], c["players"], c["games"], c["won"],
                    f"{c['win_rate']:.4f}", c["ci95"][0], c["ci95"][1],
                    f"{c['average_rounds']:.3f}", f"{c['average_decisions']:.3f}",
                    next(iter(c["causes"]), "")])
    return buf.getvalue()
