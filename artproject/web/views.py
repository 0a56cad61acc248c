"""What the replay viewer and the watcher send a page of a game: the same frame the server
sends a seat (docs/server.md: the game's `view`, `table`, the seat's legal actions, the
events as it saw them), or, for a finished game, everything.

A seat's frame comes only from the kernel's hooks for that seat (built from its
observation and information state). Everything (a finished game's replay) is the public
view with each seat's own hand beside it, each card a seat saw face down shown as that
seat saw it, and every event as it happened.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Final

from ..core.actions import CHANCE
from ..core.hooks import NOBODY
from ..core.machine import Machine

ALL: Final = "all"  # the view of everything
SCREENS: Final = Path(__file__).parent / "static" / "js" / "games"  # each game's screen module
GENERIC: Final = "generic"  # the screen of a game without one of its own
NOT_SCREENS: Final = frozenset({"common", "index"})  # modules there that draw no game
PUBLIC: Final = "public"  # what every player sees (a spectator's view: no hand)


def seat_names(st: Machine) -> list[str]:
    """The seats' names as the notation writes them (p1, p2...)."""
    return [f"p{i + 1}" for i in range(st.num_players())]


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


def seat_frame(st: Machine, seat: int, before: Machine | None = None) -> dict[str, Any]:
    """What `seat` sees now (its view, its legal actions, its events), the events new since
    `before` (the step before) marked by `events_new`."""
    events, _ = st.seen_events(seat)
    since = len(before.seen_events(seat)[0]) if before is not None else 0
    return {"seat": f"p{seat + 1}", "view": st.view(seat),
            "legal": [st.action_view(a) for a in st.seat_actions(seat)],
            "events": events, "events_new": len(events) - since}


def _reveal(public: Any, own: Any) -> Any:
    """`public` with each face-down card ("?") that `own` (a seat's view) shows face up."""
    if isinstance(public, dict) and isinstance(own, dict):
        return {k: _reveal(v, own.get(k)) for k, v in public.items()}
    if isinstance(public, list) and isinstance(own, list) and len(public) == len(own):
        return [_reveal(a, b) for a, b in zip(public, own, strict=True)]
    if public == "?" and isinstance(own, str):
        return own
    return public


def everything_frame(st: Machine, before: Machine | None = None) -> dict[str, Any]:
    """Everything (a finished game's replay): the public view, every seat's hand, each
    face-down card face up, every event; the legal actions of every seat."""
    view = st.view(NOBODY)
    hands = {}
    for p, name in enumerate(seat_names(st)):
        own = st.view(p)
        view = _reveal(view, own)
        hands[name] = own.get("hand", [])
    view["seat"] = None
    view["hands_shown"] = hands
    events = st.events()
    since = len(before.events()) if before is not None else 0
    legal = [] if st.is_over() else [st.action_view(a) for a in st.legal_actions()
                                     if a.player != CHANCE]
    return {"seat": ALL, "view": view, "legal": legal, "events": events,
            "events_new": len(events) - since}


def public_frame(st: Machine, before: Machine | None = None) -> dict[str, Any]:
    """What every player sees (a spectator's view: no hand, no legal action), the events
    new since `before` marked by `events_new`."""
    events, _ = st.seen_events(NOBODY)
    since = len(before.seen_events(NOBODY)[0]) if before is not None else 0
    return {"seat": None, "view": st.view(NOBODY), "legal": [], "events": events,
            "events_new": len(events) - since}


def spectator_frame(st: Machine) -> dict[str, Any]:
    """What every player sees (the public view, no hand, no legal action): a board shown."""
    events, _ = st.seen_events(NOBODY)
    return {"seat": None, "view": st.view(NOBODY), "legal": [], "events": events,
            "events_new": 0}


def table(st: Machine) -> dict[str, Any]:
    """The game's fixed picture (the board, the cards): the `picture` hook, with the
    screen the page draws the game with (`screen`)."""
    return {**st.picture(), "screen": screen(st.game)}


@cache
def screen(game: str) -> str:
    """The screen module a game is drawn by (static/js/games/SCREEN.js): the game's own
    where it has one (named as the game), else the generic screen."""
    if game not in NOT_SCREENS and (SCREENS / f"{game}.js").is_file():
        return game
    return GENERIC
