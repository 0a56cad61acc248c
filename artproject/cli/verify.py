"""`artproject verify`: games searched for a broken invariant or property; a counterexample
written as a scenario."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from ..missions import DEFAULT
from .options import MAX_EXAMPLES, _check_seed, _game, _list, _players

TYPE_CHECKING = False  # typing itself is not imported: the command starts the sooner
if TYPE_CHECKING:
    from typing import Any


def _verify(args: argparse.Namespace) -> int:
    from ..core.art.loader import load_rules
    from ..core.errors import GameError
    from ..verify import counterexample_scenario, verify

    if not 1 <= args.examples <= MAX_EXAMPLES:
        raise GameError(f"--examples must be from 1 to {MAX_EXAMPLES:,}, not {args.examples}")
    _check_seed(args.seed, 0)
    if _game(args) != "art-project":
        from ..core.games import game_tools

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
    from ..core.errors import GameError
    from ..core.games import game_class, game_tools

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
