"""The search bot against the heuristic on paired seeds: the same seed deals the same game to
both, so each game's luck is common to the pair and only the bot differs.

    python bench/search.py --game art-project --mission japan --players 2 --difficulty hard \
        --games 1000 --seed 1 --store japan-hard.jsonl
    python bench/search.py --game art-of-war --players 2 --games 1000 --seed 1 \
        --store aow-2p.jsonl
    python bench/search.py --game art-of-war --players 4 --games 1000 --seed 1 \
        --policy ismcts:budget=64 --store aow-4p.jsonl

Any game, asked the same way (its policies: `policies_of`; a game with shared returns, or
not: its `UTILITY`). A cooperative game (The A.R.T. Project) is played once by the
heuristic team and once by the search bot (playing for the whole team), and the pair is
(won, won). A competitive one (Art of War): the seat `seed % players` is the one compared:
once the heuristic and once the search bot sits there, the heuristic in every other seat;
the pair is whether that seat won (its return above 0). The CPU counted is the compared
bot's own, its decisions' (the engine's apply apart).

It prints each bot's win rate with a 95% Wilson interval, the discordant pairs (games one
bot won and the other lost) with an exact two-sided McNemar test (a sign test on those
pairs), and the search bot's CPU time per searched decision and per game. `--store` keeps
each seed's result (one JSON line each): run the same command again after an interruption
and only the missing seeds are played. `--workers N` plays in N processes (the results do
not depend on it). Run it under `nice` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import textwrap
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from artproject.simulate import wilson


def _game(job: tuple[str, str | None, int, str, int, str], seat: int, spec: str,
          ) -> tuple[bool, float, int, Any]:
    """One game of the pair: `spec` in the compared seat (every seat, in a cooperative
    game), the heuristic elsewhere; (whether the seat won, the bot's CPU, its decisions,
    the bot)."""
    from artproject import new_game
    from artproject.core.games import game_class, game_tools
    from artproject.policies import make_policy, policies_of

    game, mission, players, difficulty, seed, _ = job
    known = policies_of(game)
    rules = mission or game_tools(game).DEFAULT_RULES
    more: dict[str, Any] = ({"difficulty": difficulty}
                            if "difficulty" in game_class(game).OPTIONS else {})
    g = new_game(rules, players, seed=seed, game=game, **more)
    if game_class(game).UTILITY == "shared":  # the team: one bot takes every decision
        bot = make_policy(spec, seed, known)
        bots = {p: bot for p in range(-1, players)}
    else:
        bots = {s: make_policy(spec if s == seat else "heuristic", seed * 8 + s, known)
                for s in range(players)}
    cpu, n = 0.0, 0
    while not g.is_over():
        p = g.current_player()
        mine = p == seat or game_class(game).UTILITY == "shared"
        t0 = time.process_time()
        a = bots[p](g)
        if mine:
            cpu += time.process_time() - t0
            n += 1
        g.apply(a)
    return g.returns()[seat] > 0, cpu, n, bots[seat]


def _one(job: tuple[str, str | None, int, str, int, str]) -> dict[str, Any]:
    """A seed's pair: the heuristic, then the search bot, in the compared seat."""
    _, _, players, _, seed, policy = job
    seat = seed % players
    base, _, _, _ = _game(job, seat, "heuristic")
    won, cpu, n, bot = _game(job, seat, policy)
    return {"seed": seed, "seat": seat, "heuristic": base, "search": won, "cpu": cpu,
            "decisions": n, "searched": getattr(bot, "searched", 0),
            "simulations": getattr(bot, "simulations", 0)}


def mcnemar(b: int, c: int) -> float:
    """Exact two-sided McNemar p-value: b pairs one way, c the other (a sign test)."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n  # (int ** int: Any)
    return min(1.0, 2 * tail)


def report(rows: list[dict[str, Any]], title: str) -> str:
    """The comparison's table (markdown) and its test."""
    n = len(rows)
    h = sum(r["heuristic"] for r in rows)
    s = sum(r["search"] for r in rows)
    b = sum(r["search"] and not r["heuristic"] for r in rows)
    c = sum(r["heuristic"] and not r["search"] for r in rows)
    cpu = sum(r["cpu"] for r in rows)
    searched = sum(r["searched"] for r in rows)
    decisions = sum(r["decisions"] for r in rows)

    def rate(k: int) -> str:
        lo, hi = wilson(k, n)
        return f"{k} of {n}: {100 * k / n:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"

    per = f"{1000 * cpu / searched:.1f} ms" if searched else "-"
    text = (f"Paired: the search bot won {b} games the heuristic lost and lost {c} the "
            f"heuristic won: exact McNemar p = {mcnemar(b, c):.2g}. Its CPU: {per} a "
            f"searched decision ({searched} of {decisions} decisions searched), "
            f"{1000 * cpu / max(1, decisions):.2f} ms a decision on average, "
            f"{cpu / n:.2f} s a game.")
    lines = ["\n".join(textwrap.wrap(f"**{title}**", 92)), "",
             "| bot | won (95% Wilson) |", "| --- | --- |",
             f"| heuristic | {rate(h)} |", f"| search | {rate(s)} |", "",
             "\n".join(textwrap.wrap(text, 92))]
    return "\n".join(lines)


def _load(path: Path | None) -> dict[int, dict[str, Any]]:
    if path is None or not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            out[r["seed"]] = r
    return out


def _run(jobs: list[tuple[str, str | None, int, str, int, str]], workers: int,
         ) -> Iterable[dict[str, Any]]:
    if workers <= 1:
        for j in jobs:
            yield _one(j)
        return
    from multiprocessing import Pool

    with Pool(workers) as pool:
        yield from pool.imap_unordered(_one, jobs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    from artproject.core.games import DEFAULT, game_class, game_names, game_tools

    ap.add_argument("--game", default=DEFAULT, choices=game_names())
    ap.add_argument("--mission", help="its rules (default: the game's own)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--difficulty", default="hard")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default="ismcts", help="the search bot and its options")
    ap.add_argument("--store", type=Path, help="a JSON-lines file of each seed's result")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    done = _load(args.store)
    jobs = [(args.game, args.mission, args.players, args.difficulty, s, args.policy)
            for s in seeds if s not in done]
    out = args.store.open("a") if args.store is not None else None
    try:
        for k, r in enumerate(_run(jobs, args.workers), 1):
            done[r["seed"]] = r
            if out is not None:
                out.write(json.dumps(r) + "\n")
                out.flush()
            if k % 50 == 0:
                print(f"  {k} of {len(jobs)} played", file=sys.stderr, flush=True)
    finally:
        if out is not None:
            out.close()
    rows = [done[s] for s in seeds]
    where = (f"{args.mission or game_class(args.game).TITLE}, {args.players} players"
             + (f", {args.difficulty}" if hasattr(game_tools(args.game), "difficulties")
                else ""))
    print(report(rows, f"{where}: {args.policy} against the heuristic, seeds "
                       f"{args.seed}-{args.seed + args.games - 1}, paired"))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
