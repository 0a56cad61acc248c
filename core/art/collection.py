"""Collection (after movement, and at once after a battle won, R12, R15): an artwork in a city
with a pawn and no agent goes onto the lowest free track space, in the order the team picks;
filling the last space wins (R19). A track may demand its artworks in order (R23).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .effects import emit, end_game
from .registry import CITY, REG, answer_arg, city_check
from .rules import Ctx

if TYPE_CHECKING:
    from .state import State

NO_CTX: Final = Ctx()


def op_collection(st: State) -> None:
    emit(st, "movement_end", NO_CTX)
    st.push(_collect_next)


def _collect_next(st: State) -> None:
    # R12: every city with a pawn, no agent and an artwork, in the order the team picks.
    arts, carrying, ready = st.artworks, any(st.carried), []
    for c in st.pawns:
        if (arts[c] or carrying) and c not in ready and can_collect(st, c):
            ready.append(c)
    if ready:
        ready.sort()
        st.push(_collect_next)
        st.pause(COLLECT, [st.city_name(c) for c in ready], _collect_choice)


def _collect_choice(st: State, name: str) -> None:
    collect(st, st.rules.city_index[name])


def artwork_at(st: State, c: int) -> bool:
    """An artwork lies in city c, or a pawn there carries one."""
    if st.artworks[c]:
        return True
    return any(k and st.pawns[i] == c for i, k in enumerate(st.carried))


def can_collect(st: State, c: int) -> bool:
    if st.agents[c] or st.lost[c] or not artwork_at(st, c):
        return False
    t = st.rules.track
    need = t[len(st.track)].symbol if len(st.track) < len(t) else None
    return need is None or need == st.rules.cities[c].symbol


def collect(st: State, city: int) -> None:
    """The artwork goes onto the lowest free track space; filling the last wins (R19).

    A carried artwork in the city is collected first, freeing its pawn.
    """
    carrier = next((i for i, k in enumerate(st.carried) if k and st.pawns[i] == city), -1)
    if carrier >= 0:
        st.carried[carrier] = 0
    else:
        st.artworks[city] = 0
    st.track.append(st.rules.cities[city].symbol or st.city_name(city))
    st.note("collected", st.city_name(city))
    if len(st.track) >= len(st.rules.track):
        end_game(st, True, "the last artwork reached the track (R19)")
        return
    emit(st, "artwork_collected", Ctx(-1, city))
    effect = st.rules.city_effects[city]
    if effect:  # the city's own effect (on_collect), before the hooks
        st.push_ops(effect, Ctx(-1, city))


V_COLLECT: Final = REG.verb("collect", CITY, apply=answer_arg, check=city_check,
                            help="which artwork is collected next (R12)")
COLLECT: Final = REG.choice("collect", V_COLLECT, "which artwork is collected next (R12)")
