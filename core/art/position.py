"""Positions: any part of a game's state written as a TOML/JSON table, read and written back.

Scenario files set a position this way, and saves made from a set position carry it. Names
are the rulebook's: pawns, agents, hq, van, health, hands, chain, track, allies, lost...
Each entry is declared beside its field in the state's table (state.py), with its type and
meaning: the kernel makes the position's schema from that (`State.POSITION_SPEC`), and
every entry's shape is checked against it before any is read. This module holds the
entries' readers and writers, one small function each. The cards a position names
(hands, chains, discard, deck_top, and final_round, which says where the final card is)
are read together: a card lies in one place, and the final card keeps its place (R3, R20).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from .. import schema
from ..errors import Location, RulesError, closest
from ..fields import SKIP, read_position
from ..schema import MAX_NUMBER

if TYPE_CHECKING:
    from .state import State

Locate = Callable[[tuple[Any, ...]], Location]


def _nowhere(path: tuple[Any, ...]) -> Location:
    return Location("<position>")


class _Reader:
    """Reads a position's entries for one state: each mistake a RulesError naming its key."""

    def __init__(self, st: State, locate: Locate, prefix: tuple[Any, ...]) -> None:
        self.st, self.r, self.locate, self.prefix = st, st.rules, locate, prefix

    def fail(self, msg: str, *path: Any) -> RulesError:
        full = (*self.prefix, *path)
        return RulesError(msg, self.locate(full), _path_text(full))

    def city(self, name: Any, *path: Any) -> int:
        index = self.r.city_index
        if not isinstance(name, str) or name not in index:
            raise self.fail(f"unknown city {name!r}" + closest(str(name), index), *path)
        return int(index[name])

    def player(self, key: str, *path: Any, pawn: bool = False) -> int:
        st = self.st
        if pawn and key == "ally" and st.solo:
            return st.players
        if len(key) == 2 and key[0] == "p" and key[1].isdigit() and 0 < int(key[1]) <= st.players:
            return int(key[1]) - 1
        raise self.fail(f"no player {key!r} in a {st.players}-player game", *path)

    def number(self, v: Any, *path: Any, lo: int = 0, hi: int = MAX_NUMBER) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise self.fail(f"expected a whole number from {lo} to {hi}, not {v!r}", *path)
        return v

    def table(self, v: Any, *path: Any) -> dict[str, Any]:
        return _table(v, self.fail, *path)

    def list(self, v: Any, *path: Any) -> list[Any]:
        return _list(v, self.fail, *path)

    def per_player(self, v: Any, key: str) -> Iterable[tuple[str, Any]]:
        """`{ p2 = X }` or `[X1, X2]` (p1 first): (label, value) pairs."""
        if isinstance(v, dict):
            return v.items()
        return ((f"p{i + 1}", x) for i, x in enumerate(self.list(v, key)))


def apply_position(st: State, pos: Mapping[str, Any], locate: Locate = _nowhere,
                   prefix: tuple[Any, ...] = ("position",)) -> None:
    """Set the parts of `st` that `pos` names; raise RulesError naming the bad entry."""
    rd = _Reader(st, locate, prefix)
    st.legal_cache = None
    # each entry's shape first (its declaration in the state's table), then its meaning
    _, found = schema.structure(dict(pos), st.POSITION_SPEC)
    if found:
        path, msg = found[0]
        raise rd.fail(msg, *path)
    read_position(st, pos, st.ENTRIES, rd)  # every entry but the cards'
    _place_cards(rd, pos)
    for kind, (supply, holders) in _TOKENS.items():
        if st.reserve(kind) < 0:
            raise _too_many(rd, pos, kind, supply, holders)


# Each kind of token: its supply (a [components] key) and the entries that hold it
_TOKENS: Final = {"agent": ("agent_tokens", ("agents", "hq")),
                  "health": ("health_tokens", ("health",)),
                  "artwork": ("artwork_tokens", ("artworks", "track", "carried")),
                  "marker": ("lost_city_markers", ("lost",))}


