"""The heuristic bot's cost against the engine's, and a digest of every decision it took.

    python bench/bot.py [--games N] [--profile] [--digest] [--against TREE]
    python bench/bot.py --count [--games N] [--against TREE]

Full-length games of the heuristic bot on every board, Easy and Hard, for each team size
(1, 2, 4 and 6 players; N games a cell, seeds 1..N), one core. Each game is timed whole
(the bot and the engine, in CPU time: a busy machine's other jobs stretch wall time, not
this), then replayed from its recorded actions by the engine alone
(set-up, `legal_actions()` and `apply()` at each decision, as the bot's game did); the
bot's cost is the difference.

`--against TREE` loads another version's bot from TREE (say, main's, unpacked with `git
archive`): its `core/art/bots/` package (the game's own since the bot moved into its game),
the `artproject/policies/` package before that, or the single `artproject/policies.py` of a
version before the bot was split into parts (the package's folder or that file named
directly will do too), beside this one, on this tree's engine, and plays both in turns in
the same process, round by round, printing both and whether they took the same decisions:
a same-run comparison that a busy machine's drift between processes does not blur.

Each team size's line ends with the same-run ratio of the two bots' costs: per round, this
bot's seconds over the other's (each its games' CPU time less their replay by the engine),
the median and range over the rounds (under 1: this bot is the cheaper).

`--count` counts instructions instead (valgrind's callgrind, exact where the clock is noisy):
the bot's games (N games a cell, 2 by default), then their replay by the engine alone, one
callgrind dump each (`os.getppid()` marks them, as in bench/count.py); the bot's count is
the difference. With `--against TREE` both bots are counted, that version's first, and
the ratio of this bot's instructions a decision to the other's printed.

`--digest` prints a SHA-256 of every game's actions, in order: the same digest before and
after a change to the bot means it took the same decisions in every one of those games.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from pathlib import Path
from typing import Any, Final

from artproject import new_game
from artproject.core.art.bots import heuristic_policy
from artproject.core.art.loader import shipped_missions

TEAMS = (1, 2, 4, 6)


def cells(players: int) -> list[tuple[str, str, int]]:
    return [(m, d, players) for m in shipped_missions() for d in ("easy", "hard")]


# the other version's bot, as a module where its relative imports reach this tree's engine:
# the game's package (core/art/bots/), or the tools' (artproject/policies/, before it moved)
OTHER_BOTS: Final = "artproject.core.art._other_bots"
OTHER_POLICIES: Final = "artproject._other_policies"


def other_source(path: str) -> tuple[Path, bool, str]:
    """Where another version's bot lies, whether it is a package, and the module name it is
    loaded as: `path` is a tree (a checkout, or a `git archive` unpacked) whose
    core/art/bots/ package (before the bot moved into its game, artproject/policies/; before
    it was split into parts, the single artproject/policies.py) it is, or that package's
    folder or that file itself. SystemExit (2) naming what was looked for if none is."""
    p = Path(path)
    for cand in (p / "core" / "art" / "bots", p / "artproject" / "policies",
                 p / "artproject" / "policies.py", p / "bots", p / "policies",
                 p / "policies.py", p):
        if cand.is_dir() and (cand / "heuristic.py").is_file() and cand.name in (
                "bots", "policies"):
            return cand, True, OTHER_BOTS if cand.name == "bots" else OTHER_POLICIES
        if cand.is_file() and cand.suffix == ".py":
            return cand, False, OTHER_POLICIES
    import sys

    print(f"bench/bot.py: --against {path}: no bot there; expected a tree with "
          "core/art/bots/ (or an older artproject/policies/ or artproject/policies.py), that "
          "folder, or that file", file=sys.stderr)
    raise SystemExit(2)


def load_other(path: str) -> Any:
    """The heuristic policy of another version of the bot (see `other_source`), beside this
    one: its modules under their own name (their `..core` imports reach this tree's engine,
    so both bots play the same rules), its board's facts under their own entry in the
    rules' cache."""
    import importlib.util
    import sys

    src, package, other = other_source(path)
    spec = importlib.util.spec_from_file_location(
        other, src / "__init__.py" if package else src,
        submodule_search_locations=[str(src)] if package else None)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[other] = mod  # a package's parts import each other by it
    spec.loader.exec_module(mod)
    # its board of the rules: the single file's `_board`, or the package's board.board
    home = mod if not package else sys.modules[f"{other}.board"]
    name = "_board" if not package else "board"
    own, built = getattr(home, name), home._Board

    def board(rules: Any) -> Any:  # its own entry in the rules' cache
        b = rules.cache.get("heuristic-other")
        if b is None:
            b = rules.cache["heuristic-other"] = built(rules)
        return b

    for key, m in list(sys.modules.items()):  # every part that took it by name
        if m is not None and (key == other or key.startswith(f"{other}.")):
            for attr in [a for a, v in vars(m).items() if v is own]:
                setattr(m, attr, board)
    return mod.heuristic_policy


