"""The `artproject` command: check rule files, run scenarios, simulate games.

Exit status: 0 success, 1 a failed check (a scenario or property that does not hold),
2 bad input (a wrong file, name or option), 130 interrupted (Ctrl-C). Errors print as one
clear message, never a traceback; the status stands even when the reader of the output has
gone (`artproject verify ... | head -1`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from . import __version__
from .missions import DEFAULT

TYPE_CHECKING = False  # typing itself is not imported: the command starts the sooner
if TYPE_CHECKING:
    from typing import Any

MAX_GAMES = 1_000_000  # games a cell in one simulate run (a million take hours on one core)
MAX_EXAMPLES = 100_000  # games one verify run tries
MAX_WORKERS = 64  # processes, even with --force
MAX_TRIALS = 10_000  # values one tune run tries
MAX_SEED = 2**63 - 1
MAX_CONNECT = 3600.0  # seconds --connect-timeout waits for a cluster at most

EPILOG_MAIN = """\
examples:
  artproject simulate --mission japan --players 3 --difficulty medium --games 200 --seed 1
  artproject simulate --mission all --difficulty all --players all --store grid.db
  artproject report grid.db -o plots/
  artproject tune my-mission.toml --target easy=0.7,hard=0.2 --players 1-6
  artproject check missions/ cards/
  artproject scenario tests/scenarios/
  artproject simulate --game art-of-war --players 2,4,6 --games 1000 --seed 1
"""
EPILOG_SIMULATE = """\
examples:
  artproject simulate --mission japan --players 3 --difficulty medium --games 200 --seed 1
  artproject simulate --mission my-mission.toml --players 2 --games 50 --json
  artproject simulate --mission japan --variant house-rule.toml --games 100
  artproject simulate --mission all --difficulty all --players all --games 200 --workers 2
  artproject simulate --mission japan --policy random --games 200   # the random baseline
  artproject simulate --mission all --difficulty all --players all --games 2000 \\
      --store sweep.db --backend dask --address tcp://10.0.0.5:8786
  artproject report sweep.db -o plots/
"""
EPILOG_REPORT = """\
examples:
  artproject simulate --mission all --difficulty all --players all --games 200 \\
      --store sweep.db
  artproject report sweep.db                  # the Hall of Fame, from every game stored
  artproject report sweep.db -o plots/        # and win-rate, game-length, causes-of-loss
                                              # plots, as PNG and SVG
exit status: 0 written; 2 a file that is not a store, or a plot already there (--force).
"""
EPILOG_TUNE = """\
examples:
  artproject tune japan --target easy=0.7,medium=0.45,hard=0.2,impossible=0.05 \\
      --players 1-6 --games 100 --trials 40 --workers 2 -o japan-tuned.toml
  artproject simulate --mission japan --variant japan-tuned.toml --difficulty all
the mission's [tune] section names what may change (docs/missions.md); the search is
seeded: the same arguments find the same values, on one process or a cluster.
exit status: 0 written; 2 bad input (a target, a range, an output file already there).
"""
EPILOG_CHECK = """\
examples:
  artproject check missions/japan.toml
  artproject check missions/ cards/ tests/scenarios/
exit status: 0 when every file is clean, 2 with every error found.
a clean file's verdict is kept in the cache ($XDG_CACHE_HOME/artproject): checked again,
unchanged and every file it reads unchanged, it answers at once (ARTPROJECT_CACHE=off: never).
"""
EPILOG_VERIFY = """\
examples:
  artproject verify missions/japan.toml
  artproject verify my-mission.toml --examples 500 --seed 3 --players 2,4
exit status: 0 everything holds, 1 a counterexample (written as a scenario file),
2 a bad file or option. The default --out never replaces a file (counterexample-NAME-2.toml,
...); an --out that exists is refused unless --force.
"""
EPILOG_PLAY = """\
examples:
  artproject play --mission japan --players 3 --difficulty easy
  artproject play --load game.json
  printf '1\\n2\\nquit\\n' | artproject play --seed 4     # a scripted session
at the prompt: a number or an action (move p1 kyoto), view pN, undo, save FILE,
load FILE, help, quit. The end of the input saves to artproject-autosave.json (or
artproject-autosave-2.json, ... when that is taken: an autosave never replaces another).
"""
EPILOG_RENDER = """\
examples:
  artproject render japan -o japan.svg
  artproject render my-mission.toml -o my-mission.svg
  artproject render --save game.json -o position.svg
an existing file is replaced only when it is an SVG drawn by artproject, or with --force.
"""
EPILOG_NEW = """\
examples:
  artproject new harbour --from japan       # writes harbour.toml here
  artproject check harbour.toml
"""
EPILOG_SERVE = """\
examples:
  artproject serve                          # http://127.0.0.1:8000, games in ./artproject-server.db
  artproject serve --port 8080 --db games.db
  artproject serve --watch my-mission.toml  # /watch: its board, redrawn on every save
  artproject serve --replay my-game.json    # prints its replay's address
"""
EPILOG_SCENARIO = """\
examples:
  artproject scenario tests/scenarios/battle-example.toml
  artproject scenario tests/scenarios/
