"""The engine's speed: decisions per second on full-length games and random playouts,
clone, save size.

    python bench/engine.py [--games N] [--full MISSION:PLAYERS ...] [--profile]

One core. Two figures, each beside OpenSpiel's games in the same rounds:
- full-length games: heuristic games (Japan, 2 players, Medium by default), recorded once,
  then their action sequences replayed through `legal_actions()` + `apply()` — real games
  of 50-160 decisions, every phase and battle;
- random playouts: the random legal-action policy, Japan, 2 players, Medium. Random teams
  lose within a round or two (5-6 decisions), so this figure flatters: it is mostly the
  first round.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from typing import Any

from artproject import Action, dumps, new_game
from artproject.policies import heuristic_policy
from artproject.simulate import cautious_policy, play

Recorded = tuple[str, int, str, int, list[Action]]  # mission, players, difficulty, seed, actions


def playouts(games: int, seed: int) -> tuple[float, float, float]:
    """µs per decision step, games per second and decisions per game: a new game each time,
    one random stream choosing for all of them (as OpenSpiel's loop below)."""
    steps = 0
    rng = random.Random(seed)
    t = time.perf_counter()
    for i in range(games):
        g = new_game("japan", 2, "medium", seed + i)
        while g.outcome is None:
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
    dt = time.perf_counter() - t
    return dt / steps * 1e6, games / dt, steps / games


def record(mission: str, players: int, difficulty: str, games: int,
           seed: int) -> list[Recorded]:
    """Heuristic games played once: the action sequences the full-length figure replays."""
    out: list[Recorded] = []
    for i in range(games):
        g = new_game(mission, players, difficulty, seed + i)
        play(g, heuristic_policy(seed + i))
        out.append((mission, players, difficulty, seed + i, list(g.history)))
    return out


def replays(games: list[Recorded]) -> tuple[float, float]:
    """µs per decision replaying recorded games through legal_actions() + apply(), each
    game's set-up included, and decisions per game."""
    steps = 0
    t = time.perf_counter()
    for mission, players, difficulty, seed, actions in games:
        g = new_game(mission, players, difficulty, seed)
        for a in actions:
            g.legal_actions()
            g.apply(a)
        steps += len(actions)
    dt = time.perf_counter() - t
    return dt / steps * 1e6, steps / len(games)


def set_ups(games: int, seed: int) -> float:
    """µs to set up one game (included in the playouts' figure)."""
    t = time.perf_counter()
    for i in range(games):
        new_game("japan", 2, "medium", seed + i)
    return (time.perf_counter() - t) / games * 1e6


def clones(g: Any, n: int) -> float:
    """µs per `clone()` of `g`."""
    t = time.perf_counter()
    for _ in range(n):
        g.clone()
    return (time.perf_counter() - t) / n * 1e6


def openspiel_games() -> list[tuple[str, Any]]:
    """OpenSpiel's python_kuhn_poker and backgammon, if installed (pip install '.[bench]')."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return []
    with contextlib.suppress(ImportError):  # registers the Python games
        from open_spiel.python.games import kuhn_poker  # noqa: F401
    return [(name, pyspiel.load_game(name)) for name in ("python_kuhn_poker", "backgammon")]


def openspiel_run(game: Any, steps: int, seed: int) -> float:
    """µs per step of random playouts of an OpenSpiel game, chance nodes included, new games
    until `steps` steps are played."""
    rng = random.Random(seed)
    done = 0
    t = time.perf_counter()
    while done < steps:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(rng.choice(outcomes)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            done += 1
    return (time.perf_counter() - t) / done * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000, help="random playouts a round")
    ap.add_argument("--full", nargs="*", default=["japan:2"], metavar="MISSION:PLAYERS",
                    help="full-length figures to measure (default: japan:2; Medium)")
    ap.add_argument("--full-games", type=int, default=100, metavar="N",
                    help="recorded heuristic games a full-length figure replays (default 100)")
    ap.add_argument("--rounds", type=int, default=7,
                    help="interleaved rounds, ours then OpenSpiel's, for each figure (default 7)")
    ap.add_argument("--profile", action="store_true",
                    help="profile the random playouts alone (cProfile) and print where the "
                         "time goes, by function, instead of the figures")
    args = ap.parse_args()
    playouts(args.games // 4, 999)  # warm up: templates, tables, interned actions
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.runcall(playouts, args.games, 0)
        pstats.Stats(prof).strip_dirs().sort_stats("tottime").print_stats(20)
        return
    # five rounds; OpenSpiel's games, if installed, run in each round right after ours, as
    # many steps, so that the machine's drift hits both alike
    others = openspiel_games()
    for spec in args.full:
        mission, _, n = spec.partition(":")
        recorded = record(mission, int(n or 2), "medium", args.full_games, 1)
        replays(recorded)  # warm up
        full: list[tuple[float, float]] = []
        full_theirs: dict[str, list[float]] = {name: [] for name, _ in others}
        for r in range(args.rounds):
            full.append(replays(recorded))
            for name, game in others:
                steps = int(len(recorded) * full[-1][1])
                full_theirs[name].append(openspiel_run(game, steps, r))
        print(f"full-length games, {mission} {n or 2} players Medium: "
              f"{statistics.median(f[0] for f in full):.2f} us per decision "
              f"(legal_actions + apply, set-up included; range "
              f"{min(f[0] for f in full):.2f}-{max(f[0] for f in full):.2f}), "
              f"{full[0][1]:.0f} decisions a game (median of {args.rounds} x {len(recorded)} "
              "recorded heuristic games)")
        for name, times in full_theirs.items():
            ratios = [f[0] / t for f, t in zip(full, times, strict=True)]
            print(f"  OpenSpiel {name}: {statistics.median(times):.1f} us per step; ours is "
                  f"{statistics.median(ratios):.2f}x theirs (range {min(ratios):.2f}-"
                  f"{max(ratios):.2f})")
    runs: list[tuple[float, float, float]] = []
    theirs: dict[str, list[float]] = {name: [] for name, _ in others}
    for r in range(args.rounds):
        runs.append(playouts(args.games, 1000 * r))
        for name, game in others:
            theirs[name].append(openspiel_run(game, int(args.games * runs[-1][2]), r))
    us = statistics.median(r[0] for r in runs)
    gps = statistics.median(r[1] for r in runs)
    per_game = statistics.median(r[2] for r in runs)
    setup = statistics.median(set_ups(args.games, 1000 * r) for r in range(5))
    print(f"random playouts (short games: a flattering figure): {us:.2f} us per decision "
          f"step (legal_actions + choice + apply, a new game's set-up included), {gps:.0f} "
          f"games/s (median of {args.rounds} x {args.games} games of {per_game:.1f} decisions)")
    print(f"  of which setting up a game: {setup:.2f} us a game; the decision steps alone: "
          f"{us - setup / per_game:.2f} us each")
    for name, times in theirs.items():
        ratios = [r[0] / t for r, t in zip(runs, times, strict=True)]
        print(f"  OpenSpiel {name}: {statistics.median(times):.1f} us per step (median); "
              f"ours is {statistics.median(ratios):.2f}x theirs (median of the rounds' ratios; "
              f"range {min(ratios):.2f}-{max(ratios):.2f})")
    g = new_game("japan", 2, "medium", 7)
    choose = cautious_policy(7)
    for _ in range(40):
        g.apply(choose(g))
    print(f"clone() mid-game: {statistics.median(clones(g, 20000) for _ in range(5)):.2f} us "
          "(median of 5 x 20000)")
    play(g, choose)
    print(f"a finished game's save: {len(dumps(g).encode())} bytes of JSON, "
          f"{len(g.history)} actions")


if __name__ == "__main__":
    main()