def _too_many(rd: _Reader, pos: Mapping[str, Any], kind: str, supply: str,
              holders: tuple[str, ...]) -> RulesError:
    """More `kind` tokens in play than the game has (R2), told at the part of an entry that
    takes the count past the supply (the parts in the file's order, after the tokens no
    entry names), else at the largest part."""
    over, has = -rd.st.reserve(kind), int(rd.r.p(f"components.{supply}"))
    parts = [(n, (key, *at)) for key in pos if key in holders
             for n, at in _counts(pos[key])]
    count = has + over - sum(n for n, _ in parts)
    blamed = next(((n, path) for n, path in parts if (count := count + n) > has),
                  max(parts, default=(0, ())))
    n = blamed[0]
    said = f"the {n} {kind} token{'s' * (n != 1)} here take" if parts else "this position takes"
    return rd.fail(f"{said} the count past the game's {has} (components.{supply}, R2): "
                   f"{has + over} in play, {over} too many", *blamed[1])


def _counts(value: Any) -> list[tuple[int, tuple[Any, ...]]]:
    """The tokens each part of an entry holds (a number, or one a name) and its place."""
    def one(v: Any) -> int:
        return v if isinstance(v, int) and not isinstance(v, bool) else 1
    if isinstance(value, Mapping):
        return [(one(v), (k,)) for k, v in value.items()]
    if isinstance(value, list):
        return [(one(v), (i,)) for i, v in enumerate(value)]
    return [(one(value), ())]


def position_of(st: State) -> dict[str, Any]:
    """The state's position in the same format (everything apply_position can set)."""
    return st.position()


# ====================================================================== the entries
def read_round(st: State, v: Any, rd: _Reader) -> None:
    st.round = rd.number(v, "round", lo=1)


def write_round(st: State) -> Any:
    return st.round


def read_van(st: State, v: Any, rd: _Reader) -> None:
    r = st.rules
    cap = int(r.p("components.resource_tokens"))
    for k, n in rd.table(v, "van").items():
        if k not in r.resources:
            raise rd.fail(f"unknown resource {k!r}" + closest(k, r.resources), "van", k)
        st.van[r.resources.index(k)] = rd.number(n, "van", k, hi=cap)


def write_van(st: State) -> Any:
    return dict(zip(st.rules.resources, st.van, strict=True))


def read_health(st: State, v: Any, rd: _Reader) -> None:
    for k, n in rd.per_player(v, "health"):
        st.health[rd.player(k, "health", k)] = rd.number(n, "health", k, lo=1)


def write_health(st: State) -> Any:
    return list(st.health)


def read_pawns(st: State, v: Any, rd: _Reader) -> None:
    labels = [f"p{i + 1}" for i in range(st.players)] + (["ally"] if st.solo else [])
    pairs = list(v.items()) if isinstance(v, dict) else list(
        zip(labels, rd.list(v, "pawns"), strict=False))
    for k, c in pairs:
        st.pawns[rd.player(k, "pawns", k, pawn=True)] = rd.city(c, "pawns", k)


def write_pawns(st: State) -> Any:
    return [st.city_name(c) for c in st.pawns]


def read_agents(st: State, v: Any, rd: _Reader) -> None:
    for k, n in rd.table(v, "agents").items():
        st.agents[rd.city(k, "agents", k)] = rd.number(n, "agents", k)


def write_agents(st: State) -> Any:
    return {st.city_name(i): n for i, n in enumerate(st.agents)}


def read_hq(st: State, v: Any, rd: _Reader) -> None:
    st.hq = rd.number(v, "hq")


def write_hq(st: State) -> Any:
    return st.hq


def read_artworks(st: State, v: Any, rd: _Reader) -> None:
    st.artworks = [0] * len(st.rules.cities)
    for i, c in enumerate(rd.list(v, "artworks")):
        st.artworks[rd.city(c, "artworks", i)] = 1


