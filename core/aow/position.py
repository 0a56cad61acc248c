"""Positions of Art of War: any part of a game's state as a TOML/JSON table (scenario files'
[position], saves from a set position), read and written back. Each entry is declared beside
its field in the state's table (state.py); the kernel makes the position's schema from it.

Anything not named keeps its value from the seeded set-up. The cards a position names
(hands, discard, deck_top) are read together: the hands named go back to the deck first,
then every card named is taken out of it, so the 59 cards stay 59. The tokens named (each
player's, the centre pile's) decide how many are out of the game: never fewer than none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .. import schema
from ..errors import Location, RulesError, closest
from ..fields import SKIP, read_position
from ..sources import path_text
from .registry import P

if TYPE_CHECKING:
    from .state import War

Locate = Callable[[tuple[Any, ...]], Location]


def _nowhere(path: tuple[Any, ...]) -> Location:
    return Location("<position>")


class Reader:
    """Reads a position's entries for one state: each mistake a RulesError naming its key."""

    def __init__(self, st: War, locate: Locate, prefix: tuple[Any, ...]) -> None:
        self.st, self.locate, self.prefix = st, locate, prefix

    def fail(self, msg: str, *path: Any) -> RulesError:
        full = (*self.prefix, *path)
        return RulesError(msg, self.locate(full), path_text(full))

    def player(self, key: Any, *path: Any) -> int:
        st = self.st
        if isinstance(key, str) and key in P[: st.players]:
            return P.index(key)
        raise self.fail(f"no player {key!r} in a {st.players}-player game", *path)

    def card(self, name: Any, *path: Any) -> int:
        index = self.st.rules.index
        if not isinstance(name, str) or name not in index:
            raise self.fail(f"unknown card {name!r}" + closest(str(name), index), *path)
        return int(index[name])

    def per_player(self, v: Any, key: str) -> Iterable[tuple[str, Any, Any]]:
        """`{ p2 = X }` or `[X1, X2]` (p1 first): (label, value, its path's last part)."""
        if isinstance(v, dict):
            return ((k, x, k) for k, x in v.items())
        if len(v) > self.st.players:
            raise self.fail(f"{len(v)} entries for a {self.st.players}-player game", key)
        return ((P[i], x, i) for i, x in enumerate(v))


def apply_position(st: War, pos: Mapping[str, Any], locate: Locate = _nowhere,
                   prefix: tuple[Any, ...] = ("position",)) -> None:
    """Set the parts of `st` that `pos` names; RulesError naming the bad entry."""
    rd = Reader(st, locate, prefix)
    st.legal_cache = None
    shaped, found = schema.structure(dict(pos), type(st).POSITION_SPEC)
    if shaped is None:
        path, msg = found[0]
        raise rd.fail(msg, *path)
    read_position(st, pos, st.ENTRIES, rd)
    _place_cards(rd, pos)
    _count_tokens(rd, pos)
    st.deck_cards = None  # the deck's cards one by one, worked out again at the next draw


def position_of(st: War) -> dict[str, Any]:
    return st.position()


# ====================================================================== entries
def read_turn(st: War, v: int, rd: Reader) -> None:
    st.turn = v


def write_turn(st: War) -> Any:
    return st.turn


def read_current(st: War, v: str, rd: Reader) -> None:
    st.current = rd.player(v, "current")


def write_current(st: War) -> Any:
    return P[st.current]


def read_dead(st: War, v: list[str], rd: Reader) -> None:
    for i, name in enumerate(v):
        p = rd.player(name, "dead", i)
        st.alive[p] = 0
        st.tokens[p] = 0
        for k in st.hands[p]:
            st.deck[k] += 1
        st.hands[p] = []
    st.seating = st.tab.seating(st.alive)
    if sum(st.alive) < 2:
        raise rd.fail("a game in play has at least two living players (W18)", "dead")
    if not st.alive[st.current]:
        raise rd.fail(f"{P[st.current]}, whose turn it is, is dead", "dead")


