"""Positions: any part of a game's state written as a TOML/JSON table, read and written back.

Scenario files set a position this way, and saves made from a set position carry it. Names
are the rulebook's: pawns, agents, hq, van, health, hands, chain, track, allies, lost...
Each entry is declared beside its field in the state's table (state.py); this module holds
the entries' readers and writers, one small function each.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from ..errors import Location, RulesError, closest
from ..fields import SKIP, read_position

if TYPE_CHECKING:
    from .state import State

Locate = Callable[[tuple[Any, ...]], Location]
Fail = Callable[..., Exception]


def _nowhere(path: tuple[Any, ...]) -> Location:
    return Location("<position>")


def apply_position(st: State, pos: Mapping[str, Any], locate: Locate = _nowhere,
                   prefix: tuple[Any, ...] = ("position",)) -> None:
    """Set the parts of `st` that `pos` names; raise RulesError naming the bad entry."""
    st.legal_cache = None

    def fail(msg: str, *path: Any) -> RulesError:
        full = (*prefix, *path)
        return RulesError(msg, locate(full), ".".join(str(p) for p in full))

    keys = [e.key for e in st.ENTRIES]
    for key in pos:
        if key not in keys:
            raise fail(f"unknown position entry {key!r}" + closest(key, keys)
                       + "; expected one of: " + ", ".join(keys), key)
    read_position(st, pos, st.ENTRIES, fail)
    for kind in ("agent", "health", "artwork", "marker"):
        if st.reserve(kind) < 0:
            raise fail(f"this position uses more {kind} tokens than the game has "
                       f"({-st.reserve(kind)} too many)")


def position_of(st: State) -> dict[str, Any]:
    """The state's position in the same format (everything apply_position can set)."""
    return st.position()


# ====================================================================== value readers
def _city(st: State, name: Any, fail: Fail, *path: Any) -> int:
    r = st.rules
    if not isinstance(name, str) or name not in r.city_index:
        raise fail(f"unknown city {name!r}" + closest(str(name), r.city_index), *path)
    return int(r.city_index[name])


def _player(st: State, key: str, fail: Fail, *path: Any, pawn: bool = False) -> int:
    if pawn and key == "ally" and st.solo:
        return st.players
    if len(key) == 2 and key[0] == "p" and key[1].isdigit() and 0 < int(key[1]) <= st.players:
        return int(key[1]) - 1
    raise fail(f"no player {key!r} in a {st.players}-player game", *path)


def _number(v: Any, fail: Fail, *path: Any, lo: int = 0, hi: int = 10_000) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise fail(f"expected a whole number from {lo} to {hi}, not {v!r}", *path)
    return v


def _cards(st: State, v: Any, fail: Fail, *path: Any) -> list[int]:
    r = st.rules
    if not isinstance(v, list):
        raise fail("expected a list of card numbers", *path)
    out = []
    for i, c in enumerate(v):
        if c not in r.cards and c != r.final_card:
            raise fail(f"no card {c!r} in the deck", *path, i)
        _take_card(st, c)
        out.append(c)
    return out


def _take_card(st: State, card: int) -> None:
    if card == st.rules.final_card and st.above >= 0:
        st.above = -1  # the final card leaves its place in the deck
        return
    for pile in (st.deck_top, st.deck, st.discard, st.removed, *st.hands, *st.chains):
        if card in pile:
            pile.remove(card)
            if pile is st.removed and st.deck:
                st.removed.append(st.pick())  # solo: still 15 cards out of the game
            if pile is st.deck or pile is st.removed:
                st.above = min(st.above, len(st.deck))
            return


def _table(v: Any, fail: Fail, *path: Any) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise fail("expected a table", *path)
    return v


def _list(v: Any, fail: Fail, *path: Any) -> list[Any]:
    if not isinstance(v, list):
        raise fail("expected a list", *path)
    return v


def _per_player(v: Any, fail: Fail, key: str) -> Any:
    """A table by player (`p1 = ...`) or a list in player order, as (player, value) pairs."""
    if isinstance(v, dict):
        return v.items()
    return ((f"p{i + 1}", x) for i, x in enumerate(_list(v, fail, key)))


# ====================================================================== the entries
def read_round(st: State, v: Any, fail: Fail) -> None:
    st.round = _number(v, fail, "round", lo=1)


def write_round(st: State) -> Any:
    return st.round


def read_van(st: State, v: Any, fail: Fail) -> None:
    r = st.rules
    cap = int(r.p("components.resource_tokens"))
    for k, n in _table(v, fail, "van").items():
        if k not in r.resources:
            raise fail(f"unknown resource {k!r}" + closest(k, r.resources), "van", k)
        st.van[r.resources.index(k)] = _number(n, fail, "van", k, hi=cap)


def write_van(st: State) -> Any:
    return dict(zip(st.rules.resources, st.van, strict=True))


def read_health(st: State, v: Any, fail: Fail) -> None:
    for k, n in _per_player(v, fail, "health"):
        st.health[_player(st, k, fail, "health", k)] = _number(n, fail, "health", k, lo=1)


def write_health(st: State) -> Any:
    return list(st.health)


