"""Clue exchange (R21, `clue_exchange`): after the battles, a player may hand a clue card of
their own chain to another player in the same city without agents (the rulebook: "at the
end of the battle phase").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import Action
from ..registry import PLAYER, named_player
from .clues import check_triples
from .registry import A_DONE, CARD, DONE, REG, P, answer_player

if TYPE_CHECKING:
    from .state import State


def exchange_groups(st: State) -> dict[int, list[int]]:
    """Cities with 2+ players and no agent: where clue cards may change hands (R21)."""
    by_city: dict[int, list[int]] = {}
    pawns = st.pawns
    for p in range(st.players):
        by_city.setdefault(pawns[p], []).append(p)
    out = {}  # (loops, not comprehensions: each of those costs a function's call more)
    agents = st.agents
    for c, ps in by_city.items():
        if len(ps) > 1 and not agents[c]:
            out[c] = ps
    return out


def exchange_step(st: State) -> None:
    chains = st.chains
    if st.tab.clue_exchange and len(chains) > 1:
        for ps in exchange_groups(st).values():
            for p in ps:
                if chains[p]:  # a card to hand
                    st.phase = "exchange"
                    st.wait = EXCHANGE  # (all `pause(EXCHANGE)` does here)
                    return


def _legal_exchange(st: State) -> list[Action]:
    trades, chains = st.tab.trades, st.chains
    out: list[Action] = []
    for ps in exchange_groups(st).values():
        for p in ps:
            out += map(trades[p].__getitem__, sorted(chains[p]))
    out.append(A_DONE)
    return out


def _apply_trade(st: State, a: Action) -> None:
    mark = len(st.queue)
    group = next(ps for ps in exchange_groups(st).values() if a.player in ps)
    st.pause(RECEIVE, [p for p in group if p != a.player], _receive, (a.player, int(a.arg or 0)))
    st.pause(EXCHANGE, after=mark)


def _receive(st: State, p: int, giver: int, card: int) -> None:
    st.chains[giver].remove(card)
    st.chains[p].append(card)
    if st.logging:
        st.note("trade", P[giver], card, P[p])
    st.queue.append((check_triples, (p,)))  # the receiver may now hold a triple


TRADE: Final = REG.verb("trade", PLAYER, CARD, apply=_apply_trade,
                        owner=named_player,  # the player's own decision (seats.py)
                        help="a player hands a clue card to a player in the same city (R21)")
V_RECEIVE: Final = REG.verb("receive", PLAYER, apply=answer_player, actor=False,
                            help="who receives the traded clue card")
EXCHANGE: Final = REG.kind("exchange", _legal_exchange, (TRADE, DONE),
                           "clue cards handed between players in one city, then done (R21)")
RECEIVE: Final = REG.choice("receive", V_RECEIVE, "who receives the traded clue card (R21)")
