"""The heuristic bot, `Heuristic`: its parts named as the round names them (planning.py,
movement.py, battle.py, payments.py), what it reads of the rules once (board.py) and of the
state once a decision (now.py). A decision goes to the part's `on_KIND` method for its kind
(each kind the game declares; a subclass may add or replace them), and a kind without one
takes the default choice: `done` when it is offered last, else the first action."""

from __future__ import annotations

from collections.abc import Callable

from ...actions import Action
from ..registry import REG
from ..state import State
from .battle import Battles
from .movement import Movement
from .payments import Payments
from .planning import Planning

_HANDLERS: dict[type, dict[str, Callable[..., Action | None]]] = {}


def _handlers(cls: type) -> dict[str, Callable[..., Action | None]]:
    """The bot's `on_KIND` method for each decision kind the game declares (its registry; a
    subclass may add or replace them), by the kind's name (a `Kind` hashes in Python); a
    kind without one takes the default choice."""
    h = _HANDLERS.get(cls)
    if h is None:
        h = _HANDLERS[cls] = {k.name: getattr(cls, f"on_{k.name}") for k in REG.kinds.values()
                              if hasattr(cls, f"on_{k.name}")}
    return h


class Heuristic(Planning, Movement, Battles, Payments):
    """A bot that plays sensibly: it watches cities near 5 agents, artworks it can reach,
    whether a battle is winnable, the fuel for the trip, and the golden rule's cost.

    What a decision reads from the rules is worked out once per rules (board.py), and what
    it reads from the state once per decision (now.py), not once per option."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._on = _handlers(type(self))

    def __call__(self, st: State) -> Action:
        legal = st.legal_actions()
        w = st.wait
        pick = self._on.get(w.name) if w is not None else None
        a = pick(self, st, legal) if pick is not None else None
        if a is not None:
            return a
        a = legal[-1]
        return a if a[0] == "done" else legal[0]