def bot_game(mission: str, players: int, diff: str, seed: int, policy: Any) -> list[Any]:
    """One game the bot plays: its actions."""
    g = new_game(mission, players, diff, seed)
    choose = policy(seed)
    actions = []
    while g.outcome is None:
        a = choose(g)
        g.apply(a)
        actions.append(a)
    return actions


def bot_games(games: int, team: int, policy: Any = heuristic_policy,
              ) -> tuple[float, float, int, int, list[list[Any]]]:
    """(seconds whole, seconds engine alone, games, decisions, each game's actions)."""
    whole = engine = 0.0
    decisions = 0
    played: list[list[Any]] = []
    for mission, diff, players in cells(team):
        for seed in range(1, games + 1):
            t = time.process_time()
            actions = bot_game(mission, players, diff, seed, policy)
            whole += time.process_time() - t
            t = time.process_time()
            r = new_game(mission, players, diff, seed)
            for a in actions:
                r.legal_actions()
                r.apply(a)
            engine += time.process_time() - t
            decisions += len(actions)
            played.append(actions)
    return whole, engine, len(played), decisions, played


def compare(games: int, rounds: int, other: Any) -> None:
    """This bot and another in turns, round by round: medians and ranges of each, and of
    this bot's cost over the other's in the same round."""
    bot_games(1, 2)
    bot_games(1, 2, other)
    print(f"this bot and {rounds} rounds of the other in turns, {games} games a cell, one core:")
    same = True
    for players in TEAMS:
        ratios: dict[str, list[float]] = {"this": [], "other": []}
        rates: dict[str, list[float]] = {"this": [], "other": []}
        costs: dict[str, float] = {}
        versus: list[float] = []  # this bot's seconds over the other's, round by round
        for _ in range(rounds):
            for name, policy in (("other", other), ("this", heuristic_policy)):
                w, e, g, _, played = bot_games(games, players, policy)
                ratios[name].append((w - e) / e)
                rates[name].append(g / w)
                costs[name] = w - e
                if name == "other":
                    theirs = played
                else:
                    same = same and played == theirs
            versus.append(costs["this"] / costs["other"])
        line = "; ".join(
            f"{name} bot/engine {statistics.median(ratios[name]):.2f}x "
            f"({min(ratios[name]):.2f}-{max(ratios[name]):.2f}), "
            f"{statistics.median(rates[name]):.0f} games/s" for name in ("other", "this"))
        print(f"  {players} player(s): {line}; this/other bot "
              f"{statistics.median(versus):.3f} ({min(versus):.3f}-{max(versus):.3f})")
    print("  the same decisions in every game" if same else "  THE DECISIONS DIFFER")


def count_child(games: int, other: str) -> None:
    """Under callgrind: each team size's bot games, then their replay (see `--count`)."""
    import os

    policy = load_other(other) if other else heuristic_policy
    for team in TEAMS:  # warm up: each team size's rules, boards and tables
        bot_games(1, team, policy)
    decisions = []
    os.getppid()
    for team in TEAMS:
        played = []
        for mission, diff, players in cells(team):
            for seed in range(1, games + 1):
                played.append((mission, diff, players, seed,
                                bot_game(mission, players, diff, seed, policy)))
        os.getppid()
        for mission, diff, players, seed, actions in played:
            r = new_game(mission, players, diff, seed)
            for a in actions:
                r.legal_actions()
                r.apply(a)
        os.getppid()
        decisions.append(sum(len(p[4]) for p in played))
    print(" ".join(map(str, decisions)))


def count(games: int, other: str) -> None:
    """Instructions a decision, the bot's and the engine's, by team size (see `--count`);
    with `other`, that version's first, then this one's, and the ratio of the two bots."""
    bots = [("the other bot", other), ("this bot", "")] if other else [("", "")]
    figures = [_count_one(games, tree) for _, tree in bots]
    print(f"instructions a decision (callgrind), {games} games a cell:")
    for (name, _), per in zip(bots, figures, strict=True):
        if name:
            print(f"  {name}:")
        for players, (engine, bot) in zip(TEAMS, per, strict=True):
            print(f"  {players} player(s): the engine {engine:,.0f}, the bot {bot:,.0f}: "
                  f"bot/engine {bot / engine:.2f}x")
    if other:
        print("  this bot/the other: " + ", ".join(
            f"{players} player(s) {this[1] / theirs[1]:.3f}"
            for players, theirs, this in zip(TEAMS, *figures, strict=True)))


