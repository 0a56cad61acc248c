"""`artproject check`: validate any rule file and report every error and warning in it.

A card file, a variant or a base file alone is checked on the default board (a base file's
own values, under the default board's map).
"""

from __future__ import annotations

from pathlib import Path

from .core.art.loader import load_rules
from .core.art.scenarios import ScenarioFile
from .core.art.schema import MissionSpec
from .core.errors import Location, RulesError, RulesErrors
from .core.schema import params_of
from .core.sources import read_toml
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
    """Every error and every warning found in one file."""
    return checked(path)[:2]


def checked(path: Path) -> tuple[list[RulesError], list[RulesError], str]:
    """Every error and every warning found in one file, and what the file is (`kind_of`)."""
    kind = "unread"
    try:
        doc, _ = read_toml(path)
        if not doc:
            raise RulesError("empty file: not a mission, variant, card file or scenario",
                             Location(str(path)))
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