def write_artworks(st: State) -> Any:
    return [st.city_name(i) for i, a in enumerate(st.artworks) if a]


def read_lost(st: State, v: Any, rd: _Reader) -> None:
    st.lost = [0] * len(st.rules.cities)
    for i, name in enumerate(rd.list(v, "lost")):
        c = rd.city(name, "lost", i)
        st.lost[c], st.agents[c] = 1, 0


def write_lost(st: State) -> Any:
    return [st.city_name(i) for i, x in enumerate(st.lost) if x]


def read_track(st: State, v: Any, rd: _Reader) -> None:
    r = st.rules
    track = rd.list(v, "track")
    if len(track) >= len(r.track):
        raise rd.fail(f"the track has {len(r.track)} spaces; a full track has already won",
                      "track")
    for i, s in enumerate(track):
        if s not in r.symbols:
            raise rd.fail(f"unknown artwork symbol {s!r}" + closest(str(s), r.symbols),
                          "track", i)
    st.track = [str(s) for s in track]


def write_track(st: State) -> Any:
    return list(st.track)


def read_allies(st: State, v: Any, rd: _Reader) -> None:
    st.allies = rd.number(v, "allies", hi=int(st.rules.p("components.ally_dice")))


def write_allies(st: State) -> Any:
    return st.allies


# the cards' entries are read together (see `_place_cards`): no reader of their own
read_hands = read_chain = read_chains = read_discard = read_deck_top = read_final_round = None


def write_hands(st: State) -> Any:
    return [list(h) for h in st.hands]


def write_chain(st: State) -> Any:
    return list(st.chains[0]) if len(st.chains) == 1 else SKIP


def write_chains(st: State) -> Any:
    if len(st.chains) == 1:
        return SKIP
    return {f"p{i + 1}": list(ch) for i, ch in enumerate(st.chains)}


def write_discard(st: State) -> Any:
    return list(st.discard)


def write_deck_top(st: State) -> Any:
    return list(reversed(st.deck_top))


def write_final_round(st: State) -> Any:
    return st.final_round


def read_carried(st: State, v: Any, rd: _Reader) -> None:
    st.carried = [0] * len(st.pawns)
    for i, k in enumerate(rd.list(v, "carried")):
        st.carried[rd.player(str(k), "carried", i, pawn=True)] = 1


def write_carried(st: State) -> Any:
    return [("ally" if i == st.players else f"p{i + 1}") for i, k in enumerate(st.carried) if k]


def read_dice(st: State, v: Any, rd: _Reader) -> None:
    faces = int(st.rules.p("components.die_faces"))
    st.forced_dice = [rd.number(d, "dice", i, lo=1, hi=faces)
                      for i, d in enumerate(rd.list(v, "dice"))]


def write_dice(st: State) -> Any:
    return list(st.forced_dice)


# ---------------------------------------------------------------------- cards (R3, R20)
Fail = Callable[..., RulesError]
# (key, the player whose hand or chain it is or -1, the entry's path, the cards it names)
Named = tuple[str, int, tuple[Any, ...], list[int]]


def _place_cards(rd: _Reader, pos: Mapping[str, Any]) -> None:
    """Deal the cards the position names; the final card stays on the last 12 (R3) unless
    the position says it was drawn (R20) or names its place in `deck_top`."""
    st, fail = rd.st, rd.fail
    named = _named_cards(rd, pos)
    _check_named(rd, named)
    final = st.rules.final_card
    drawn, on_top = _final_card_fate(st, pos, named, fail)
    if drawn or on_top:
        _take_card(st, final, fail, ())
        if drawn and not any(final in cards for *_, cards in named):
            st.discard.append(final)  # drawn, it was discarded at once (R20)
        st.final_round = drawn
    for _, _, path, cards in named:
        for i, c in enumerate(cards):
            if c != final:
                _take_card(st, c, fail, (*path, i))
    for key, who, _, cards in named:
        if key == "hands":
            st.hands[who] = sorted(cards)  # hands are kept in card order
        elif key in ("chain", "chains"):
            st.chains[who] = list(cards)
        elif key == "discard":
            st.discard.extend(cards)
        else:
            st.deck_top.extend(reversed(cards))  # the first listed is drawn first
    _check_chains(rd, named)


