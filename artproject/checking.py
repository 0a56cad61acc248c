"""`artproject check`: validate any rule file and report every error in it.

A card file, a variant or the base file alone is checked on the default board.
"""

from __future__ import annotations

from pathlib import Path

from .core.errors import RulesError, RulesErrors
from .core.loader import load_rules, read_toml
from .missions import DEFAULT


def kind_of(doc: dict[str, object], path: Path) -> str:
    """What a TOML file is: scenario, cards, mission, base or variant."""
    if "step" in doc or "position" in doc:
        return "scenario"
    if "card" in doc or "final" in doc:
        return "cards"
    if "city" in doc or "extends" in doc:
        return "mission"
    if doc.get("name") == "base":
        return "base"
    return "variant"


def check_file(path: Path) -> list[RulesError]:
    """Every error found in one file (empty when it is clean)."""
    try:
        doc, _ = read_toml(path)
        kind = kind_of(doc, path)
        if kind == "scenario":
            from .core.scenario import run_scenario

            run_scenario(path)  # loading it checks every name; its verdict is `scenario`'s job
        elif kind == "cards":
            load_rules(DEFAULT, cards=path.resolve())
        elif kind == "mission":
            load_rules(path)
        elif kind == "base":
            load_rules(DEFAULT)
        else:
            load_rules(DEFAULT, [path])
    except RulesErrors as errs:
        return list(errs.errors)
    except RulesError as err:
        return [err]
    return []
