"""The mission phase (rulebook phase A): each player draws, the team plans (extra draws for a
resource, R6), each player plays one card, its sections resolving top to bottom (R8), and
the rest of every hand is discarded (in solo mode at the round's end: `discard_rest`).
"""

from __future__ import annotations

from bisect import insort
from itertools import compress
from typing import TYPE_CHECKING, Final

from ..actions import Action
from ..machine import LCG_A, LCG_C, MASK
from ..registry import PLAYER, named_player
from .chance import DEAL, deck_size, draw_card, take
from .effects import emit, pay
from .registry import CARD, KIND, REG, P, act
from .rules import Ctx

if TYPE_CHECKING:
    from .state import State

NO_CTX: Final = Ctx()


def op_mission(st: State, ctx: Ctx) -> None:
    st.phase = "mission"
    draws, plays = st.tab.solo_per_round if st.solo else st.tab.per_round
    n = draws * st.players
    if not st.explicit and not st.deck_top and st.above >= n:
        # the usual case: every card drawn lies above the final card (R3), drawn at once,
        # each as `pick` draws it (written out: hot)
        st.above -= n
        trail, at, d, z = st.trail, len(st.history), st.deck, st.rng
        for p, hand in enumerate(st.hands):
            for _ in range(draws):
                z = (z * LCG_A + LCG_C) & MASK
                j = (z >> 32) % len(d)
                card = d[j]  # the card at j goes, the last card takes its place
                d[j] = d[-1]
                d.pop()
                insort(hand, card)
                trail.append((at, DEAL, p, card))
        st.rng = z
        st.plays_left = [plays] * st.players
        st.queue.append((op_mission_end, ()))
        st.pause(PLAN)
        return
    st.push(_dealt_all, plays)
    for p in reversed(range(st.players)):
        for _ in range(draws):
            st.push(draw_into, p)


def _dealt_all(st: State, plays: int) -> None:
    st.plays_left = [plays] * st.players
    st.queue.append((op_mission_end, ()))
    st.pause(PLAN)


def draw_into(st: State, p: int) -> None:
    """Draw one card into p's hand (none when the deck is empty); the final card is
    discarded and replaced (R20)."""
    if st.explicit:
        if deck_size(st):
            st.chance(DEAL, _dealt, (p,))
        return
    while (card := draw_card(st)) is not None:  # drawn at once, as `_dealt` takes it
        st.trail.append((len(st.history), DEAL, p, card))
        if card == st.rules.final_card:
            _final_card(st)
            continue
        insort(st.hands[p], card)
        return


def _final_card(st: State) -> None:
    st.discard.append(st.rules.final_card)
    st.final_round = True
    st.note("final_card")


def _dealt(st: State, card: int, p: int) -> None:
    take(st, card)
    st.record(DEAL, p, card)
    if card == st.rules.final_card:  # R20: discarded, replaced, and this round is the last
        _final_card(st)
        draw_into(st, p)
        return
    insort(st.hands[p], card)  # hands are kept in card order


def discard_hands(st: State) -> None:
    """The cards left in hand go to the discard pile (phase A: "discard the rest")."""
    for h in st.hands:
        st.discard.extend(h)
        h.clear()


def op_mission_end(st: State) -> None:
    if any(compress(st.hands, st.plays_left)):  # a player with plays left holds a card
        st.queue.append((op_mission_end, ()))
        st.pause(PLAY_KIND)
        return
    if not st.tab.discard_late[st.solo]:  # else at the round's end (Solo Mode)
        discard_hands(st)
    if "mission_end" in st.tab.hooks:
        emit(st, "mission_end", NO_CTX)


# ====================================================================== decisions
def _legal_plan(st: State) -> list[Action]:
    out = _legal_play(st)
    if st.deck or st.deck_top or st.above >= 0:
        # the van's counts are never negative: compress keeps the kinds it holds
        key = (st.players, *st.van)
        draws = st.tab.draws.get(key)
        if draws is None:
            kinds = tuple(compress(st.tab.resources, st.van)) or ("health",)
            draws = st.tab.draws[key] = [act(DRAW, p, k) for p in range(st.players)
                                         for k in kinds]
        out += draws  # R6
    return out


def _legal_play(st: State) -> list[Action]:
    out: list[Action] = []
    play_of, hands = st.tab.play_of, st.hands
    for p, left in enumerate(st.plays_left):
        if left:
            out += map(play_of[p], hands[p])  # hands are kept in card order
    return out


def _apply_draw(st: State, a: Action) -> None:
    q = st.queue
    mark = len(q)
    pay(st, a.player, str(a.arg), 1)  # R6: any resource the van holds; health only if none
    if len(q) == mark and st.wait is None:  # paid at once (the drawing player pays, R5)
        if st.outcome is None:
            draw_into(st, a.player)
    else:  # the card once the payment's work has run
        q.insert(mark, (draw_into, (a.player,)))
    st.pause(PLAN, after=mark)


def _apply_play(st: State, a: Action) -> None:
    card: int
    _, p, card = a  # type: ignore[assignment]  # a play names its card by number (unpacked:
    # cheaper than the named tuple's attributes)
    st.hands[p].remove(card)
    st.plays_left[p] -= 1
    if st.logging:
        st.log.append((st.round, "play", P[p], card))
    # R8: cost, agents, gains, then the clue, written out per card (cardplay.py). The
    # card's player pays (no one is asked); gains take resources at once, a gained health
    # queues its question of who receives it; the clue follows whatever was queued, or
    # comes at once if nothing was.
    if st.tab.card_play[card](st, p):
        # the card resolved at once: the mission's next step (op_mission_end, on top of the
        # work stack) runs here, when another player still plays
        q = st.queue
        if q and q[-1][0] is op_mission_end and any(compress(st.hands, st.plays_left)):
            st.pause(PLAY_KIND)


def _play_check(st: State, a: Action) -> str | None:
    if a.player >= 0 and a.arg not in st.hands[a.player]:
        return f"{a}: card {a.arg} is not in p{a.player + 1}'s hand"
    return None


DRAW: Final = REG.verb("draw", PLAYER, KIND, apply=_apply_draw, pays=True, golden=True,
                       owner=named_player,  # the player's own decision (seats.py)
                       help="draw an extra mission card for one resource of that kind (R6)")
PLAY: Final = REG.verb("play", PLAYER, CARD, apply=_apply_play, private=True, check=_play_check,
                       owner=named_player,  # the player's own decision (seats.py)
                       help="play a mission card from that player's hand")
PLAN: Final = REG.kind("plan", _legal_plan, (PLAY, DRAW),
                       "planning: extra draws for a resource (R6), or the first card played")
PLAY_KIND: Final = REG.kind("play", _legal_play, (PLAY,),
                            "each player who has not yet played a card plays one (R8)")
