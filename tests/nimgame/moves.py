"""Nim's decisions: the coin (chance, N1) and the take (N2), the end (N3).

Notation: `take p1 2-3` (from heap 2, take 3); the coin, with explicit chance,
`chance first p2`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from artproject.core.actions import Action
from artproject.core.registry import PLAYER, Registry, named_player, word

from .rules import GAME, SEATS

if TYPE_CHECKING:
    from .state import Nim

REG: Final = Registry(GAME, seats=SEATS, owner=named_player)
P: Final = tuple(f"p{i}" for i in range(1, SEATS + 1))


def _move_names(st: Nim) -> Sequence[str]:
    return [f"{h + 1}-{n}" for h in range(len(st.rules.heaps))
            for n in range(1, st.rules.takes() + 1)]


def _seat_names(st: Nim) -> Sequence[str]:
    return P[: st.players]


MOVE: Final = word("move", _move_names)
SEAT: Final = word("seat", _seat_names)


def read_move(text: Any) -> tuple[int, int] | None:
    heap, _, n = str(text).partition("-")
    if not (heap.isdigit() and n.isdigit()):
        return None
    return int(heap) - 1, int(n)


# ====================================================================== the coin (N1)
def toss(st: Nim) -> None:
    if st.rules.coin:
        st.chance(COIN, _tossed, ())
    else:
        _tossed(st, "p1")


def _tossed(st: Nim, name: str) -> None:
    st.turn = P.index(name)
    st.record(COIN, st.turn, st.turn)
    st.note("first", name)
    st.pause(TAKE)


def _outcomes(st: Nim) -> list[tuple[Any, float]]:
    return [(P[p], 1.0 / st.players) for p in range(st.players)]


def _sample(st: Nim) -> str:
    return P[st.next() % st.players]


def _certain(st: Nim) -> bool:
    return False


def _view(st: Nim, who: int, v: Any, viewer: int) -> str:
    return f"{P[who]} moves first"


def _answer(st: Nim, a: Action) -> None:
    st.resolve(a.arg)


def _seat_check(st: Nim, a: Action) -> str | None:
    if a.arg not in P[: st.players]:
        return f"{a}: no seat {a.arg!r}"
    return None


V_FIRST: Final = REG.verb("first", SEAT, apply=_answer, check=_seat_check,
                          help="chance: who moves first")
COIN: Final = REG.chance_kind("coin", V_FIRST, "chance: the coin for the first move (N1)",
                              _outcomes, _sample, _certain, _view)


# ====================================================================== a move (N2)
def _take_legal(st: Nim) -> list[Action]:
    out = []
    for h, size in enumerate(st.heaps):
        for n in range(1, min(size, st.rules.takes()) + 1):
            out.append(REG.act(V_TAKE, st.turn, f"{h + 1}-{n}"))
    return out


def _take_check(st: Nim, a: Action) -> str | None:
    if a.player >= st.players:
        return f"{a}: there is no such player in a {st.players}-player game"
    got = read_move(a.arg)
    if got is None:
        return f"{a}: a move is HEAP-COUNT, such as 2-3"
    h, n = got
    if not 0 <= h < len(st.heaps):
        return f"{a}: there is no heap {h + 1}"
    if n > st.heaps[h]:
        return f"{a}: heap {h + 1} holds only {st.heaps[h]}"
    return None


def _take(st: Nim, a: Action) -> None:
    got = read_move(a.arg)
    assert got is not None
    h, n = got
    st.heaps[h] -= n
    st.note("take", P[a.player], h + 1, n)
    if not any(st.heaps):
        _end(st, a.player)
        return
    st.turn = (a.player + 1) % st.players
    st.pause(TAKE)


def _end(st: Nim, last: int) -> None:
    if st.rules.misere:
        winner = (last + 1) % st.players
        why = f"{P[last]} took the last counter and loses (N3, misere)"
    else:
        winner = last
        why = f"{P[last]} took the last counter and wins (N3)"
    st.winner, st.turn = winner, -1
    st.note("end", P[winner], why)
    st.outcome, st.reason = P[winner], why


V_TAKE: Final = REG.verb("take", PLAYER, MOVE, apply=_take, check=_take_check,
                         help="take: from heap H take N counters, HEAP-N (N2)")
TAKE: Final = REG.kind("take", _take_legal, (V_TAKE,), "a player takes counters (N2)")
