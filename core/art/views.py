"""What a person is shown of an A.R.T. game (the kernel's `view` and `picture` hooks): plain
JSON data for a server or a browser (docs/server.md).

A seat's view is made from that player's `observation` (info.py) and the fixed rules alone,
so it shows nothing the information rules hide: others' cards appear as their backs, and a
card's face only where the observation names it (the seat's own hand, the clue chain, the
discard pile). The table is the board as the rules draw it, the same for everyone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..hooks import NOBODY
from .registry import P

if TYPE_CHECKING:
    from .rules import Rules
    from .state import State

THREADS: Final = ("beige", "red")  # a road's colour on the board: its `thread`


def card(rules: Rules, cid: int) -> dict[str, Any]:
    """A card's face: its number, title, the clue symbols on its back and its four sections
    (cost, agents, gain, clues) as written."""
    c = rules.cards.get(cid)
    if c is None:  # the final card (R3) has no sections
        return {"id": cid, "title": "the final card", "clues": [], "sections": {}}
    sym = rules.symbols
    return {"id": cid, "title": c.title, "clues": [sym[s] for s in c.clues],
            "sections": dict(c.text)}


def choices() -> dict[str, Any]:
    """A lobby's choices: 1-6 players, a shipped board, a difficulty, shipped variants."""
    from ...missions import DEFAULT
    from .loader import load_rules, shipped_missions, shipped_variants

    return {"players": [1, 6], "variants": shipped_variants(), "options": {
        "board": {"option": "mission", "values": shipped_missions(), "default": DEFAULT},
        "difficulty": {"option": "difficulty", "values": list(load_rules(DEFAULT).difficulties),
                       "default": "medium"}}}


def _seats(n: int) -> dict[str, Any]:
    return {P[i]: i for i in range(n)}


def view(st: State, player: int) -> dict[str, Any]:
    """What `player` sees now (NOBODY: a spectator, the public view), from their observation."""
    obs = st.observation(player if player >= 0 else NOBODY)
    rules, n = st.rules, st.players
    pawns = obs["pawns"]
    names = [*P[:n], "ally"][: len(pawns)]
    chains = obs.get("chains")
    return {
        "game": st.game, "seat": P[player] if 0 <= player < n else None,
        "round": obs["round"], "phase": obs["phase"], "wait": obs["wait"],
        "deciding": [P[p] for p in st.deciding_seats()],
        "van": obs["van"], "health": dict(zip(P, obs["health"], strict=False)),
        "pawns": dict(zip(names, pawns, strict=True)), "carried": obs["carried"],
        "agents": obs["agents"], "hq": obs["hq"], "artworks": obs["artworks"],
        "lost": obs["lost"], "track": obs["track"], "threat": obs["threat"],
        "ally_cost": obs["ally_cost"], "allies": obs["allies"],
        "chain": [card(rules, c) for c in obs.get("chain", [])],
        "chains": None if chains is None else {
            p: [card(rules, c) for c in cs] for p, cs in chains.items()},
        "deck": obs["deck"], "discard": [card(rules, c) for c in obs["discard"]],
        "set_aside": obs["set_aside"], "final_round": obs["final_round"],
        "hand": [card(rules, c) for c in obs["hand"]],
        "hands": {p: {"size": obs["hand_sizes"][p], "backs": obs["hand_backs"][p]}
                  for p in obs["hand_sizes"]},
        "battle": obs["battle"], "outcome": obs["outcome"], "reason": obs["reason"],
    }


def picture(st: State) -> dict[str, Any]:
    """The board (cities with their symbols and map coordinates, roads with their thread,
    the artwork track with threat and ally cost), the team and the resources."""
    rules = st.rules
    specs = rules.raw.get("city", [])
    cities = []
    for c, city in enumerate(rules.cities):
        effect = specs[c].get("on_collect", "") if c < len(specs) else ""
        cities.append({"name": city.name, "title": city.title or city.name,
                       "symbol": city.symbol, "x": city.x, "y": city.y,
                       "start": c == rules.start, "on_collect": effect or ""})
    roads = []
    for a, out in enumerate(rules.neighbours):
        for r in out:
            if r.dst < a:
                continue  # each road once
            thread = str(r.attrs.get("thread", ""))
            dashed = r.attrs.get("style") == "dashed"
            roads.append({"from": rules.cities[a].name, "to": rules.cities[r.dst].name,
                          "colour": "red" if dashed else thread if thread in THREADS
                          else "grey", "dashed": dashed,
                          "attrs": {k: v if isinstance(v, int | float | str | bool) else str(v)
                                    for k, v in r.attrs.items()}})
    extra = st.tab.team_threat[st.players]  # the threat a team of this size adds (R15)
    return {
        "game": st.game, "title": rules.title, "board": rules.name,
        "variants": list(rules.variants), "players": st.players,
        "difficulty": st.difficulty, "seats": list(_seats(st.players)), "solo": st.solo,
        "resources": list(rules.resources), "symbols": list(rules.symbols),
        "movement": rules.params["rules.movement"], "start": rules.cities[rules.start].name,
        "cities": cities, "roads": roads,
        "track": [{"threat": s.threat + extra, "ally_cost": s.ally_cost, "symbol": s.symbol}
                  for s in rules.track],
        "health_start": rules.difficulties[st.difficulty] * (2 if st.solo else 1),
        "final_card": rules.final_card,
    }
