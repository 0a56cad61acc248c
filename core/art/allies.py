"""Ally dice (R17): at every phase boundary the team may unlock ally dice for the radio cost
printed over the first free track space; each missing radio is paid with a health token by
a player the team names (R5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import Action
from .effects import ask_team
from .registry import A_DONE, DONE, REG, act

if TYPE_CHECKING:
    from ..registry import Kind
    from .state import State


def op_boundary(st: State, label: str) -> None:
    """A phase boundary: the team may unlock ally dice (R17)."""
    st.phase = label
    if st.allies < st.tab.ally_dice:
        st.pause(BOUNDARY)


def _legal_boundary(st: State) -> list[Action]:
    # R17; R5: an unlock names no payer: the team names one for each missing radio (`hurt`)
    return _DONE_ONLY if st.allies >= st.tab.ally_dice else _UNLOCK


def _apply_unlock(st: State, a: Action) -> None:
    t = st.tab
    cost = t.ally_cost_at[len(st.track)]  # R17
    st.allies += 1
    if st.logging:
        st.log.append((st.round, "unlock", st.allies, cost))
    # R5: a team act: the van pays what it holds; each missing radio is paid with one
    # health by a player the team names (a `hurt` question each), different radios by
    # different players if the team likes (`pay` of the team's cost, written out: the van
    # pays at once, then the questions)
    van, r = st.van, t.res_index[t.ally_res]
    have = van[r]
    if have >= cost:
        van[r] = have - cost
        st.pause(BOUNDARY)
        return
    van[r] = 0
    st.queue.append(_AGAIN)  # the boundary again once the team has named who pays
    ask_team(st, t.ally_res, cost - have)


def _again(st: State, kind: Kind) -> None:
    """The same decision once more (a phase boundary after an unlock's payments)."""
    st.pause(kind)


UNLOCK: Final = REG.verb(
    "unlock", apply=_apply_unlock, golden=True,
    help="unlock an ally die for radio; `hurt pN` then names who pays each missing one (R5)")
_UNLOCK: Final = [act(UNLOCK), A_DONE]
_DONE_ONLY: Final = [A_DONE]
BOUNDARY: Final = REG.kind("boundary", _legal_boundary, (UNLOCK, DONE),
                           "between two phases, the team may unlock an ally die (unlock) "
                           "or go on (done) (R17)")
_AGAIN: Final = (_again, (BOUNDARY,))
