"""Whole games under a policy, over a grid of missions x difficulties x player counts.

Game i of a cell is played from seed `seed + i`, with the policy seeded the same way, so a
report depends only on its arguments: one worker or several give the same numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from .core.art.state import State
from .core.errors import GameError
from .policies import POLICIES, Policy, cautious_policy, check_policy, random_policy

MAX_DECISIONS = 100_000  # a game that needs more has a rule that never ends: an error
MAX_GAMES = 1_000_000  # games a cell (as the command line's --games)
MAX_WORKERS = 64  # processes (as the command line's --workers)

__all__ = ["POLICIES", "Cell", "cautious_policy", "play", "random_policy", "simulate",
           "simulate_grid", "wilson"]


def play(st: State, policy: Policy, limit: int = MAX_DECISIONS) -> int:
    """Play `st` to its end; the number of decisions taken. With explicit chance, each
    chance node takes the outcome the game's own generator draws (the policy decides the
    decisions only)."""
    n = 0
    while st.outcome is None:
        if st.explicit and st.is_chance_node():
            st.apply(st.sample_chance())
            continue
        st.apply(policy(st))
        n += 1
        if n >= limit:
            raise GameError(f"the game did not end within {limit} decisions")
    return n


def cause_of(reason: str) -> str:
    """A loss reason with the player named generically, to count causes together."""
    return re.sub(r"\bp[1-9]\b", "a player", reason)


def wilson(won: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = won / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


@attrs.frozen
class Cell:
    """One mission x difficulty x player count of a grid."""

    mission: str
    difficulty: str
    players: int


def simulate_grid(missions: Sequence[str | Path], difficulties: Sequence[str],
                  players: Sequence[int], games: int, seed: int,
                  variants: Iterable[str | Path] = (), policy: str = "heuristic",
                  workers: int = 1,
                  progress: Callable[[int], None] | None = None, backend: Any = None,
                  store: Any = None, game: str = "art-project") -> list[dict[str, Any]]:
    """A report per cell of the grid, in grid order; the same arguments, the same report.

    `backend` (artproject.backends) runs the games elsewhere, a pool of `workers` processes
    here by default; `store` (artproject.store.Store) keeps every game's row and lets an
    interrupted sweep resume (artproject.sweep). `game="art-of-war"` plays the second game:
    `missions` its rules (`["art-of-war"]`), `difficulties` `["-"]`, `policy` the policies
    seated in turn (`"heuristic,random"`), and each cell reports per seat and per policy
    (artproject/aow/simulate.py).
    """
    from .backends import LocalBackend
    from .sweep import grid_of, run_sweep

    _check_grid(missions, difficulties, players, games, seed, variants, policy, workers,
                progress, game)
    if game != "art-project":
        from .core.games import game_tools

        game_tools(game).policy_names(policy)
    else:
        check_policy(policy)  # GameError for an unknown policy, option or a value out of range
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

    for name, items in (("missions", missions), ("difficulties", difficulties)):
        if not checks.refs(items, name):
            raise GameError(f"{name} must name at least one")
    if isinstance(players, str | bytes) or not isinstance(players, Iterable) or not players:
        raise GameError(f"players must be a list of team sizes, not {checks.what(players)}")
    for i, p in enumerate(players):
        checks.whole(p, f"players[{i}]", 1, 7)
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
