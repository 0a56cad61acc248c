"""The A.R.T. game's invariants: caps and conservation (R1, R2), health (R7), lost cities
(R11, R18), the track (R19), the golden rule and who pays (R4, R5), and a mission's own
`[[property]]` entries. Each check is one small function; the kernel's framework
(core/invariants.py) runs them in order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import Action
from ..invariants import Violation, events_between
from .movement import V_CARRY, V_MOVE
from .rules import Ctx

if TYPE_CHECKING:
    from .state import State

_CTX: Final = Ctx()
_RESERVES: Final = (("health", "health"), ("agent", "agent"), ("artwork", "artwork"),
                    ("marker", "lost-city marker"), ("ally", "ally die"))


def _van(st: State) -> None:
    cap = st.rules.params["components.resource_tokens"]
    for i, kind in enumerate(st.rules.resources):
        if not 0 <= st.van[i] <= cap:  # R1: van + reserve = 6
            raise Violation(f"van holds {st.van[i]} {kind} (0 to {cap}, R1)",
                            f"van.{kind} <= {cap}")


def _reserves(st: State) -> None:
    for kind, what in _RESERVES:
        if st.reserve(kind) < 0:
            raise Violation(f"more {what} tokens in play than the game has (R2)",
                            f"reserve.{kind} >= 0")


def _health(st: State) -> None:
    if any(h < 0 for h in st.health) or (st.outcome != "lost" and any(h <= 0 for h in st.health)):
        raise Violation(f"a player's health is {min(st.health)} while the game goes on (R7)")


def _tokens(st: State) -> None:
    if any(a < 0 for a in st.agents) or st.hq < 0:
        raise Violation("a negative number of agents")
    if any(x not in (0, 1) for x in st.artworks) or any(k not in (0, 1) for k in st.carried):
        raise Violation("two artworks on one city or one pawn (R10, R23)")


def _lost_cities(st: State) -> None:
    for c, lost in enumerate(st.lost):
        if lost and (st.agents[c] or st.artworks[c]):
            name = st.rules.cities[c].name
            raise Violation(f"lost {name} holds agents or an artwork (R18)",
                            f"not lost({name}) or (agents({name}) == 0 and not artwork({name}))")


def _track(st: State) -> None:
    n = len(st.rules.track)
    if len(st.track) > n or (len(st.track) == n and st.outcome != "won"):
        raise Violation("the track is full but the game is not won (R19)")


def _cards(st: State) -> None:
    if any(h != sorted(h) for h in st.hands):
        raise Violation("a hand is out of card order (its plays would be listed out of order)")
    r = st.rules
    seen = [c for pile in (st.deck_top, st.deck, st.discard, st.removed, *st.hands, *st.chains)
            for c in pile] + ([r.final_card] if st.above >= 0 else [])
    if sorted(seen) != sorted([*r.deck, r.final_card]):
        raise Violation("a card is in two places or in none")


INVARIANTS: Final = (_van, _reserves, _health, _tokens, _lost_cities, _track, _cards)


def _dropped(before: State, after: State) -> list[int]:
    return [i for i, (a, b) in enumerate(zip(before.health, after.health, strict=True)) if b < a]


def _who_pays(before: State, action: Action, after: State) -> None:
    """R5: health is paid by the player who spends, never by another (a card's gains may
    ask another to pay, so a play is not such an action)."""
    verb = after.registry.verbs.get(action.verb)
    if verb is None or not verb.pays or action.player < 0 or after.outcome is not None:
        return
    others = [f"p{i + 1}" for i in _dropped(before, after) if i != action.player]
    if others:
        raise Violation(f"{action}: {', '.join(others)} paid health for another (R5)")


def _golden_rule(before: State, action: Action, after: State) -> None:
    """R4: health stands in for a resource only while the van holds none of it: the van as
    it was when the health was paid. The van after the step holds some only when the step
    may have filled it later (a won battle's artwork bonus, say): then the step is played
    again from `before`, the van read at each payment."""
    verb = after.registry.verbs.get(action.verb)
    if verb is None or not verb.golden or not _dropped(before, after):
        return
    r = after.rules
    for words in events_between(before, after):
        if len(words) >= 4 and words[1] == "health_for":
            kind = str(words[3])
            if kind in r.resources and after.van[r.resources.index(kind)] > 0:
                break
    else:
        return
    for kind, held in _vans_at_payments(before, action):
        if held[r.resources.index(kind)] > 0:
            raise Violation(f"{action}: health paid for {kind} while the van held some "
                            "(the golden rule, R4)", f"van.{kind} == 0")


class _Payments(list):  # type: ignore[type-arg]
    """An event log that keeps, at each health token paid for a resource, the resource
    and the van as it was then (`_vans_at_payments`)."""

    def __init__(self, st: State) -> None:
        super().__init__()
        self.st, self.vans = st, list[tuple[str, tuple[int, ...]]]()

    def append(self, event: tuple[object, ...]) -> None:
        if len(event) >= 4 and event[1] == "health_for":
            self.vans.append((str(event[3]), tuple(self.st.van)))
        super().append(event)


def _vans_at_payments(before: State, action: Action) -> list[tuple[str, tuple[int, ...]]]:
    """`action` taken again on a copy of `before`, recording: each resource health was paid
    for, with the van at that moment."""
    st = before.clone()
    st.logging, st.log = True, _Payments(st)
    st.apply(action)
    assert isinstance(st.log, _Payments)
    return [(kind, held) for kind, held in st.log.vans if kind in st.rules.resources]


def _no_lost_entry(before: State, action: Action, after: State) -> None:
    if action.verb in (V_MOVE, V_CARRY):
        i = after.pawn_index(action.player)
        if after.lost[after.pawns[i]]:
            raise Violation(f"{action}: a pawn entered a lost city (R11)")


def _track_and_threat(before: State, action: Action, after: State) -> None:
    if after.track[: len(before.track)] != before.track:
        raise Violation(f"{action}: the track changed an artwork already on it")
    if after.threat() < before.threat():
        raise Violation(f"{action}: the threat fell from {before.threat()} to {after.threat()}")


STEP_CHECKS: Final = (_who_pays, _golden_rule, _no_lost_entry, _track_and_threat)


def check_properties(st: State) -> None:
    for prop in st.rules.properties:
        if not prop.check(st, _CTX):
            at = f"{prop.where}: " if prop.where else ""
            raise Violation(f"{at}property {prop.name!r} does not hold: {prop.text}", prop.text)


PROPERTY_CHECKS: Final = (check_properties,)
