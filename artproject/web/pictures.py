"""The static picture of a game's rules as plain data, for the page to draw: the board of a
mission (cities, roads, the artwork track) and the cards' texts.

Each game's picture is keyed by its name in `PICTURES` (a game added to the kernel adds its
own); the pages dispatch on the picture's `game` to the drawing module of that game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def art_picture(rules: Any) -> dict[str, Any]:
    """A mission's board and its cards (the four sections of each, as written)."""
    cached = rules.cache.get("web.picture")
    if cached is not None:
        return dict(cached)
    specs = rules.raw.get("city", [])
    cities = []
    for c, city in enumerate(rules.cities):
        effect = specs[c].get("on_collect") if c < len(specs) else None
        cities.append({"name": city.name, "title": city.title or city.name,
                       "symbol": city.symbol, "x": city.x, "y": city.y,
                       "start": c == rules.start, "effect": effect or ""})
    roads = []
    for a, leaving in enumerate(rules.neighbours):
        for r in leaving:
            if r.dst < a:
                continue  # each road once
            attrs = {k: str(v) for k, v in r.attrs.items()}
            roads.append({"from": rules.cities[a].name, "to": rules.cities[r.dst].name,
                          "thread": attrs.get("thread", ""),
                          "style": attrs.get("style", ""), "attrs": attrs})
    sym = rules.symbols
    cards = {str(i): {"id": i, "title": card.title,
                      "clues": [sym[s] for s in card.clues],
                      "sections": {k: str(card.text.get(k, "")) for k in
                                   ("cost", "agents", "gain", "clues")}}
             for i, card in rules.cards.items()}
    out = {"game": "art-project", "name": rules.name, "title": rules.title,
           "resources": list(rules.resources), "symbols": list(sym),
           "cities": cities, "roads": roads,
           "movement": str(rules.params.get("rules.movement", "roads")),
           "track": [{"threat": t.threat, "ally_cost": t.ally_cost, "symbol": t.symbol}
                     for t in rules.track],
           "threat_by_players": list(rules.params.get("rules.threat_by_players", [])),
           "cards": cards, "final_card": rules.final_card}
    rules.cache["web.picture"] = out
    return dict(out)


def war_picture(rules: Any) -> dict[str, Any]:
    """Art of War's cards: each kind's score, bonus, count and powers as written."""
    cards = {k.name: {"name": k.name, "title": k.title or k.name.replace("_", " "),
                      "score": k.score, "bonus": k.bonus, "count": k.count,
                      "text": {s: str(t) for s, t in k.text.items()}}
             for k in rules.cards}
    return {"game": "art-of-war", "name": rules.name, "title": rules.title, "cards": cards}


PICTURES: dict[str, Callable[[Any], dict[str, Any]]] = {
    "art-project": art_picture, "art-of-war": war_picture}


def picture_of(game: str, rules: Any) -> dict[str, Any]:
    """The picture of `rules` of `game`."""
    return PICTURES[game](rules)