def _check_chains(rd: _Reader, named: list[Named]) -> None:
    """No chain holds a full set of matching clues: those cards are discarded as soon as
    they are gathered (R10), so a position, which starts at a phase, never has them."""
    from .clues import completed  # (the chain's rules: clues.py's own count)

    for key, who, path, cards in named:
        if key in ("chain", "chains"):
            full = completed(rd.st, who)
            if full:
                s = rd.r.symbols.index(full[0])
                bearing = [c for c in cards if s in rd.r.cards[c].clues]
                raise rd.fail(f"cards {bearing} all bear {full[0]}: {rd.st.tab.need} matching "
                              "clues are discarded as soon as they are gathered (R10), so no "
                              "chain holds them", *path)


def _named_cards(rd: _Reader, pos: Mapping[str, Any]) -> list[Named]:
    """The card entries of the position, in the order they are dealt."""
    st = rd.st
    out: list[Named] = []
    if "hands" in pos:
        out += [("hands", rd.player(k, "hands", k), ("hands", k), v)
                for k, v in rd.per_player(pos["hands"], "hands")]
    if "chain" in pos:
        if len(st.chains) > 1:
            raise rd.fail("this mission keeps a chain per player: use 'chains'", "chain")
        out.append(("chain", 0, ("chain",), pos["chain"]))
    if "chains" in pos:
        if len(st.chains) == 1:
            raise rd.fail("this mission has one team chain: use 'chain'", "chains")
        out += [("chains", rd.player(k, "chains", k), ("chains", k), v)
                for k, v in rd.table(pos["chains"], "chains").items()]
    out += [(k, -1, (k,), pos[k]) for k in ("discard", "deck_top") if k in pos]
    return out


def _check_named(rd: _Reader, named: list[Named]) -> None:
    """Each named card is a card of this deck, named once, and never the final card in a
    hand or a chain."""
    r = rd.r
    seen: dict[int, str] = {}
    for key, _, path, cards in named:
        if not isinstance(cards, list):
            raise rd.fail("expected a list of card numbers", *path)
        for i, c in enumerate(cards):
            here = (*path, i)
            if isinstance(c, bool) or (c not in r.cards and c != r.final_card):
                raise rd.fail(f"no card {c!r} in the deck", *here)
            if c in seen:
                raise rd.fail(f"card {c} is named twice (first at {seen[c]}): a card lies in "
                              "one place", *here)
            seen[c] = _path_text((*rd.prefix, *here))
            if c == r.final_card and key in ("hands", "chain", "chains"):
                where = "a hand" if key == "hands" else "a clue chain"
                raise rd.fail(f"the final card ({c}) cannot be in {where}: drawn, it is "
                              "discarded at once (R20)", *here)


def _final_card_fate(st: State, pos: Mapping[str, Any], named: list[Named],
                     fail: Fail) -> tuple[bool, bool]:
    """(drawn, placed in deck_top): what the position says of the final card (R3, R20).
    `final_round = true` or the final card in the discard say it was drawn."""
    final = st.rules.final_card
    at = {key for key, _, _, cards in named if final in cards}
    fr = pos.get("final_round")
    if fr is not None and not isinstance(fr, bool):
        raise fail(f"expected true or false, not {fr!r}", "final_round")
    if "discard" in at and fr is False:
        raise fail("the final card is in the discard, so it was drawn and this round is the "
                   "last (R20): final_round cannot be false", "final_round")
    if "deck_top" in at and fr:
        raise fail("the final card is still in the deck (deck_top names it): the final "
                   "round has not begun (R20)", "final_round")
    drawn = "discard" in at or bool(fr) or (fr is None and st.final_round)
    return drawn, "deck_top" in at


