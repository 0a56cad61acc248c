"""Whole games under a policy, over a grid of missions x difficulties x player counts.

Game i of a cell is played from seed `seed + i`, with the policy seeded the same way, so a
report depends only on its arguments: one worker or several give the same numbers.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs

from .core.errors import GameError
from .core.saves import new_game
from .core.state import State
from .policies import POLICIES, Policy, cautious_policy, random_policy

MAX_DECISIONS = 100_000  # a game that needs more has a rule that never ends: an error

__all__ = ["POLICIES", "Cell", "cautious_policy", "play", "random_policy", "simulate",
           "simulate_grid", "wilson"]


def play(st: State, policy: Policy, limit: int = MAX_DECISIONS) -> int:
    """Play `st` to its end; the number of decisions taken."""
    n = 0
    while st.outcome is None:
        st.apply(policy(st))
        n += 1
        if n >= limit:
            raise GameError(f"the game did not end within {limit} decisions")
    return n


def cause_of(reason: str) -> str:
    """A loss reason with the player named generically, to count causes together."""
    return re.sub(r"\bp[1-6]\b", "a player", reason)


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


def _play_range(args: tuple[Cell, tuple[str, ...], str, int, int, int],
                ) -> tuple[int, int, int, int, list[str]]:
    """Games seed+start .. seed+stop-1 of a cell: (won, rounds, decisions, games, causes)."""
    cell, variants, policy, seed, start, stop = args
    make = POLICIES[policy]
    won = rounds = decisions = 0
    causes: list[str] = []
    for i in range(start, stop):
        st = new_game(cell.mission, cell.players, cell.difficulty, seed + i, variants)
        decisions += play(st, make(seed + i))
        rounds += st.round
        if st.outcome == "won":
            won += 1
        else:
            causes.append(cause_of(st.reason))
    return won, rounds, decisions, stop - start, causes


Job = tuple[Cell, tuple[str, ...], str, int, int, int]
Result = tuple[int, int, int, int, list[str]]


def _in_pool(jobs: list[Job], workers: int, progress: Callable[[int], None] | None,
             ) -> list[Result]:
    """The jobs' results, in order, from `workers` processes.

    Ctrl-C stops them all at once: the workers ignore SIGINT (a terminal sends it to the
    whole process group), and the main process, on its KeyboardInterrupt, terminates them
    and waits for them before passing it on: no process is left behind.
    """
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with _sigint_held():  # a Ctrl-C while the workers start is kept for after
        pool = ctx.Pool(min(workers, len(jobs)), initializer=_ignore_sigint)
    try:
        results = []
        for r in pool.imap(_play_range, jobs):
            results.append(r)
            if progress is not None:
                progress(r[3])
    except BaseException:
        with _sigint_held():  # a second Ctrl-C must not stop the ending half-way
            pool.terminate()  # SIGTERM to every worker, mid-game or not
            pool.join()
        raise
    pool.close()
    pool.join()
    return results


def _ignore_sigint() -> None:
    """A worker's first step: the Ctrl-C is the main process's to handle."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold a SIGINT while the pool starts (a worker forked meanwhile must not take it as its
    own), then raise KeyboardInterrupt if one came. Outside the main thread: nothing."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    old = signal.signal(signal.SIGINT, lambda *_: came.append(1))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if came:
        raise KeyboardInterrupt


def simulate_grid(missions: Sequence[str | Path], difficulties: Sequence[str],
                  players: Sequence[int], games: int, seed: int,
                  variants: Iterable[str | Path] = (), policy: str = "heuristic", workers: int = 1,
                  progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """A report per cell of the grid, in grid order; the same arguments, the same report."""
    if policy not in POLICIES:
        raise GameError(f"unknown policy {policy!r}; policies: {', '.join(POLICIES)}")
    vs = tuple(str(v) for v in variants)
    cells = [Cell(str(m), d, p) for m in missions for d in difficulties for p in players]
    chunk = max(1, min(50, games // max(1, workers * 2)))
    jobs = [(c, vs, policy, seed, a, min(a + chunk, games)) for c in cells
            for a in range(0, games, chunk)]
    if workers > 1 and len(jobs) > 1:
        results = _in_pool(jobs, workers, progress)
    else:
        results = []
        for job in jobs:
            r = _play_range(job)
            results.append(r)
            if progress is not None:
                progress(r[3])
    out: list[dict[str, Any]] = []
    names: dict[str, str] = {}
    for cell in cells:
        won = rounds = decisions = n = 0
        causes: Counter[str] = Counter()
        for job, res in zip(jobs, results, strict=True):
            if job[0] == cell:
                won += res[0]
                rounds += res[1]
                decisions += res[2]
                n += res[3]
                causes.update(res[4])
        if cell.mission not in names:
            names[cell.mission] = new_game(cell.mission, 2, cell.difficulty, 0, vs).rules.name
        lo, hi = wilson(won, n)
        out.append({
            "mission": names[cell.mission], "difficulty": cell.difficulty,
            "players": cell.players, "games": n, "seed": seed, "policy": policy,
            "variants": list(vs), "won": won, "lost": n - won, "win_rate": won / n,
            "ci95": [round(lo, 4), round(hi, 4)],
            "causes": dict(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))),
            "average_rounds": rounds / n, "average_decisions": decisions / n,
        })
    return out


def simulate(mission: str | Path, players: int, difficulty: str, games: int, seed: int,
             variants: Iterable[str | Path] = (), policy: str = "heuristic") -> dict[str, Any]:
    """One cell: `games` games from seeds seed, seed+1, ..."""
    return simulate_grid([mission], [difficulty], [players], games, seed, variants, policy)[0]
