"""The movement phase (rulebook phase B): pawns move one road at a time, each move paid when
made (R11); a pawn in a lost city must leave (R13); on some boards a pawn carries the
artwork of its city along (R23, R26).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import Action
from .collection import COLLECT_STEP, queue_collection
from .effects import end_game, pay
from .registry import A_DONE, ALLY_PAWN, CITY, DONE, PAWN, REG, city_check
from .rules import Ctx
from .tables import open_moves

if TYPE_CHECKING:
    from .state import State


def op_movement(st: State, ctx: Ctx) -> None:
    st.phase = "movement"
    st.moved = []
    # R13: a pawn in a lost city must leave this phase; with no way out the team loses.
    st.must_leave = [i for i, c in enumerate(st.pawns) if st.lost[c]] if any(st.lost) else []
    for i in st.must_leave:
        c = st.pawns[i]
        moves = st.tab.moves[i if i < st.players else ALLY_PAWN][c]
        if all(st.lost[m[0]] for m in moves):
            end_game(st, False, f"a pawn in lost {st.city_name(c)} cannot leave (R13)")
            return
    if "movement_end" in st.tab.hooks:
        queue_collection(st)
    else:
        st.queue.append(COLLECT_STEP)  # `queue_collection`'s usual case (written out: hot)
    st.wait = MOVE


def _legal_move(st: State) -> list[Action]:
    t, lost = st.tab, st.lost
    got = t.open_moves.get((st.solo, bytes(lost)))
    moves, carries = open_moves(t, st.solo, lost) if got is None else got
    pawns = st.pawns
    out: list[Action] = []
    if not t.carry:
        for i, c in enumerate(pawns):  # each pawn's, in order
            out += moves[i][c]
    else:
        arts, carried = st.artworks, st.carried
        for i, c in enumerate(pawns):
            out += moves[i][c]
            if arts[c] and not carried[i]:  # R23: one artwork a pawn
                out += carries[i][c]
    must = st.must_leave
    if not must or not any(lost[pawns[i]] for i in must):
        out.append(A_DONE)
    return out


def _apply_move(st: State, a: Action) -> None:
    """A move or a carry (the verb says which)."""
    who = a.player
    i = st.players if who == ALLY_PAWN else who
    src = st.pawns[i]
    dst, _, _, _, ctx = st.tab.move_to[who][src][a.arg]
    payer = ctx.player
    cost = st.rules.move_cost(st, ctx)
    if a[0] is V_CARRY:  # R23: the artwork goes along
        st.artworks[src], st.carried[i] = 0, 1
    st.pawns[i] = dst
    if i not in st.moved:
        st.moved.append(i)
    if st.logging:
        names = st.tab.names
        st.log.append((st.round, "move", "ally" if who == ALLY_PAWN else f"p{who + 1}",
                       names[src], names[dst]))
    mark = len(st.queue)
    van, index = st.van, st.tab.res_index
    for kind, n in cost:
        r = index.get(kind)
        if r is not None and van[r] >= n:  # the van pays it all (R4), as `pay` would
            van[r] -= n
            continue
        pay(st, payer, kind, n)
        if st.outcome is not None:
            return
    if len(st.queue) == mark and st.wait is None:  # the next move at once (`pause`'s first
        st.wait = MOVE                              # case, written out: hot)
    else:
        st.pause(MOVE, after=mark)


def _move_check(st: State, a: Action) -> str | None:
    bad = city_check(st, a)
    if bad is None and isinstance(a.arg, str) and st.lost[st.rules.city_index[a.arg]]:
        return f"{a}: {a.arg} is a lost city; no pawn may enter it (R11)"
    return bad


V_MOVE: Final = REG.verb("move", PAWN, CITY, apply=_apply_move, pays=True, golden=True,
                         check=_move_check, help="move a pawn one road (R11)")
V_CARRY: Final = REG.verb("carry", PAWN, CITY, apply=_apply_move, pays=True, golden=True,
                          check=_move_check,
                          help="move a pawn one road, taking the artwork of its city along (R23)")
MOVE: Final = REG.kind("move", _legal_move, (V_MOVE, V_CARRY, DONE),
                       "movement: one move at a time, in any order, then done (R11, R13)")