def _take_card(st: State, card: int, fail: Fail, path: tuple[Any, ...]) -> None:
    """Take a card from wherever it lies. A card taken from the deck's unordered remainder
    comes from above the final card, which keeps the last 12 beneath it (R3)."""
    if card == st.rules.final_card:
        if st.above >= 0:
            st.above = -1  # the final card leaves its place in the deck
        else:
            for pile in (st.deck_top, st.discard):
                if card in pile:
                    pile.remove(card)
        return
    for pile in (st.deck_top, st.deck, st.discard, st.removed, *st.hands, *st.chains):
        if card in pile:
            pile.remove(card)
            if pile is st.removed and st.deck:
                st.removed.append(st.pick())  # solo: still 15 cards out of the game
            if pile is st.deck or pile is st.removed:
                _above_final(st, fail, path)
            return


def _above_final(st: State, fail: Fail, path: tuple[Any, ...]) -> None:
    if st.above > 0:
        st.above -= 1
    elif st.above == 0:
        last = int(st.rules.p("setup.final_card_from_bottom")) - 1
        raise fail(f"too many cards taken out of the deck: the {len(st.deck) + 1} left lie "
                   f"beneath the final card, which lies on the last {last} (R3); a position "
                   "past it says so: final_round = true, or the final card in the discard",
                   *path)


def _path_text(path: tuple[Any, ...]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


# ---------------------------------------------------------------------- reading the deck
def final_from_top(st: State) -> int:
    """The final card's place counted from the top of the deck (1: drawn next), 0 once drawn."""
    final = st.rules.final_card
    if st.above >= 0:
        return len(st.deck_top) + st.above + 1
    if final in st.deck_top:
        return len(st.deck_top) - st.deck_top.index(final)
    return 0


def final_from_bottom(st: State) -> int:
    """The final card's place counted from the bottom (13 at setup, R3), 0 once drawn."""
    top = final_from_top(st)
    return st.deck_size() - top + 1 if top else 0


def deck_card(st: State, n: int) -> int:
    """The nth card from the top of the deck where it is known (named in `deck_top`, or the
    final card's place), -1 where it is one of the deck's unordered remainder."""
    if 1 <= n <= len(st.deck_top):
        return st.deck_top[-n]
    return st.rules.final_card if n >= 1 and n == final_from_top(st) else -1


# every place `card_place` may say (hands and chains of up to 6 players: the notation's)
CARD_PLACES: frozenset[str] = frozenset({
    "", "deck", "discard", "removed", "chain",
    *(f"{where} p{i}" for where in ("hand", "chain") for i in range(1, 7))})


def card_place(st: State, card: int) -> str:
    """Where a card lies: "deck", "hand p1", "chain" (or "chain p2"), "discard", "removed"
    (solo), or "" for a number that is no card of this deck (each one of CARD_PLACES)."""
    if card == st.rules.final_card:
        return "deck" if final_from_top(st) else "discard" if card in st.discard else ""
    for i, h in enumerate(st.hands):
        if card in h:
            return f"hand p{i + 1}"
    for i, ch in enumerate(st.chains):
        if card in ch:
            return "chain" if len(st.chains) == 1 else f"chain p{i + 1}"
    if card in st.discard:
        return "discard"
    if card in st.deck or card in st.deck_top:
        return "deck"
    return "removed" if card in st.removed else ""


def _table(v: Any, fail: Callable[..., RulesError], *path: Any) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise fail("expected a table", *path)
    return v


def _list(v: Any, fail: Callable[..., RulesError], *path: Any) -> list[Any]:
    if not isinstance(v, list):
        raise fail("expected a list", *path)
    return v
