"""What a person is shown of an Art of War game (the kernel's `view` and `picture` hooks):
plain JSON data for a server or a browser (docs/server.md), and the terminal game's screen.

A seat's view is made from that player's `observation` (info.py, W19) and the fixed rules
alone: their own hand, everyone's tokens and hand sizes, the centre pile, the face-up
discard, the challenge on the table with each face-down card a `?` until it is revealed
(its owner sees it), and the bets and raises the seat may make now. The table is the card
file: what each card is, the same for everyone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..hooks import NOBODY
from .info import observation
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


def screen(st: War, viewer: int) -> str:
    """The table as `viewer` may see it, with their own hand (W19): the terminal game's
    screen."""
    obs = observation(st, viewer)
    now = (f"{obs['current']} to play" if st.outcome is None else "over")  # (as render's)
    out = [f"== {st.rules.title}: turn {obs['turn']}, {now}"
           + (f", {obs['deciding']} deciding {obs['wait']}" if obs["deciding"] else ""),
           _seats_line(st, obs),
           f"centre pile {obs['centre']} tokens, deck {obs['deck']} cards, "
           f"{obs['out']} tokens out of the game",
           "discard pile (face up): "
           + (", ".join(f"{n} {k}" for k, n in obs["discard"].items()) or "(empty)")]
    if obs["table"] is not None:
        out += _table_lines(obs["table"])
    if 0 <= viewer < st.players:
        out.append(f"{P[viewer]}'s hand: " + (", ".join(obs["hand"]) or "(empty)"))
    return "\n".join(out)


def _seats_line(st: War, obs: dict[str, Any]) -> str:
    """Each seat's tokens and hand size, or that it is dead."""
    return "   ".join(
        f"{s}: {obs['tokens'][s]} tokens, {obs['hand_sizes'][s]} cards"
        if s in obs["alive"] else f"{s}: dead" for s in P[: st.players])


def _table_lines(t: dict[str, Any]) -> list[str]:
    """The challenge on the table: who against whom, the bets, stakes, cards (a face-down
    one a `?`) and the Wise Men added."""
    who = f"{t['attacker']} against {t['defender']}" if t["defender"] else (
        f"{t['attacker']}'s {t['kind']} challenge")
    cards = ", ".join(f"{p} {c}" for p, c in t["cards"].items()) or "none yet"
    stakes = ", ".join(f"{p} {n}" for p, n in t["stakes"].items()) or "none"
    out = [f"on the table: {who}; bet {t['bet']}" + (f", raised {t['raise']}" if t["raise"]
                                                    else "")
           + f"; stakes {stakes}; cards {cards}"]
    if t["added"]:
        out.append("  Wise Men added: " + ", ".join(f"{p} {' '.join(ks)}"
                                                    for p, ks in t["added"].items()))
    return out
