"""Art of War's decision registry: the words of its notation, shared by its rule modules
(each declares its own verbs and decision kinds here, `REG`). Seven seats at most (W1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ..actions import Action, read_player
from ..errors import closest
from ..registry import PLAYER, Registry, Slot, named_player, number, word

if TYPE_CHECKING:
    from .state import War

GAME: Final = "art-of-war"
SEATS: Final = 7  # W1: 2-7 players
# every decision is the named player's own (W4-W9): with a seat per player, theirs to take
REG: Final = Registry(GAME, seats=SEATS, owner=named_player)
P: Final = tuple(f"p{i}" for i in range(1, SEATS + 1))  # seats as the notation writes them
SEAT_OF: Final = {name: p for p, name in enumerate(P)}  # and back: "p2" -> 1


def _read_target(w: str, text: str) -> str:
    """The player challenged, `p3`, of the most seats a game may have (W1); a game's own
    players are checked by core/actions.py `players_named` (the terminal, the server and
    scenarios)."""
    return P[read_player(w, text, SEATS)]


# Each word's values (every one a game may name, from its rules and player count) number
# the game's actions (core/spaces.py): read once per rules, never during play.
def _card_names(st: War) -> Sequence[str]:
    return tuple(c.name for c in st.rules.cards)


def _token_counts(st: War) -> Sequence[int]:
    return range(1, int(st.rules.p("components.tokens")) + 1)  # a bet is 1 to all held (W5)


def _targets(st: War) -> Sequence[str]:
    return P[: st.players]


CARD: Final = word("card", _card_names)  # a card by its name: king, wise_man
TOKENS: Final = number("tokens", _token_counts)  # a bet or a raise, in tokens
# the player challenged (the action's argument)
TARGET: Final = Slot("target", _read_target, values=_targets)

act: Final = REG.act  # an interned action of this game: act(verb, player, arg)


def card_check(st: War, a: Action) -> str | None:
    """An action naming a card the game does not have, or a seat it does not have."""
    if a.player >= st.players:
        return f"{a}: there is no such player in a {st.players}-player game"
    if isinstance(a.arg, str) and not a.arg.startswith("p") and a.arg not in st.rules.index:
        return f"{a}: unknown card {a.arg!r}" + closest(a.arg, st.rules.index)
    return None


def seat(p: int) -> str:
    return P[p]


def answer_arg(st: War, a: Action) -> None:
    """A choice answered with its argument (a chance outcome: a card's name)."""
    st.resolve(a.arg)


def dead_check(st: War, a: Action) -> str | None:
    """An action by a player who is no longer in the game (W17)."""
    if 0 <= a.player < st.players and not st.alive[a.player]:
        return f"{a}: {P[a.player]} is dead and takes no more part in the game (W17)"
    return card_check(st, a)


__all__ = ["CARD", "GAME", "PLAYER", "REG", "SEATS", "SEAT_OF", "TARGET", "TOKENS", "P", "act",
           "seat"]


