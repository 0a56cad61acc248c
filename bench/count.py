"""Exact instruction counts per decision (valgrind's callgrind): the noise-free yardstick.

    python bench/count.py [--cells all | MISSION[:PLAYERS] ...] [--games N] [--random N]

Records heuristic games natively (Medium, seeds 1..N, as bench/engine.py does), then runs one
process under `valgrind --tool=callgrind` that loads them, replays every cell's games once to
warm up (rules, templates, tables, interned actions), then replays each cell's games again
between two calls of `os.getppid()`: callgrind dumps its counters on entering `getppid`
(`--dump-before=getppid`), so each dump holds exactly one cell's replays (the same as the
difference between replaying N games and replaying none). The count per decision is that
dump's instructions over the cell's decisions; random playouts (Japan, 2 players) likewise.
Counts vary between Python builds, not between runs: compare them on one machine.

`--game art-of-war [--players 2,4,7]` counts Art of War's the same way: its heuristic games
(seeds 1..N, bench/aow.py's) replayed at each team size, then random playouts at each team
size (N games a cell, uniform legal actions), then the peers.
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine import PEERS, openspiel_games, parse_cells, record, replay  # bench/, beside

PEER_STEPS = 5000


def child(path: str, random_games: int) -> None:
    """Under callgrind: replay the recorded games, one dump a cell (see the module's text)."""
    from artproject import new_game
    from artproject.core.art.registry import REG

    with open(path, "rb") as f:
        cells = pickle.load(f)
    games = {c: [(m, n, d, s, [REG.act(REG.parse(a).verb, REG.parse(a).player, REG.parse(a).arg)
                               for a in acts]) for m, n, d, s, acts in gs]
             for c, gs in cells.items()}
    for gs in games.values():  # warm up
        replay(gs)

    def playouts(n: int) -> int:
        rng, steps = random.Random(0), 0
        for i in range(n):
            g = new_game("japan", 2, "medium", i)
            while g.outcome is None:
                g.apply(rng.choice(g.legal_actions()))
                steps += 1
        return steps

    playouts(random_games)
    peers = openspiel_games(PEERS)
    for _, game in peers:
        peer_steps(game, 100)
    counts = []
    os.getppid()
    for gs in games.values():
        counts.append(replay(gs))
        os.getppid()
    counts.append(playouts(random_games))
    os.getppid()
    for _, game in peers:
        counts.append(peer_steps(game, PEER_STEPS))
        os.getppid()
    print(" ".join(map(str, counts)))


def peer_steps(game: Any, steps: int) -> int:
    """Random playouts of an OpenSpiel game until `steps` steps (as bench/engine.py's)."""
    rng, done = random.Random(0), 0
    while done < steps:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            done += 1
    return done


def war_child(path: str) -> None:
    """Under callgrind: Art of War's replays and playouts, one dump a cell (as `child`)."""
    from aow import play_random
    from aow import replay as war_replay

    from artproject.core.aow.registry import REG as WAR

    with open(path, "rb") as f:
        cells = pickle.load(f)
    games = {n: [(s, [WAR.parse(a) for a in acts]) for s, acts in gs] for n, gs in cells.items()}
    games = {n: [(s, [WAR.act(a.verb, a.player, a.arg) for a in acts]) for s, acts in gs]
             for n, gs in games.items()}
    for n, gs in games.items():  # warm up
        war_replay(n, gs)
        play_random(n, len(gs), 999)
    peers = openspiel_games(PEERS)
    for _, game in peers:
        peer_steps(game, 100)
    counts = []
    os.getppid()
    for n, gs in games.items():
        counts.append(war_replay(n, gs))
        os.getppid()
    for n, gs in games.items():
        counts.append(play_random(n, len(gs), 1))
        os.getppid()
    for _, game in peers:
        counts.append(peer_steps(game, PEER_STEPS))
        os.getppid()
    print(" ".join(map(str, counts)))


def grind(script: str, child_args: list[str], dry_run: bool = False,
          env: dict[str, str] | None = None) -> tuple[list[int], list[int]]:
    """`script` run with `child_args` under callgrind, a dump at each `os.getppid()` it calls:
    the whole numbers it prints (its steps) and each dump's instructions (none with
    `dry_run`: the script alone, a check that it runs). bench/bot.py uses it too. The child's
    string hashes are seeded alike at every run (`PYTHONHASHSEED=0` unless `env` says
    otherwise): a set's or dict's order, and so its count, would vary between runs."""
    env = {**os.environ, "PYTHONHASHSEED": "0", **(env or {})}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        grinding = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                    "--dump-before=getppid"]
        r = subprocess.run([*([] if dry_run else grinding), sys.executable, script,
                            *child_args], capture_output=True, text=True, check=True, env=env)
        dumps = sorted(Path(tmp).glob("cg.out.*"), key=lambda p: int(p.suffix[1:]))
        totals = [int(re.search(r"^totals: (\d+)", p.read_text(), re.M).group(1))  # type: ignore[union-attr]
                  for p in dumps]
    return [int(x) for x in r.stdout.split()], totals


