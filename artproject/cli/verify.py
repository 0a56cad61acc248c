"""`artproject verify`: games searched for a broken invariant or property; a counterexample
written as a scenario."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from .options import MAX_EXAMPLES, _check_seed, _game, _list, _players

TYPE_CHECKING = False  # typing itself is not imported: the command starts the sooner
if TYPE_CHECKING:
    from typing import Any


def _verify(args: argparse.Namespace) -> int:
    """verify, any game's: its rules (named, or the game's own), the player counts they
    allow, its difficulties (a game with any), checked by the game's tools (core/games.py
    `game_tools`: `verify`, `HELD`, `counterexample_scenario`)."""
    from ..core.errors import GameError
    from ..core.games import game_class, game_tools

    if not 1 <= args.examples <= MAX_EXAMPLES:
        raise GameError(f"--examples must be from 1 to {MAX_EXAMPLES:,}, not {args.examples}")
    _check_seed(args.seed, 0)
    game = _game(args)
    tools = game_tools(game)
    args.mission = args.mission or tools.DEFAULT_RULES  # the game's own rules, unless named
    rules = tools.load_rules(args.mission, args.variant)
    low, high = tools.players(rules)
    players = _players(args.players, low=low, high=high)
    axes, who, told = {}, "{ex.players} players", ""
    if hasattr(tools, "difficulties"):
        diffs = _list(args.difficulty, list(tools.difficulties(rules)), "difficulty",
                      "--difficulty")
        axes, who, told = {"difficulties": diffs}, "{ex.players} player(s), {ex.difficulty}", (
            f"; {', '.join(diffs)}")
    elif args.difficulty != "all":  # (the option's default)
        raise GameError(f"--difficulty {args.difficulty!r}: {game_class(game).TITLE} has no "
                        "difficulty")
    out = _counterexample_out(args, rules.name)
    progress = _Progress(sys.stderr)
    report = tools.verify(rules, args.examples, args.seed, players, progress, **axes)
    progress.close()
    held = [f"{rules.name}: everything holds in {report.games} games, {report.steps} decisions "
            f"(players {','.join(map(str, players))}{told})", *tools.HELD,
            "  and every game's: a decision pending until the end, each chance node's "
            "outcomes summing to 1 (played again with explicit chance), the returns within "
            "the game's return_range(), each seat's resample keeping what it knows and sees",
            *(f"  property: {name}" for name in report.properties)]
    return _verified(args, out, rules, report, held, tools.counterexample_scenario, who)


def _counterexample_out(args: argparse.Namespace, name: str) -> Path:
    """Where verify writes a counterexample: --out (refused now, not after the search, if it
    exists without --force or its folder does not) or a fresh name."""
    from ..core.errors import GameError
    from ..core.files import exists, fresh_name, refuse_odd

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
    from ..core.files import write_atomic
    from ..verify import report_json

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
