"""The engine's speed on full-length games, every board and team size, beside OpenSpiel's
games in the same rounds; random playouts; set-up, clone, save size.

    python bench/engine.py [--cells all | MISSION:PLAYERS ...] [--full-games N] [--rounds R]
                           [--games N] [--profile] [--clock cpu|wall]

One core. The figures:
- full-length games (the headline): heuristic games on each board at 1, 2, 4 and 6 players
  (Medium), recorded once, then their action sequences replayed through `legal_actions()` +
  `apply()`, each game's set-up included: real games of 50-300 decisions, every phase and
  battle. µs per decision and decisions per game;
- each as a ratio to two OpenSpiel games run in the same round, right after ours, for as
  many steps (random playouts, chance nodes included): `python_kuhn_poker` (pure Python, like
  ours) and `hearts` (C++, driven from the same Python loop). The rounds interleave so that
  the machine's drift hits both alike; medians and ranges over the rounds;
- random playouts (Japan, 2 players, Medium): the random legal-action policy. Random teams
  lose within a round or two, so this figure flatters (it is mostly the first round and the
  set-up), and is labelled so.

Times are CPU time (`time.process_time`) by default: on a shared machine the wall clock also
counts the time other processes hold the core. `--clock wall` uses `perf_counter`.
`--profile` runs cProfile over the full-length replays (and the random playouts) instead.
Exact instruction counts, the noise-free yardstick: bench/count.py.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from artproject import Action, dumps, new_game
from artproject.core.art.bots import cautious_policy, heuristic_policy
from artproject.core.art.loader import shipped_missions
from artproject.simulate import play

Recorded = tuple[str, int, str, int, list[Action]]  # mission, players, difficulty, seed, actions
# the full-length rounds' figures, one a round: ours by cell (µs a decision, decisions a game),
# the peers' by cell and peer (µs a step)
Ours = dict[tuple[str, int], list[tuple[float, float]]]
Theirs = dict[tuple[tuple[str, int], str], list[float]]
TEAMS = (1, 2, 4, 6)
PEERS = ("python_kuhn_poker", "hearts")
clock: Callable[[], float] = time.process_time


def all_cells() -> list[tuple[str, int]]:
    """Every shipped board at 1, 2, 4 and 6 players."""
    return [(m, n) for m in shipped_missions() for n in TEAMS]


def parse_cells(specs: Sequence[str]) -> list[tuple[str, int]]:
    if not specs or list(specs) == ["all"]:
        return all_cells()
    out = []
    for spec in specs:
        mission, _, n = spec.partition(":")
        out += [(mission, int(n))] if n else [(mission, t) for t in TEAMS]
    return out


def playouts(games: int, seed: int) -> tuple[float, float, float]:
    """µs per decision step, games per second and decisions per game: a new game each time,
    one random stream choosing for all of them (as OpenSpiel's loop below)."""
    steps = 0
    rng = random.Random(seed)
    t = clock()
    for i in range(games):
        g = new_game("japan", 2, "medium", seed + i)
        while g.outcome is None:
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
    dt = clock() - t
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


def replay(games: list[Recorded]) -> int:
    """Replay recorded games through legal_actions() + apply(), each game's set-up included;
    the decisions taken."""
    steps = 0
    for mission, players, difficulty, seed, actions in games:
        g = new_game(mission, players, difficulty, seed)
        for a in actions:
            g.legal_actions()
            g.apply(a)
        steps += len(actions)
    return steps


def replays(games: list[Recorded]) -> tuple[float, float]:
    """µs per decision replaying `games` (see `replay`), and decisions per game."""
    t = clock()
    steps = replay(games)
    dt = clock() - t
    return dt / steps * 1e6, steps / len(games)


def set_ups(games: int, seed: int) -> float:
    """µs to set up one game (included in the playouts' figure)."""
    t = clock()
    for i in range(games):
        new_game("japan", 2, "medium", seed + i)
    return (clock() - t) / games * 1e6


def clones(g: Any, n: int) -> float:
    """µs per `clone()` of `g`."""
    t = clock()
    for _ in range(n):
        g.clone()
    return (clock() - t) / n * 1e6


def openspiel_games(names: Sequence[str]) -> list[tuple[str, Any]]:
    """OpenSpiel's games by name, if installed (pip install '.[bench]')."""
    try:
        import pyspiel
    except ImportError:
        return []
    with contextlib.suppress(ImportError):  # registers the Python games
        from open_spiel.python.games import kuhn_poker  # noqa: F401
    return [(name, pyspiel.load_game(name)) for name in names]


def openspiel_run(game: Any, steps: int, seed: int) -> float:
    """µs per step of random playouts of an OpenSpiel game, chance nodes included, new games
    until `steps` steps are played."""
    rng = random.Random(seed)
    done = 0
    t = clock()
    while done < steps:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(rng.choice(outcomes)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            done += 1
    return (clock() - t) / done * 1e6


def _spread(xs: Sequence[float], fmt: str = ".2f") -> str:
    return f"{statistics.median(xs):{fmt}} ({min(xs):{fmt}}-{max(xs):{fmt}})"


def _full_length_rounds(cells: list[tuple[str, int]], games: int, rounds: int,
                        others: list[tuple[str, Any]]) -> tuple[Ours, Theirs]:
    """Every cell's recorded games replayed, then each peer's random playouts for as many
    steps, round by round, after a warm-up: our figures and the peers'."""
    recorded = {c: record(c[0], c[1], "medium", games, 1) for c in cells}
    for rec in recorded.values():
        replays(rec)  # warm up: templates, tables, interned actions
    ours: Ours = {c: [] for c in cells}
    theirs: Theirs = {}
    for r in range(rounds):
        for c in cells:
            ours[c].append(replays(recorded[c]))
            for name, game in others:
                steps = int(len(recorded[c]) * ours[c][-1][1])
                theirs.setdefault((c, name), []).append(openspiel_run(game, steps, r))
    return ours, theirs


def _full_length_table(cells: list[tuple[str, int]], games: int, rounds: int,
                       others: list[tuple[str, Any]], ours: Ours, theirs: Theirs) -> None:
    """Print what `_full_length_rounds` measured: a row a cell, medians and ranges over the
    rounds, then each peer's µs a step over all rounds."""
    print(f"full-length games (recorded heuristic games replayed through legal_actions + apply, "
          f"set-up included; Medium; {games} games a cell; median (range) of {rounds} "
          f"interleaved rounds; {clock.__name__}):")
    head = "| board | players | decisions a game | µs a decision |"
    for name, _ in others:
        head += f" x {name} |"
    print(head)
    print("|" + " --- |" * (4 + len(others)))
    for c in cells:
        us = [x[0] for x in ours[c]]
        line = f"| {c[0]} | {c[1]} | {ours[c][0][1]:.0f} | {_spread(us)} |"
        for name, _ in others:
            ratios = [a / b for a, b in zip(us, theirs[(c, name)], strict=True)]
            line += f" {_spread(ratios)} |"
        print(line)
    for name, _ in others:
        per_step = [t for (c, n), ts in theirs.items() if n == name for t in ts]
        print(f"  OpenSpiel {name}: {_spread(per_step)} us per step over all rounds")


def full_length(cells: list[tuple[str, int]], games: int, rounds: int,
                others: list[tuple[str, Any]]) -> None:
    """The full-length table: every cell, ours then each peer's, in interleaved rounds."""
    _full_length_table(cells, games, rounds, others,
                       *_full_length_rounds(cells, games, rounds, others))


def random_playouts(games: int, rounds: int, others: list[tuple[str, Any]]) -> None:
    runs: list[tuple[float, float, float]] = []
    theirs: dict[str, list[float]] = {name: [] for name, _ in others}
    for r in range(rounds):
        runs.append(playouts(games, 1000 * r))
        for name, game in others:
            theirs[name].append(openspiel_run(game, int(games * runs[-1][2]), r))
    us = [r[0] for r in runs]
    gps = statistics.median(r[1] for r in runs)
    per_game = statistics.median(r[2] for r in runs)
    setup = statistics.median(set_ups(games, 1000 * r) for r in range(5))
    print(f"random playouts, Japan 2 players Medium (short games of {per_game:.1f} decisions, "
          f"mostly the first round and the set-up: a flattering figure): {_spread(us)} us per "
          f"decision step (legal_actions + random choice + apply, set-up included), {gps:.0f} "
          f"games/s (median (range) of {rounds} x {games} games)")
    print(f"  of which setting up a game: {setup:.2f} us a game; the decision steps alone: "
          f"{statistics.median(us) - setup / per_game:.2f} us each")
    for name, times in theirs.items():
        ratios = [a / b for a, b in zip(us, times, strict=True)]
        print(f"  x OpenSpiel {name} ({statistics.median(times):.1f} us per step): "
              f"{_spread(ratios)}")


def profile(cells: list[tuple[str, int]], games: int, playout_games: int) -> None:
    import cProfile
    import pstats

    recorded = [g for c in cells for g in record(c[0], c[1], "medium", games, 1)]
    replays(recorded)
    prof = cProfile.Profile()
    prof.runcall(replay, recorded)
    print(f"full-length replays ({len(cells)} cells x {games} games):")
    pstats.Stats(prof).strip_dirs().sort_stats("tottime").print_stats(25)
    prof = cProfile.Profile()
    prof.runcall(playouts, playout_games, 0)
    print("random playouts (Japan, 2 players):")
    pstats.Stats(prof).strip_dirs().sort_stats("tottime").print_stats(15)


def main() -> None:
    global clock
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", nargs="*", default=["all"], metavar="MISSION[:PLAYERS]",
                    help="full-length cells (default: all = every board at 1, 2, 4, 6 "
                         "players; `japan` alone: Japan at each team size)")
    ap.add_argument("--full-games", type=int, default=20, metavar="N",
                    help="recorded heuristic games a cell replays (default 20)")
    ap.add_argument("--games", type=int, default=2000, help="random playouts a round")
    ap.add_argument("--rounds", type=int, default=7,
                    help="interleaved rounds, ours then OpenSpiel's, for each figure (default 7)")
    ap.add_argument("--peers", default=",".join(PEERS),
                    help=f"OpenSpiel games to compare with (default {','.join(PEERS)})")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="CPU time of this process (default) or the wall clock")
    ap.add_argument("--profile", action="store_true",
                    help="profile the full-length replays and the random playouts (cProfile) "
                         "and print where the time goes, by function, instead of the figures")
    args = ap.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    cells = parse_cells(args.cells)
    playouts(args.games // 4, 999)  # warm up: templates, tables, interned actions
    if args.profile:
        profile(cells, args.full_games, args.games)
        return
    others = openspiel_games([p for p in args.peers.split(",") if p])
    full_length(cells, args.full_games, args.rounds, others)
    random_playouts(args.games, args.rounds, others)
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
