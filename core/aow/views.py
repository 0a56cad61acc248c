"""What a person is shown of an Art of War game (the kernel's `view` and `picture` hooks):
plain JSON data for a server or a browser (docs/server.md).

A seat's view is made from that player's `observation` (info.py, W19) and the fixed rules
alone: their own hand, everyone's tokens and hand sizes, the centre pile, the face-up
discard, the challenge on the table with each face-down card a `?` until it is revealed
(its owner sees it), and the bets and raises the seat may make now. The table is the card
file: what each card is, the same for everyone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..hooks import NOBODY
from .registry import P

if TYPE_CHECKING:
    from .state import War


def card(st: War, name: str) -> dict[str, Any]:
    """A card by its name: its title, score (its strength in a total), power (its rank as
    written, compared before the totals, W12) and its sections."""
    k = st.rules.cards[st.rules.index[name]]
    return {"name": k.name, "title": k.title, "score": k.score,
            "power": k.text.get("rank", ""), "sections": dict(k.text)}


def choices() -> dict[str, Any]:
    """A lobby's choices: 2-7 players (W1) and the shipped variants."""
    from .loader import shipped_variants

    return {"players": [2, 7], "variants": shipped_variants(), "options": {}}


def view(st: War, player: int) -> dict[str, Any]:
    """What `player` sees now (NOBODY: a spectator, the public view), from their observation."""
    obs = st.observation(player if player >= 0 else NOBODY)
    seats = P[: st.players]
    amounts: dict[str, list[int]] = {"bet": [], "raise": []}
    for a in st.seat_actions(player):
        if a.verb in amounts and isinstance(a.arg, int):
            amounts[str(a.verb)].append(a.arg)
    over = obs["outcome"] is not None
    return {
        "game": st.game, "seat": P[player] if 0 <= player < st.players else None,
        "players": obs["players"], "turn": obs["turn"], "current": obs["current"],
        "wait": obs["wait"], "deciding": [P[p] for p in st.deciding_seats()],
        "seats": [{"seat": s, "alive": s in obs["alive"], "tokens": obs["tokens"][s],
                   "hand_size": obs["hand_sizes"][s]} for s in seats],
        "hand": [card(st, name) for name in obs["hand"]],
        "centre": obs["centre"], "out": obs["out"], "deck": obs["deck"],
        "discard": obs["discard"], "table": obs["table"], "amounts": amounts,
        "deaths": obs["deaths"], "standing": st.standing() if over else None,
        "outcome": obs["outcome"], "reason": obs["reason"],
    }


def picture(st: War) -> dict[str, Any]:
    """The rules in play, the seats and every kind of card (how many of each, its score,
    power and text): the deck's make-up, which every player knows."""
    rules = st.rules
    return {"game": st.game, "title": st.TITLE, "rules": rules.name,
            "variants": list(rules.variants), "players": st.players,
            "seats": list(P[: st.players]),
            "cards": [{"name": k.name, "title": k.title, "count": k.count, "score": k.score,
                       "power": k.text.get("rank", ""), "sections": dict(k.text)}
                      for k in rules.cards]}
