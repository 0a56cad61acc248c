"""`artproject check`: validate any rule file and report every error and warning in it.

A file says its game at its top (`game = "NAME"`; none: the default game) and is checked by
that game's own part of `check` (its tools' `check_file`, core/games.py `game_tools`): its
rules, a variant of them, its card file or a scenario. The default game's kinds are told
bare (`mission`); another game's as `GAME:KIND`.
"""

from __future__ import annotations

from pathlib import Path

from .core.errors import Location, RulesError, RulesErrors, closest
from .core.games import DEFAULT as GAME
from .core.sources import SourceMap, read_toml


def check_file(path: Path) -> list[RulesError]:
    """Every error found in one file (empty when it is clean)."""
    return check(path)[0]


def check(path: Path) -> tuple[list[RulesError], list[RulesError]]:
    """Every error and every warning found in one file (a file of another game than the
    default says so: `game = "NAME"`)."""
    return checked(path)[:2]


def checked(path: Path) -> tuple[list[RulesError], list[RulesError], str]:
    """Every error and every warning found in one file, and what the file is (`kind_of`;
    another game's files: `GAME:KIND`)."""
    kind = "unread"
    try:
        doc, smap = read_toml(path)
        if not doc:
            raise RulesError("empty file: not a mission, variant, card file or scenario",
                             Location(str(path)))
        game = doc.get("game", GAME)
        return _of_game(path, doc, game, smap)
    except RulesErrors as errs:
        return list(errs.errors), [], kind
    except RulesError as err:
        return [err], [], kind


def _of_game(path: Path, doc: dict[str, object], game: object,
             smap: SourceMap) -> tuple[list[RulesError], list[RulesError], str]:
    """A file of a game: checked by that game's own part of `check` (its tools'
    `check_file`, core/games.py `game_tools`)."""
    from .core.games import game_names, game_tools

    if not isinstance(game, str) or game not in game_names():
        known = game_names()
        return [RulesError(f"unknown game {game!r}{closest(str(game), known)}; games: "
                           + ", ".join(known), smap.locate(("game",)), "game")], [], "unknown"
    found: tuple[list[RulesError], list[RulesError], str] = game_tools(game).check_file(
        path, doc)
    return found
