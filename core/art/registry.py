"""The A.R.T. game's decision registry: the words of its notation and the verbs every phase
shares. Each rule module declares its own verbs and decision kinds here (`REG`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from ..actions import LABELS, Action
from ..errors import MalformedActionError
from ..registry import PLAYER, Registry, Slot, number, word

if TYPE_CHECKING:
    from .state import State

GAME: Final = "art-project"
REG: Final = Registry(GAME)

ALLY_PAWN: Final = -2  # the solo player's ally pawn (R24), written `ally`
LABELS[ALLY_PAWN] = "ally"
P: Final = ("p1", "p2", "p3", "p4", "p5", "p6")  # players as the notation and logs write them


def _read_pawn(w: str, text: str) -> int:
    if w.lower() == "ally":
        return ALLY_PAWN
    if len(w) == 2 and w[0].lower() == "p" and w[1] in "123456":
        return int(w[1]) - 1
    raise MalformedActionError(f"{text.strip()!r}: {w!r} is not a player; expected p1..p6 "
                               "or ally")


# Each word's values (every one a game may name, from its rules and player count) number
# the game's actions (core/spaces.py): they are read once per rules, never during play.
def _pawns(st: State) -> Sequence[int]:
    return (*range(st.players), ALLY_PAWN) if st.solo else tuple(range(st.players))


def _cities(st: State) -> Sequence[str]:
    return tuple(c.name for c in st.rules.cities)


def _kinds(st: State) -> Sequence[str]:
    return (*st.rules.resources, "health")


def _symbols(st: State) -> Sequence[str]:
    return tuple(st.rules.symbols)


def _dice(st: State) -> Sequence[str]:
    """Every battle die's label: each player's, each ally die's, the solo ally pawn's (R24)."""
    out = [P[p] for p in range(st.players)]
    out += [f"a{i + 1}" for i in range(st.tab.ally_dice)]
    return (*out, "ally") if st.solo else tuple(out)


def _cards(st: State) -> Sequence[int]:
    return tuple(sorted({*st.rules.cards, st.rules.final_card}))


def _faces(st: State) -> Sequence[int]:
    return tuple(range(1, st.tab.die_faces + 1))


PAWN: Final = Slot("pawn", _read_pawn, sets_player=True, values=_pawns)  # or the ally pawn
CITY: Final = word("city", _cities)
KIND: Final = word("kind", _kinds)  # a resource (or health)
SYMBOL: Final = word("symbol", _symbols)
DIE: Final = word("die", _dice)  # a battle die by its label: p1, a2, ally
CARD: Final = number("card", _cards)
FACE: Final = number("face", _faces)  # a die's result


act: Final = REG.act  # an interned action of this game: act(verb, player=TEAM, arg=None)


# `done` ends a step: nothing to apply, the machine goes on with the work queued after it
DONE: Final = REG.verb("done", help="end this phase step (movement, battles, a phase boundary)",
                       apply=None)
A_DONE: Final = act(DONE)


def city_check(st: State, a: Action) -> str | None:
    """An action naming a city that does not exist: say so, with the nearest name."""
    from ..errors import closest

    if isinstance(a.arg, str) and a.arg not in st.rules.city_index:
        return f"{a}: unknown city {a.arg!r}" + closest(a.arg, st.rules.city_index)
    return None


def no_such_player(st: State, a: Action) -> str | None:
    if a.player >= st.players or (a.player == ALLY_PAWN and not st.solo):
        return f"{a}: there is no such player in this game"
    return None


def answer_player(st: State, a: Action) -> None:
    """A choice answered with the player the action names."""
    st.resolve(a.player)


def answer_arg(st: State, a: Action) -> None:
    """A choice answered with the action's argument."""
    st.resolve(a.arg)


def _show_city(st: State, c: Any) -> Any:
    return st.city_name(c)


def answer_city(st: State, a: Action) -> None:
    """A choice of city, answered with the city's index."""
    st.resolve(st.rules.city_index[str(a.arg)])


SHOW_CITY: Final = _show_city
__all__ = [
    "ALLY_PAWN",
    "CARD",
    "CITY",
    "DIE",
    "DONE",
    "FACE",
    "GAME",
    "KIND",
    "PAWN",
    "PLAYER",
    "REG",
    "SYMBOL",
    "P",
    "act",
]
