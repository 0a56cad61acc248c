"""What each player of Nim sees: everything (no hidden information)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artproject.core.actions import CHANCE

from .moves import P

if TYPE_CHECKING:
    from .state import Nim


def seat_view(st: Nim, player: int) -> dict[str, Any]:
    return {
        "game": st.game, "players": st.players, "wait": str(st.wait or ""),
        "deciding": P[st.turn] if st.turn >= 0 else "",
        "heaps": list(st.heaps), "outcome": st.outcome, "reason": st.reason,
        "legal": [str(a) for a in st.legal_actions()
                  if a.player == player and a.player != CHANCE],
    }


def view(st: Nim, player: int) -> dict[str, Any]:
    obs = seat_view(st, player)
    return {**obs, "seat": P[player] if 0 <= player < st.players else None,
            "deciding": [obs["deciding"]] if obs["deciding"] else []}


def picture(st: Nim) -> dict[str, Any]:
    r = st.rules
    return {"game": st.game, "title": st.TITLE, "rules": r.name, "variants": list(r.variants),
            "players": st.players, "seats": list(P[: st.players]), "heaps": list(r.heaps),
            "max_take": r.max_take, "misere": r.misere}


def choices() -> dict[str, Any]:
    from .rules import DEFAULT, load_rules, shipped

    rules = load_rules(DEFAULT)
    return {"players": [rules.min_players, rules.max_players], "variants": shipped("variants"),
            "options": {}}


def screen(st: Nim, viewer: int) -> str:
    v = seat_view(st, viewer)
    head = f"== {st.rules.title}" + (f": {v['deciding']} to move" if v["deciding"] else "")
    rows = [f"heap {i + 1}: " + "|" * h + f" ({h})" for i, h in enumerate(st.heaps)]
    return "\n".join([head, *rows])
