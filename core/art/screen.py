"""The A.R.T. Project at a terminal (`artproject play`, through core/art/tools.py): the
screen of a decision (the board, the van, the track, health, the clue chain and the viewing
player's hand, only theirs; the others' as their clue backs) and the game's session, the
tools' own (artproject/play.py) with this screen, each card's face beside a play of the
viewer's, an undo refused once a card or a die was revealed, and the team's end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO

from ...play import Session, run_session
from ..actions import Action
from .state import State


def _card_text(st: State, card: int) -> str:
    c = st.rules.cards[card]
    t = c.text
    clues = ", ".join(st.rules.symbols[s] for s in c.clues)
    return (f"[{card}] cost {t['cost']} | agents {t['agents']} | gain {t['gain']} | "
            f"clues {clues}")


def screen(st: State, viewer: int) -> str:
    """Everything the players need for this decision, with only `viewer`'s hand face up."""
    title = f"== {st.rules.title}: round {st.round}, {st.phase}"
    out = [title + (" (final round)" if st.final_round else ""), _counters(st), _track(st)]
    out += _cities(st) + _chains(st) + _battle(st) + _hands(st, viewer)
    return "\n".join(out)


def _counters(st: State) -> str:
    van = ", ".join(f"{n} {k}" for k, n in zip(st.rules.resources, st.van, strict=True))
    health = ", ".join(f"p{i + 1} {h}" for i, h in enumerate(st.health))
    return f"van: {van}   health: {health}   headquarters: {st.hq}"


def _track(st: State) -> str:
    r = st.rules
    extra = r.p("rules.threat_by_players")[st.players - 1]  # the team's size adds it (R15)
    track = " ".join(
        (f"[{st.track[i]}]" if i < len(st.track) else f"[{sp.threat + extra}/{sp.ally_cost}"
         + (f" {sp.symbol}" if sp.symbol else "") + "]")
        for i, sp in enumerate(r.track))
    return (f"track (threat/ally cost): {track}   threat {st.threat()}, "
            f"allies {st.allies}, deck {st.deck_size()}")


def _cities(st: State) -> list[str]:
    out = []
    for c, city in enumerate(st.rules.cities):
        pawns = [("ally" if i == st.players else f"p{i + 1}") for i, p in enumerate(st.pawns)
                 if p == c]
        marks = (["LOST"] if st.lost[c] else []) + (["artwork"] if st.artwork_at(c) else [])
        out.append(f"  {city.name:<14} {city.symbol or '-':<11} agents {st.agents[c]}"
                   + (f"  pawns {' '.join(pawns)}" if pawns else "")
                   + (f"  [{', '.join(marks)}]" if marks else ""))
    return out


def _backs(st: State, cards: list[int]) -> str:
    """Cards as their clue backs show them (what every player sees)."""
    r = st.rules
    return "; ".join(", ".join(r.symbols[s] for s in r.cards[c].clues) for c in cards)


def _chains(st: State) -> list[str]:
    out = []
    for i, ch in enumerate(st.chains):
        who = "clue chain" if len(st.chains) == 1 else f"p{i + 1}'s clue chain"
        out.append(f"{who}: {_backs(st, ch) or '(empty)'}")
    return out


def _battle(st: State) -> list[str]:
    if (b := st.battle) is None:
        return []
    dice = ", ".join(f"{lab}={d}" for lab, d in zip(b.labels, b.dice, strict=True))
    return [f"battle in {st.rules.cities[b.city].name}: {dice or '(not rolled)'}; "
            f"strength {st.strength()} against {st.agent_strength(b.city)}"]


def _hands(st: State, viewer: int) -> list[str]:
    """The viewer's hand face up; the others' as their clue backs."""
    if not 0 <= viewer < st.players:
        return []
    out = [f"p{viewer + 1}'s hand:"]
    out += [f"  {_card_text(st, c)}" for c in st.hands[viewer]] or ["  (empty)"]
    out += [f"p{i + 1}'s hand (clue backs): {_backs(st, h)}"
            for i, h in enumerate(st.hands) if i != viewer and h]
    return out



class Table(Session):
    """A game of The A.R.T. Project at one screen (every player's hand shown to its owner:
    `view pN`)."""

    st: State

    def __init__(self, st: State, write: Callable[[str], None]) -> None:
        super().__init__(st, write)

    def screen(self, viewer: int) -> str:
        return screen(self.st, viewer)

    def note(self, action: Action) -> str:
        if action.verb == "play" and action.player == self.viewer:  # only the viewer's faces
            return "   " + _card_text(self.st, int(action.arg or 0)).split("] ", 1)[1]
        return ""

    def revealed(self, before: State) -> str:
        drew = before.rng != self.st.rng or before.deck_size() != self.st.deck_size()
        return "a card or a die" if drew else ""

    def ended(self) -> str:
        return (f"== the team {self.st.outcome}: {self.st.reason}"
                + (" (rulings: docs/rulings.md)" if "(R" in self.st.reason else ""))


def run(st: State, stdin: IO[str], stdout: IO[str]) -> int:
    """Play until the game ends, `quit`, or the end of the input (which saves and quits)."""
    return run_session(lambda write: Table(st, write), stdin, stdout)
