"""The numeric face of a game, for search and learning libraries: its actions as numbers
(spaces.py) and its states as tensors (tensors.py). `Machine` inherits these methods; none
runs during play, and each reads declarations worked out once per rules and player count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .actions import CHANCE, Action
from .checks import index
from .errors import GameError
from .spaces import ActionSpace, action_space, ids_of
from .tensors import Layout, layout

if TYPE_CHECKING:
    from .machine import Machine


class Numeric:
    """Numbers for actions, tensors for states (see the module's text)."""

    __slots__ = ()

    def action_space(self) -> ActionSpace:
        """The game's numbered actions (decisions and chance outcomes)."""
        st = cast("Machine", self)
        return action_space(st)

    def num_distinct_actions(self) -> int:
        """How many decisions the game numbers: ids are 0 to this - 1."""
        st = cast("Machine", self)
        return action_space(st).size

    def max_chance_outcomes(self) -> int:
        """How many chance outcomes the game numbers (apart from the decisions)."""
        st = cast("Machine", self)
        return action_space(st).chance.size

    def action_id(self, action: Action | str) -> int:
        """An action's number (a chance outcome's among the outcomes); GameError for an
        action the game does not number."""
        st = cast("Machine", self)
        if isinstance(action, str):
            action = st.registry.parse(action)
        space = action_space(st)
        part = space.chance if action.player == CHANCE else space.decisions
        i = part.id(action)
        if i is None:
            raise GameError(f"{action}: not an action of this game with these rules and "
                            f"{st.num_players()} player(s)")
        return i

    def action_from_id(self, i: int, chance: bool = False) -> Action:
        """The action numbered `i` (a whole number, numpy's integers too; a chance outcome's
        with chance=True); GameError when out of range or not a whole number."""
        st = cast("Machine", self)
        space = action_space(st)
        part = space.chance if chance else space.decisions
        what = "chance outcome" if chance else "action"
        i = index(i, f"{what} id")
        if not 0 <= i < part.size:
            raise GameError(f"{what} id {i}: out of range (0 to {part.size - 1})")
        return part.action(i)

    def legal_action_ids(self) -> list[int]:
        """The legal actions' numbers, sorted (at a chance node, the outcomes')."""
        st = cast("Machine", self)
        space = action_space(st)
        if st.is_chance_node():
            return ids_of(space.chance, st.legal_actions(), "chance outcomes")
        return ids_of(space.decisions, st.legal_actions(), "actions")

    def tensor_layout(self, kind: str = "observation") -> Layout:
        """The documented layout of the `observation` or `information_state` tensor."""
        st = cast("Machine", self)
        return layout(st, kind)

    def observation_tensor(self, player: int) -> list[float]:
        """What `player` sees (TEAM: the whole team), as numbers in `tensor_layout()`."""
        st = cast("Machine", self)
        return [*map(float, layout(st, "observation").tensor(st, player))]

    def information_state_tensor(self, player: int) -> list[float]:
        """What `player` knows, as numbers in `tensor_layout("information_state")`."""
        st = cast("Machine", self)
        return [*map(float, layout(st, "information_state").tensor(st, player))]
