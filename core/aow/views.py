"""What a person is shown of an Art of War game (the kernel's `view` and `picture` hooks):
plain JSON data for a server or a browser (docs/server.md), and the terminal game's screen.

A seat's view is made from that player's `observation` (info.py, W19) and the fixed rules
alone: their own hand, everyone's tokens and hand sizes, the centre pile, the face-up
discard, the challenge on the table with each face-down card a `?` until it is revealed
(its owner sees it), and the bets and raises the seat may make now. The table is the card
file: what each card is, the same for everyone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
            "power": k.text.get("rank", ""), "sections": dict(k.text), "says": k.says}


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
                       "power": k.text.get("rank", ""), "sections": dict(k.text),
                       "says": k.says}
                      for k in rules.cards]}


def screen(st: War, viewer: int) -> str:
    """The table as `viewer` may see it, with their own hand (W19): the terminal game's
    screen."""
    obs = observation(st, viewer)
    now = (f"{obs['current']} to play" if st.outcome is None else "over")  # (as render's)
    out = [f"== {st.rules.title}: turn {obs['turn']}, {now}"
           + (f", {obs['deciding']} deciding {obs['wait']}" if obs["deciding"] else ""),
           _seats_line(st, obs),
           f"centre pile {_tokens(obs['centre'])}, deck {_cards(obs['deck'])}, "
           f"{_tokens(obs['out'])} out of the game",
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
        f"{s}: {_tokens(obs['tokens'][s])}, {_cards(obs['hand_sizes'][s])}"
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


# ====================================================================== what happened
# The engine's events (state.py `note`, recorded when the game logs) in plain words, as a
# seat may see them (W19): a card drawn or laid face down is named to its owner alone; an
# event not listed here is told to nobody (it might carry what is hidden). Each entry: the
# words, `{0}`... the event's values, and which of them are counts of tokens.
_SAID: dict[str, tuple[str, tuple[int, ...]]] = {
    "turn": ("turn {0}: {1} to play", ()),
    "token": ("{0} took a token from the centre pile", ()),
    "challenge": ("{0} challenged {1}", ()),
    "bet": ("{0} bet {1}", (1,)),
    "refuse": ("{0} refused and paid {1}; the attacker took back the bet (W6)", (1,)),
    "accept": ("{0} accepted", ()),
    "raise": ("{0} raised by {1}", (1,)),
    "match": ("{0} matched the raise", ()),
    "fold": ("{0} folded: the defender takes the bet (W7)", ()),
    "fated": ("{0} drew it with no card in hand: {0} dies (W13)", ()),
    "collective": ("{0} challenges every player holding a card and a token (W14)", ()),
    "blind": ("every player holding a card and a token bets and draws a card (W15)", ()),
    "played_at_once": ("{0} drew a {1}: played at once", ()),
    "reveal": ("{0} revealed {1}", ()),
    "take_back": ("{0} took back {1} of their stake", (1,)),
    "steal": ("{0} took {1} from {2}'s stake (W11)", (1,)),
    "withdraw": ("{0}'s card left the comparison (W11)", ()),
    "add": ("{0} added a {1} from hand (W8)", ()),
    "wins": ("{0} won the challenge and took {1} from the table", (1,)),
    "even": ("even scores: {1} received {2} of {0}'s stake; each took back the rest (W10)",
             (2,)),
    "no_winner": ("no card could win: everyone took back their stake (W9)", ()),
    "discard": ("{0} discarded {1} (face up)", ()),
}
# In a collective challenge (a Massacre, W14; the Fortune Teller's, W15), a refusal pays half
# the bet to the attacker, whose own bet stays in the challenge: the words of the challenge
# under way, by the event that opens it.
_SAID_COLLECTIVE: dict[str, tuple[str, tuple[int, ...]]] = {
    **_SAID, "refuse": ("{0} refused and paid {1} to the attacker (W14)", (1,))}
_SAID_BY_KIND: dict[str, dict[str, tuple[str, tuple[int, ...]]]] = {
    "challenge": _SAID, "collective": _SAID_COLLECTIVE, "blind": _SAID_COLLECTIVE}
# a card only its owner (the event's first value) may see: the words for them, for others
_PRIVATE: dict[str, tuple[str, str]] = {
    "draw": ("you drew {1}", "{0} drew a card"),
    "face_down": ("you laid {1} face down", "{0} laid a card face down"),
    "blind_draw": ("you drew {1} face down", "{0} drew a card face down"),
}


def _tokens(n: Any) -> str:
    return f"{n} token" + ("" if str(n) == "1" else "s")


def _cards(n: Any) -> str:
    return f"{n} card" + ("" if str(n) == "1" else "s")


def told(st: War, events: Sequence[tuple[Any, ...]], viewer: int,
         before: Sequence[tuple[Any, ...]] = ()) -> list[str]:
    """`events` (the log's, each stamped with its turn) in plain words as `viewer` may see
    them (-1: anyone), W19; the collateral damage named with the winning card (found in
    `events` or the events `before` them)."""
    out: list[str] = []
    shown: dict[str, str] = {}  # each seat's card revealed last, and the last winner
    winner, words, engaged = "", _SAID, _Engaged(st)
    for i, event in enumerate([*before, *events]):
        verb, args = str(event[1]), [str(x) for x in event[2:]]
        if verb == "reveal":
            shown[args[0]] = args[1]
        elif verb == "wins":
            winner = args[0]
        words = _SAID_BY_KIND.get(verb, words)  # (a duel's words, or a collective one's)
        line = _said(st, verb, args, viewer, f"{winner}'s {shown.get(winner, 'card')}", words)
        line += engaged.see(verb, args) if line else ""
        if line and i >= len(before):
            out.append(line)
    return out


class _Engaged:
    """The cards laid face down in the duel under way, named once they are discarded face
    up and so public (W19): the attacker's on a refusal (W6; not under the house rule that
    returns it to hand unrevealed), both on a fold (W7)."""

    def __init__(self, st: War) -> None:
        self.to_hand = bool(st.tab.refused_to_hand)
        self.attacker, self.duel = "", False
        self.laid: dict[str, str] = {}

    def see(self, verb: str, args: list[str]) -> str:
        """What `verb` makes public of the cards engaged, in words to follow its own."""
        if verb in _SAID_BY_KIND:  # a challenge opens: nothing laid yet
            self.attacker, self.duel, self.laid = args[0] if args else "", verb == "challenge", {}
        elif verb in ("face_down", "blind_draw"):
            self.laid[args[0]] = args[1]
        elif verb == "refuse" and self.duel and not self.to_hand and self.attacker in self.laid:
            return f"; {self.attacker}'s {self.laid[self.attacker]} was discarded face up"
        elif verb == "fold" and self.duel and self.laid:
            both = " and ".join(f"{p}'s {k}" for p, k in self.laid.items())
            return f"; {both} were discarded face up"
        return ""


def _said(st: War, verb: str, args: list[str], viewer: int, winning: str,
          said: Mapping[str, tuple[str, tuple[int, ...]]] = _SAID) -> str:
    """One event in words ("" for one the viewer is not told of); `said`: the words of the
    challenge under way (a duel's, or a Massacre's: `_SAID_BY_KIND`)."""
    if verb in _PRIVATE:
        own, others = _PRIVATE[verb]
        return (own if 0 <= viewer < st.players and args[0] == P[viewer] else others
                ).format(*args)
    if verb == "compare":
        return "compared: " + ", ".join(a.replace("=", " ") for a in args)
    if verb == "collateral":
        return (f"{args[0]} lost {_tokens(args[1].partition('_')[0])} to the centre pile: "
                f"collateral damage of {winning} (W9)")
    if verb == "split":
        return (f"tie: {', '.join(args[:-1])} split the pot, {_tokens(args[-1])} each; "
                "the tied cards are lost (W14)")
    if verb == "dies":
        by = f"killed by {' and '.join(args[2:])}" if args[2:] else "no killer"
        return f"{args[0]} died: no {args[1]} left ({by}, W17)"
    if verb not in said:
        return ""
    words, counts = said[verb]
    return words.format(*(_tokens(a) if i in counts else a for i, a in enumerate(args)))


def discard_reason(st: War, viewer: int) -> str:
    """Why `viewer` is asked to discard now ("" when they are not): a hand over the limit
    (W4, W17) or the collateral damage of the card that won (W9), named from the log."""
    if st.wait_name() != "discard" or st.ask != viewer or viewer < 0:
        return ""
    held, limit = len(st.hands[viewer]), st.tab.hand_limit
    if held > limit:
        return (f"you hold {held} cards, more than the hand limit of {limit}: discard one at "
                "a time down to it (W4, W17)")
    winner, card_ = "", ""
    for event in reversed(st.log):
        if event[1] == "wins" and not winner:
            winner = str(event[2])
        elif event[1] == "reveal" and winner and str(event[2]) == winner:
            card_ = str(event[3])
            break
    if not card_:
        return "discard a card of your choice: collateral damage of the winning card (W9)"
    return (f"discard a card of your choice: collateral damage of {winner}'s {card_} "
            f"({_brief(st, card_)}, W9)")


def _brief(st: War, name: str) -> str:
    """A card's collateral damage in brief: what each other player loses."""
    text = st.rules.cards[st.rules.index[name]].text.get("collateral", "")
    head, sep, rest = text.partition(" do ")
    return (f"{head.removeprefix('for ')}: {rest}" if sep else text) or "no collateral damage"


