"""The A.R.T. Project's part of docs/reference.md (its TOOLS module gives it as
`reference()`; artproject/reference.py puts every game's together): its mission, base and
variant files, whose values base.toml gives; its card files; its scenarios' and saves' keys.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from ...reference import Sections, part, section
from ..schema import MAX_NUMBER
from . import schema as art_schema
from .game import SaveFile, StartSpec
from .scenarios import ScenarioFile, StepFile
from .state import State

SCENARIO_SECTIONS: Sections = (("top", ScenarioFile), ("[[step]]", StepFile),
                               ("[position]", State.POSITION_SPEC))
SAVE_SECTIONS: Sections = (("top", SaveFile), ("[start]", StartSpec))
BASE = Path(__file__).resolve().parent.parent.parent / "missions" / "base.toml"
ROAD = ("Any other key of a road is an attribute a movement cost may read "
        "(`thread = \"red\"` makes `road.thread` known): a name, with text, a whole number "
        "or true/false.")


def reference() -> list[str]:
    """The lines of its files' keys (docs/reference.md)."""
    base = tomllib.loads(BASE.read_text(encoding="utf-8"))
    out = ["## Mission, base and variant files (`missions/*.toml`)", "",
           "A mission extends another (ultimately `missions/base.toml`, whose values the "
           "*base* column shows); a variant holds any of the same keys and is layered on a "
           "mission. Tables merge key by key; a list replaces the parent's, except `hooks`, "
           "which add to it.", ""]
    for title, cls in art_schema.MISSION_SECTIONS:
        out += section(title, cls, _base_values(base, title),
                       ROAD if title == "[[road]]" else "")
    out += ["### [difficulty]", "",
            "Any number of `NAME = HEALTH` lines: a difficulty's name (lowercase letters, "
            "digits, - and _) and the health tokens each player starts with (1 to "
            f"{MAX_NUMBER:,}). The base rules: "
            + ", ".join(f"`{k} = {v}`" for k, v in base["difficulty"].items()) + ".", ""]
    out += part("## Card files (`cards/*.toml`)", "", art_schema.CARD_SECTIONS)
    out += part("## Scenario files (`tests/scenarios/*.toml`)",
                "What each key does in a scenario, with examples: docs/scenarios.md.",
                SCENARIO_SECTIONS)
    out += part("## Saves (`save FILE` in play, `save_game`)",
                "JSON, or TOML when the name ends in `.toml`. `[start]` is there when the game "
                "began from a set position; its `position` has the keys of a scenario's "
                "`[position]`.", SAVE_SECTIONS)
    return out


def _base_values(base: dict[str, Any], title: str) -> dict[str, Any] | None:
    """The values base.toml gives a section's keys: its top-level values for the top, its
    table for a table it has, else none (the declared defaults show)."""
    if title == "top":
        return {k: v for k, v in base.items() if not isinstance(v, dict)}
    return base.get(title.strip("[]"))
