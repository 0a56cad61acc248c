"""`artproject render`: a game's rules (and a game's position on them) as SVG, drawn by the
game (its tools' `render`: core/games.py `game_tools`), with the mark that lets a later
render replace the file.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, Final

from .core.games import DEFAULT, game_tools

SIGNATURE: Final = "drawn by artproject render"  # a later render may replace a file that says so


def render(rules: Any, st: Any = None, game: str = DEFAULT) -> str:
    """The SVG text of `game`'s rules (the default game's when not given), with the game's
    position when `st` is given."""
    return str(game_tools(game if st is None else st.game).render(rules, st))


def _el(parent: ET.Element, tag: str, text: str | None = None, **attrs: Any) -> ET.Element:
    """An SVG element under `parent` (`font_size=14` -> `font-size="14"`; `class_` ->
    `class`), every game's drawing's."""
    e = ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): str(v)
                                    for k, v in attrs.items()})
    if text is not None:
        e.text = text
    return e