exit status: 0 all pass, 1 a scenario fails, 2 a scenario file is wrong.
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's usage errors exit 2, as ours do
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="artproject",
                description="A rules-as-data engine for The A.R.T. Project (and Art of War: "
                            "--game art-of-war).",
                epilog=EPILOG_MAIN, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"artproject {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    s = sub.add_parser("simulate", help="play whole games with a policy and report the results",
                       epilog=EPILOG_SIMULATE,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    _game_option(s)
    s.add_argument("--mission", default=DEFAULT, metavar="LIST",
                   help="a shipped mission's name or a mission file, a comma-separated list, "
                        f"or all (default: {DEFAULT}); with --game art-of-war, its rules "
                        "(default: art-of-war)")
    s.add_argument("--variant", action="append", default=[], metavar="FILE",
                   help="a variant (house rules): a file, or a shipped one by name "
                        "(city-falls-at-4); repeatable")
    s.add_argument("--players", default="2", metavar="LIST",
                   help="1 to 6 (Art of War: 2 to 7), a comma-separated list, a range (2-4), "
                        "or all (default: 2)")
    s.add_argument("--difficulty", default="medium", metavar="LIST",
                   help="easy, medium, hard or impossible, a list, or all (default: medium)")
    s.add_argument("--games", type=int, default=100,
                   help=f"games to play a cell, at most {MAX_GAMES:,} (default: 100)")
    s.add_argument("--seed", type=int, default=0, help="the seed of the first game (default: 0)")
    s.add_argument("--policy", default="heuristic", metavar="NAME",
                   help="heuristic: a bot that plays sensibly (default); ismcts: a search bot "
                        "on top of it (ismcts:budget=N: N simulations a searched decision, "
                        "default 32; docs/ai.md); random: random legal actions, a baseline "
                        "that loses almost every game; cautious: random, but never paying "
                        "health when another action does not; or a registered plug-in. Art "
                        "of War: heuristic, random, ismcts or simple (its first heuristic), or "
                        "a list seated in turn round the table (heuristic,random)")
    s.add_argument("--workers", type=int, default=1, metavar="N",
                   help="games in N processes at once; the same results as one; at most the "
                        "machine's cores unless --force (default: 1)")
    s.add_argument("--force", action="store_true",
                   help=f"allow more --workers than cores (up to {MAX_WORKERS})")
    _backend_options(s)
    s.add_argument("--store", metavar="FILE",
                   help="keep every game's result in this SQLite file; run the same command "
                        "again after an interruption and only the missing games are played "
                        "(a file that is not a results store is refused, never replaced)")
    out = s.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the results as JSON")
    out.add_argument("--csv", action="store_true", help="print the results as CSV")

    rp = sub.add_parser("report", help="the Hall of Fame and its plots from a results store "
                        "(simulate --store)", epilog=EPILOG_REPORT,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    rp.add_argument("store", metavar="FILE", help="a results store written by simulate --store")
    rp.add_argument("-o", "--output", metavar="DIR",
                    help="draw the plots into this folder (made if missing), PNG and SVG")
    rp.add_argument("--force", action="store_true",
                    help="replace plots already in DIR (otherwise nothing is written)")

    t = sub.add_parser("tune", help="search a mission's tunable numbers for target win rates "
                       "and write them as a variant", epilog=EPILOG_TUNE,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    t.add_argument("mission", metavar="MISSION",
                   help="a mission file (or a shipped mission's name) with a [tune] section")
    t.add_argument("--variant", action="append", default=[], metavar="FILE",
                   help="a variant to layer on the mission first; repeatable")
    t.add_argument("--target", default="easy=0.7,medium=0.45,hard=0.2,impossible=0.05",
                   metavar="D=RATE,...", help="the win rate wanted at each difficulty "
                   "(default: easy=0.7,medium=0.45,hard=0.2,impossible=0.05)")
    t.add_argument("--players", default="1-6", metavar="LIST",
                   help="team sizes to balance: 2, 2,4, 1-6 or all (default: 1-6)")
    t.add_argument("--games", type=int, default=50,
                   help=f"games a difficulty and team size, each trial, at most {MAX_GAMES:,} "
                        "(default: 50)")
    t.add_argument("--trials", type=int, default=30,
                   help=f"values to try, at most {MAX_TRIALS:,} (default: 30)")
    t.add_argument("--seed", type=int, default=1,
                   help="the search's seed and the games' first seed (default: 1)")
    t.add_argument("--policy", default="heuristic", metavar="NAME",
                   help="who plays the games (default: heuristic)")
    t.add_argument("--workers", type=int, default=1, metavar="N",
                   help="each trial's games in N processes; at most the machine's cores "
                        "unless --force (default: 1)")
    _backend_options(t)
    t.add_argument("-o", "--output", metavar="FILE",
                   help="the variant to write (default: MISSION-tuned.toml here, never "
                        "replacing a file)")
    t.add_argument("--force", action="store_true",
                   help=f"replace FILE if it exists; allow more --workers than cores (up to "
                        f"{MAX_WORKERS})")

    c = sub.add_parser("check", help="validate rule files (missions, cards, variants, scenarios)",
                       epilog=EPILOG_CHECK, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("paths", nargs="+", metavar="PATH", help="files or folders of TOML files")

    v = sub.add_parser("verify", help="search for games that break the rules' invariants or "
                       "the mission's own properties", epilog=EPILOG_VERIFY,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    v.add_argument("mission", metavar="MISSION", nargs="?",
                   help=f"a mission file (or a shipped mission's name; default: {DEFAULT}); "
                        "Art of War's rules (art-of-war, the default, or its file) with --game "
                        "art-of-war")
    _game_option(v)
    v.add_argument("--variant", action="append", default=[], metavar="FILE",
                   help="a variant to layer on the mission; repeatable")
    v.add_argument("--examples", type=int, default=100, metavar="N",
                   help=f"games to try, at most {MAX_EXAMPLES:,} (default: 100)")
    v.add_argument("--seed", type=int, default=0, help="the search's seed (default: 0)")
    v.add_argument("--players", default="all", metavar="LIST",
                   help="player counts to try: 2, 1,2,4, 2-4 or all (default: all)")
    v.add_argument("--difficulty", default="all", metavar="LIST",
                   help="difficulties to try: medium, easy,hard or all (default: all)")
    v.add_argument("--out", metavar="FILE",
                   help="where to write a counterexample's scenario "
                        "(default: counterexample-MISSION.toml, or -2, -3, ... if taken)")
    v.add_argument("--force", action="store_true", help="replace an existing --out file")
    v.add_argument("--json", action="store_true", help="print the report as JSON")

    g = sub.add_parser("play", help="play at the terminal, 1-6 people at one screen (Art of "
                                    "War: 2-7, hot seat)",
                       epilog=EPILOG_PLAY, formatter_class=argparse.RawDescriptionHelpFormatter)
    _game_option(g)
    g.add_argument("--mission", default=DEFAULT,
                   help=f"a shipped mission's name or a mission file (default: {DEFAULT}); "
                        "with --game art-of-war, its rules (default: art-of-war)")
    g.add_argument("--variant", action="append", default=[], metavar="FILE",
                   help="a variant to layer on the mission; repeatable")
    g.add_argument("--players", type=int, default=2,
                   help="1 to 6; Art of War: 2 to 7 (default: 2)")
    g.add_argument("--difficulty", default="medium", help="(default: medium)")
    g.add_argument("--seed", type=int, default=None, help="(default: a random seed)")
    g.add_argument("--load", metavar="FILE", help="continue a saved game")
    g.add_argument("--trust", action="store_true",
                   help="load a save whose digest is missing or wrong (with a warning)")

    d = sub.add_parser("render", help="draw a board (and a saved game's position) as SVG; "
                                      "Art of War's table or cards",
                       epilog=EPILOG_RENDER,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    d.add_argument("mission", nargs="?", metavar="MISSION",
                   help="a shipped mission's name or a mission file (or give --save); with "
                        "--game art-of-war, its rules: a table of its cards")
    _game_option(d)
    d.add_argument("-o", "--output", required=True, metavar="FILE.svg", help="the SVG to write")
    d.add_argument("--save", metavar="FILE", help="a save file: draw its position too")
    d.add_argument("--trust", action="store_true",
                   help="draw a save whose digest is missing or wrong (with a warning)")
    d.add_argument("--force", action="store_true",
                   help="replace FILE.svg even if it is not an SVG artproject drew")
    d.add_argument("--variant", action="append", default=[], metavar="FILE",
                   help="a variant to layer on the mission; repeatable")

    n = sub.add_parser("new", help="write NAME.toml: a new mission that inherits a shipped one",
                       epilog=EPILOG_NEW, formatter_class=argparse.RawDescriptionHelpFormatter)
    n.add_argument("name", metavar="NAME", help="the new mission's name (letters, digits, - _)")
    n.add_argument("--from", dest="base", default=DEFAULT, metavar="MISSION",
                   help=f"the shipped mission it extends (default: {DEFAULT})")

    w = sub.add_parser("serve", help="a game server: each person plays from their own device "
                                     "(docs/server.md)", epilog=EPILOG_SERVE,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    w.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    w.add_argument("--port", type=int, default=8000, help="the port (0: any free one)")
    w.add_argument("--db", default="artproject-server.db", metavar="FILE",
                   help="the games' database (default ./artproject-server.db)")
    w.add_argument("--origin", action="append", default=[], metavar="URL",
                   help="a web origin allowed besides the server's own (a reverse proxy's "
                        "public address); repeatable")
    w.add_argument("--watch", metavar="FILE", default=None,
                   help="show this mission file's board at /watch, redrawn on every save, "
                        "its errors as check prints them (docs/web.md)")
    w.add_argument("--replay", metavar="FILE", default=None,
                   help="open this save, transcript, scenario or results store in the replay "
                        "viewer and print its address (docs/web.md)")

    r = sub.add_parser("scenario", help="run scenario files (the rulebook as tests)",
                       epilog=EPILOG_SCENARIO,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    r.add_argument("paths", nargs="+", metavar="FILE", help="scenario files or folders")
    r.add_argument("--variant", action="append", default=[], metavar="FILE",
                   help="a variant file to layer on each scenario's mission; repeatable")
    r.add_argument("-v", "--verbose", action="store_true", help="print each scenario's summary")
    return p


def _game_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default="art-project", metavar="NAME",
                   help="the game: art-project (The A.R.T. Project, the default) or art-of-war "
                        "(docs/art-of-war.md)")


def _game(args: argparse.Namespace) -> str:
    """--game, checked: a game the kernel plays; left at the default, the game of the rules
    named (`--mission art-of-war`, or a file that says `game = "art-of-war"`)."""
    from .core.errors import GameError, closest
    from .core.games import game_names
    from .core.sources import game_of

    name = str(getattr(args, "game", "art-project"))
    if name not in game_names():
        raise GameError(f"unknown game {name!r}{closest(name, game_names())}; --game is one "
                        "of: " + ", ".join(game_names()))
    ref = getattr(args, "mission", None)
    if name == "art-project" and isinstance(ref, str):
        if ref in game_names():
            return ref
        if ref.endswith(".toml"):
            return game_of(ref) or name
    return name


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console command."""
    guard = _PipeGuard(sys.stdout)
    sys.stdout = guard
    try:
        status = _main(argv)
        guard.flush()
        if guard.failed:  # a full disk, an I/O error: the output is not all there
            _say(f"artproject: cannot write the output: {guard.failed}")
            return status or 2  # a failed check's 1 stands
        return status
    except KeyboardInterrupt as err:  # Ctrl-C: one line, status 130, whatever was running
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while we leave
        _say(f"artproject: {err}" if isinstance(err, _Interrupted) else "artproject: interrupted")
        return 130
    finally:
        guard.flush()
        sys.stdout = guard.stream


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command is None:
        _parser().print_help()
        return 0
    import warnings

    from .core.errors import ArtError, SaveWarning

    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", SaveWarning)
            try:
                return _run(args)
            finally:
                for w in seen:
                    _say(f"artproject: warning: {w.message}")
    except ArtError as err:
        _say(f"artproject: {err}" if "\n" not in str(err) else str(err))
        return 2


def _run(args: argparse.Namespace) -> int:
    _check_variants(getattr(args, "variant", None) or [])
    if args.command == "simulate":
        return _simulate(args)
    if args.command == "check":
        return _check(args.paths)
    if args.command == "report":
        return _report(args)
    if args.command == "tune":
        return _tune(args)
    if args.command == "verify":
        return _verify(args)
    if args.command == "render":
        return _render(args)
    if args.command == "play":
        return _play(args)
    if args.command == "new":
        return _new(args)
    if args.command == "serve":
        from .server import serve  # the server's dependencies: only for this command
        from .web import configure

        # --watch: the mission file /watch shows; --replay: a file opened in the viewer
        opened = configure(watch=args.watch, replay=args.replay)
        notes = [(f"replay of {Path(args.replay).name}", opened)] if opened else []
        return serve(args.host, args.port, args.db, args.origin, notes)
    return _scenario(args.paths, args.variant, args.verbose)


def _check_variants(refs: Sequence[str]) -> None:
    """Each --variant file checked as `check` checks it, before anything is played: its every
    error (an empty file among them) is told and the command refused (exit 2)."""
    from .core.errors import GameError
    from .core.files import exists

    for ref in refs:
        path = Path(ref)
        if not (ref.endswith(".toml") or "/" in ref) or not exists(path) or path.is_dir():
            continue  # a shipped name, or no file: the loader says so in its own words
        found, _ = _verdict(path)
        if found:
            raise GameError("\n".join(found) + f"\nartproject: --variant {ref}: "
                            f"{len(found)} error(s) (as `artproject check {ref}` finds)")


def _say(line: str) -> None:
    """One line on stderr (which may be gone too: then nowhere)."""
    with contextlib.suppress(OSError):
        print(line, file=sys.stderr, flush=True)


class _PipeGuard:
    """stdout that outlives its reader: once the pipe closes (`| head -1`), output goes
    nowhere and the command runs on to its own exit status, instead of dying on the write.
    Any other failure to write (a full disk: `> /dev/full`) is kept in `failed` and told as
    one line at the end, with status 2 (main)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.gone = False
        self.failed = ""

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return int(self.stream.write(text))
            except BrokenPipeError:
                self._gone()
            except OSError as err:
                self._gone(err)
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._gone()
            except OSError as err:
                self._gone(err)

    def _gone(self, err: OSError | None = None) -> None:
        self.gone = True
        if err is not None:
            self.failed = err.strerror or str(err)
        # what the stream still holds is flushed at exit: into nothing, quietly
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), self.stream.fileno())

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding...
        return getattr(self.stream, name)


# ---------------------------------------------------------------------- simulate
def _simulate(args: argparse.Namespace) -> int:
    if _game(args) != "art-project":
        return _simulate_war(args)
    _check_counts(args)
    missions, diffs, players = _grid(args)
    cells = _sweep(args, missions, diffs, players)
    return _print_cells(args, cells, report_csv, report_text)


def _simulate_war(args: argparse.Namespace) -> int:
    """simulate --game NAME (another game than the default): seat policies, per-seat and
    per-policy results, by the game's own tools (core/games.py `game_tools`)."""
    from .core.errors import GameError
    from .core.games import game_class, game_tools

    game = _game(args)
    tools, title = game_tools(game), game_class(game).TITLE
    _check_counts(args, policies=False)
    tools.policy_names(args.policy)
    if args.difficulty != "medium":
        raise GameError(f"--difficulty {args.difficulty!r}: {title} has no difficulty")
    rules = tools.DEFAULT_RULES if args.mission in (DEFAULT, "all") else args.mission
    missions = _items(rules, "--mission", f"{title}'s rules: {tools.DEFAULT_RULES} or a file")
    ranges = [tools.players(tools.load_rules(m, args.variant)) for m in missions]
    players = _players(args.players, low=max(lo for lo, _ in ranges),
                       high=min(hi for _, hi in ranges))  # what every rules file allows
    cells = _sweep(args, missions, ["-"], players, game=game)
    return _print_cells(args, cells, tools.report_csv, tools.report_text)


def _print_cells(args: argparse.Namespace, cells: list[dict[str, Any]],
                 csv: Callable[[list[dict[str, Any]]], str],
                 text: Callable[[list[dict[str, Any]]], str]) -> int:
    """A sweep's cells as JSON, CSV (`csv`) or the game's table (`text`)."""
    if args.json:
        import json

        print(json.dumps(cells, indent=1))
    elif args.csv:
        print(csv(cells), end="")
    else:
        print(text(cells))
    return 0


def _check_counts(args: argparse.Namespace, policies: bool = True) -> None:
    """simulate's and tune's numbers and policy, before anything is loaded."""
    from .core.errors import GameError
    from .policies import check_policy

    if not 1 <= args.games <= MAX_GAMES:
        raise GameError(f"--games must be from 1 to {MAX_GAMES:,}, not {args.games}")
    if args.workers < 1:
        raise GameError(f"--workers must be at least 1, not {args.workers}")
    _check_seed(args.seed, args.games)
    if policies:
        check_policy(args.policy)  # an unknown policy or option, or a number out of its range


def _check_seed(seed: int, games: int) -> None:
    from .core.errors import GameError

    if not 0 <= seed <= MAX_SEED - games:
        raise GameError(f"--seed must be from 0 to {MAX_SEED - games}, not {seed}")


def _grid(args: argparse.Namespace) -> tuple[list[str], list[str], list[int]]:
    """The missions, difficulties and player counts; every mission loads before a game."""
    from .core.art.loader import shipped_missions

    missions = (shipped_missions() if args.mission == "all" else
                _items(args.mission, "--mission", "a mission's name or file, a list, or all"))
    rules = _rules_for(missions[0], args.variant)
    diffs = _list(args.difficulty, list(rules.difficulties), "difficulty", "--difficulty")
    players = _players(args.players)
    for m in missions[1:]:
        _rules_for(m, args.variant)
    return missions, diffs, players


def _workers(n: int, force: bool) -> int:
    """--workers, at most the machine's cores (unless forced) and never over MAX_WORKERS."""
    from .core.errors import GameError

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)
    if n > MAX_WORKERS:
        raise GameError(f"--workers must be at most {MAX_WORKERS}, not {n}")
    if n > cores and not force:
        _say(f"artproject: note: --workers {n} is more than this machine's {cores} core(s); "
             f"using {cores} (--force uses {n})")
        return cores
    return n


def _backend_options(p: argparse.ArgumentParser) -> None:
    """Where simulate's and tune's games run (artproject/backends.py)."""
    p.add_argument("--backend", default="local", metavar="NAME",
                   help="where the games run: local (this machine's --workers processes, the "
                        "default) or dask (a Dask cluster: docs/scaling.md)")
    p.add_argument("--address", metavar="ADDR",
                   help="with --backend dask: a running cluster's scheduler "
                        "(tcp://HOST:8786); without it a local cluster of --workers processes")
    p.add_argument("--connect-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="how long to wait for the cluster at --address, at most "
                        f"{MAX_CONNECT:g} (default: 10)")


def _backend(args: argparse.Namespace) -> Any:
    """The backend the options name (connected, for a cluster)."""
    from .backends import make_backend
    from .core.errors import GameError

    if not 0 < args.connect_timeout <= MAX_CONNECT:  # (nan and inf are refused too)
        raise GameError(f"--connect-timeout must be above 0 and at most {MAX_CONNECT:g} "
                        f"seconds, not {args.connect_timeout:g}")
    # a cluster joined at --address has its own workers: --workers is for this machine's
    workers = args.workers if args.address else _workers(args.workers, args.force)
    return make_backend(args.backend, workers, args.address, args.connect_timeout)


def _sweep(args: argparse.Namespace, missions: Sequence[str], diffs: Sequence[str],
           players: Sequence[int], game: str = "art-project") -> list[dict[str, Any]]:
    """Run simulate's grid on its backend, into its store, with a progress bar; Ctrl-C stops
    the workers, keeps every finished batch in the store, and ends with one line."""
    from tqdm import tqdm

    from .backends import sigint_deferred
    from .store import Store
    from .sweep import grid_of, plan_sweep, run_plan

    backend = store = None
    # Ctrl-C is held, and acted on between steps, from the backend's start to the sweep's
    # end: raised at any bytecode it could land in a Dask callback and be lost
    with sigint_deferred() as asked:
        try:
            backend = _backend(args)  # before the store: a cluster that does not answer
            store = Store.open(args.store) if args.store else None  # changes nothing
            grid = grid_of(missions, diffs, players, args.games, args.seed, args.variant,
                           args.policy, game)
            plan = plan_sweep(grid, store, backend.workers, lambda: _stop_if(asked))
            _stop_if(asked)
            return _swept(plan, backend, store, tqdm, run_plan)
        finally:
            if backend is not None:
                backend.close()
            if store is not None:
                store.close()


def _stop_if(asked: list[int]) -> None:
    """KeyboardInterrupt if Ctrl-C was pressed (while it was held)."""
    if asked:
        raise KeyboardInterrupt


def _swept(plan: Any, backend: Any, store: Any, tqdm: Any,
           run_plan: Callable[..., list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """A planned sweep run with its progress bar; Ctrl-C tells what the store kept."""
    with tqdm(total=plan.total, initial=plan.done, unit="game", file=sys.stderr,
              disable=None, leave=False, desc="simulating", smoothing=0.1) as bar:
        def advance(n: int) -> None:
            bar.update(n)

        try:
            return run_plan(plan, backend, store, advance)
        except KeyboardInterrupt:
            bar.close()
            if store is None:
                raise
            raise _Interrupted(f"interrupted; {store.path} keeps every game finished "
                               f"({store.count()} in all): run the same command again "
                               "to play the rest") from None


class _Interrupted(KeyboardInterrupt):
    """Ctrl-C during a sweep, with the one line to print."""


def _rules_for(mission: str, variants: Sequence[str]) -> Any:
    from .core.art.loader import load_rules

    return load_rules(mission, variants)


def report_text(cells: list[dict[str, Any]]) -> str:
    """The Hall of Fame: win rates with 95% confidence intervals, then the causes of loss."""
    from tabulate import tabulate

    first = cells[0]
    head = (f"Hall of Fame: {first['policy']} policy, {first['games']} games a row, seeds "
            f"{first['seed']}..{first['seed'] + first['games'] - 1}"
            + (f", variants {', '.join(first['variants'])}" if first["variants"] else ""))
    rows = [[c["mission"], c["difficulty"], c["players"], c["won"], c["games"],
             f"{100 * c['win_rate']:.1f}%",
             f"{100 * c['ci95'][0]:.1f}-{100 * c['ci95'][1]:.1f}%",
             f"{c['average_rounds']:.1f}", next(iter(c["causes"]), "")] for c in cells]
    table = tabulate(rows, headers=["mission", "difficulty", "players", "won", "games",
                                    "win rate", "95% CI", "rounds", "main cause of loss"],
                     tablefmt="simple")
    causes: Counter[str] = Counter()
    for c in cells:
        causes.update(c["causes"])
    lost = sum(c["lost"] for c in cells)
    lines = [head, "", table, "",
             f"causes of loss ({lost} games; the rulings cited are told in docs/rulings.md):"]
    lines += [f"  {k:6d}  {cause}" for cause, k in causes.most_common()]
    return "\n".join(lines)


def report_csv(cells: list[dict[str, Any]]) -> str:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["mission", "difficulty", "players", "games", "won", "win_rate", "ci95_low",
                "ci95_high", "average_rounds", "average_decisions", "main_cause"])
    for c in cells:
        w.writerow([c["mission"], c["difficulty"], c["players"], c["games"], c["won"],
                    f"{c['win_rate']:.4f}", c["ci95"][0], c["ci95"][1],
                    f"{c['average_rounds']:.3f}", f"{c['average_decisions']:.3f}",
                    next(iter(c["causes"]), "")])
    return buf.getvalue()


# ---------------------------------------------------------------------- report
def _report(args: argparse.Namespace) -> int:
    from .report import WAR, hall_of_fame, war_report, write_plots
    from .store import Store

    with Store.read(args.store) as store:
        rows = list(store.rows())
    team = [r for r in rows if r.game != WAR]  # Art of War's games: their own table
    war = [r for r in rows if r.game == WAR]
    written = []
    if args.output and (team or not war):
        written = write_plots(team, Path(args.output), args.force)  # before any output
    if team or not war:
        print(hall_of_fame(team, args.store))
    if war:
        print(("\n" if team else "") + war_report(war))
    if args.output:
        print(f"\nwrote {len(written)} plots in {args.output}: "
              + ", ".join(p.name for p in written) if written else
              "\nno plots: they are drawn for The A.R.T. Project's games only")
    return 0


# ---------------------------------------------------------------------- tune
def _tune(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from .core.art.loader import load_rules
    from .core.art.tunables import tunables
    from .core.errors import GameError
    from .core.files import exists, refuse_odd, write_atomic
    from .tune import parse_targets, report, search

    _check_counts(args)
    if args.trials < 1:
        raise GameError(f"--trials must be at least 1, not {args.trials}")
    if args.trials > MAX_TRIALS:
        raise GameError(f"--trials must be at most {MAX_TRIALS:,}, not {args.trials}")
    rules = load_rules(args.mission, args.variant)
    targets = parse_targets(args.target, list(rules.difficulties))
    players = _players(args.players)
    dims = tunables(rules)
    if not dims:
        raise GameError(f"{rules.source}: the mission declares nothing to tune: add a [tune] "
                        "section (docs/missions.md)")
    unplayed = [d.name.partition(".")[2] for d in dims if d.name.startswith("threat_by_players.")
                and int(d.name.partition(".")[2]) not in players]
    if unplayed:  # a team size no game plays: its value would be chosen blind
        raise GameError(f"--players {args.players} plays no game with {' or '.join(unplayed)} "
                        "players, so [tune.threat_by_players] would choose their threat blind; "
                        "add them to --players (the default, 1-6, plays every team size)")
    out = Path(args.output or f"{rules.name}-tuned.toml")
    refuse_odd(out)  # a device or folder: refused now, with or without --force
    if not out.resolve().parent.is_dir():
        raise GameError(f"{out}: cannot write: no such folder {str(out.parent)!r}")
    if exists(out) and not args.force:  # said now, not after the search
        raise GameError(f"{out} already exists; nothing was written (--force replaces it)")
    backend = _backend(args)
    try:
        with tqdm(total=args.trials, unit="trial", file=sys.stderr, disable=None, leave=False,
                  desc="tuning") as bar:

            def advance(n: int, score: float) -> None:
                bar.set_postfix(loss=f"{score:.4f}", refresh=False)
                bar.update(n)

            result = search(args.mission, args.variant, targets, players, args.games,
                            args.trials, args.seed, args.policy, backend, advance)
    finally:
        backend.close()
    header = (f"# Written by: artproject tune {args.mission} --target {args.target} "
              f"--players {args.players} --games {args.games} --trials {args.trials} "
              f"--seed {args.seed} --policy {args.policy}\n"
              f"# Use it as a variant: artproject simulate --mission {args.mission} "
              f"--variant {out}\n")
    print(report(result, targets, rules, dims))
    if result.kept:  # an honest search may find nothing better than the mission itself
        print(f"kept the mission's own values: no trial beat them on "
              f"{'fresh games' if result.fresh_before else 'the search games'}; "
              f"nothing written ({out} not made)")
        return 0
    write_atomic(out, header + result.text, replace=args.force)
    print(f"wrote {out}: a variant with the values found")
    return 0


# ---------------------------------------------------------------------- check
def _toml_files(paths: Sequence[str]) -> list[Path]:
    from .core.errors import Location, RulesError

    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(p.rglob("*.toml"))
        elif p.exists():
            out.append(p)
        else:
            raise RulesError("no such file or folder", Location(str(p)))
    return out


def _check(paths: Sequence[str]) -> int:
    files = _toml_files(paths)
    errors = warnings = 0
    for f in files:
        found, odd = _verdict(f)
        for e in (*found, *odd):
            print(e, file=sys.stderr)
        errors += len(found)
        warnings += len(odd)
    print(f"checked {len(files)} file(s): "
          + ("no errors" if not errors else f"{errors} error(s)")
          + (f", {warnings} warning(s)" if warnings else ""))
    return 2 if errors else 0


# The kinds of file whose clean verdict is kept (another game's `GAME:KIND` too): those
# checked by a game's loader, which notes every file it reads (core/files.py). Scenarios
# are always run afresh.
_KEPT = ("mission", "variant", "cards", "base", "rules")


def _verdict(path: Path) -> tuple[list[str], list[str]]:
    """One file's errors and warnings as printed. A clean file's are kept in the cache
    (core/cache.py): checked again, unchanged and every file it reads unchanged, it is
    answered from there without loading the checker. Scenarios are always run."""
    import marshal

    from .core import cache

    request = str(path)
    kept = cache.lookup("check", request)
    if kept is not None:
        with contextlib.suppress(Exception):  # a damaged entry: checked afresh
            return [], [str(w) for w in marshal.loads(kept)]
    from .checking import checked

    with cache.watching() as read:
        found, odd, kind = checked(path)
    if not found and kind.rpartition(":")[2] in _KEPT:
        cache.store("check", request, read, marshal.dumps(tuple(str(w) for w in odd)))
    return [str(e) for e in found], [str(w) for w in odd]


# ---------------------------------------------------------------------- verify
def _items(text: str, option: str, expected: str) -> list[str]:
    """A comma-separated option's items: an empty item is refused, a repeated one counted
    once (with a note)."""
    from .core.errors import GameError

    items = [t.strip() for t in text.split(",")]
    if not text.strip() or not all(items):
        raise GameError(f"{option} {text!r}: an empty item; expected {expected}")
    return _once(items, option)


def _once(items: list[Any], option: str) -> list[Any]:
    """Each item once, in order; a note names those given more than once."""
    once = list(dict.fromkeys(items))
    if len(once) < len(items):
        twice = sorted({str(t) for t in items if items.count(t) > 1})
        _say(f"artproject: note: {option} names {', '.join(twice)} more than once; "
             "each is counted once")
    return once


def _list(text: str, known: Sequence[str], what: str, option: str) -> list[str]:
    from .core.errors import GameError, closest

    if text == "all":
        return list(known)
    out = _items(text, option, f"one of {', '.join(known)}, a comma-separated list, or all")
    for t in out:
        if t not in known:
            raise GameError(f"unknown {what} {t!r}{closest(t, known)}; expected one of: "
                            + ", ".join(known) + " (or all)")
    return out


def _players(text: str, option: str = "--players", low: int = 1, high: int = 6) -> list[int]:
    """Team sizes: 2, a list (2,4), a range (1-6), a mix (1,3-4), or all; an empty item or
    range is refused, a size named twice counted once (with a note). Art of War's are 2-7."""
    from .core.errors import GameError

    known = [str(i) for i in range(low, high + 1)]
    span = f"{low}-{high}"
    if text == "all":
        return list(range(low, high + 1))
    items = [t.strip() for t in text.split(",")]
    if not text.strip() or not all(items):
        raise GameError(f"{option} {text!r}: an empty item; expected one of "
                        f"{', '.join(known)}, a comma-separated list, a range ({span}), or all")
    sizes: list[int] = []
    for item in items:
        first, dash, last = (t.strip() for t in item.partition("-"))
        if not dash:
            sizes += map(int, _list(item, known, "player count", option))
        elif first not in known or last not in known:
            raise GameError(f"{option}: {item!r} is not a team size: {low} to {high}, a list "
                            f"(2,4) or a range ({span})")
        elif int(first) > int(last):
            raise GameError(f"{option}: the range {item!r} is empty")
        else:
            sizes += range(int(first), int(last) + 1)
    return _once(sizes, option)


def _verify(args: argparse.Namespace) -> int:
    from .core.art.loader import load_rules
    from .core.errors import GameError
    from .verify import counterexample_scenario, verify

    if not 1 <= args.examples <= MAX_EXAMPLES:
        raise GameError(f"--examples must be from 1 to {MAX_EXAMPLES:,}, not {args.examples}")
    _check_seed(args.seed, 0)
    if _game(args) != "art-project":
        from .core.games import game_tools

        # the game's own rules, unless named
        args.mission = args.mission or game_tools(_game(args)).DEFAULT_RULES
        return _verify_war(args)
    args.mission = args.mission or DEFAULT
    rules = load_rules(args.mission, args.variant)
    players = _players(args.players)
    diffs = _list(args.difficulty, list(rules.difficulties), "difficulty", "--difficulty")
    out = _counterexample_out(args, rules.name)
    progress = _Progress(sys.stderr)
    report = verify(rules, args.examples, args.seed, players, diffs, progress)
    progress.close()
    held = [f"{rules.name}: everything holds in {report.games} games, {report.steps} decisions "
            f"(players {','.join(map(str, players))}; {', '.join(diffs)})",
            "  checked after every decision: caps and conservation (R1, R2), the golden rule "
            "(R4, R5), lost cities (R11, R18), the track (R19), termination; per game: "
            "determinism, save and load, clone",
            *(f"  property: {name}" for name in report.properties)]
    return _verified(args, out, rules, report, held, counterexample_scenario,
                     "{ex.players} player(s), {ex.difficulty}")


def _verify_war(args: argparse.Namespace) -> int:
    """verify --game NAME (another game than the default): the invariants after every
    decision, by the game's own tools (core/games.py `game_tools`)."""
    from .core.errors import GameError
    from .core.games import game_class, game_tools

    game = _game(args)
    tools = game_tools(game)
    rules = tools.load_rules(args.mission, args.variant)
    if args.difficulty != "all":
        raise GameError(f"--difficulty {args.difficulty!r}: {game_class(game).TITLE} has no "
                        "difficulty")
    low, high = tools.players(rules)
    players = _players(args.players, low=low, high=high)
    out = _counterexample_out(args, rules.name)
    progress = _Progress(sys.stderr)
    report = tools.verify(rules, args.examples, args.seed, players, progress)
    progress.close()
    held = [f"{rules.name}: everything holds in {report.games} games, {report.steps} decisions "
            f"(players {','.join(map(str, players))})", *tools.HELD]
    return _verified(args, out, rules, report, held, tools.counterexample_scenario,
                     "{ex.players} players")


def _counterexample_out(args: argparse.Namespace, name: str) -> Path:
    """Where verify writes a counterexample: --out (refused now, not after the search, if it
    exists without --force or its folder does not) or a fresh name."""
    from .core.errors import GameError
    from .core.files import exists, fresh_name, refuse_odd

    out = Path(args.out) if args.out else fresh_name(f"counterexample-{name}.toml")
    refuse_odd(out)  # a device or folder: refused now, with or without --force
    if not out.resolve().parent.is_dir():
        raise GameError(f"{out}: cannot write: no such folder {str(out.parent)!r}")
    if args.out and exists(out) and not args.force:
        raise GameError(f"{out} already exists; nothing was written (--force replaces it)")
    return out


def _verified(args: argparse.Namespace, out: Path, rules: Any, report: Any, held: list[str],
              scenario: Callable[..., str], who: str) -> int:
    """A verify's report, either game's: as JSON (--json), else `held` when everything held
    (exit 0), or the counterexample, written as a scenario at `out` (atomically) and told
    (`who`: the example's players, formatted with `ex`; exit 1)."""
    from .core.files import write_atomic
    from .verify import report_json

    if args.json:
        print(report_json(report))
    ex, fail = report.example, report.failure
    if fail is None or ex is None:
        if not args.json:
            print("\n".join(held))
        return 0
    text = scenario(rules, _relative(args.mission, out),
                    [_relative(v, out) for v in args.variant], ex, fail)
    write_atomic(out, text, replace=bool(args.out and args.force))
    if not args.json:
        print(f"{rules.name}: COUNTEREXAMPLE: {fail.violation}")
        print(f"  {who.format(ex=ex)}, seed {ex.seed}, {len(fail.actions)} decisions:")
        for i, a in enumerate(fail.actions, 1):
            print(f"  {i:4d}. {a}")
        print(f"  written as a scenario: {out} (artproject scenario {out})")
    return 1


def _relative(ref: str, out: Path) -> str:
    """A mission or variant reference as the scenario at `out` must write it."""
    import os

    if not ref.endswith(".toml"):
        return ref  # a shipped name
    return os.path.relpath(Path(ref).resolve(), out.resolve().parent)


class _Progress:
    """A one-line progress count on stderr: redrawn on a terminal, every 10% otherwise."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.last = -1

    def __call__(self, games: int, total: int, steps: int) -> None:
        if self.tty:
            self.stream.write(f"\r  verifying: {games} games, {steps} decisions ")
            self.stream.flush()
        elif games * 10 // max(total, 1) != self.last:
            self.last = games * 10 // max(total, 1)
            self.stream.write(f"  verifying: {games} games, {steps} decisions\n")

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")


# ---------------------------------------------------------------------- play
def _play(args: argparse.Namespace) -> int:
    from .core.art.game import new_game
    from .core.saves import load_game
    from .play import run

    game = _game(args)
    if args.load:
        st = load_game(args.load, trust=args.trust)
    else:
        import secrets

        seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
        _check_seed(seed, 0)
        if game != "art-project":
            from .core.games import game_tools

            rules = game_tools(game).DEFAULT_RULES if args.mission == DEFAULT else args.mission
            st = new_game(rules, args.players, seed=seed, variants=args.variant, game=game)
        else:
            st = new_game(args.mission, args.players, args.difficulty, seed, args.variant)
    if st.game != "art-project":  # hot-seat: a hand shown only to its owner (the game's)
        from .core.games import game_tools

        return int(game_tools(st.game).run(st, sys.stdin, sys.stdout))
    return run(st, sys.stdin, sys.stdout)


# ---------------------------------------------------------------------- render, new
def _render(args: argparse.Namespace) -> int:
    from .core.art.loader import load_rules
    from .core.errors import GameError
    from .core.files import refuse_odd, write_atomic
    from .core.saves import load_game
    from .render import render

    st = None
    out = Path(args.output)
    refuse_odd(out)  # never a device (a FIFO would also hang _our_svg's read), even forced
    replace = args.force or _our_svg(out)
    game = _game(args)
    if args.save:
        st = load_game(args.save, trust=args.trust)
        rules = st.rules
    if (st.game if st is not None else game) != "art-project":
        return _render_war(args, st, out, replace)
    if st is None and args.mission:
        rules = load_rules(args.mission, args.variant)
    elif st is None:
        raise GameError("name a MISSION or give --save FILE")
    write_atomic(out, render(rules, st), replace=replace)
    print(f"wrote {out}: {rules.title}, {len(rules.cities)} cities"
          + (f", the position of round {st.round}" if st else ""))
    return 0


def _render_war(args: argparse.Namespace, st: Any, out: Path, replace: bool) -> int:
    from .core.files import write_atomic
    from .core.games import game_tools

    tools = game_tools(st.game if st is not None else _game(args))
    rules = st.rules if st is not None else tools.load_rules(
        args.mission or tools.DEFAULT_RULES, args.variant)
    write_atomic(out, tools.render(rules, st), replace=replace)
    print(f"wrote {out}: {rules.title}, "
          + (f"the table at turn {st.turn}" if st is not None else f"{len(rules.cards)} cards"))
    return 0


def _our_svg(path: Path) -> bool:
    """Whether `path` is an SVG that `render` drew (so drawing again may replace it)."""
    from .render import SIGNATURE

    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except (OSError, ValueError):
        return False
    return head.startswith(b"<?xml") and SIGNATURE.encode() in head


def _new(args: argparse.Namespace) -> int:
    from .core.art.loader import load_rules, shipped_missions
    from .core.errors import GameError
    from .core.files import exists, shorten, write_atomic
    from .newmission import mission_text, valid_name

    if not valid_name(args.name):
        raise GameError(f"{args.name!r} is not a mission name: use lowercase letters, digits, "
                        "- and _")
    if args.base not in shipped_missions():
        from .core.errors import closest

        raise GameError(f"unknown mission {args.base!r}{closest(args.base, shipped_missions())}"
                        "; shipped missions: " + ", ".join(shipped_missions()))
    out = Path(f"{args.name}.toml")
    if len(out.name.encode()) > 255:  # most file systems' limit on a name
        raise GameError(f"{shorten(str(out))}: the name is too long for a file (255 bytes at "
                        "most); choose a shorter mission name")
    if exists(out):
        raise GameError(f"{shorten(str(out))} already exists; nothing was written")
    base = load_rules(args.base)
    write_atomic(out, mission_text(args.name, args.base, base.title))
    print(f"wrote {out}: a mission that extends {args.base}; next: artproject check {out}")
    return 0


# ---------------------------------------------------------------------- scenario
def _variant_game(ref: str) -> str:
    """The game a variant is for: its file's `game` key; a shipped name, the shipped file's."""
    from .core.sources import game_of, package_dir

    path = Path(ref) if ref.endswith(".toml") or "/" in ref else (
        package_dir("missions") / "variants" / f"{ref}.toml")
    return game_of(path) or "art-project"


def _scenario(paths: Sequence[str], variants: Sequence[str], verbose: bool) -> int:
    from .core.errors import RulesError
    from .core.scenario import run_scenario
    from .core.sources import game_of

    files = _toml_files(paths)
    failed = bad = 0
    games = {v: _variant_game(v) for v in variants}
    for f in files:
        game = game_of(f) or "art-project"  # a variant applies to the scenarios of its game
        try:
            res = run_scenario(f, tuple(v for v in variants if games[v] == game))
        except RulesError as err:
            print(err, file=sys.stderr)
            bad += 1
            continue
        if res.passed:
            if verbose:
                print(f"pass  {f}  ({res.steps} steps) {res.about}")
        else:
            failed += 1
            print(f"FAIL  {f}")
            for line in res.failures:
                print(f"  {line}")
    print(f"{len(files) - failed - bad} passed, {failed} failed"
          + (f", {bad} could not be read" if bad else ""))
    if bad:
        return 2
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
