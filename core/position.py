"""Positions: any part of a game's state written as a TOML/JSON table, read and written back.

Scenario files set a position this way, and saves made from a set position carry it. Names
are the rulebook's: pawns, agents, hq, van, health, hands, chain, track, allies, lost...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from .errors import Location, RulesError, closest
from .state import State

KEYS: Final = (
    "round", "van", "health", "pawns", "agents", "hq", "artworks", "lost", "track", "allies",
    "hands", "chain", "chains", "deck_top", "discard", "final_round", "dice", "carried",
)

Locate = Callable[[tuple[Any, ...]], Location]


def _nowhere(path: tuple[Any, ...]) -> Location:
    return Location("<position>")


def apply_position(st: State, pos: Mapping[str, Any], locate: Locate = _nowhere,
                   prefix: tuple[Any, ...] = ("position",)) -> None:
    """Set the parts of `st` that `pos` names; raise RulesError naming the bad entry."""
    r = st.rules
    st.legal_cache = None

    def fail(msg: str, *path: Any) -> RulesError:
        full = (*prefix, *path)
        return RulesError(msg, locate(full), ".".join(str(p) for p in full))

    def city(name: Any, *path: Any) -> int:
        if not isinstance(name, str) or name not in r.city_index:
            raise fail(f"unknown city {name!r}" + closest(str(name), r.city_index), *path)
        return r.city_index[name]

    def player(key: str, *path: Any, pawn: bool = False) -> int:
        if pawn and key == "ally" and st.solo:
            return st.players
        if len(key) == 2 and key[0] == "p" and key[1].isdigit() and 0 < int(key[1]) <= st.players:
            return int(key[1]) - 1
        raise fail(f"no player {key!r} in a {st.players}-player game", *path)

    def number(v: Any, *path: Any, lo: int = 0, hi: int = 10_000) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise fail(f"expected a whole number from {lo} to {hi}, not {v!r}", *path)
        return v

    def cards(v: Any, *path: Any) -> list[int]:
        if not isinstance(v, list):
            raise fail("expected a list of card numbers", *path)
        out = []
        for i, c in enumerate(v):
            if c not in r.cards and c != r.final_card:
                raise fail(f"no card {c!r} in the deck", *path, i)
            _take_card(st, c)
            out.append(c)
        return out

    for key in pos:
        if key not in KEYS:
            raise fail(f"unknown position entry {key!r}" + closest(key, KEYS)
                       + "; expected one of: " + ", ".join(KEYS), key)
    if "round" in pos:
        st.round = number(pos["round"], "round", lo=1)
    if "van" in pos:
        for k, v in _table(pos["van"], fail, "van").items():
            if k not in r.resources:
                raise fail(f"unknown resource {k!r}" + closest(k, r.resources), "van", k)
            cap = int(r.p("components.resource_tokens"))
            st.van[r.resources.index(k)] = number(v, "van", k, hi=cap)
    if "health" in pos:
        h = pos["health"]
        items = h.items() if isinstance(h, dict) else ((f"p{i + 1}", v) for i, v in
                                                       enumerate(_list(h, fail, "health")))
        for k, v in items:
            st.health[player(k, "health", k)] = number(v, "health", k, lo=1)
    if "pawns" in pos:
        p = pos["pawns"]
        labels = [f"p{i + 1}" for i in range(st.players)] + (["ally"] if st.solo else [])
        pairs = list(p.items()) if isinstance(p, dict) else list(
            zip(labels, _list(p, fail, "pawns"), strict=False))
        for k, v in pairs:
            st.pawns[player(k, "pawns", k, pawn=True)] = city(v, "pawns", k)
    if "agents" in pos:
        for k, v in _table(pos["agents"], fail, "agents").items():
            st.agents[city(k, "agents", k)] = number(v, "agents", k)
    if "hq" in pos:
        st.hq = number(pos["hq"], "hq")
    if "artworks" in pos:
        st.artworks = [0] * len(r.cities)
        for i, v in enumerate(_list(pos["artworks"], fail, "artworks")):
            st.artworks[city(v, "artworks", i)] = 1
    if "lost" in pos:
        st.lost = [0] * len(r.cities)
        for i, v in enumerate(_list(pos["lost"], fail, "lost")):
            c = city(v, "lost", i)
            st.lost[c], st.agents[c] = 1, 0
    if "track" in pos:
        track = _list(pos["track"], fail, "track")
        if len(track) >= len(r.track):
            raise fail(f"the track has {len(r.track)} spaces; a full track has already won",
                       "track")
        for i, v in enumerate(track):
            if v not in r.symbols:
                raise fail(f"unknown artwork symbol {v!r}" + closest(str(v), r.symbols),
                           "track", i)
        st.track = [str(v) for v in track]
    if "allies" in pos:
        st.allies = number(pos["allies"], "allies", hi=int(r.p("components.ally_dice")))
    if "hands" in pos:
        h = pos["hands"]
        items = h.items() if isinstance(h, dict) else ((f"p{i + 1}", v) for i, v in
                                                       enumerate(_list(h, fail, "hands")))
        for k, v in items:
            st.hands[player(k, "hands", k)] = sorted(cards(v, "hands", k))  # in card order
    if "chain" in pos:
        st.chains[0] = cards(pos["chain"], "chain")
    if "chains" in pos:
        for k, v in _table(pos["chains"], fail, "chains").items():
            i = player(k, "chains", k)
            if len(st.chains) == 1:
                raise fail("this mission has one team chain: use 'chain'", "chains")
            st.chains[i] = cards(v, "chains", k)
    if "discard" in pos:
        st.discard.extend(cards(pos["discard"], "discard"))
    if "deck_top" in pos:
        top = cards(pos["deck_top"], "deck_top")
        st.deck_top.extend(reversed(top))  # the first listed is drawn first
    if "carried" in pos:
        st.carried = [0] * len(st.pawns)
        for i, k in enumerate(_list(pos["carried"], fail, "carried")):
            st.carried[player(str(k), "carried", i, pawn=True)] = 1
    if "final_round" in pos:
        st.final_round = bool(pos["final_round"])
    if "dice" in pos:
        faces = int(r.p("components.die_faces"))
        st.forced_dice = [number(d, "dice", i, lo=1, hi=faces)
                          for i, d in enumerate(_list(pos["dice"], fail, "dice"))]
    for kind in ("agent", "health", "artwork", "marker"):
        if st.reserve(kind) < 0:
            raise fail(f"this position uses more {kind} tokens than the game has "
                       f"({-st.reserve(kind)} too many)")


def _take_card(st: State, card: int) -> None:
    if card == st.rules.final_card and st.above >= 0:
        st.above = -1  # the final card leaves its place in the deck
        return
    for pile in (st.deck_top, st.deck, st.discard, st.removed, *st.hands, *st.chains):
        if card in pile:
            pile.remove(card)
            if pile is st.removed and st.deck:
                st.removed.append(st._pick())  # solo: still 15 cards out of the game
            if pile is st.deck or pile is st.removed:
                st.above = min(st.above, len(st.deck))
            return


def _table(v: Any, fail: Callable[..., RulesError], *path: Any) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise fail("expected a table", *path)
    return v


def _list(v: Any, fail: Callable[..., RulesError], *path: Any) -> list[Any]:
    if not isinstance(v, list):
        raise fail("expected a list", *path)
    return v


def position_of(st: State) -> dict[str, Any]:
    """The state's position in the same format (everything apply_position can set)."""
    r = st.rules
    names = [c.name for c in r.cities]
    out: dict[str, Any] = {
        "round": st.round,
        "van": dict(zip(r.resources, st.van, strict=True)),
        "health": list(st.health),
        "pawns": [names[c] for c in st.pawns],
        "agents": {names[i]: n for i, n in enumerate(st.agents)},
        "hq": st.hq,
        "artworks": [names[i] for i, a in enumerate(st.artworks) if a],
        "lost": [names[i] for i, x in enumerate(st.lost) if x],
        "track": list(st.track),
        "allies": st.allies,
        "hands": [list(h) for h in st.hands],
        "discard": list(st.discard),
        "deck_top": list(reversed(st.deck_top)),
        "final_round": st.final_round,
        "dice": list(st.forced_dice),
        "carried": [("ally" if i == st.players else f"p{i + 1}")
                    for i, k in enumerate(st.carried) if k],
    }
    if len(st.chains) == 1:
        out["chain"] = list(st.chains[0])
    else:
        out["chains"] = {f"p{i + 1}": list(ch) for i, ch in enumerate(st.chains)}
    return out
