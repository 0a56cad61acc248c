"""`artproject check`: validate any rule file and report every error and warning in it.

A card file, a variant or a base file alone is checked on the default board (a base file's
own values, under the default board's map). A file of another game says so at its top
(`game = "art-of-war"`) and is checked as that game's: its rules, a variant of them (on
its shipped rules), its card file or a scenario.
"""

from __future__ import annotations

from pathlib import Path

from .core.art.loader import load_rules
from .core.art.scenarios import ScenarioFile
from .core.art.schema import MissionSpec
from .core.errors import Location, RulesError, RulesErrors, closest
from .core.games import DEFAULT as GAME
from .core.schema import params_of
from .core.sources import SourceMap, read_toml
from .missions import DEFAULT

# Keys only a mission (or the base rules) sets: a file with one of them is no variant. Not
# [[track]]: a variant may replace the whole track (`artproject tune`'s variants do).
_MISSION_KEYS = ("extends", "name", "title", "cards", "symbols", "city", "road")
_BASE_SECTIONS = ("components", "setup", "rules", "solo")
# Keys only a scenario has (steps, a position, a game's players, seed and phase...)
_SCENARIO_KEYS = frozenset(params_of(ScenarioFile)) - frozenset(params_of(MissionSpec))


def kind_of(doc: dict[str, object], path: Path) -> str:
    """What a TOML file is: scenario, cards, base, mission or variant."""
    if _SCENARIO_KEYS & doc.keys():
        return "scenario"
    if "card" in doc or "final" in doc:
        return "cards"
    if "extends" not in doc and "city" not in doc and (
            doc.get("name") == "base" or all(k in doc for k in _BASE_SECTIONS)):
        return "base"
    if any(k in doc for k in _MISSION_KEYS):
        return "mission"
    return "variant"


def check_file(path: Path) -> list[RulesError]:
    """Every error found in one file (empty when it is clean)."""
    return check(path)[0]


def check(path: Path) -> tuple[list[RulesError], list[RulesError]]:
    """Every error and every warning found in one file (a file of another game than the
    default says so: `game = "art-of-war"`)."""
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
        game = doc.get("game")
        if game is not None and game != GAME:
            return _other_game(path, doc, game, smap)
        kind = kind_of(doc, path)
        if kind == "scenario":
            from .core.scenario import run_scenario

            run_scenario(path)  # loading it checks every name; its verdict is `scenario`'s job
            return [], [], kind
        if kind == "cards":
            rules = load_rules(DEFAULT, cards=path.resolve())
        elif kind == "mission":
            rules = load_rules(path)
        elif kind == "base":
            rules = load_rules(DEFAULT, base=path)
        else:
            rules = load_rules(DEFAULT, [path])
    except RulesErrors as errs:
        return list(errs.errors), [], kind
    except RulesError as err:
        return [err], [], kind
    return [], list(rules.warnings), kind


def _other_game(path: Path, doc: dict[str, object], game: object,
                smap: SourceMap) -> tuple[list[RulesError], list[RulesError], str]:
    """A file of another game than the default: checked by that game's own part of `check`
    (its tools' `check_file`, core/games.py `game_tools`)."""
    from .core.games import game_names, game_tools

    if not isinstance(game, str) or game not in game_names():
        known = game_names()
        return [RulesError(f"unknown game {game!r}{closest(str(game), known)}; games: "
                           + ", ".join(known), smap.locate(("game",)), "game")], [], "unknown"
    found: tuple[list[RulesError], list[RulesError], str] = game_tools(game).check_file(
        path, doc)
    return found
