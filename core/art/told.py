"""What happened, in words, as the whole table saw it: the terminal game's account of the
events since its last screen (core/art/screen.py). The events are the state's log (`note`,
kept when the game records them: battle.py, clues.py, effects.py...), each stamped with its
round. Every event told here is public (info.py): a card is named only once it is played
or leaves a clue chain (face up by then); a card drawn into a hand is never logged. An
event not listed is told to nobody (the game's end is told by the session's last line).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from .state import State


def _n(count: Any, what: str) -> str:
    return f"{count} {what}" + ("" if str(count) in ("1", "-1") else "s")


def _card(st: State, card: Any) -> str:
    """A card by its number and clue symbols (its back; the face is public once played)."""
    c = st.rules.cards.get(int(card))
    clues = ", ".join(st.rules.symbols[s] for s in c.clues) if c is not None else ""
    return f"[{card}]" + (f" ({clues})" if clues else "")


def _agents(st: State, where: str, n: Any) -> str:
    place = "headquarters" if where == "hq" else where
    return f"{_n(n, 'agent')} placed in {place}"


def _dice(verb: str) -> Callable[[State, str], str]:
    """The dice an event names (`p1=4 ally=2`), told as `verb` ("rolled", "rerolled")."""
    return lambda st, dice: f"dice {verb}: " + ", ".join(d.replace("=", " ")
                                                          for d in dice.split())


def _health(st: State, who: str, change: Any, why: str = "") -> str:
    if int(change) > 0:
        return f"{who} gained a health token"
    why = why.replace("paid health for ", "for missing ").replace("health for missing ",
                                                                   "for missing ")
    return f"{who} paid a health token" + (f" {why}" if why.startswith("for ") else "")


def _no_gain(st: State, kind: str, n: Any = 1) -> str:
    if kind == "health":
        return "no health token gained: none left in the reserve"
    return f"{_n(n, kind)} not gained: the van holds no more"


def _lost(st: State, what: str, *rest: Any) -> str:
    # (also the team's end, `note(outcome, reason)`: told by the session's last line)
    return f"the van lost 1 {what}" if what in st.rules.resources else ""


def _battle_won(st: State, city: str, strength: Any, agents: Any) -> str:
    return f"battle in {city} won: strength {strength} against the agents' {agents}"


_WORDS: Final[dict[str, Callable[..., str]]] = {
    "round": lambda st, n: f"round {n} begins",
    "play": lambda st, p, card: f"{p} played {_card(st, card)}",
    "agents": _agents,
    "unlock": lambda st, allies, cost: f"ally die {allies} unlocked for {cost} "
                                       f"{st.tab.ally_res}",
    "move": lambda st, who, a, b: f"{who} moved from {a} to {b}",
    "battle": lambda st, city, leader: f"battle in {city}, led by {leader}",
    "rolled": _dice("rolled"),
    "rerolled": _dice("rerolled"),
    "boost": lambda st, p: f"{p} boosted the battle",
    "reroll_card": lambda st, card: f"clue card {_card(st, card)} discarded for a reroll",
    "battle_won": _battle_won,
    "battle_lost": lambda st, city: f"battle in {city} lost: the team conceded",
    "triple": lambda st, sym: f"a triple of {sym} clues completed",
    "wasted": lambda st, sym: f"a triple of {sym} clues uncovered no artwork (none left "
                              "for it)",
    "uncovered": lambda st, city: f"artwork uncovered in {city}",
    "collected": lambda st, city: f"artwork collected in {city}",
    "health": _health,
    "no_gain": _no_gain,
    "clue_lost": lambda st, card: f"clue card {_card(st, card)} lost from the chain",
    "lost": _lost,
    "city_lost": lambda st, city: f"{city} is lost",
    "final_card": lambda st: "the final card was drawn: this round is the last",
    "trade": lambda st, giver, card, p: f"{giver} gave clue card {_card(st, card)} to {p}",
}


def told(st: State, events: Sequence[tuple[Any, ...]]) -> list[str]:
    """`events` (the log's, each stamped with its round) in words, as the table saw them."""
    out = []
    for event in events:
        words = _WORDS.get(str(event[1]))
        line = words(st, *event[2:]) if words is not None else ""
        if line:
            out.append(line)
    return out
