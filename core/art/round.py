"""The round: its four phases with a boundary before each (R17), queued as steps, and the
next round after the end. A round entered mid-way (a scenario's `phase`) starts in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .allies import op_boundary
from .battle import op_battle
from .effects import emit
from .end import op_end
from .mission import op_mission
from .movement import op_movement
from .rules import Ctx
from .setup import op_deploy

if TYPE_CHECKING:
    from .state import State

NO_CTX: Final = Ctx()
PHASES: Final = ("mission", "movement", "battle", "end")
_PHASE_OPS: Final = {"mission": op_mission, "movement": op_movement, "battle": op_battle,
                     "end": op_end}


def _op_round_start(st: State, ctx: Ctx) -> None:
    if st.logging:
        st.note("round", st.round)
    emit(st, "round_start", NO_CTX)


def _op_next_round(st: State, ctx: Ctx) -> None:
    st.round += 1
    q = st.queue
    if q or st.logging or "round_start" in st.tab.hooks or any(st.deploy_left):
        schedule_round(st, "mission")  # the running machine takes it from here
    else:  # `schedule_round`'s usual case, with nothing queued (written out: hot)
        q.extend(_FULL_ROUND_ITEMS[False])


def _round_items(phase: str, deploy: bool, announce: bool) -> list[tuple[Any, tuple[Any, ...]]]:
    """The round's steps from `phase` on, in order, as queue items. The round's start is a
    step of its own only when it has something to do (an event logged, round_start hooks)
    or decisions may come before it (set-up's placements, its chance nodes): it is then in
    the queue they see, as it always was (a saved game's digest counts the steps queued)."""
    items: list[tuple[Any, tuple[Any, ...]]] = []
    if phase == "mission":
        if deploy:
            items.append((op_deploy, (NO_CTX,)))
        if announce or deploy:
            items.append((_op_round_start, (NO_CTX,)))
    for name in PHASES[PHASES.index(phase):]:
        if name != phase or phase == "mission":  # a round entered mid-way starts in it
            items.append((op_boundary, (f"before {name}",)))
        items.append((_PHASE_OPS[name], (NO_CTX,)))
    items.append((_op_next_round, (NO_CTX,)))
    return items


# as queued (the last item runs first), built once: without and with a step at its start
_FULL_ROUND_ITEMS: Final = (_round_items("mission", False, False)[::-1],
                            _round_items("mission", False, True)[::-1])


def schedule_round(st: State, phase: str = "mission") -> None:
    """Queue the round from `phase` on, under any work already queued (set-up's chance)."""
    # (set-up's chance, queued before the round, may stop for decisions: see `_round_items`)
    announce = st.logging or "round_start" in st.tab.hooks or bool(st.queue)
    if phase == "mission" and not any(st.deploy_left):
        st.queue[:0] = _FULL_ROUND_ITEMS[announce]  # the usual case
        return
    st.queue[:0] = _round_items(phase, any(st.deploy_left), announce)[::-1]


def start_round(st: State, phase: str = "mission") -> None:
    """Schedule the round from `phase` on and run to the first decision."""
    schedule_round(st, phase)
    st._run()
