"""docs/reference.md, generated from the declarations (core/schema.py's mechanism): every key
of every file of every game. Each game gives its part, its TOOLS module's `reference()`
(the keys of its rule files, its scenarios' and its saves', declared in its package, the
kernel's among them from core/scenario.py and core/saves.py), made with `part` and
`section` here; this module puts them together under one head and names no game.

    python tools/reference.py           # write docs/reference.md
    python tools/reference.py --check   # exit 1 if docs/reference.md differs (a test runs it)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .core import schema
from .core.files import MAX_FILE_BYTES, MAX_NESTING, write_atomic
from .core.games import DEFAULT, game_names, game_tools
from .core.schema import MAX_NUMBER

Sections = tuple[tuple[str, type[Any]], ...]  # (heading, declared section), in order

DOC = Path(__file__).resolve().parent.parent / "docs" / "reference.md"

HEAD = f"""\
# Reference: every key of every rule file

Generated from the declarations (each game's, in its package: the schema of its rule files,
its scenarios' and saves' keys, the position entries in its table of fields; and the
kernel's keys in `core/scenario.py` and `core/saves.py`) by `python tools/reference.py`; a
test fails when this page and the declarations differ, so neither can drift. What each
value means in play is in the game's page (docs/missions.md for The A.R.T. Project); the DSL
texts are in docs/dsl.md.

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
    """The text of docs/reference.md: the head, then each game's part (its TOOLS module's
    `reference()`), the default game's first."""
    out = [HEAD]
    for name in sorted(game_names(), key=lambda g: (g != DEFAULT, g)):
        out += game_tools(name).reference()
    return "\n".join(out).rstrip("\n") + "\n"


def section(title: str, cls: type[Any], base: dict[str, Any] | None = None,
            note: str = "") -> list[str]:
    """A section's heading, a line about it (`note`), and the table of its keys (`base`:
    the values a base file gives them, else the declared defaults)."""
    return [_heading(title, cls), "", *([note, ""] if note else []), *_table(cls, base), ""]


def part(heading: str, intro: str, sections: Sections) -> list[str]:
    """A kind of file: its heading, a line about it, a table of each section's keys (with
    the declared defaults). Each game's files are a `part` each, or `section`s."""
    out = [heading, "", *([intro, ""] if intro else [])]
    for title, cls in sections:
        out += section(title, cls)
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
