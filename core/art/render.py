"""The A.R.T. Project's board as SVG (`artproject render`, through core/art/tools.py):
cities, symbols, the start, roads with their attributes, the track; and, given a game, the
position on it (pawns, agents, artworks, lost cities, the van).

Built with the standard library's ElementTree, so the output is well-formed XML.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from ...render import SIGNATURE, _el
from .rules import Rules
from .state import State

SCALE = 8  # map units to pixels
MARGIN = 60
TRACK_H = 120
PAWN_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#7f7f7f"]
THREAD_COLOURS = {"red": "#c0392b", "beige": "#c8ad7f"}
SYMBOL_MARK = {"films": "F", "sculptures": "S", "books": "B", "paintings": "P",
               "artifacts": "A", "music": "M"}


def _xy(rules: Rules, c: int) -> tuple[float, float]:
    city = rules.cities[c]
    return MARGIN + city.x * SCALE, MARGIN + city.y * SCALE


def render(rules: Rules, st: State | None = None) -> str:
    """The SVG text of the board, with the game's position when `st` is given."""
    width = 2 * MARGIN + 100 * SCALE + 240
    height = 2 * MARGIN + 100 * SCALE + TRACK_H
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": str(width),
                             "height": str(height),
                             "viewBox": f"0 0 {width} {height}"})
    svg.append(ET.Comment(f" {SIGNATURE} "))
    _el(svg, "title", f"{rules.title}: the artproject board")
    _el(svg, "rect", x=0, y=0, width=width, height=height, fill="#f7f4ec")
    _el(svg, "text", rules.title, x=MARGIN, y=36, font_size=28, font_family="sans-serif",
        font_weight="bold")
    _roads(svg, rules)
    _cities(svg, rules, st)
    _track(svg, rules, st)
    _key(svg, rules, st, 2 * MARGIN + 100 * SCALE, MARGIN)
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode", xml_declaration=True) + "\n"


def _roads(svg: ET.Element, rules: Rules) -> None:
    g = _el(svg, "g", id="roads")
    if rules.params["rules.movement"] == "anywhere":
        _el(g, "text", "pawns move to any city for the movement cost", x=MARGIN,
            y=MARGIN + 100 * SCALE + 20, font_size=14, font_family="sans-serif",
            font_style="italic")
    for a, roads in enumerate(rules.neighbours):
        for r in roads:
            if r.dst < a:
                continue  # each road once
            (x1, y1), (x2, y2) = _xy(rules, a), _xy(rules, r.dst)
            colour = THREAD_COLOURS.get(str(r.attrs.get("thread")), "#555555")
            extra: dict[str, Any] = {}
            if r.attrs.get("style") == "dashed":
                extra["stroke_dasharray"] = "10,6"
                colour = THREAD_COLOURS["red"]
            line = _el(g, "line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=colour, stroke_width=4,
                       **extra)
            line.set("data-from", rules.cities[a].name)
            line.set("data-to", rules.cities[r.dst].name)
            for k, v in r.attrs.items():
                line.set(f"data-{k}", str(v))
            desc = ", ".join(f"{k} {v}" for k, v in r.attrs.items())
            _el(line, "title", f"{rules.cities[a].name} - {rules.cities[r.dst].name}"
                + (f" ({desc})" if desc else ""))


def _cities(svg: ET.Element, rules: Rules, st: State | None) -> None:
    g = _el(svg, "g", id="cities")
    for c, city in enumerate(rules.cities):
        x, y = _xy(rules, c)
        node = _el(g, "g", class_="city")
        node.set("data-city", city.name)
        _city(node, rules, c, x, y, bool(st and st.lost[c]))
        if st is not None:
            _city_in_play(node, st, c, x, y)


