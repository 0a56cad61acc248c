"""Art of War's speed: µs a decision in heuristic and random games, beside OpenSpiel's games
in the same rounds; clone, save size.

    python bench/aow.py [--games N] [--players 2,4,7] [--rounds R] [--peers P,Q]
                        [--clock cpu|wall] [--profile]

One core. Heuristic games are recorded once and their action sequences replayed through
`legal_actions()` + `apply()`, each game's set-up included (the headline: real games);
random playouts choose uniformly among the legal actions (every bet amount is an action, so
random games last longer than the bots'). Each figure is also a ratio to OpenSpiel's
`python_kuhn_poker` (pure Python, like ours) and `hearts` (C++, driven from the same Python
loop) run right after it for as many steps, in interleaved rounds (bench/engine.py's
helpers), so the machine's drift hits both alike: medians and ranges over the rounds.
Times are CPU time by default. Exact instruction counts: `python bench/count.py --game
art-of-war`. `--profile` runs cProfile over the replays and playouts instead.
"""

from __future__ import annotations

import argparse
import random
import time
from functools import partial
from typing import Any

import engine  # bench/, beside: OpenSpiel's games and the interleaved rounds' helpers
from engine import PEERS, _spread, openspiel_games, openspiel_run

from artproject import Action, dumps, new_game
from artproject.core.aow.bots import heuristic_policy

Recorded = tuple[int, list[Action]]  # seed, actions
# the rounds' figures, one a round: ours by team size (µs a decision, decisions a game), the
# peers' by figure, team size and peer (µs a step)
Runs = dict[int, list[tuple[float, float]]]
Theirs = dict[tuple[str, int, str], list[float]]


def play_random(players: int, games: int, seed: int) -> int:
    """Random playouts (a new game each time, one generator choosing for all): the steps."""
    steps, rng = 0, random.Random(seed)
    for i in range(games):
        g = new_game("art-of-war", players=players, seed=seed + i)
        while g.outcome is None:
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
    return steps


def playouts(players: int, games: int, seed: int) -> tuple[float, float]:
    """µs per decision and decisions per game, random legal actions."""
    t = engine.clock()
    steps = play_random(players, games, seed)
    return (engine.clock() - t) / steps * 1e6, steps / games


def record(players: int, games: int, seed: int) -> list[Recorded]:
    """Heuristic games played once: the action sequences the replays repeat."""
    out = []
    for i in range(games):
        g = new_game("art-of-war", players=players, seed=seed + i)
        choose = heuristic_policy(seed + i)
        while g.outcome is None:
            g.apply(choose(g))
        out.append((seed + i, list(g.history)))
    return out


def replay(players: int, games: list[Recorded]) -> int:
    """Replay recorded games through legal_actions() + apply(), set-up included: the steps."""
    for s, history in games:
        g = new_game("art-of-war", players=players, seed=s)
        for a in history:
            g.legal_actions()
            g.apply(a)
    return sum(len(h) for _, h in games)


def replays(players: int, games: list[Recorded]) -> tuple[float, float]:
    """µs per decision replaying heuristic games (set-up included), decisions per game."""
    t = engine.clock()
    steps = replay(players, games)
    return (engine.clock() - t) / steps * 1e6, steps / len(games)


def _ratios(ours: list[float], theirs: list[float]) -> str:
    return _spread([a / b for a, b in zip(ours, theirs, strict=True)])


