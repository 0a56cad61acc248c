"""`artproject tune`: a mission's tunable numbers searched for target win rates."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .options import (
    MAX_TRIALS,
    _backend,
    _check_counts,
    _check_seed,
    _game,
    _paths_given,
    _players,
    _variants_once,
)
from .output import _say


def _tune(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from ..core.errors import GameError
    from ..core.files import exists, refuse_odd, write_atomic
    from ..tune import parse_targets, report, search, tuning

    game = _game(args)
    tools = tuning(game)  # (a game that lets its rules be tuned: GameError otherwise)
    _paths_given(args, output="-o")
    _check_counts(args, policies=False)
    _check_seed(args.seed, 2 * args.games, " (tune plays seeds S to S + 2 x --games - 1: "
                "the search's games, then fresh ones)")
    tools.policy_names(args.policy)
    args.variant = _variants_once(args.variant, game)  # each file once (with a note)
    if args.trials < 1:
        raise GameError(f"--trials must be at least 1, not {args.trials}")
    if args.trials > MAX_TRIALS:
        raise GameError(f"--trials must be at most {MAX_TRIALS:,}, not {args.trials}")
    rules = tools.load_rules(args.mission, args.variant)
    targets = parse_targets(_target_once(args.target), list(tools.difficulties(rules)))
    low, high = tools.players(rules)
    players = _players(args.players, low=low, high=high)
    dims = tools.tunables(rules)
    tools.check_tuning(rules, dims, players, f"--players {args.players}", list(targets))
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
                            args.trials, args.seed, args.policy, backend, advance, game)
    finally:
        backend.close()
    header = _header(args, out, list(targets), players)
    print(report(result, targets, rules, dims, game))
    if result.kept:  # an honest search may find nothing better than the mission itself
        print(f"kept the mission's own values: no trial beat them on "
              f"{'fresh games' if result.fresh_before else 'the search games'}; "
              f"nothing written ({out} not made)")
        return 0
    write_atomic(out, header + result.text, replace=args.force)
    print(f"wrote {out}: a variant with the values found")
    return 0


def _header(args: argparse.Namespace, out: Path, difficulties: list[str],
            players: list[int]) -> str:
    """The variant's first lines: the command that wrote it, and the command that plays the
    tuned games again (the mission, every --variant tuned on in order, then this file, on
    the search's grid and seeds: its numbers are the report's "after" column)."""
    from shlex import quote

    layered = "".join(f" --variant {quote(v)}" for v in args.variant)
    return (f"# Written by: artproject tune {quote(args.mission)}{layered} --target "
            f"{quote(args.target)} --players {quote(args.players)} --games {args.games} "
            f"--trials {args.trials} --seed {args.seed} --policy {quote(args.policy)}\n"
            f"# Use it as a variant: artproject simulate --mission {quote(args.mission)}"
            f"{layered} --variant {quote(str(out))} --difficulty {','.join(difficulties)} "
            f"--players {','.join(map(str, players))} --games {args.games} --seed "
            f"{args.seed} --policy {quote(args.policy)}\n")


def _target_once(text: str) -> str:
    """--target with each difficulty once: one named twice at the same rate is counted once
    (with a note, as a list option's repeated item is); at two rates it is refused (which
    one was meant?)."""
    from ..core.errors import GameError

    rates: dict[str, list[str]] = {}
    for part in text.split(","):
        name, eq, value = part.partition("=")
        if eq:
            rates.setdefault(name.strip(), []).append(value.strip())
    for name, given in rates.items():
        if len(given) > 1 and len({_rate(v) for v in given}) > 1:
            raise GameError(f"--target names {name} more than once ({', '.join(given)}); "
                            "give each difficulty one rate")
    twice = [name for name, given in rates.items() if len(given) > 1]
    if twice:
        _say(f"artproject: note: --target names {', '.join(twice)} more than once; each is "
             "counted once")
    return text


def _rate(text: str) -> float | str:
    try:
        return float(text)
    except ValueError:
        return text
