"""The end of the round (rulebook phase D): the cards still in hand are discarded where the
rules keep them until then (solo mode), cities with too many agents fall (R18), the
mission's round-end hooks run, and the final round ends the game unless it was won (R20).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .effects import emit, emit_step, end_game
from .mission import discard_hands
from .rules import Ctx

if TYPE_CHECKING:
    from .state import State

NO_CTX: Final = Ctx()


def op_end(st: State, ctx: Ctx) -> None:
    st.phase = "end"
    t = st.tab
    if t.discard_late[st.solo]:  # the cards kept since the mission phase (Solo Mode)
        discard_hands(st)
    at = t.lost_city_at
    if max(st.agents) < at and "round_end" not in t.hooks:  # the usual round's end (R27)
        if st.final_round:  # R20
            _final_check(st)
        return
    falling = [c for c in range(len(st.agents)) if not st.lost[c] and st.agents[c] >= at
               ] if max(st.agents) >= at else []
    if not _fall(st, falling):
        return
    if not falling and not st.tab.hooks.get("round_end"):  # nothing comes between (R27)
        _final_check(st)
        return
    st.push(_round_checks)
    for c in reversed(falling):  # each fallen city's hooks, the first fallen first
        st.push(emit_step, "city_lost", Ctx(-1, c))


def _fall(st: State, falling: list[int]) -> bool:
    """R18: each city falls: its agents and artwork go, a lost-city marker goes on it; False
    when a marker was needed and none was left (the game is lost, R2)."""
    for c in falling:
        if st.reserve("marker") <= 0:
            end_game(st, False, "a lost-city marker was needed and none was left (R2)")
            return False
        st.agents[c] = 0
        st.artworks[c] = 0
        for i, p in enumerate(st.pawns):  # an artwork carried in the city goes back too
            if p == c:
                st.carried[i] = 0
        st.lost[c] = 1
        if st.logging:
            st.note("city_lost", st.city_name(c))
    return True


def _round_checks(st: State) -> None:
    # R27: lost cities (above), then the mission's round-end hooks, then the final-round
    # check (R20), so a round_end hook can still win or lose the last round. The queue is
    # a stack: the check goes on first, the hooks above it, and they run first.
    st.push(_final_check)
    emit(st, "round_end", NO_CTX)


def _final_check(st: State) -> None:
    if st.final_round:  # R20
        end_game(st, False, "the final round ended before the last artwork was recovered (R20)")
