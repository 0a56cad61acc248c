"""The game's invariants, checked after every step by `artproject verify`, scenario files
(`invariants = true`) and the tests: caps and conservation (R1, R2), the golden rule (R4, R5),
lost cities (R11, R18), the track (R19), and a mission's own `[[property]]` entries.
"""

from __future__ import annotations

from typing import Any, Final

from .actions import Action
from .rules import Ctx
from .state import State

_CTX: Final = Ctx()
# Who may lose health when an action names its payer (R5).
_PAYS: Final = {"play", "draw", "move", "carry", "boost", "unlock", "hurt"}


class Violation(Exception):
    """An invariant or property that does not hold, with a DSL check that shows it if any."""

    def __init__(self, message: str, check: str | None = None) -> None:
        super().__init__(message)
        self.check = check


def check_invariants(st: State) -> None:
    """Raise Violation naming the first invariant `st` breaks (R1, R2, R17, R18...)."""
    r = st.rules
    p = r.params
    cap = p["components.resource_tokens"]
    for i, kind in enumerate(r.resources):
        if not 0 <= st.van[i] <= cap:  # R1: van + reserve = 6
            raise Violation(f"van holds {st.van[i]} {kind} (0 to {cap}, R1)",
                            f"van.{kind} <= {cap}")
    for kind, what in (("health", "health"), ("agent", "agent"), ("artwork", "artwork"),
                       ("marker", "lost-city marker"), ("ally", "ally die")):
        if st.reserve(kind) < 0:
            raise Violation(f"more {what} tokens in play than the game has (R2)",
                            f"reserve.{kind} >= 0")
    if any(h < 0 for h in st.health) or (st.outcome != "lost" and any(h <= 0 for h in st.health)):
        raise Violation(f"a player's health is {min(st.health)} while the game goes on (R7)")
    if any(a < 0 for a in st.agents) or st.hq < 0:
        raise Violation("a negative number of agents")
    if any(x not in (0, 1) for x in st.artworks) or any(k not in (0, 1) for k in st.carried):
        raise Violation("two artworks on one city or one pawn (R10, R23)")
    for c, lost in enumerate(st.lost):
        if lost and (st.agents[c] or st.artworks[c]):
            name = r.cities[c].name
            raise Violation(f"lost {name} holds agents or an artwork (R18)",
                            f"not lost({name}) or (agents({name}) == 0 and not artwork({name}))")
    if len(st.track) > len(r.track) or (len(st.track) == len(r.track) and st.outcome != "won"):
        raise Violation("the track is full but the game is not won (R19)")
    if any(h != sorted(h) for h in st.hands):
        raise Violation("a hand is out of card order (its plays would be listed out of order)")
    seen = [c for pile in (st.deck_top, st.deck, st.discard, st.removed, *st.hands, *st.chains)
            for c in pile] + ([r.final_card] if st.above >= 0 else [])
    if sorted(seen) != sorted([*r.deck, r.final_card]):
        raise Violation("a card is in two places or in none")
    if st.outcome is None and not st.legal_actions():
        raise Violation(f"no legal action while the team must decide {st.wait!r}")


def _events_between(before: State, after: State) -> list[tuple[Any, ...]]:
    """The events `after` has that `before` had not: `(round, event, args...)`."""
    if before.logging and after.logging:  # recorded: no need to write them out as text
        return after.log[len(before.log):]
    return [tuple(line.split()) for line in after.events()[len(before.events()):]]


def check_step(before: State, action: Action, after: State) -> None:
    """What one action may change: who pays (R5), the golden rule (R4), lost cities, the track."""
    r = after.rules
    dropped = [i for i, (a, b) in enumerate(zip(before.health, after.health, strict=True))
               if b < a]
    if action.verb in _PAYS and action.player >= 0 and after.outcome is None:
        others = [f"p{i + 1}" for i in dropped if i != action.player]
        if others and action.verb != "play":  # a card's gains may ask for `hurt` elsewhere
            raise Violation(f"{action}: {', '.join(others)} paid health for another (R5)")
    if action.verb in ("draw", "move", "carry", "boost", "unlock") and dropped:
        for words in _events_between(before, after):
            if len(words) >= 4 and words[1] == "health_for":
                kind = str(words[3])
                if kind in r.resources and after.van[r.resources.index(kind)] > 0:
                    raise Violation(f"{action}: health paid for {kind} while the van held some "
                                    "(the golden rule, R4)", f"van.{kind} == 0")
    if action.verb in ("move", "carry"):
        i = after.pawn_index(action.player)
        if after.lost[after.pawns[i]]:
            raise Violation(f"{action}: a pawn entered a lost city (R11)")
    if after.track[: len(before.track)] != before.track:
        raise Violation(f"{action}: the track changed an artwork already on it")
    if after.threat() < before.threat():
        raise Violation(f"{action}: the threat fell from {before.threat()} to {after.threat()}")


def check_properties(st: State) -> None:
    for prop in st.rules.properties:
        if not prop.check(st, _CTX):
            raise Violation(f"property {prop.name!r} does not hold: {prop.text}", prop.text)
