"""The engine's speed: decisions per second under the random policy, clone, save size.

    python bench/engine.py [--games N]

Japan, 2 players, Medium, the random legal-action policy, one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from artproject import dumps, new_game
from artproject.simulate import cautious_policy, play


def playouts(games: int, seed: int) -> tuple[float, float]:
    steps = 0
    t = time.perf_counter()
    for i in range(games):
        g = new_game("japan", 2, "medium", seed + i)
        rng = random.Random(seed + i)
        while g.outcome is None:
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
    dt = time.perf_counter() - t
    return dt / steps * 1e6, games / dt


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    args = ap.parse_args()
    runs = [playouts(args.games, 1000 * r) for r in range(5)]
    us = statistics.median(r[0] for r in runs)
    gps = statistics.median(r[1] for r in runs)
    print(f"random playouts: {us:.1f} us per decision step (legal_actions + choice + apply), "
          f"{gps:.0f} games/s (median of 5 x {args.games} games)")
    g = new_game("japan", 2, "medium", 7)
    choose = cautious_policy(7)
    for _ in range(40):
        g.apply(choose(g))
    n = 20000
    t = time.perf_counter()
    for _ in range(n):
        g.clone()
    print(f"clone() mid-game: {(time.perf_counter() - t) / n * 1e6:.2f} us")
    play(g, choose)
    print(f"a finished game's save: {len(dumps(g).encode())} bytes of JSON, "
          f"{len(g.history)} actions")


if __name__ == "__main__":
    main()
