"""Art of War's speed: decisions per second in random and heuristic games, clone, save size.

    python bench/aow.py [--games N] [--players 2,4,7]

One core. Random playouts choose uniformly among the legal actions (every bet amount is an
action, so random games last longer than the bots'); heuristic games are recorded once and
their action sequences replayed through `legal_actions()` + `apply()`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from artproject import dumps, new_game
from artproject.aow.policies import heuristic_policy


def playouts(players: int, games: int, seed: int) -> tuple[float, float]:
    """µs per decision and decisions per game, random legal actions."""
    steps, rng = 0, random.Random(seed)
    t = time.perf_counter()
    for i in range(games):
        g = new_game("art-of-war", players=players, seed=seed + i)
        while g.outcome is None:
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
    return (time.perf_counter() - t) / steps * 1e6, steps / games


def replays(players: int, games: int, seed: int) -> tuple[float, float]:
    """µs per decision replaying heuristic games (set-up included), decisions per game."""
    recorded = []
    for i in range(games):
        g = new_game("art-of-war", players=players, seed=seed + i)
        choose = heuristic_policy(seed + i)
        while g.outcome is None:
            g.apply(choose(g))
        recorded.append((seed + i, list(g.history)))
    steps = sum(len(h) for _, h in recorded)
    t = time.perf_counter()
    for s, history in recorded:
        g = new_game("art-of-war", players=players, seed=s)
        for a in history:
            g.legal_actions()
            g.apply(a)
    return (time.perf_counter() - t) / steps * 1e6, steps / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", default="2,4,7")
    args = ap.parse_args()
    print(f"{'players':>7}  {'random µs/dec':>13}  {'dec/game':>8}  "
          f"{'heuristic µs/dec':>16}  {'dec/game':>8}")
    for n in (int(x) for x in args.players.split(",")):
        r = [playouts(n, args.games, 1) for _ in range(3)]
        h = [replays(n, args.games, 1) for _ in range(3)]
        print(f"{n:>7}  {statistics.median(x for x, _ in r):>13.1f}  {r[0][1]:>8.1f}  "
              f"{statistics.median(x for x, _ in h):>16.1f}  {h[0][1]:>8.1f}")
    g = new_game("art-of-war", players=4, seed=1)
    rng = random.Random(1)
    for _ in range(30):
        if g.outcome is None:
            g.apply(rng.choice(g.legal_actions()))
    t = time.perf_counter()
    for _ in range(10_000):
        g.clone()
    print(f"clone: {(time.perf_counter() - t) / 10_000 * 1e6:.1f} µs; "
          f"save: {len(dumps(g))} bytes after {len(g.history)} decisions")


if __name__ == "__main__":
    main()
