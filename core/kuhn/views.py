"""What each player of Kuhn poker may see (K1, K3): their own card; the stakes, who folded,
whose turn it is; at a showdown, the cards shown. As plain JSON-able data: `seat_view` (the
kernel's `observation`), `view` (what a seat or a spectator is shown: the kernel's view
hook, built from the observation alone), `picture` (the rules in play) and `choices` (what a
lobby offers). The kernel's `information_state` adds the history: each action, and each
card dealt as that player saw it (betting.py's views); `screen` is the terminal's.

`resample` redraws what a set of players cannot see, for search.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..actions import CHANCE
from .betting import DEAL, SHOWN, P

if TYPE_CHECKING:
    from .state import Kuhn


def seat_view(st: Kuhn, player: int) -> dict[str, Any]:
    """What `player` may see now (another's card only once shown at the showdown, K3); a
    viewer who is no player (-1: a spectator) sees no card until then."""
    names = st.rules.cards
    mine = st.hands[player] if 0 <= player < st.players else -1
    return {
        "game": st.game, "players": st.players, "wait": str(st.wait or ""),
        "deciding": P[st.turn] if st.turn >= 0 else "",
        "card": names[mine] if mine >= 0 else "", "cards": _cards(st, player),
        "stakes": dict(zip(P, st.stakes, strict=False)), "pot": sum(st.stakes),
        "folded": [P[p] for p in range(st.players) if st.folded[p]],
        "bettor": P[st.bettor] if st.bettor >= 0 else "",
        "outcome": st.outcome, "reason": st.reason,
        "legal": [str(a) for a in st.legal_actions()
                  if a.player == player and a.player != CHANCE],
    }


def _cards(st: Kuhn, viewer: int) -> dict[str, str]:
    """Each seat's card as `viewer` sees it: its name (their own, or shown at a showdown),
    `?` face down, "" not dealt."""
    shown = st.winner >= 0 and sum(not f for f in st.folded) > 1
    out = {}
    for p, k in enumerate(st.hands):
        seen = p == viewer or (shown and not st.folded[p])
        out[P[p]] = "" if k < 0 else st.rules.cards[k] if seen else "?"
    return out


def everything_view(st: Kuhn) -> dict[str, Any]:
    """The whole hand, every card face up: for a replay after the end, never a seat."""
    view = seat_view(st, -1)
    view["cards"] = {P[p]: st.rules.cards[k] if k >= 0 else "" for p, k in enumerate(st.hands)}
    return view


def view(st: Kuhn, player: int) -> dict[str, Any]:
    """What `player` is shown now (any other viewer: a spectator, the public view), as
    plain JSON data for a server or a browser, built from their observation alone."""
    obs = seat_view(st, player)
    seats = P[: st.players]
    return {
        "game": st.game, "seat": P[player] if 0 <= player < st.players else None,
        "players": obs["players"], "wait": obs["wait"],
        "deciding": [obs["deciding"]] if obs["deciding"] else [],
        "card": obs["card"], "pot": obs["pot"], "bettor": obs["bettor"],
        "seats": [{"seat": s, "stake": obs["stakes"][s], "folded": s in obs["folded"],
                   "card": obs["cards"][s]} for s in seats],
        "legal": obs["legal"], "outcome": obs["outcome"], "reason": obs["reason"],
    }


def picture(st: Kuhn) -> dict[str, Any]:
    """The rules in play, the same for every viewer: the deck (lowest first), the ante and
    the bet, the seats."""
    rules = st.rules
    return {"game": st.game, "title": st.TITLE, "rules": rules.name,
            "variants": list(rules.variants), "players": st.players,
            "seats": list(P[: st.players]), "cards": list(rules.cards), "ante": rules.ante,
            "bet": rules.bet}


def choices() -> dict[str, Any]:
    """What a lobby may offer for a new hand: the players the shipped rules allow, the
    shipped variants."""
    from .rules import DEFAULT, load_rules, shipped

    rules = load_rules(DEFAULT)
    return {"players": [rules.min_players, rules.max_players], "variants": shipped("variants"),
            "options": {}}


def screen(st: Kuhn, viewer: int) -> str:
    """The table as `viewer` may see it, as lines of text (the terminal game's screen)."""
    v = seat_view(st, viewer)
    out = [f"== {st.rules.title}: pot {v['pot']}"
           + (f", {v['deciding']} to {v['wait']}" if v["deciding"] else "")]
    out.append("   ".join(f"{s}: {v['stakes'][s]} in"
                          + (", folded" if s in v["folded"] else "")
                          + (f", shows {c}" if c not in ("", "?") and P.index(s) != viewer
                             else "")
                          for s, c in v["cards"].items()))
    if v["card"]:
        out.append(f"{P[viewer]}'s card: {v['card']}")
    return "\n".join(out)


def resample(st: Kuhn, players: Sequence[int], seed: int) -> Kuhn:
    """A copy `players` cannot tell from `st`: every card they have not seen (the others'
    cards not shown at a showdown, and the deck) dealt anew from `seed`, the trail's deals
    to match, and the copy reseeded."""
    import random

    c = st.clone()
    seen = set(players) | {who for _, kind, who, _ in c.trail if kind is SHOWN}  # (K3)
    others = [p for p in range(st.players) if p not in seen and c.hands[p] >= 0]
    pool = sorted([*c.deck, *(c.hands[p] for p in others)])
    random.Random(seed).shuffle(pool)
    for p in others:
        c.hands[p] = pool.pop()
    c.deck = sorted(pool)
    c.stacked = []
    c.trail = [(at, kind, who, c.hands[who] if kind is DEAL else value)
               for at, kind, who, value in c.trail]
    c.legal_cache = None
    c.renew_chance()  # (at a chance node: what it may draw now)
    c.reseed(seed)
    return c
