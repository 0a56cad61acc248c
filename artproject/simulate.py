"""Whole games under a policy, over a grid of rules x difficulties x player counts, any game's.

Game i of a cell is played from seed `seed + i`, with the policy seeded the same way, so a
report depends only on its arguments: one worker or several give the same numbers. What a
game of each game is, and what its cell reports, is the game's own (its tools' `play_one`
and `summary`: core/games.py `game_tools`); the grid, the workers and the store are these.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from .core.games import DEFAULT, game_tools
from .loop import MAX_DECISIONS, cause_of, play, wilson

MAX_GAMES = 1_000_000  # games a cell (as the command line's --games)
MAX_WORKERS = 64  # processes (as the command line's --workers)
_EMPTY = inspect.Parameter.empty  # a factory's option without a default

__all__ = ["MAX_DECISIONS", "Cell", "cause_of", "play", "policy_key", "simulate", "simulate_grid",
           "wilson"]


@attrs.frozen
class Cell:
    """One rules file x difficulty x player count of a grid."""

    mission: str
    difficulty: str
    players: int


def simulate_grid(missions: Sequence[str | Path], difficulties: Sequence[str],
                  players: Sequence[int], games: int, seed: int,
                  variants: Iterable[str | Path] = (), policy: str = "heuristic",
                  workers: int = 1,
                  progress: Callable[[int], None] | None = None, backend: Any = None,
                  store: Any = None, game: str = DEFAULT) -> list[dict[str, Any]]:
    """A report per cell of the grid, in grid order; the same arguments, the same report.

    `backend` (artproject.backends) runs the games elsewhere, a pool of `workers` processes
    here by default; `store` (artproject.store.Store) keeps every game's row and lets an
    interrupted sweep resume (artproject.sweep). `game` names the game played (the default
    game when not given): `missions` are its rules files, `difficulties` `["-"]` for a game
    without any, `policy` what its tools' `policy_names` reads (a competitive game seats a
    list in turn: `"heuristic,random"`), and each cell reports what its tools' `summary`
    makes of its games. A cell named twice (a difficulty twice, a rules file by its name
    and by its path) is played once and reported at each place; a difficulty the rules do
    not have (any but `"-"` for a game without) is a GameError naming it, before a game.
    """
    from .backends import LocalBackend
    from .sweep import grid_of, run_sweep

    _check_grid(missions, difficulties, players, games, seed, variants, policy, workers,
                progress, game)
    # GameError: an unknown policy, option or value; then spelt as the store keys it
    policy = policy_key(policy, game)
    grid = grid_of(missions, difficulties, players, games, seed, variants, policy, game)
    own = backend is None
    runner = LocalBackend(workers) if backend is None else backend
    try:
        return run_sweep(grid, runner, store, progress)
    finally:
        if own:
            runner.close()


def _check_grid(missions: Any, difficulties: Any, players: Any, games: Any, seed: Any,
                variants: Any, policy: Any, workers: Any, progress: Any, game: Any) -> None:
    """simulate_grid's arguments, each of its type and range (GameError naming it)."""
    from .core import checks
    from .core.errors import GameError

    for name, items in (("missions", missions), ("difficulties", difficulties)):
        if not checks.refs(items, name):
            raise GameError(f"{name} must name at least one")
    for i, d in enumerate(difficulties):  # (a difficulty is a name, never a file)
        checks.text(d, f"difficulties[{i}]")
    checks.sizes(players, "players", 1, 7)
    checks.whole(games, "games", 1, MAX_GAMES)
    checks.whole(seed, "seed", checks.SEED[0], checks.SEED[1] - games)
    checks.refs(variants, "variants")
    checks.text(policy, "policy", empty=False)
    checks.whole(workers, "workers", 1, MAX_WORKERS)
    if progress is not None and not callable(progress):
        raise GameError(f"progress must be a function of the games done, not "
                        f"{checks.what(progress)}")
    checks.text(game, "game")


def simulate(mission: str | Path, players: int, difficulty: str, games: int, seed: int,
             variants: Iterable[str | Path] = (), policy: str = "heuristic") -> dict[str, Any]:
    """One cell: `games` games from seeds seed, seed+1, ..."""
    from .core import checks

    checks.ref(mission, "mission")
    checks.whole(players, "players", 1, 7)
    checks.text(difficulty, "difficulty")
    return simulate_grid([mission], [difficulty], [players], games, seed, variants, policy)[0]


def policy_key(text: str, game: str = DEFAULT) -> str:
    """A policy as the store keys it: each policy's options in alphabetical order, each value
    spelt one way, and an option at its default left out (`ismcts:depth=5, budget=2` is
    `ismcts:budget=2,depth=5`, `ismcts:budget=32` is `ismcts`), so that one policy spelt two
    ways is one cell of the store, never its games counted twice (docs/scaling.md).
    GameError naming an unknown policy or option, or a value out of its range."""
    from .policies import policies_of, policy_spec

    known = policies_of(game)
    out = []
    for spec in game_tools(game).policy_names(text):
        name, options = policy_spec(spec, known)
        try:
            params = inspect.signature(known[name]).parameters
        except (TypeError, ValueError):  # (a factory without one: every option kept)
            params = {}  # type: ignore[assignment]
        spelt = ",".join(f"{k}={_spelt(options[k])}" for k in sorted(options)
                         if k not in params or not _same(params[k].default, options[k]))
        out.append(f"{name}:{spelt}" if spelt else name)
    return ",".join(out)


def _same(default: Any, value: Any) -> bool:
    """Whether an option's value is its default (a number by value, 32 as 32.0)."""
    if default is _EMPTY:
        return False
    if isinstance(default, bool) or isinstance(value, bool):
        return default is value
    return bool(default == value)


def _spelt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
