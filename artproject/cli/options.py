"""What several commands' options share: the checks of counts, seeds, lists and team sizes,
the game an option names, the worker count and the backend."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from .output import _say

TYPE_CHECKING = False  # typing itself is not imported: the command starts the sooner
if TYPE_CHECKING:
    from typing import Any


MAX_GAMES = 1_000_000  # games a cell in one simulate run (a million take hours on one core)
MAX_EXAMPLES = 100_000  # games one verify run tries
MAX_WORKERS = 64  # processes, even with --force
MAX_TRIALS = 10_000  # values one tune run tries
MAX_SEED = 2**63 - 1
MAX_CONNECT = 3600.0  # seconds --connect-timeout waits for a cluster at most
CONNECT = 10.0  # seconds --connect-timeout waits when not given


def _game(args: argparse.Namespace) -> str:
    """--game, checked: a game the kernel plays; not given, the game of the rules named
    (`--mission NAME` of a game, or a file that says `game = "NAME"`), else the default.
    A --game given is the game: rules of another are refused by its loader."""
    from ..core.errors import GameError, closest
    from ..core.games import DEFAULT, game_names
    from ..core.sources import game_of

    given = getattr(args, "game", None)
    if given is not None:
        if given not in game_names():
            raise GameError(f"unknown game {given!r}{closest(given, game_names())}; --game "
                            "is one of: " + ", ".join(game_names()))
        return str(given)
    ref = getattr(args, "mission", None)
    if isinstance(ref, str):
        if ref in game_names():
            return ref
        if ref.endswith(".toml"):
            return game_of(ref) or DEFAULT
    return DEFAULT


def variant_boards(args: argparse.Namespace) -> list[str] | None:
    """The boards a command's --variant files are layered on (`--mission` or MISSION: a
    list, `all`, or not given: the default game's first board), so that each variant is
    checked where it is played; None where the command names none ahead (`scenario`: each
    scenario names its own) or the game is another's (its own `check` judges the file)."""
    from ..core.games import DEFAULT, game_tools

    if args.command in ("scenario", "check") or not getattr(args, "variant", None) \
            or _game(args) != DEFAULT:
        return None
    tools, ref = game_tools(DEFAULT), getattr(args, "mission", None)
    if ref is None:
        return [str(tools.DEFAULT_RULES)]
    if ref == "all" and args.command == "simulate":
        return list(tools.shipped_rules())
    return [t.strip() for t in str(ref).split(",") if t.strip()] if args.command == \
        "simulate" else [str(ref)]


def _save_of(args: argparse.Namespace, game: str, path: str, st: Any) -> Any:
    """A loaded save, refused when --game names another game than the one it is of."""
    from ..core.errors import GameError
    from ..core.games import game_class

    if args.game is not None and st.game != game:
        raise GameError(f"{path}: a save of {game_class(st.game).TITLE} ({st.game}), not of "
                        f"{game_class(game).TITLE}: drop --game {game}, or give --game "
                        f"{st.game}")
    return st


def _save_alone(option: str, path: str, given: Sequence[str]) -> None:
    """A save is a whole game: its mission, players, difficulty, seed and variants are its
    own, so an option that would set one (`given`: those the user gave) is refused, not
    dropped in silence."""
    from ..core.errors import GameError

    if given:
        raise GameError(f"{option} {path}: a save holds its mission, players, difficulty, "
                        f"seed and variants; drop {', '.join(given)}")


def _trust_needs(option: str, args: argparse.Namespace) -> None:
    """--trust is for a save (`option`): alone it would be ignored, so it is refused."""
    from ..core.errors import GameError

    if args.trust and not getattr(args, option.lstrip("-")):
        raise GameError(f"--trust loads a save whose digest is missing or wrong: give it with "
                        f"{option} FILE, or drop it")


def _paths_given(args: argparse.Namespace, **options: str) -> None:
    """Each path option given (dest -> how the command line names it) names a file: an
    empty one (an unset variable in a script, `--store "$DB"`) is refused, never taken as
    not given (a sweep that keeps nothing, a report that draws nothing)."""
    from ..core.errors import GameError

    for dest, option in options.items():
        if getattr(args, dest) == "":
            raise GameError(f"{option}: an empty path; give the file's name (an unset "
                            "variable in a script?)")


