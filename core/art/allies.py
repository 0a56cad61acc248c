"""Ally dice (R17): at every phase boundary the team may unlock ally dice for the radio cost
printed over the first free track space; each missing radio is paid with a health token by
a player the team names (R5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import Action
from ..registry import PLAYER
from .effects import pay
from .registry import A_DONE, DONE, REG, act

if TYPE_CHECKING:
    from .state import State


def op_boundary(st: State, label: str) -> None:
    """A phase boundary: the team may unlock ally dice (R17)."""
    st.phase = label
    if st.allies < st.tab.ally_dice:
        st.pause(BOUNDARY)


def _legal_boundary(st: State) -> list[Action]:
    t = st.tab
    if st.allies >= t.ally_dice:
        return [A_DONE]
    if st.van[t.ally_res_i] >= t.ally_cost_at[len(st.track)]:
        return _UNLOCK
    return _UNLOCK_BY[st.players]  # R5: the team names who pays each missing radio


def _apply_unlock(st: State, a: Action) -> None:
    cost = st.tab.ally_cost_at[len(st.track)]  # R17
    st.allies += 1
    if st.logging:
        st.log.append((st.round, "unlock", st.allies, cost))
    mark = len(st.queue)
    pay(st, a.player if a.player >= 0 else 0, st.tab.ally_res, cost)
    st.pause(BOUNDARY, after=mark)


UNLOCK: Final = REG.verb(
    "unlock", PLAYER.maybe(), apply=_apply_unlock, pays=True, golden=True,
    help="unlock an ally die for radio; `unlock pN` names who pays missing radio (R5, R17)")
_UNLOCK: Final = [act(UNLOCK), A_DONE]
_UNLOCK_BY: Final = [[*(act(UNLOCK, p) for p in range(n)), A_DONE] for n in range(7)]
BOUNDARY: Final = REG.kind("boundary", _legal_boundary, (UNLOCK, DONE),
                           "a phase boundary: unlock ally dice, then done (R17)")
