"""The A.R.T. Project at a terminal (`artproject play`, through core/art/tools.py): the
screen of a decision (the board, the van, the track, health, the clue chain and the viewing
player's hand, only theirs; the others' as their clue backs) and the game's session, the
tools' own (artproject/play.py) with this screen, each card's face beside a play of the
viewer's, an undo refused once a card or a die was revealed, and the team's end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, Any

from ...hotseat import Passed, run_hot_seat
from ..actions import Action
from .info import backs, legal_for
from .prompts import decision_text, health_note
from .state import State
from .told import told


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
    """Each clue chain, its owner's where chains are per player, each card by its number (a
    reroll names it: `reroll 66`) and its clues."""
    out = []
    for i, ch in enumerate(st.chains):
        who = "clue chain" if len(st.chains) == 1 else f"p{i + 1}'s clue chain"
        cards = "; ".join(f"[{c}] {_backs(st, [c])}" for c in ch)
        out.append(f"{who}: {cards or '(empty)'}")
    return out


def _battle(st: State) -> list[str]:
    if (b := st.battle) is None:
        return []
    dice = ", ".join(f"{lab}={d}" for lab, d in zip(b.labels, b.dice, strict=True))
    return [f"battle in {st.rules.cities[b.city].name}: {dice or '(not rolled)'}; "
            f"strength {st.strength()} against {st.agent_strength(b.city)}"]


def _hands(st: State, viewer: int) -> list[str]:
    """The viewer's hand face up; the others' (every hand's, with no viewer) as their clue
    backs."""
    out = []
    if 0 <= viewer < st.players:
        out = [f"p{viewer + 1}'s hand:"]
        out += [f"  {_card_text(st, c)}" for c in st.hands[viewer]] or ["  (empty)"]
    out += [f"p{i + 1}'s hand (clue backs): {'; '.join(map(', '.join, backs(st, h)))}"
            for i, h in enumerate(st.hands) if i != viewer and h]
    return out



class Table(Passed):
    """A game of The A.R.T. Project at one screen (artproject/hotseat.py `Passed`). A hand is
    shown only to its owner, after the screen is passed to them ("pass the screen to p2, then
    press Enter"; the rulebook's Plan the Mission: no card's face shown to another player):
    for a decision that is one player's own (every action's `owner`: their card to play),
    and on `view pN`. A decision no one player owns (the team's: planning, movement, a
    battle) shows no hand unless a player asked for theirs with `view pN`, and keeps it
    while that player takes the decisions. A solo game shows its one hand and never passes."""

    st: State
    tells = True  # each screen tells what happened since the last (told.py: public events)

    def __init__(self, st: State, write: Callable[[str], None], read: Callable[[], str],
                 tty: bool) -> None:
        super().__init__(st, write, read, tty)
        self.solo = st.players == 1
        self.viewer = 0 if self.solo else -1
        self.asked = False  # the hand on the screen was asked for (`view`), not passed to
        self.actor = -1  # the player the last decision named

    def screen(self, viewer: int) -> str:
        return screen(self.st, viewer)

    def prompt(self) -> str:
        """The decision and what it is about (its kind's words, the registry's), and at a
        question of who pays, what is missing and how much health it costs."""
        return decision_text(self.st)

    def legal(self) -> list[Action]:
        return legal_for(self.st, self.viewer)  # another's card to play is theirs to see

    def note(self, action: Action) -> str:
        face = ""
        if action.verb == "play" and action.player == self.viewer:  # only the viewer's faces
            face = "   " + _card_text(self.st, int(action.arg or 0)).split("] ", 1)[1]
        return face + health_note(self.st, action)  # what it costs in health (R4, R5)

    def revealed(self, before: State) -> str:
        drew = before.rng != self.st.rng or before.deck_size() != self.st.deck_size()
        return "a card or a die" if drew else ""

    def ended(self) -> str:
        self.news(-1)  # (the last decision's events, before how the game ended)
        return (f"== the team {self.st.outcome}: {self.st.reason}"
                + (" (rulings: docs/rulings.md)" if "(R" in self.st.reason else ""))

    def told(self, events: list[Any], viewer: int) -> list[str]:
        return told(self.st, events)

    def show(self) -> None:
        self.watch()
        if self.st.is_over() or self._seated():
            self.news(-1)
            self._draw()

    def _seated(self) -> bool:
        """The screen passed to the player whose own decision this is, or their hand taken
        off it for the team's (kept for the player who asked and decides again): False when
        the session ended at the wait."""
        if self.solo:
            return True
        who = _decider(self.st)
        if who >= 0:
            if who != self.viewer:
                self.asked = False
                return self.sit(who)
        elif not (self.asked and self.actor == self.viewer):
            self.hide()
        return True

    def _draw(self) -> None:
        super().show()
        if self.st.is_over():
            return
        hidden = sorted({a.player for a in self.st.legal_actions()
                         if getattr(a.verb, "private", False) and a.player != self.viewer})
        if hidden:
            names = ", ".join(f"p{p + 1}" for p in hidden)
            self.write(f"  (the cards {names} may play are listed on their own screen: view pN "
                       "passes the screen to pN)")

    def view(self, who: int) -> None:
        if who != self.viewer and not self.solo:
            if not self.sit(who):
                return
            self.asked = True
        self.viewer = who
        self._draw()

    def chosen(self, text: str) -> Action | str:
        action = super().chosen(text)  # (the player it names decides: `_seated` keeps a hand
        self.actor = action.player if isinstance(action, Action) else -1  # asked for them)
        return action

    def _act(self, text: str) -> None:
        self.watch()
        super()._act(text)

    def _command(self, cmd: str, words: list[str], text: str) -> None:
        super()._command(cmd, words, text)
        if cmd == "load" and not self.solo:  # (a loaded game: nobody sits at it yet)
            self.viewer, self.asked = -1, False


def _decider(st: State) -> int:
    """The player whose own decision this is (every legal action's `owner` names them: a
    card of theirs to play), or -1 for a decision of the team's."""
    who: set[int | None] = set()
    for a in st.legal_actions():
        own = getattr(a.verb, "owner", None)
        who.add(None if own is None else own(st, a))
        if None in who or len(who) > 1:
            return -1
    return int(who.pop() or 0) if who else -1


def run(st: State, stdin: IO[str], stdout: IO[str]) -> int:
    """Play until the game ends, `quit`, or the end of the input (which saves and quits)."""
    return run_hot_seat(Table, st, stdin, stdout)