def read_pawns(st: State, v: Any, fail: Fail) -> None:
    labels = [f"p{i + 1}" for i in range(st.players)] + (["ally"] if st.solo else [])
    pairs = list(v.items()) if isinstance(v, dict) else list(
        zip(labels, _list(v, fail, "pawns"), strict=False))
    for k, c in pairs:
        st.pawns[_player(st, k, fail, "pawns", k, pawn=True)] = _city(st, c, fail, "pawns", k)


def write_pawns(st: State) -> Any:
    return [st.city_name(c) for c in st.pawns]


def read_agents(st: State, v: Any, fail: Fail) -> None:
    for k, n in _table(v, fail, "agents").items():
        st.agents[_city(st, k, fail, "agents", k)] = _number(n, fail, "agents", k)


def write_agents(st: State) -> Any:
    return {st.city_name(i): n for i, n in enumerate(st.agents)}


def read_hq(st: State, v: Any, fail: Fail) -> None:
    st.hq = _number(v, fail, "hq")


def write_hq(st: State) -> Any:
    return st.hq


def read_artworks(st: State, v: Any, fail: Fail) -> None:
    st.artworks = [0] * len(st.rules.cities)
    for i, c in enumerate(_list(v, fail, "artworks")):
        st.artworks[_city(st, c, fail, "artworks", i)] = 1


def write_artworks(st: State) -> Any:
    return [st.city_name(i) for i, a in enumerate(st.artworks) if a]


def read_lost(st: State, v: Any, fail: Fail) -> None:
    st.lost = [0] * len(st.rules.cities)
    for i, name in enumerate(_list(v, fail, "lost")):
        c = _city(st, name, fail, "lost", i)
        st.lost[c], st.agents[c] = 1, 0


def write_lost(st: State) -> Any:
    return [st.city_name(i) for i, x in enumerate(st.lost) if x]


def read_track(st: State, v: Any, fail: Fail) -> None:
    r = st.rules
    track = _list(v, fail, "track")
    if len(track) >= len(r.track):
        raise fail(f"the track has {len(r.track)} spaces; a full track has already won",
                   "track")
    for i, s in enumerate(track):
        if s not in r.symbols:
            raise fail(f"unknown artwork symbol {s!r}" + closest(str(s), r.symbols), "track", i)
    st.track = [str(s) for s in track]


def write_track(st: State) -> Any:
    return list(st.track)


def read_allies(st: State, v: Any, fail: Fail) -> None:
    st.allies = _number(v, fail, "allies", hi=int(st.rules.p("components.ally_dice")))


def write_allies(st: State) -> Any:
    return st.allies


def read_hands(st: State, v: Any, fail: Fail) -> None:
    for k, cs in _per_player(v, fail, "hands"):
        p = _player(st, k, fail, "hands", k)
        st.hands[p] = sorted(_cards(st, cs, fail, "hands", k))  # in card order


def write_hands(st: State) -> Any:
    return [list(h) for h in st.hands]


def read_chain(st: State, v: Any, fail: Fail) -> None:
    st.chains[0] = _cards(st, v, fail, "chain")


def write_chain(st: State) -> Any:
    return list(st.chains[0]) if len(st.chains) == 1 else SKIP


def read_chains(st: State, v: Any, fail: Fail) -> None:
    for k, cs in _table(v, fail, "chains").items():
        i = _player(st, k, fail, "chains", k)
        if len(st.chains) == 1:
            raise fail("this mission has one team chain: use 'chain'", "chains")
        st.chains[i] = _cards(st, cs, fail, "chains", k)


def write_chains(st: State) -> Any:
    if len(st.chains) == 1:
        return SKIP
    return {f"p{i + 1}": list(ch) for i, ch in enumerate(st.chains)}


def read_discard(st: State, v: Any, fail: Fail) -> None:
    st.discard.extend(_cards(st, v, fail, "discard"))


def write_discard(st: State) -> Any:
    return list(st.discard)


def read_deck_top(st: State, v: Any, fail: Fail) -> None:
    top = _cards(st, v, fail, "deck_top")
    st.deck_top.extend(reversed(top))  # the first listed is drawn first


def write_deck_top(st: State) -> Any:
    return list(reversed(st.deck_top))


def read_carried(st: State, v: Any, fail: Fail) -> None:
    st.carried = [0] * len(st.pawns)
    for i, k in enumerate(_list(v, fail, "carried")):
        st.carried[_player(st, str(k), fail, "carried", i, pawn=True)] = 1


def write_carried(st: State) -> Any:
    return [("ally" if i == st.players else f"p{i + 1}") for i, k in enumerate(st.carried) if k]


def read_final_round(st: State, v: Any, fail: Fail) -> None:
    st.final_round = bool(v)


def write_final_round(st: State) -> Any:
    return st.final_round


def read_dice(st: State, v: Any, fail: Fail) -> None:
    faces = int(st.rules.p("components.die_faces"))
    st.forced_dice = [_number(d, fail, "dice", i, lo=1, hi=faces)
                      for i, d in enumerate(_list(v, fail, "dice"))]


def write_dice(st: State) -> Any:
    return list(st.forced_dice)


__all__: Final = ["apply_position", "position_of"]
