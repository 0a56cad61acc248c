"""Art of War as SVG: a position as everyone at the table sees it (W19), or, from the rules
alone, a table of the cards. The seats round the table with their tokens, their hands as
card backs and the dead crossed out; the centre pile, the deck and the discard pile (face
up); the challenge under way with its bets and stakes, each face-down card as a back until
it is revealed. No hidden face is drawn, nor named anywhere in the file.

Built with the standard library's ElementTree (well-formed XML), like the first game's board.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

from ...render import SIGNATURE, _el
from .info import observation
from .registry import P
from .rules import WarRules
from .state import War

W, H = 1000, 760
CX, CY, RX, RY = 500, 360, 330, 240
COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]
FONT = "sans-serif"


def render_war(rules: WarRules, st: War | None = None) -> str:
    """The SVG text of a position (or, without one, of the rules' cards)."""
    height = H if st is not None else 120 + 26 * len(rules.cards)
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": str(W),
                             "height": str(height), "viewBox": f"0 0 {W} {height}"})
    svg.append(ET.Comment(f" {SIGNATURE} "))
    _el(svg, "title", f"{rules.title}: " + ("a position, as the table sees it"
                                             if st is not None else "its cards"))
    _el(svg, "rect", x=0, y=0, width=W, height=height, fill="#f4efe4")
    if st is None:
        _cards(svg, rules)
    else:
        _position(svg, st)
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode", xml_declaration=True) + "\n"


def _text(parent: ET.Element, text: str, x: float, y: float, size: int = 14,
          **extra: Any) -> ET.Element:
    return _el(parent, "text", text, x=round(x, 1), y=round(y, 1), font_size=size,
               font_family=FONT, **extra)


def _cards(svg: ET.Element, rules: WarRules) -> None:
    """The rules' cards: name, count, score, powers (our reconstruction, W2)."""
    _text(svg, f"{rules.title}: {rules.total_cards} cards (scores and collateral damage: "
          "our reconstruction, W2)", 30, 40, 20, font_weight="bold")
    g = _el(svg, "g", id="cards")
    for i, c in enumerate(rules.cards):
        y = 80 + 26 * i
        powers = c.says or "; ".join(f"{k}: {v}" for k, v in c.text.items()
                                     if k != "rank" or v != "1")
        _text(g, f"{c.count} x {c.title}", 30, y, 14, font_weight="bold")
        _text(g, f"score {c.score}" + (f", +{c.bonus} added" if c.bonus else "")
              + ("" if c.deal else ", not dealt"), 230, y, 13)
        _text(g, powers or "no collateral damage", 420, y, 12, font_style="italic")


def _seat_xy(i: int, n: int) -> tuple[float, float]:
    a = math.pi / 2 + 2 * math.pi * i / n  # p1 at the bottom, then round clockwise
    return CX + RX * math.cos(a), CY + RY * math.sin(a)


def _position(svg: ET.Element, st: War) -> None:
    obs = observation(st, -1)  # nobody's: every hand hidden, only what the table shows
    head = f"{st.rules.title}, turn {obs['turn']}: {obs['current']} to play"
    if st.outcome is not None:
        head = f"{st.rules.title}, turn {obs['turn']}: {st.reason}"
    _text(svg, head, 30, 36, 20, font_weight="bold")
    _el(svg, "ellipse", cx=CX, cy=CY, rx=RX - 70, ry=RY - 60, fill="#2e6b3f",
        stroke="#1c4227", stroke_width=6)
    _centre(svg, obs)
    for i in range(st.players):
        _seat(svg, st, obs, i)
    _discard(svg, obs)