def _measure(players: list[int], games: int, rounds: int,
             others: list[tuple[str, Any]]) -> tuple[Runs, Runs, Theirs]:
    """Each team size's replays and playouts, then each peer's for as many steps, round by
    round, after a warm-up: the heuristic replays' figures, the random playouts' and the
    peers'."""
    recorded = {n: record(n, games, 1) for n in players}
    for n in players:  # warm up: rules, templates, interned actions
        replays(n, recorded[n])
        playouts(n, games // 4 + 1, 999)
    heur: Runs = {n: [] for n in players}
    rand: Runs = {n: [] for n in players}
    theirs: Theirs = {}
    for r in range(rounds):
        for n in players:
            for fig, runs, run in (("heuristic", heur, partial(replays, n, recorded[n])),
                                   ("random", rand, partial(playouts, n, games, 1000 * r))):
                runs[n].append(run())
                steps = int(games * runs[n][-1][1])
                for name, game in others:
                    theirs.setdefault((fig, n, name), []).append(openspiel_run(game, steps, r))
    return heur, rand, theirs


def _print_table(players: list[int], games: int, rounds: int, others: list[tuple[str, Any]],
                 heur: Runs, rand: Runs, theirs: Theirs) -> None:
    """Print what `_measure` measured: a row for each figure and team size, medians and ranges
    over the rounds, then each peer's µs a step over all rounds."""
    print(f"Art of War, µs a decision (median (range) of {rounds} interleaved rounds, "
          f"{games} games a cell, set-up included; {engine.clock.__name__}), and as a ratio "
          "to each OpenSpiel game's step in the same rounds:")
    head = "| players | games played | decisions a game | µs a decision |"
    print(head + "".join(f" x {name} |" for name, _ in others))
    print("|" + " --- |" * (4 + len(others)))
    for fig, runs in (("heuristic replayed", heur), ("random", rand)):
        for n in players:
            us = [x[0] for x in runs[n]]
            key = fig.split()[0]
            print(f"| {n} | {fig} | {runs[n][0][1]:.0f} | {_spread(us)} |"
                  + "".join(f" {_ratios(us, theirs[(key, n, name)])} |" for name, _ in others))
    for name, _ in others:
        per_step = [t for (_, _, o), ts in theirs.items() if o == name for t in ts]
        print(f"  OpenSpiel {name}: {_spread(per_step)} µs per step over all rounds")


def compare(players: list[int], games: int, rounds: int, others: list[tuple[str, Any]]) -> None:
    """The table: each team size's replays and playouts, then each peer's, round by round."""
    _print_table(players, games, rounds, others, *_measure(players, games, rounds, others))


def profile(players: list[int], games: int) -> None:
    import cProfile
    import pstats

    for n in players:
        recorded = record(n, games, 1)
        replays(n, recorded)
        prof = cProfile.Profile()
        prof.runcall(replay, n, recorded)
        print(f"heuristic replays, {n} players ({games} games):")
        pstats.Stats(prof).strip_dirs().sort_stats("tottime").print_stats(20)
        prof = cProfile.Profile()
        prof.runcall(play_random, n, games, 1)
        print(f"random playouts, {n} players ({games} games):")
        pstats.Stats(prof).strip_dirs().sort_stats("tottime").print_stats(12)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games a cell (default 200)")
    ap.add_argument("--players", default="2,4,7", help="team sizes (default 2,4,7)")
    ap.add_argument("--rounds", type=int, default=5,
                    help="interleaved rounds, ours then OpenSpiel's (default 5)")
    ap.add_argument("--peers", default=",".join(PEERS),
                    help=f"OpenSpiel games to compare with (default {','.join(PEERS)}; "
                         "pip install -e '.[bench]')")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="CPU time of this process (default) or the wall clock")
    ap.add_argument("--profile", action="store_true",
                    help="cProfile the replays and playouts instead of the figures")
    args = ap.parse_args()
    engine.clock = time.process_time if args.clock == "cpu" else time.perf_counter
    players = [int(x) for x in args.players.split(",")]
    if args.profile:
        profile(players, args.games)
        return
    compare(players, args.games, args.rounds,
            openspiel_games([p for p in args.peers.split(",") if p]))
    g = new_game("art-of-war", players=4, seed=1)
    rng = random.Random(1)
    for _ in range(30):
        if g.outcome is None:
            g.apply(rng.choice(g.legal_actions()))
    t = engine.clock()
    for _ in range(10_000):
        g.clone()
    print(f"clone: {(engine.clock() - t) / 10_000 * 1e6:.1f} µs; "
          f"save: {len(dumps(g))} bytes after {len(g.history)} decisions")


if __name__ == "__main__":
    main()