def _city(node: ET.Element, rules: Rules, c: int, x: float, y: float, lost: bool) -> None:
    """What the board shows of city c: its circle (grey when lost), symbol, name, effect and
    the start's flag."""
    city = rules.cities[c]
    _el(node, "circle", cx=x, cy=y, r=22, fill="#999999" if lost else "#ffffff",
        stroke="#222222", stroke_width=3)
    if city.symbol:
        _el(node, "text", SYMBOL_MARK.get(city.symbol, city.symbol[:1].upper()), x=x,
            y=y + 7, font_size=20, text_anchor="middle", font_family="sans-serif",
            font_weight="bold")
    _el(node, "text", city.title or city.name, x=x, y=y + 42, font_size=14,
        text_anchor="middle", font_family="sans-serif")
    specs = rules.raw.get("city", [])
    effect = specs[c].get("on_collect") if c < len(specs) else None
    if effect:
        _el(node, "text", f"on collect: {effect}", x=x, y=y + 58, font_size=11,
            text_anchor="middle", font_family="sans-serif", font_style="italic")
    if c == rules.start:
        _el(node, "path", d=f"M {x + 18} {y - 20} l 0 -26 l 18 7 l -18 7", fill="#c0392b",
            stroke="#222222", stroke_width=1.5)
    _el(node, "title", f"{city.name}" + (f": {city.symbol}" if city.symbol else "")
        + (" (start)" if c == rules.start else ""))


def _city_in_play(node: ET.Element, st: State, c: int, x: float, y: float) -> None:
    """What a game adds to city c: the lost city's cross, its agents, its artwork, the pawns
    there (and what they carry)."""
    if st.lost[c]:
        _el(node, "path", d=f"M {x - 16} {y - 16} L {x + 16} {y + 16} M {x + 16} {y - 16} "
            f"L {x - 16} {y + 16}", stroke="#000000", stroke_width=4)
    if st.agents[c]:
        _el(node, "circle", cx=x - 22, cy=y - 22, r=12, fill="#222222")
        _el(node, "text", str(st.agents[c]), x=x - 22, y=y - 17, font_size=14,
            fill="#ffffff", text_anchor="middle", font_family="sans-serif")
    if st.artworks[c]:
        _el(node, "rect", x=x + 14, y=y + 8, width=16, height=16, fill="#f1c40f",
            stroke="#222222")
    for i, p in enumerate(st.pawns):
        if p == c:
            px = x - 30 + 14 * i
            _el(node, "circle", cx=px, cy=y + 58, r=7, fill=PAWN_COLOURS[i % 7],
                stroke="#222222")
            if st.carried[i]:
                _el(node, "rect", x=px - 4, y=y + 66, width=8, height=8, fill="#f1c40f")


def _track(svg: ET.Element, rules: Rules, st: State | None) -> None:
    g = _el(svg, "g", id="track")
    top = 2 * MARGIN + 100 * SCALE - 10
    _el(g, "text", "artwork track: threat (ally cost)", x=MARGIN, y=top, font_size=14,
        font_family="sans-serif")
    # a game's track shows the threat its team faces (rules.threat_by_players, R15)
    extra = 0 if st is None else rules.p("rules.threat_by_players")[st.players - 1]
    for i, space in enumerate(rules.track):
        x = MARGIN + i * 84
        filled = st is not None and i < len(st.track)
        _el(g, "rect", x=x, y=top + 10, width=76, height=60,
            fill="#f1c40f" if filled else "#ffffff", stroke="#222222", stroke_width=2)
        _el(g, "text", str(space.threat + extra), x=x + 38, y=top + 46, font_size=22,
            text_anchor="middle", font_family="sans-serif", font_weight="bold")
        _el(g, "text", f"({space.ally_cost})", x=x + 38, y=top + 64, font_size=12,
            text_anchor="middle", font_family="sans-serif")
        if space.symbol:
            _el(g, "text", space.symbol, x=x + 38, y=top + 24, font_size=11,
                text_anchor="middle", font_family="sans-serif")


def _key(svg: ET.Element, rules: Rules, st: State | None, x: float, y: float) -> None:
    """The map's key (each symbol's mark) and, given a game, its counters."""
    g = _el(svg, "g", id="key")
    lines = [f"{k}: {SYMBOL_MARK[k]}" for k in rules.symbols if k in SYMBOL_MARK]
    if st is not None:
        lines = [f"round {st.round}, {st.phase}",
                 "van: " + ", ".join(f"{n} {k}" for k, n in zip(rules.resources, st.van,
                                                                  strict=True)),
                 "health: " + ", ".join(f"p{i + 1} {h}" for i, h in enumerate(st.health)),
                 f"headquarters: {st.hq} agents", f"threat {st.threat()}, allies {st.allies}",
                 f"cards in the deck: {st.deck_size()}", "", *lines]
        if st.outcome:
            lines.insert(0, f"the team {st.outcome}")
    for i, text in enumerate(lines):
        _el(g, "text", text, x=x, y=y + 20 * i, font_size=14, font_family="sans-serif")
