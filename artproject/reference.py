"""docs/reference.md, generated from the declarations (core/schema.py's mechanism; the keys
in core/art/schema.py, scenarios.py, game.py and the state's table of fields, and the
kernel's in core/scenario.py and core/saves.py): every key of every file.

    python tools/reference.py           # write docs/reference.md
    python tools/reference.py --check   # exit 1 if docs/reference.md differs (a test runs it)
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .core import schema
from .core.art import schema as art_schema
from .core.art.game import SaveFile, StartSpec
from .core.art.scenarios import ScenarioFile, StepFile
from .core.art.state import State
from .core.files import MAX_FILE_BYTES, MAX_NESTING, write_atomic
from .core.schema import MAX_NUMBER

Sections = tuple[tuple[str, type[Any]], ...]  # (heading, declared section), in order
SCENARIO_SECTIONS: Sections = (("top", ScenarioFile), ("[[step]]", StepFile),
                               ("[position]", State.POSITION_SPEC))
SAVE_SECTIONS: Sections = (("top", SaveFile), ("[start]", StartSpec))

DOC = Path(__file__).resolve().parent.parent / "docs" / "reference.md"

HEAD = f"""\
# Reference: every key of every rule file

Generated from the declarations (`core/art/schema.py`, `core/art/scenarios.py`,
`core/art/game.py`, the position entries in `core/art/state.py`, and the kernel's keys in
`core/scenario.py` and `core/saves.py`) by `python tools/reference.py`; a test fails when
this page and the declarations differ, so neither can drift. What each value
means in play is in docs/missions.md; the DSL texts are in docs/dsl.md.

Every file: a regular file of at most {MAX_FILE_BYTES // (1024 * 1024)} MiB of UTF-8 text,
tables and arrays nested at most {MAX_NESTING} deep. Every number is at most
{MAX_NUMBER:,} (and at least -{MAX_NUMBER:,}), in the DSL too; a number is finite. A key the
schema does not know is an error that names the nearest known key.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "`true`" if v else "`false`"
    if isinstance(v, str):
        return f'`"{v}"`'
    if isinstance(v, list):
        return "`[" + ", ".join(f'"{x}"' if isinstance(x, str) else str(x) for x in v) + "]`"
    if isinstance(v, dict):
        return "`{ " + ", ".join(f"{k} = {x}" for k, x in v.items()) + " }`"
    return f"`{v}`"


def _table(cls: type[Any], base: dict[str, Any] | None) -> list[str]:
    """A section's keys; `base` gives base.toml's values, else the schema's defaults show."""
    head = f"| key | expects | {'base' if base is not None else 'default'} | meaning |"
    out = [head, _rule(head)]
    for key, expects, p, default in schema.fields_of(cls):
        shown = default if base is None else (_value(base[key]) if key in base else "")
        out.append("| " + " | ".join([f"`{key}`", _cell(expects), _cell(shown),
                                      _cell(p.meaning)]) + " |")
    return out


def _heading(title: str, cls: type[Any]) -> str:
    if title == "top":
        return "### Top-level keys"
    return f"### {title}: {(cls.__doc__ or '').rstrip('.')}"


def _rule(head: str) -> str:
    return "|" + " --- |" * (head.count("|") - 1)


def reference() -> str:
    """The text of docs/reference.md."""
    base_file = Path(schema.__file__).resolve().parent.parent / "missions" / "base.toml"
    base = tomllib.loads(base_file.read_text(encoding="utf-8"))
    out = [HEAD, "## Mission, base and variant files (`missions/*.toml`)", "",
           "A mission extends another (ultimately `missions/base.toml`, whose values the "
           "*base* column shows); a variant holds any of the same keys and is layered on a "
           "mission. Tables merge key by key; a list replaces the parent's, except `hooks`, "
           "which add to it.", ""]
    for title, cls in art_schema.MISSION_SECTIONS:
        section = title.strip("[]")
        values: dict[str, Any] | None = None
        if title == "top":
            values = {k: v for k, v in base.items() if not isinstance(v, dict)}
        elif section in base:
            values = base[section]
        out += [_heading(title, cls), ""]
        if title == "[[road]]":
            out += ["Any other key of a road is an attribute a movement cost may read "
                    "(`thread = \"red\"` makes `road.thread` known): a name, with text, a "
                    "whole number or true/false.", ""]
        out += [*_table(cls, values), ""]
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
    return "\n".join(out + _war()).rstrip("\n") + "\n"


def _war() -> list[str]:
    """Art of War's files (`game = "art-of-war"`): its rules and variants, its cards, its
    scenarios' and saves' own keys (docs/art-of-war.md)."""
    from .core.aow import schema as war_schema
    from .core.aow.game import SaveFile as WarSave
    from .core.aow.game import WarStart
    from .core.aow.scenarios import ScenarioFile as WarScenario
    from .core.aow.scenarios import StepFile as WarStep
    from .core.aow.state import War

    out = ["# Art of War", "",
           "The second game's files carry `game = \"art-of-war\"` at the top; what each "
           "value means in play is in docs/art-of-war.md and the rulings W1-W19 in "
           "docs/rulings.md.", ""]
    out += part("## Art of War's rules and variants (`missions/art-of-war.toml`)",
                "A variant (`missions/variants/refused-card-hand.toml`) holds any of the same "
                "keys and is layered on the rules.", war_schema.RULES_SECTIONS)
    out += part("## Art of War's cards (`cards/art-of-war.toml`)",
                "Every DSL text is compiled when the rules load (docs/dsl.md, \"Art of "
                "War\").", war_schema.CARD_SECTIONS)
    out += part("## Art of War's scenario files", "",
                (("top", WarScenario), ("[[step]]", WarStep),
                 ("[position]", War.POSITION_SPEC)))
    out += part("## Art of War's saves", "", (("top", WarSave), ("[start]", WarStart)))
    return out


def part(heading: str, intro: str, sections: Sections) -> list[str]:
    """A kind of file: its heading, a line about it, a table of each section's keys (with
    the declared defaults). A second game's files are a `part` each."""
    out = [heading, "", *([intro, ""] if intro else [])]
    for title, cls in sections:
        out += [_heading(title, cls), "", *_table(cls, None), ""]
    return out


def main(argv: list[str] | None = None) -> int:
    import sys

    args = sys.argv[1:] if argv is None else argv
    text = reference()
    if "--check" in args:
        same = DOC.exists() and DOC.read_text(encoding="utf-8") == text
        print("docs/reference.md is up to date" if same else
              "docs/reference.md differs from the declarations: run python tools/reference.py")
        return 0 if same else 1
    write_atomic(DOC, text, replace=True)
    print(f"wrote {DOC}")
    return 0