_SECTIONS: dict[str, str] = {"rank": "rank (compared before the scores, W12)",
                              "on_draw": "when drawn", "on_reveal": "when revealed"}


def _texts(st: War, k: Any) -> list[str]:
    """What a card does, as its DSL texts say it (a card whose file gives no `says`)."""
    what = [f"collateral damage, {_brief(st, k.name)}"] if k.collateral else []
    return what + [f"{_SECTIONS.get(key, key)}: {text}" for key, text in k.text.items()
                   if key != "collateral" and (key != "rank" or text != "1")]


def cards_lines(st: War) -> list[str]:
    """Every kind of card in brief: its name, how many, its score and what it does (its
    collateral damage when it wins, its rank when not the usual, its powers): the rules'
    cards (W2: the project's reconstruction of what the seed leaves out)."""
    out = [f"cards ({st.rules.title}; scores and collateral damage are the project's "
           "reconstruction, W2): name, count, score, what it does"]
    for k in st.rules.cards:
        what = [k.says] if k.says else _texts(st, k)
        if k.bonus:
            what.append(f"added from hand after the reveal, +{k.bonus} (W8)")
        if k.draws > 1:
            what.append(f"its winner draws {k.draws} (W9)")
        out.append(f"  {k.name:<15} x{k.count:<2} score {k.score:>2}  "
                   + ("; ".join(what) or "no collateral damage"))
    return out