def _centre(svg: ET.Element, obs: dict[str, Any]) -> None:
    g = _el(svg, "g", id="centre")
    _el(g, "circle", cx=CX - 60, cy=CY - 40, r=26, fill="#e5b73b", stroke="#222222")
    _text(g, str(obs["centre"]), CX - 60, CY - 34, 18, text_anchor="middle",
          font_weight="bold")
    _text(g, "centre pile", CX - 60, CY - 2, 12, text_anchor="middle", fill="#ffffff")
    _el(g, "rect", x=CX + 30, y=CY - 70, width=44, height=62, rx=5, fill="#7a2e2e",
        stroke="#ffffff", stroke_width=2)
    _text(g, str(obs["deck"]), CX + 52, CY - 32, 18, text_anchor="middle", fill="#ffffff",
          font_weight="bold")
    _text(g, "deck", CX + 52, CY + 6, 12, text_anchor="middle", fill="#ffffff")
    t = obs["table"]
    if t is not None:
        what = f"{t['attacker']} challenges {t['defender']}" if t["defender"] else (
            f"{t['attacker']}'s {t['kind']} challenge")
        _text(g, what + f": bet {t['bet']}" + (f", raise {t['raise']}" if t["raise"] else ""),
              CX, CY + 40, 15, text_anchor="middle", fill="#ffffff", font_weight="bold")


def _seat(svg: ET.Element, st: War, obs: dict[str, Any], i: int) -> None:
    s = P[i]
    x, y = _seat_xy(i, st.players)
    g = _el(svg, "g", class_="seat")
    g.set("data-seat", s)
    alive = s in obs["alive"]
    colour = COLOURS[i % len(COLOURS)]
    _el(g, "circle", cx=round(x, 1), cy=round(y, 1), r=30, fill=colour if alive else "#999999",
        stroke="#222222", stroke_width=3)
    _text(g, s, x, y + 6, 18, text_anchor="middle", fill="#ffffff", font_weight="bold")
    if not alive:
        _el(g, "path", d=f"M {x - 22:.1f} {y - 22:.1f} L {x + 22:.1f} {y + 22:.1f} "
            f"M {x + 22:.1f} {y - 22:.1f} L {x - 22:.1f} {y + 22:.1f}", stroke="#000000",
            stroke_width=4)
        death = next((d for d in obs["deaths"] if d["player"] == s), None)
        if death is not None:
            by = f" by {' '.join(death['killers'])}" if death["killers"] else ""
            _text(g, f"dead, turn {death['turn']}: {death['cause']}{by}", x, y + 50, 12,
                  text_anchor="middle")
        return
    _text(g, f"{obs['tokens'][s]} tokens", x, y + 50, 13, text_anchor="middle")
    n = obs["hand_sizes"][s]
    for k in range(n):  # the hand as card backs
        _el(g, "rect", x=round(x - 8 * n / 2 + 8 * k - 9, 1), y=round(y + 58, 1), width=18,
            height=26, rx=3, fill="#7a2e2e", stroke="#ffffff")
    _text(g, f"{n} cards", x, y + 100, 12, text_anchor="middle")
    _stake(g, obs, s, x, y)


def _stake(g: ET.Element, obs: dict[str, Any], s: str, x: float, y: float) -> None:
    t = obs["table"]
    if t is None or s not in t["stakes"]:
        return
    dx, dy = (CX - x) * 0.35, (CY - y) * 0.35  # towards the middle of the table
    bx, by = x + dx, y + dy
    _el(g, "circle", cx=round(bx - 22, 1), cy=round(by, 1), r=15, fill="#e5b73b",
        stroke="#222222")
    _text(g, str(t["stakes"][s]), bx - 22, by + 5, 13, text_anchor="middle")
    card = t["cards"].get(s, "")
    if card:
        face = card != "?"
        _el(g, "rect", x=round(bx, 1), y=round(by - 22, 1), width=34, height=46, rx=4,
            fill="#fffaf0" if face else "#7a2e2e", stroke="#222222")
        label = card.replace("_", " ") if face else "?"
        if s in t["withdrawn"]:
            label += " (out)"
        _text(g, label, bx + 17, by + 40, 11, text_anchor="middle")
    added = t["added"].get(s, [])
    if added:
        _text(g, "+ " + ", ".join(a.replace("_", " ") for a in added), bx, by + 54, 11)


def _discard(svg: ET.Element, obs: dict[str, Any]) -> None:
    g = _el(svg, "g", id="discard")
    _text(g, "discard pile (face up):", 30, H - 50, 13, font_weight="bold")
    items = [f"{n} {k.replace('_', ' ')}" for k, n in obs["discard"].items()]
    _text(g, ", ".join(items) or "(empty)", 200, H - 50, 12)
    _text(g, f"{obs['out']} tokens out of the game", 30, H - 28, 12)
