"""A challenge under way (`Fight`): who attacks, who takes part and in what order of play
(W3), each one's stake on the table and face-down card, the Wise Men added; and its kinds: a
turn's duel (W5-W10), a Massacre's collective challenge (W14), a Fortune Teller's blind one
(W15). fight.py runs a challenge up to the reveal and settle.py settles it; both read this.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

DUEL: Final = "duel"  # a turn's challenge of one player (W5-W10)
COLLECTIVE: Final = "collective"  # a Massacre's: the drawer against everyone (W14)
BLIND: Final = "blind"  # a Fortune Teller's: everyone on the deck's next card (W15)


class Fight:
    """A challenge under way (see the module's text); `copy()` for a clone of the state."""

    __slots__ = ("added", "attacker", "bet", "card", "defender", "eligible", "kind", "out",
                 "raised", "revealed", "seats", "stake", "wise")

    def __init__(self, kind: str, attacker: int, defender: int, players: int) -> None:
        self.kind, self.attacker, self.defender = kind, attacker, defender
        self.bet = self.raised = 0
        self.stake = [0] * players  # tokens on the table, by seat
        self.card = [-1] * players  # the face-down card's kind, by seat (-1: none)
        self.added: list[list[int]] = [[] for _ in range(players)]  # Wise Men added (W8)
        self.out = [0] * players  # 1: out of the comparison (a Thief, W11)
        self.seats: list[int] = []  # who took part, in order of play from the attacker
        self.revealed = False
        self.wise = [0, 0]  # the Wise Men rounds: whose turn (an index), passes in a row
        # who may add a Wise Man in the rounds, in order of play, as the last round found
        # them (None: worked out at the next round; settle.py's `_wise_round`): no fact of
        # the challenge's own, so not among its facts
        self.eligible: list[int] | None = None

    def copy(self) -> Fight:
        c = _new(Fight)
        c.kind, c.attacker, c.defender, c.bet, c.raised = (
            self.kind, self.attacker, self.defender, self.bet, self.raised)
        c.stake, c.card, c.out, c.seats, c.wise = (
            self.stake.copy(), self.card.copy(), self.out.copy(), self.seats.copy(),
            self.wise.copy())
        c.added = [x.copy() for x in self.added]
        c.revealed, c.eligible = self.revealed, self.eligible
        return c

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Fight) and self.facts() == other.facts()

    __hash__ = None  # type: ignore[assignment]

    def facts(self) -> list[Any]:
        """Every fact of the challenge as plain data (the fingerprint's)."""
        return [self.kind, self.attacker, self.defender, self.bet, self.raised, self.stake,
                self.card, self.added, self.out, self.seats, self.revealed, self.wise]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_fight, (self.facts(),))

    def table(self) -> int:
        return sum(self.stake)


_new: Final = object.__new__
# A new challenge's list of Wise Men added for each seat (W8): one empty list shared by them
# all and never changed (settle.py's `_apply_add` gives the seat a new list), so that a
# challenge of seven seats makes no seven lists that mostly stay empty.
NONE_ADDED: Final[list[int]] = []


def fight_maker(players: int) -> Callable[[str, int, int], Fight]:
    """A function of (kind, attacker, defender) making what `Fight(kind, attacker, defender,
    players)` makes, generated once per team size (tables.py keeps it): a challenge starts on
    the hot path, where a class's call of its `__init__` costs more than a function's, and
    list literals less than lists multiplied and a comprehension."""
    zeros, nones = repr([0] * players), repr([-1] * players)
    empties = "[" + ", ".join(["_none"] * players) + "]"  # (no Wise Man added: see `_none`)
    lines = ["def made(kind, attacker, defender):",
             "    f = _new(Fight)",
             "    f.kind, f.attacker, f.defender, f.bet, f.raised = kind, attacker, defender, 0, 0",
             f"    f.stake, f.card, f.added, f.out = {zeros}, {nones}, {empties}, {zeros}",
             "    f.seats, f.revealed, f.wise, f.eligible = [], False, [0, 0], None",
             "    return f"]
    env: dict[str, Any] = {"_new": _new, "Fight": Fight, "_none": NONE_ADDED}
    exec(compile("\n".join(lines), f"<fight of {players}>", "exec"), env)  # trusted: our text
    made: Callable[[str, int, int], Fight] = env["made"]
    return made


def _fight(facts: list[Any]) -> Fight:
    f = _new(Fight)
    (f.kind, f.attacker, f.defender, f.bet, f.raised, f.stake, f.card, f.added, f.out,
     f.seats, f.revealed, f.wise) = facts
    f.eligible = None
    return f


__all__ = ["BLIND", "COLLECTIVE", "DUEL", "Fight", "fight_maker"]