def _count_one(games: int, other: str) -> list[tuple[float, float]]:
    """Per team size: the engine's and the bot's instructions a decision, under callgrind."""
    import os

    from count import grind  # bench/, beside

    decisions, totals = grind(__file__, ["--count-child", "--games", str(games),
                                         *(["--against", other] if other else [])],
                              env={**os.environ, "PYTHONHASHSEED": "0"})  # the same every run
    totals = totals[1:]  # the first: start-up and warm-up
    return [(totals[2 * k + 1] / d, (totals[2 * k] - totals[2 * k + 1]) / d)
            for k, d in enumerate(decisions)]


def profile(games: int) -> None:
    """cProfile over the bot's games at every team size: where the time goes, by function."""
    import cProfile
    import pstats

    prof = cProfile.Profile()
    for players in TEAMS:
        prof.runcall(bot_games, games, players)
    pstats.Stats(prof).strip_dirs().sort_stats("tottime").print_stats(25)


def _team_line(players: int,
               runs: list[tuple[float, float, int, int, list[list[Any]]]]) -> None:
    """Print a team size's line from its rounds' `bot_games`: games a second, decisions a
    game, and a decision's time in all, the engine's and the bot's, medians of the rounds."""
    per = [(w / d * 1e6, e / d * 1e6, g / w) for w, e, g, d, _ in runs]
    w_us = statistics.median(p[0] for p in per)
    e_us = statistics.median(p[1] for p in per)
    ratio = statistics.median((p[0] - p[1]) / p[1] for p in per)
    _, _, games, decisions, _ = runs[0]
    print(f"  {players} player(s): {statistics.median(p[2] for p in per):4.0f} games/s, "
          f"{decisions / games:3.0f} decisions a game; per decision {w_us:5.1f} us in all, "
          f"the engine {e_us:4.1f} us, the bot {w_us - e_us:5.1f} us: "
          f"bot/engine {ratio:.2f}x")


def timings(games: int, rounds: int, digest: bool) -> None:
    """The timed figures (see the module's text): each team size's line (see `_team_line`),
    then all team sizes together; with `digest`, a SHA-256 of every game's actions (the first
    round's), in order."""
    h = hashlib.sha256()
    whole = engine = 0.0  # (seconds: every round of every team size)
    played = 0
    print(f"heuristic games, every board, easy and hard, {games} games a cell, one core "
          f"(median of {rounds} rounds):")
    for players in TEAMS:
        runs = [bot_games(games, players) for _ in range(rounds)]
        _team_line(players, runs)
        for w, e, g, _, _ in runs:
            whole, engine, played = whole + w, engine + e, played + g
        for actions in runs[0][4]:
            h.update(("|".join(map(str, actions)) + "\n").encode())
    print(f"  all: {played / whole:.0f} games/s; bot/engine {(whole - engine) / engine:.2f}x")
    if digest:
        print(f"  digest of every decision: {h.hexdigest()}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10, help="games a cell (default: 10)")
    ap.add_argument("--rounds", type=int, default=3, help="repeats; the median is shown")
    ap.add_argument("--profile", action="store_true",
                    help="profile the bot's games (cProfile) instead of the figures")
    ap.add_argument("--digest", action="store_true",
                    help="print a digest of every decision taken (to compare two versions)")
    ap.add_argument("--against", metavar="TREE",
                    help="another version's tree (its core/art/bots/, or an older "
                         "artproject/policies/ or artproject/policies.py), its bot played in "
                         "turns with this one")
    ap.add_argument("--count", action="store_true",
                    help="count instructions (valgrind) instead of timing (2 games a cell)")
    ap.add_argument("--count-child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.count_child:
        count_child(args.games, args.against or "")
        return
    if args.count:
        count(2 if args.games == 10 else args.games, args.against or "")
        return
    if args.against:
        compare(args.games, args.rounds, load_other(args.against))
        return
    bot_games(1, 2)  # warm up: templates, tables, interned actions
    if args.profile:
        profile(args.games)
        return
    timings(args.games, args.rounds, args.digest)


if __name__ == "__main__":
    main()
