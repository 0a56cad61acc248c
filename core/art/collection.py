"""Collection (after movement, and at once after a battle won, R12, R15): an artwork in a city
with a pawn and no agent goes onto the lowest free track space, in the order the team picks;
filling the last space wins (R19). A track may demand its artworks in order (a board's
printed rule).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .effects import emit, end_game
from .registry import CITY, REG, answer_arg, city_check
from .rules import Ctx

if TYPE_CHECKING:
    from .state import State

NO_CTX: Final = Ctx()


def queue_collection(st: State) -> None:
    """Collection, queued for when the team ends its movement: after the movement_end hooks,
    if the rules have some."""
    st.queue.append((op_collection, ()) if st.tab.hooks.get("movement_end") else _COLLECT)


def op_collection(st: State) -> None:
    emit(st, "movement_end", NO_CTX)
    st.queue.append(_COLLECT)


def _collect_next(st: State) -> None:
    # R12: every city with a pawn, no agent and an artwork, in the order the team picks.
    arts, carrying, ready = st.artworks, any(st.carried), []
    for c in st.pawns:
        if (arts[c] or carrying) and c not in ready and can_collect(st, c):
            ready.append(c)
    if ready:
        ready.sort()
        st.queue.append(_COLLECT)
        st.pause(COLLECT, [st.city_name(c) for c in ready], _collect_choice)


_COLLECT: Final = (_collect_next, ())
COLLECT_STEP: Final = _COLLECT  # collection's step, as the movement phase queues it


def _collect_choice(st: State, name: str) -> None:
    collect(st, st.rules.city_index[name])


def artwork_at(st: State, c: int) -> bool:
    """An artwork lies in city c, or a pawn there carries one."""
    if st.artworks[c]:
        return True
    carried = st.carried
    if not any(carried):
        return False
    pawns = st.pawns
    return any(k and pawns[i] == c for i, k in enumerate(carried))


def can_collect(st: State, c: int) -> bool:
    if st.agents[c] or st.lost[c] or not artwork_at(st, c):
        return False
    t = st.tab
    need = t.track_need[len(st.track)]  # a board may print the track's order
    return need is None or need == t.city_symbol[c]


def collect(st: State, city: int) -> None:
    """The artwork goes onto the lowest free track space; filling the last wins (R19).

    A carried artwork in the city is collected first, freeing its pawn.
    """
    carried, t = st.carried, st.tab
    carrier = next((i for i, k in enumerate(carried) if k and st.pawns[i] == city), -1) if any(
        carried) else -1
    if carrier >= 0:
        carried[carrier] = 0
    else:
        st.artworks[city] = 0
    st.track.append(t.track_mark[city])
    if st.logging:
        st.note("collected", t.names[city])
    if len(st.track) >= len(st.rules.track):
        end_game(st, True, "the last artwork reached the track (R19)")
        return
    ctx = t.city_ctx[city]
    if "artwork_collected" in t.hooks:
        emit(st, "artwork_collected", ctx)
    effect = st.rules.city_effects[city]
    if effect:  # the city's own effect (on_collect), before the hooks
        st.push_ops(effect, ctx)


V_COLLECT: Final = REG.verb("collect", CITY, apply=answer_arg, check=city_check,
                            help="which artwork is collected next (R12)")
COLLECT: Final = REG.choice("collect", V_COLLECT, "which artwork is collected next (R12)")