def _table(head: str, rows: list[tuple[str, float]], peers: dict[str, float]) -> None:
    """A table of four columns and one a peer: `head`, its rule, then each row's first three
    cells (`text`), its instructions a decision and their ratio to each peer's a step."""
    print(head + "".join(f" x {p} |" for p in peers))
    print("|" + " --- |" * (4 + len(peers)))
    for text, x in rows:
        print(f"| {text} | {x:,.0f} |" + "".join(f" {x / y:.2f} |" for y in peers.values()))


def war_main(players: list[int], games: int, dry_run: bool) -> None:
    """Art of War's counts (see the module's text)."""
    from aow import record as war_record

    with tempfile.TemporaryDirectory() as tmp:
        rec = Path(tmp) / "games.pickle"
        rec.write_bytes(pickle.dumps({n: [(s, [str(a) for a in acts])
                                          for s, acts in war_record(n, games, 1)]
                                      for n in players}))
        steps, totals = grind(__file__, ["--war-child", str(rec)], dry_run)
    if dry_run:
        print(f"decisions counted (no valgrind): {' '.join(map(str, steps))}")
        return
    per = [ir / st for ir, st in zip(totals[1:], steps, strict=False)]
    cells = [("heuristic replayed", n) for n in players] + [("random", n) for n in players]
    peers = dict(zip(PEERS, per[len(cells):], strict=False))
    print(f"Art of War, instructions per decision (callgrind, {games} games a cell, set-up "
          "included), and as a ratio to each peer's instructions per step:")
    _table("| players | games played | decisions a game | instructions a decision |",
           [(f"{n} | {fig} | {st / games:.0f}", x)
            for (fig, n), x, st in zip(cells, per, steps, strict=False)], peers)
    for p, y in peers.items():
        print(f"OpenSpiel {p}: {y:,.0f} instructions per step (random playouts)")


def project_main(cells: list[tuple[str, int]], games: int, random_games: int,
                 dry_run: bool) -> None:
    """The A.R.T. Project's counts (see the module's text)."""
    with tempfile.TemporaryDirectory() as tmp:
        rec = Path(tmp) / "games.pickle"
        recorded = {c: [(m, n, d, s, [str(a) for a in acts])
                        for m, n, d, s, acts in record(c[0], c[1], "medium", games, 1)]
                    for c in cells}
        rec.write_bytes(pickle.dumps(recorded))
        steps, totals = grind(__file__, ["--child", str(rec), "--random", str(random_games)],
                              dry_run)
    if dry_run:
        print(f"decisions counted (no valgrind): {' '.join(map(str, steps))}")
        return
    project_table(cells, games, random_games, steps, totals)


def project_table(cells: list[tuple[str, int]], games: int, random_games: int,
                  steps: list[int], totals: list[int]) -> None:
    """Print The A.R.T. Project's counts: each cell's instructions a decision, the random
    playouts' and each peer's a step, from `child`'s steps and callgrind's dumps."""
    # dump 1 is the start-up and warm-up; then one a cell, the random playouts, each peer's
    per = [ir / st for ir, st in zip(totals[1:], steps, strict=False)]
    peers = {name: x for name, x in zip(PEERS, per[len(cells) + 1:], strict=False)}
    print(f"instructions per decision (callgrind, {games} recorded heuristic games a cell, "
          f"set-up included; Medium), and as a ratio to each peer's instructions per step:")
    _table("| board | players | decisions a game | instructions a decision |",
           [(f"{m} | {n} | {st / games:.0f}", x)
            for (m, n), x, st in zip(cells, per, steps, strict=False)], peers)
    x = per[len(cells)]
    print(f"random playouts, japan 2 players ({random_games} games, "
          f"{steps[len(cells)] / random_games:.1f} decisions a game): {x:,.0f} per step"
          + "".join(f"; x {p} {x / y:.2f}" for p, y in peers.items()))
    for p, y in peers.items():
        print(f"OpenSpiel {p}: {y:,.0f} instructions per step (random playouts)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", nargs="*", default=["japan:2"], metavar="MISSION[:PLAYERS]",
                    help="cells to count (default japan:2; `all`: every board at 1, 2, 4, 6)")
    ap.add_argument("--games", type=int, help="recorded games a cell (default 10; Art of "
                                                "War's 100)")
    ap.add_argument("--random", type=int, default=200, help="random playouts (default 200)")
    ap.add_argument("--dry-run", action="store_true",
                    help="run the counting process without valgrind (a check that it runs)")
    ap.add_argument("--game", choices=("art-project", "art-of-war"), default="art-project",
                    help="whose games to count (default The A.R.T. Project's)")
    ap.add_argument("--players", default="2,4,7",
                    help="Art of War's team sizes (default 2,4,7)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--war-child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.war_child:
        war_child(args.war_child)
        return
    if args.game == "art-of-war":
        war_main([int(x) for x in args.players.split(",")], args.games or 100, args.dry_run)
        return
    if args.child:
        child(args.child, args.random)
        return
    project_main(parse_cells(args.cells), args.games or 10, args.random, args.dry_run)


if __name__ == "__main__":
    main()
