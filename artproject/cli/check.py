"""`artproject check`: rule files checked, a clean verdict kept in the cache; and each
--variant checked as `check` checks it, before any command plays it."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from .output import _say


def _check_variants(refs: Sequence[str], missions: Sequence[str] | None = None) -> None:
    """Each --variant file checked as `check` checks it, before anything is played: its every
    error (an empty file among them) is told and the command refused (exit 2). A variant of
    the default game is checked on each of `missions`, the boards it is layered on (as
    `check VARIANT --mission M`), never on a board it is not for; `missions` None (a
    scenario names its own): only what no board decides is checked here, the rest where
    each scenario loads it."""
    from ..core.errors import GameError
    from ..core.files import exists

    for ref in refs:
        path = Path(ref)
        if not (ref.endswith(".toml") or "/" in ref) or not exists(path) or path.is_dir():
            continue  # a shipped name or no file: the loader says so in its words
        # (a mission's file is the variant layered there, each mission's key an error, as
        # `check FILE --mission BOARD` tells it: never judged as the mission it would be)
        kind = "variant" if _a_mission(path) else _board_kind(path)
        found, told = _on_boards(path, missions or ()) if kind == "variant" \
            else (_verdict(path)[0], "")
        if found:
            raise GameError("\n".join(found) + f"\nartproject: --variant {ref}: "
                            f"{len(found)} error(s) (as `artproject check {ref}{told}` finds)")


def _on_boards(path: Path, missions: Sequence[str]) -> tuple[list[str], str]:
    """A variant's errors on the first of `missions` that refuses it, and `check`'s option
    that names that board (none: no errors)."""
    for mission in missions:
        found, _ = _variant_verdict(path, mission)
        if found:
            return found, f" --mission {mission}"
    return [], ""


def _board_kind(path: Path, given: bool = False) -> str | None:
    """What the file is when it is a variant, card file or base file of the default game
    that reads well as TOML, and so is judged on a board (the one it is layered on, else the
    default); None for any other (an empty, unreadable or another game's file, a scenario:
    no board changes its verdict; a mission, unless a board is `given`). Given a board
    (`check FILE --mission BOARD`), a file that holds a mission's keys is the variant
    `simulate --mission BOARD --variant FILE` would layer there, and is checked so: each
    mission's key an error at its line, as that command tells it, never a verdict on the
    file as a mission, which ignores the board named."""
    from ..core.art.tools import kind_of
    from ..core.errors import ArtError
    from ..core.sources import read_toml

    try:
        doc, _ = read_toml(path)
    except ArtError:
        return None
    kind = kind_of(doc) if doc and "game" not in doc else None
    if given and kind == "mission":
        return "variant"
    return kind if kind in _ON_BOARD else None


# The kinds of the default game's files that are checked on a board (`--mission`; else the
# default board), each as the loader layers it there.
_ON_BOARD: Final = ("variant", "cards", "base")


def _variant_verdict(path: Path, mission: str) -> tuple[list[str], list[str]]:
    """A variant's errors and warnings layered on `mission` (no verdict when the mission
    itself does not load: the command says why, in its words)."""
    from ..core.errors import RulesError, RulesErrors
    from ..core.games import DEFAULT, game_tools

    try:
        game_tools(DEFAULT).load_rules(mission)
    except (RulesError, RulesErrors):
        return [], []
    return _on_board(path, "variant", mission)


def _on_board(path: Path, kind: str, mission: str) -> tuple[list[str], list[str]]:
    """A variant, card file or base file checked on the board `mission` (`check --mission`)."""
    from ..core.errors import RulesError, RulesErrors
    from ..core.games import DEFAULT, game_tools

    load_rules = game_tools(DEFAULT).load_rules
    try:
        if kind == "cards":
            rules = load_rules(mission, cards=path.resolve())
        elif kind == "base":
            rules = load_rules(mission, base=path)
        else:
            rules = load_rules(mission, [str(path)])
    except RulesErrors as errs:
        return [str(e) for e in errs.errors], []
    except RulesError as err:
        return [str(err)], []
    return [], [str(w) for w in rules.warnings]


def _a_mission(path: Path) -> bool:
    """Whether `check`, told nothing, would take the file for a mission or the base rules
    of the default game (it holds a mission's keys: `title`, `cards`, `extends`...; or
    the base rules whole, as missions/base.toml does). Given as a variant,
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


def _check(paths: Sequence[str], mission: str | None = None) -> int:
    """`check PATH...`: every file's errors and warnings; a variant, card file or base file
    on the board `mission` (default: the default board, named when it finds an error)."""
    files = _toml_files(paths)
    errors = warnings = 0
    for f in files:
        # (what the file is only when needed: a kept clean verdict loads no checker)
        kind = None if mission is None else _board_kind(f, given=True)
        found, odd = _verdict(f) if kind is None or mission is None else _on_board(
            f, kind, mission)
        for e in (*found, *odd):
            _say(e)
        kind = _board_kind(f) if found and mission is None else kind
        if found and kind is not None:
            _say(_board_note(f, kind, mission))
        errors += len(found)
        warnings += len(odd)
    print(f"checked {len(files)} file(s): "
          + ("no errors" if not errors else f"{errors} error(s)")
          + (f", {warnings} warning(s)" if warnings else ""))
    return 2 if errors else 0


def _board_note(path: Path, kind: str, mission: str | None) -> str:
    """Which board a file that names none was checked on, so that a name it finds unknown
    there, though the board the file is for has it, reads as what it is."""
    from ..core.games import DEFAULT, game_tools

    what = {"variant": "a variant", "cards": "a card file", "base": "a base file"}[kind]
    if mission is not None:
        return f"{path}: note: checked as {what} on {mission} (--mission)"
    return (f"{path}: note: checked as {what} on "
            f"{game_tools(DEFAULT).DEFAULT_RULES}, the default board; give "
            "--mission NAME (a shipped board or a mission file) to check it on the board it "
            "is for")


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
