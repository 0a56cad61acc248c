"""Kuhn poker's decisions, declared once in its registry: the deal (chance, K1), the round
of betting (K2) and the showdown (K3). Every decision is the named player's own.

Notation: `check p1`, `bet p1`, `call p2`, `fold p2`; a card dealt, with explicit chance,
`chance card king` (to the next player without one, in seat order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from ..actions import Action
from ..registry import PLAYER, Registry, named_player, word
from .rules import GAME, SEATS

if TYPE_CHECKING:
    from .state import Kuhn

REG: Final = Registry(GAME, seats=SEATS, owner=named_player)
P: Final = tuple(f"p{i}" for i in range(1, SEATS + 1))  # seats as the notation writes them


def _card_names(st: Kuhn) -> Sequence[str]:
    return st.rules.cards


CARD: Final = word("card", _card_names)


def player_check(st: Kuhn, a: Action) -> str | None:
    """An action of a seat the game does not have."""
    if a.player >= st.players:
        return f"{a}: there is no such player in a {st.players}-player game"
    return None


# ====================================================================== the deal (K1)
def deal(st: Kuhn) -> None:
    """Deal each player a card, in seat order (each a chance node with explicit chance)."""
    for p in reversed(range(st.players)):
        st.push(_deal_one, p)


def _deal_one(st: Kuhn, p: int) -> None:
    st.chance(DEAL, _dealt, (p,))


def _dealt(st: Kuhn, name: str, p: int) -> None:
    k = st.rules.index[name]
    if st.stacked and st.stacked[-1] == k:
        st.stacked.pop()
    st.deck.remove(k)
    st.hands[p] = k
    st.record(DEAL, p, k)
    st.note("deal", P[p])


def _outcomes(st: Kuhn) -> list[tuple[Any, float]]:
    """The next card: the one a scenario stacked, else each card left alike."""
    names = st.rules.cards
    if st.stacked:
        return [(names[st.stacked[-1]], 1.0)]
    return [(names[k], 1.0 / len(st.deck)) for k in st.deck]


def _sample(st: Kuhn) -> str:
    if st.stacked:
        return st.rules.cards[st.stacked[-1]]
    return st.rules.cards[st.deck[st.next() % len(st.deck)]]


def _certain(st: Kuhn) -> bool:
    return bool(st.stacked)


def _view(st: Kuhn, who: int, k: Any, viewer: int) -> str:
    """A card dealt: its name to its holder, face down to the others (K1)."""
    if viewer == who:
        return f"{P[who]} is dealt {st.rules.cards[k]}"
    return f"{P[who]} is dealt a card"


def _answer(st: Kuhn, a: Action) -> None:
    st.resolve(a.arg)


def _card_check(st: Kuhn, a: Action) -> str | None:
    if a.arg not in st.rules.index:
        return f"{a}: no card {a.arg!r} in the deck; cards: " + ", ".join(st.rules.cards)
    return None


V_CARD: Final = REG.verb("card", CARD, apply=_answer, check=_card_check,
                         help="chance: the card dealt")
DEAL: Final = REG.chance_kind("deal", V_CARD, "chance: a card dealt face down (K1)",
                              _outcomes, _sample, _certain, _view)


# ====================================================================== betting (K2)
def _open_legal(st: Kuhn) -> list[Action]:
    return [REG.act(V_CHECK, st.turn), REG.act(V_BET, st.turn)]


def _answer_legal(st: Kuhn) -> list[Action]:
    return [REG.act(V_CALL, st.turn), REG.act(V_FOLD, st.turn)]


def _check(st: Kuhn, a: Action) -> None:
    st.note("check", P[a.player])
    if a.player == st.players - 1:
        showdown(st)
        return
    st.turn = a.player + 1
    st.pause(OPEN)


def _bet(st: Kuhn, a: Action) -> None:
    st.stakes[a.player] += st.rules.bet
    st.bettor = a.player
    st.note("bet", P[a.player], st.rules.bet)
    _next_answer(st, a.player)


def _call(st: Kuhn, a: Action) -> None:
    st.stakes[a.player] += st.rules.bet
    st.note("call", P[a.player], st.rules.bet)
    _next_answer(st, a.player)


def _fold(st: Kuhn, a: Action) -> None:
    st.folded[a.player] = True
    st.note("fold", P[a.player])
    _next_answer(st, a.player)


def _next_answer(st: Kuhn, p: int) -> None:
    """The next player round the table answers the bet; back at the bettor, the showdown."""
    nxt = (p + 1) % st.players
    if nxt == st.bettor:
        showdown(st)
        return
    st.turn = nxt
    st.pause(ANSWER)


V_CHECK: Final = REG.verb("check", PLAYER, apply=_check, check=player_check,
                          help="check: bet nothing, before anyone has bet (K2)")
V_BET: Final = REG.verb("bet", PLAYER, apply=_bet, check=player_check,
                        help="bet: put the bet in the pot (K2)")
V_CALL: Final = REG.verb("call", PLAYER, apply=_call, check=player_check,
                         help="call: match the bet (K2)")
V_FOLD: Final = REG.verb("fold", PLAYER, apply=_fold, check=player_check,
                         help="fold: give up the pot (K2)")
OPEN: Final = REG.kind("open", _open_legal, (V_CHECK, V_BET),
                       "a player checks or bets, before anyone has bet (K2)")
ANSWER: Final = REG.kind("answer", _answer_legal, (V_CALL, V_FOLD),
                         "a player calls or folds, once someone has bet (K2)")


def start_betting(st: Kuhn) -> None:
    """The first player opens the betting (K2)."""
    st.turn = 0
    st.pause(OPEN)


# ====================================================================== the showdown (K3)
def showdown(st: Kuhn) -> None:
    """The highest card among those who did not fold takes the pot (K3)."""
    left = [p for p in range(st.players) if not st.folded[p]]
    winner = max(left, key=lambda p: st.hands[p])
    st.winner, st.turn = winner, -1
    pot = sum(st.stakes)
    if len(left) == 1:
        reason = f"{P[winner]} takes the pot of {pot}: every other player folded (K3)"
    else:
        for p in left:
            st.record(SHOWN, p, st.hands[p])
        shown = ", ".join(f"{P[p]} {st.rules.cards[st.hands[p]]}" for p in left)
        reason = f"{P[winner]} takes the pot of {pot} at the showdown ({shown}) (K3)"
    st.note("end", P[winner], reason)
    st.outcome, st.reason = P[winner], reason


def _shown(st: Kuhn, who: int, k: Any, viewer: int) -> str:
    return f"{P[who]} shows {st.rules.cards[k]}"


def _none(st: Kuhn) -> list[Action]:
    return []


# what is shown, not drawn: a trail entry the information rules read (K3)
SHOWN: Final = REG.kind("shown", _none, (), "a card shown at the showdown (K3)", view=_shown)