def _check_counts(args: argparse.Namespace, policies: bool = True) -> None:
    """simulate's and tune's numbers and policy, before anything is loaded."""
    from ..core.errors import GameError
    from ..policies import check_policy

    if not 1 <= args.games <= MAX_GAMES:
        raise GameError(f"--games must be from 1 to {MAX_GAMES:,}, not {args.games}")
    if args.workers < 1:
        raise GameError(f"--workers must be at least 1, not {args.workers}")
    _check_seed(args.seed, args.games)
    if policies:
        check_policy(args.policy)  # an unknown policy or option, or a number out of its range


def _check_seed(seed: int, games: int, why: str = "") -> None:
    """A first seed whose `games` seeds (seed to seed + games - 1) all lie below MAX_SEED."""
    from ..core.errors import GameError

    if not 0 <= seed <= MAX_SEED - games:
        raise GameError(f"--seed must be from 0 to {MAX_SEED - games}{why}, not {seed}")


def _workers(n: int, force: bool) -> int:
    """--workers, at most the machine's cores (unless forced) and never over MAX_WORKERS."""
    from ..core.errors import GameError

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)
    if n > MAX_WORKERS:
        raise GameError(f"--workers must be at most {MAX_WORKERS}, not {n}")
    if n > cores and not force:
        _say(f"artproject: note: --workers {n} is more than this machine's {cores} core(s); "
             f"using {cores} (--force uses {n})")
        return cores
    return n


def _backend(args: argparse.Namespace) -> Any:
    """The backend the options name (connected, for a cluster)."""
    from ..backends import make_backend
    from ..core.errors import GameError

    timeout = CONNECT if args.connect_timeout is None else args.connect_timeout
    if args.connect_timeout is not None and args.backend != "dask":  # (as --address is)
        raise GameError("--connect-timeout is for --backend dask (the local backend waits "
                        "for no cluster)")
    if not 0 < timeout <= MAX_CONNECT:  # (nan and inf are refused too)
        raise GameError(f"--connect-timeout must be above 0 and at most {MAX_CONNECT:g} "
                        f"seconds, not {timeout:g}")
    if args.address == "":  # (an unset variable in a script: never "no cluster")
        raise GameError("--address: an empty address; give the cluster's scheduler, "
                        "tcp://HOST:8786 (an unset variable in a script?), or drop it")
    # a cluster joined at --address has its own workers: --workers is for this machine's
    workers = args.workers if args.address else _workers(args.workers, args.force)
    return make_backend(args.backend, workers, args.address, timeout)


def _items(text: str, option: str, expected: str) -> list[str]:
    """A comma-separated option's items: an empty item is refused, a repeated one counted
    once (with a note)."""
    from ..core.errors import GameError

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
    from ..core.errors import GameError, closest

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
    from ..core.errors import GameError

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


def _variants_once(variants: Sequence[str], game: str) -> list[str]:
    """--variant as the store keys it, each file once: a shipped variant named by its path is
    named by its name (as `--variant NAME` names it), and a file given
    twice, however spelled, is layered once (with a note, as a list option's repeated item
    is): its hooks would otherwise run twice."""
    firsts: dict[str, str] = {}  # the file -> the first reference to it
    twice: list[str] = []
    for ref in variants:
        name = _shipped_variant(ref, game)
        key = _variant_file(name)
        if key in firsts:
            twice.append(firsts[key])
        else:
            firsts[key] = name
    if twice:
        _say(f"artproject: note: --variant names {', '.join(dict.fromkeys(twice))} more than "
             "once; each is counted once")
    return list(firsts.values())


def _variant_file(ref: str) -> str:
    """The file a --variant reference names (a shipped name: its file), as a key."""
    from ..missions import variant_file

    try:
        return str(variant_file(ref).resolve())
    except (OSError, RuntimeError):  # (a loop of links: the loader says so)
        return ref


def _shipped_variant(ref: str, game: str) -> str:
    """A shipped variant of the default game named by its path, by its name; else `ref`."""
    from pathlib import Path

    from ..core.games import DEFAULT
    from ..core.sources import is_name

    if is_name(ref) or game != DEFAULT or not ref.endswith(".toml"):
        return ref
    stem = Path(ref).stem
    if is_name(stem) and _variant_file(ref) == _variant_file(stem):
        return stem
    return ref


def _policy_key(text: str, tools: Any, game: str) -> str:
    """--policy as the store keys it (artproject.simulate.policy_key: its options sorted,
    spelt one way, those at their default left out)."""
    from ..simulate import policy_key

    return policy_key(text, game)