def write_dead(st: War) -> Any:
    dead = [P[p] for p in range(st.players) if not st.alive[p]]
    return dead or SKIP


def read_tokens(st: War, v: Any, rd: Reader) -> None:
    for label, n, at in rd.per_player(v, "tokens"):
        p = rd.player(label, "tokens", at)
        if not st.alive[p] and n:
            raise rd.fail(f"{label} is dead and holds nothing (W17)", "tokens", at)
        if st.alive[p] and not n:
            raise rd.fail(f"{label} is alive and so holds a token at least (W17)", "tokens", at)
        st.tokens[p] = n


def write_tokens(st: War) -> Any:
    return list(st.tokens)


def read_centre(st: War, v: int, rd: Reader) -> None:
    st.centre = v


def write_centre(st: War) -> Any:
    return st.centre


def write_hands(st: War) -> Any:
    names = st.rules.cards
    return [[names[k].name for k in h] for h in st.hands]


def write_discard(st: War) -> Any:
    names = st.rules.cards
    return [names[k].name for k, n in enumerate(st.discard) for _ in range(n)]


def write_deck_top(st: War) -> Any:
    names = st.rules.cards
    return [names[k].name for k in reversed(st.deck_top)] or SKIP


# ====================================================================== the cards, together
def _place_cards(rd: Reader, pos: Mapping[str, Any]) -> None:
    st = rd.st
    hands: dict[int, tuple[list[Any], Any]] = {}
    if "hands" in pos:
        for label, cards, at in rd.per_player(pos["hands"], "hands"):
            hands[rd.player(label, "hands", at)] = (cards, at)
    for p in hands:  # the hands named go back to the deck first
        for k in st.hands[p]:
            st.deck[k] += 1
        st.hands[p] = []
    for p, (cards, at) in hands.items():
        st.hands[p] = sorted(_take_all(rd, cards, "hands", at))
        _check_hand(rd, p, at)
    if "discard" in pos:
        for k in _take_all(rd, pos["discard"], "discard"):
            st.discard[k] += 1
    if "deck_top" in pos:
        top = _take_all(rd, pos["deck_top"], "deck_top")
        st.deck_top = list(reversed(top))  # drawn from the end: the first listed first


def _take_all(rd: Reader, names: list[Any], *path: Any) -> list[int]:
    st = rd.st
    out = []
    for i, name in enumerate(names):
        k = rd.card(name, *path, i)
        if st.deck[k] <= 0:
            raise rd.fail(f"more {name} cards named than the deck holds "
                          f"({st.rules.cards[k].count} in the game)", *path, i)
        st.deck[k] -= 1
        out.append(k)
    return out


def _check_hand(rd: Reader, p: int, at: Any) -> None:
    st = rd.st
    cards = st.rules.cards
    if not st.alive[p] and st.hands[p]:
        raise rd.fail(f"{P[p]} is dead and holds nothing (W17)", "hands", at)
    if st.alive[p] and not st.hands[p]:
        raise rd.fail(f"{P[p]} is alive and so holds a card at least (W17)", "hands", at)
    limit = st.rules.p("components.hand_limit")
    if len(st.hands[p]) > limit:
        raise rd.fail(f"{len(st.hands[p])} cards: a hand holds at most {limit} (W4)",
                      "hands", at)
    held = [cards[k].name for k in st.hands[p] if cards[k].on_draw]
    if held:
        raise rd.fail(f"{held[0]} is played at once when drawn, never held (W14, W15)",
                      "hands", at)


def _count_tokens(rd: Reader, pos: Mapping[str, Any]) -> None:
    st = rd.st
    total = st.rules.p("components.tokens")
    out = total - sum(st.tokens) - st.centre
    if out < 0:
        key = "tokens" if "tokens" in pos else "centre"
        raise rd.fail(f"{sum(st.tokens) + st.centre} tokens in play, more than the {total} "
                      "the game has (W1)", key)
    st.out = out
