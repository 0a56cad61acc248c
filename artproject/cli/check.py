"""`artproject check`: rule files checked, a clean verdict kept in the cache; and each
--variant checked as `check` checks it, before any command plays it."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path

from .output import _say


def _check_variants(refs: Sequence[str]) -> None:
    """Each --variant file checked as `check` checks it, before anything is played: its every
    error (an empty file among them) is told and the command refused (exit 2)."""
    from ..core.errors import GameError
    from ..core.files import exists

    for ref in refs:
        path = Path(ref)
        if not (ref.endswith(".toml") or "/" in ref) or not exists(path) or path.is_dir() \
                or _a_mission(path):
            continue  # a shipped name, no file or a mission's: the loader says so in its words
        found, _ = _verdict(path)
        if found:
            raise GameError("\n".join(found) + f"\nartproject: --variant {ref}: "
                            f"{len(found)} error(s) (as `artproject check {ref}` finds)")


def _a_mission(path: Path) -> bool:
    """Whether `check`, told nothing, would take the file for a mission or the base rules
    of the default game (it holds a mission's keys: `title`, `cards`, `extends`...; or
    every section the base rules have, as a variant `tune` wrote may). Given as a variant,
    the loader tells each mission's key at its line, in a variant's terms, and layers the
    rest; `check`'s verdict on it as a mission or base rules would mislead."""
    from ..core.art.tools import kind_of
    from ..core.errors import ArtError
    from ..core.sources import read_toml

    try:
        doc, _ = read_toml(path)
    except ArtError:  # (unreadable: `check`'s verdict says why)
        return False
    return "game" not in doc and kind_of(doc) in ("mission", "base")


def _toml_files(paths: Sequence[str], what: str = "check") -> list[Path]:
    """The TOML files of `paths` (files, and folders searched through); a path that is not
    there, or a folder with no TOML file in it (a mistyped folder must not pass in CI), is
    refused (exit 2)."""
    from ..core.errors import Location, RulesError

    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(p.rglob("*.toml"))
            if not found:
                raise RulesError(f"no .toml file in this folder: nothing to {what}",
                                 Location(str(p)))
            out += found
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
            _say(e)
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

    from ..core import cache

    request = str(path)
    kept = cache.lookup("check", request)
    if kept is not None:
        with contextlib.suppress(Exception):  # a damaged entry: checked afresh
            return [], [str(w) for w in marshal.loads(kept)]
    from ..checking import checked

    with cache.watching() as read:
        found, odd, kind = checked(path)
    if not found and kind.rpartition(":")[2] in _KEPT:
        cache.store("check", request, read, marshal.dumps(tuple(str(w) for w in odd)))
    return [str(e) for e in found], [str(w) for w in odd]
