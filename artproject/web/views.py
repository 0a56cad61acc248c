"""What the web pages are sent of a game: a seat's view, everything (a finished game's
replay), the decisions as a view saw them, and the static picture of the rules (the board,
the cards).

A seat's view is built only from what the kernel lets that seat know: its `observation`
and its `information_state` (the actions and chance events as the seat saw them). The
picture comes from the rules alone.
"""

from __future__ import annotations

from typing import Any

from ..core.actions import CHANCE
from ..core.machine import Machine


def seat_names(st: Machine) -> list[str]:
    """The seats' names as the notation writes them (p1, p2...)."""
    return [f"p{i + 1}" for i in range(st.num_players())]


def seen_log(st: Machine, seat: int) -> list[str]:
    """Every action and chance event as `seat` saw them, in order (its information state)."""
    return [str(x) for x in st.information_state(seat)[3]]


def decision_labels(st: Machine, seat: int | None) -> list[str]:
    """Each decision taken, as `seat` saw it (another's secret: only what it tells), or as it
    was (None: everything)."""
    verbs = st.registry.verbs
    out = []
    for a in st.history:
        if a.player == CHANCE:
            continue
        seen = verbs[a.verb].seen
        out.append(str(a) if seat is None or seen is None or a.player == seat
                   else seen(a, seat))
    return out


def seat_view(st: Machine, seat: int, before: Machine | None = None) -> dict[str, Any]:
    """What `seat` sees now, with the events it saw since `before` (the step before)."""
    view = dict(st.observation(seat))
    log = seen_log(st, seat)
    since = len(seen_log(before, seat)) if before is not None else 0
    labels = decision_labels(st, seat)
    view.update(seat=f"p{seat + 1}", log=log, new=log[since:],
                led=labels[-1] if before is not None and labels else None)
    return view


def everything_view(st: Machine, before: Machine | None = None) -> dict[str, Any]:
    """Everything about the game (for a finished game's replay): every seat's hand, every
    event."""
    seats = range(st.num_players())
    view = dict(st.observation(0))
    seen = [st.observation(p) for p in seats]
    view["hands"] = {f"p{p + 1}": seen[p].get("hand", []) for p in seats}
    view.pop("hand", None)
    table = view.get("table")
    if isinstance(table, dict) and isinstance(table.get("cards"), dict):
        # each face-down card as its owner sees it: everything is shown
        table["cards"] = {s: seen[int(s[1:]) - 1]["table"]["cards"].get(s, c)
                          for s, c in table["cards"].items()}
    log = st.events()
    since = len(before.events()) if before is not None else 0
    view.update(seat="all", log=log, new=log[since:],
                legal=[str(a) for a in st.legal_actions()] if not st.is_over() else [])
    return view


def picture(st: Machine) -> dict[str, Any]:
    """The static picture of a game's rules (the board, the cards)."""
    from .pictures import picture_of

    return picture_of(st.game, st.rules)
