"""The command's arguments: the parser of every command, its options, help and examples."""

from __future__ import annotations

import argparse
import sys

from .. import __version__
from ..missions import DEFAULT
from .options import MAX_CONNECT, MAX_EXAMPLES, MAX_GAMES, MAX_TRIALS, MAX_WORKERS

TYPE_CHECKING = False  # typing itself is not imported: the command starts the sooner
if TYPE_CHECKING:
    from typing import Any


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
  artproject tune tests/missions/harbour-tunable.toml \\
      --target easy=0.7,medium=0.45,hard=0.2,impossible=0.05 \\
      --players 1-6 --games 100 --trials 40 --workers 2 -o harbour-tuned.toml
  artproject simulate --mission tests/missions/harbour-tunable.toml \\
      --variant harbour-tuned.toml --difficulty all
the mission's [tune] section names what may change (docs/missions.md); no shipped mission
has one (the example's is the authoring tutorial's mission, docs/authoring.md, in a
checkout). The search is seeded: the same arguments find the same values, on one process
or a cluster; a variant is written only when it beats the mission on fresh games.
exit status: 0 done (a variant written, or the mission's own values kept, said so); 2 bad input
(a target, a range, an output file already there).
"""
EPILOG_CHECK = """\
examples:
  artproject check missions/japan.toml
  artproject check missions/ cards/ tests/scenarios/
  artproject check my-variant.toml --mission egypt
a variant, card file or base file alone is checked on --mission (default: japan); a
mission file given with --mission is checked as the variant simulate --variant layers there.
exit status: 0 when every file is clean, 2 with every error found (a path that is not
there, or a folder with no .toml file in it, is an error too).
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
  artproject play --game art-of-war --players 4 --seed 7  # hot seat: pass the screen
  artproject play --game art-of-war --players 3 --bots p2,p3=random  # one person, two bots
at the prompt, The A.R.T. Project: a number or an action (move p1 kyoto), view pN, undo,
save FILE, load FILE, help, quit; with 2 or more players, a hand is shown only once the
screen is passed to its owner (view pN passes it too). Art of War and the other hot-seat
games: a number or an action (challenge p1 p2), save FILE, load FILE, help, quit, and in
Art of War cards (each card's score and collateral damage); no view and no undo (each
would show a hidden hand); at "pass the screen to pN, then press Enter": Enter, save FILE
or quit.
--difficulty is The A.R.T. Project's alone. The end of the input saves to
artproject-autosave.json (or artproject-autosave-2.json, ... when that is taken: an
autosave never replaces another).
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
exit status: 0 all pass, 1 a scenario fails, 2 a scenario file is wrong (or missing, or a
folder holds none).
"""


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # no abbreviations: `tune --game 5` must not be read as `--games 5`
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> Any:  # argparse's usage errors exit 2, as ours do
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            self.unrecognized(extra)
        return parsed

    def unrecognized(self, extra: list[str]) -> Any:
        """Refuse arguments no option or argument of this parser takes, each mistyped option
        with the nearest of its options (argparse before 3.14 suggests none)."""
        from ..core.errors import closest

        options = [o for o in self._option_string_actions if o.startswith("--")]
        hints = [closest(x.partition("=")[0], options).replace("'", "") for x in extra
                 if x.startswith("--")]
        self.error(f"unrecognized arguments: {' '.join(extra)}{''.join(hints)}")


class _Command(_Parser):
    """A command's parser: it refuses what it does not take itself, with its own usage and
    options (argparse leaves that to the top parser, whose usage names no option of the
    command's)."""

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        parsed, extra = super().parse_known_args(args, namespace)
        if extra:
            self.unrecognized(extra)
        return parsed, extra


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="artproject",
                description="A rules-as-data engine for The A.R.T. Project (and Art of War: "
                            "--game art-of-war; simulate --help names every game).",
                epilog=EPILOG_MAIN, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"artproject {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Command)

    s = sub.add_parser("simulate", help="play whole games with a policy and report the results",
                       epilog=EPILOG_SIMULATE,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    _game_option(s)
    s.add_argument("--mission", metavar="LIST",  # (not given: the game's own rules)
                   help="a shipped mission's name or a mission file, a comma-separated list, "
                        f"or all (default: {DEFAULT}); with another --game, that game's rules "
                        "(default: its own)")
    s.add_argument("--variant", action="append", default=[], metavar="FILE",
                   help="a variant (house rules): a file, or a shipped one by name "
                        "(city-falls-at-4); repeatable")
    s.add_argument("--players", default="2", metavar="LIST",
                   help="1 to 6 (another --game: its own, Art of War's 2 to 7), a comma-"
                        "separated list, a range (2-4), or all (default: 2)")
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
    c.add_argument("--mission", metavar="MISSION",
                   help=f"the board a variant, card file or base file is checked on: a "
                        f"shipped mission's name or a mission file (default: {DEFAULT})")

    v = sub.add_parser("verify", help="search for games that break the rules' invariants or "
                       "the mission's own properties", epilog=EPILOG_VERIFY,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    v.add_argument("mission", metavar="MISSION", nargs="?",
                   help=f"a mission file (or a shipped mission's name; default: {DEFAULT}); "
                        "with another --game, that game's rules (default: its own) or a file "
                        "of them")
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
    g.add_argument("--mission",  # (not given: the game's own rules)
                   help=f"a shipped mission's name or a mission file (default: {DEFAULT}); "
                        "with another --game, that game's rules (default: its own)")
    g.add_argument("--variant", action="append", default=[], metavar="FILE",
                   help="a variant to layer on the mission; repeatable")
    # (None when not given: with --load, only the options given are refused)
    g.add_argument("--players", type=int, default=None,
                   help="1 to 6; another --game: its own, Art of War's 2 to 7 (default: 2)")
    g.add_argument("--difficulty", default=None,
                   help="easy, medium, hard or impossible (default: medium); The A.R.T. "
                        "Project's alone")
    g.add_argument("--seed", type=int, default=None, help="(default: a random seed)")
    g.add_argument("--load", metavar="FILE", help="continue a saved game (its mission, players, "
                   "difficulty, seed and variants are the save's: none of those options with it)")
    g.add_argument("--trust", action="store_true",
                   help="load a save whose digest is missing or wrong (with a warning)")
    g.add_argument("--bots", metavar="SEATS", default=None,
                   help="seats a bot plays, comma-separated: p2 (the game's heuristic) or "
                        "p2=NAME (a policy as simulate --policy names it: random, "
                        "ismcts:budget=8); the hot-seat games, where each decision "
                        "is one seat's (The A.R.T. Project's are the team's: serve seats "
                        "its bots)")

    d = sub.add_parser("render", help="draw a board (and a saved game's position) as SVG; "
                                      "Art of War's table or cards",
                       epilog=EPILOG_RENDER,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    d.add_argument("mission", nargs="?", metavar="MISSION",
                   help="a shipped mission's name or a mission file (or give --save); with "
                        "another --game, that game's rules: a table of its cards")
    _game_option(d)
    d.add_argument("-o", "--output", required=True, metavar="FILE.svg",
                   help="the SVG to write (a name ending in .svg)")
    d.add_argument("--save", metavar="FILE", help="a save file: draw its position on its own "
                   "board (no MISSION or --variant with it)")
    d.add_argument("--trust", action="store_true",
                   help="draw a save whose digest is missing or wrong (with a warning)")
    d.add_argument("--force", action="store_true",
                   help="replace FILE.svg even if it is not an SVG artproject drew")
    d.add_argument("--variant", action="append", default=[], metavar="FILE",
                   help="a variant to layer on the mission; repeatable")

    n = sub.add_parser("new", help="write NAME.toml: a new mission that inherits a shipped one",
                       epilog=EPILOG_NEW, formatter_class=argparse.RawDescriptionHelpFormatter)
    n.add_argument("name", metavar="NAME", help="the new mission's name: lowercase "
                   "letters, digits, - and _ (it names NAME.toml)")
    n.add_argument("--from", dest="base", default=DEFAULT, metavar="MISSION",
                   help=f"the shipped mission it extends (default: {DEFAULT})")

    w = sub.add_parser("serve", help="a game server: each person plays from their own device "
                                     "(docs/server.md)", epilog=EPILOG_SERVE,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    w.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    w.add_argument("--port", type=_port, default=8000,
                   help="the port, 0 to 65535 (0: any free one)")
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


def _port(text: str) -> int:
    """--port: a TCP port, 0 to 65535 (the socket layer would wrap 99999, or take 65536 as
    any free port, rather than refuse it)."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535 (0: any free one), "
                                         f"not {text!r}")
    return port


class _Games:
    """The games the kernel plays, listed when a help is printed: core.games is imported
    then, not for every command, and a game added is named with no change here."""

    def __str__(self) -> str:
        from ..core.games import DEFAULT, game_names

        return ", ".join(f"{n} (the default)" if n == DEFAULT else n for n in game_names())


def _game_option(p: argparse.ArgumentParser) -> None:
    game = p.add_argument("--game", metavar="NAME",
                          help="the game, one of: %(games)s (Art of War: docs/art-of-war.md)")
    vars(game)["games"] = _Games()  # (%(games)s: argparse fills a help from its action)


def _backend_options(p: argparse.ArgumentParser) -> None:
    """Where simulate's and tune's games run (artproject/backends.py)."""
    p.add_argument("--backend", default="local", metavar="NAME",
                   help="where the games run: local (this machine's --workers processes, the "
                        "default) or dask (a Dask cluster: docs/scaling.md)")
    p.add_argument("--address", metavar="ADDR",
                   help="with --backend dask: a running cluster's scheduler "
                        "(tcp://HOST:8786); without it a local cluster of --workers processes")
    p.add_argument("--connect-timeout", type=float, metavar="SECONDS",
                   help="with --backend dask: how long to wait for the cluster, at most "
                        f"{MAX_CONNECT:g} (default: 10)")
