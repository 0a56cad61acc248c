"""Challenges: a player's challenge of another (W5-W7), the Massacre's collective challenge
(W14) and the Fortune Teller's blind one (W15), up to the reveal; settle.py reveals and
settles them.

A challenge under way is a `Fight` on the state: who attacks, who takes part and in what
order of play (W3), each one's stake on the table and face-down card. Its decisions, in
order: the attacker's bet and face-down card; the defender's answer (refuse, accept or
raise, W6-W7; in a Massacre refuse or accept, W14) and card; after a raise, the attacker's
match or fold. Bets and raises are numbers listed as legal actions: `bet p1 3`, `raise p3 2`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ..actions import Action
from ..registry import Kind
from . import contest
from .chance import BLIND as DRAWN
from .chance import REVEAL, deck_size, take
from .contest import BLIND, COLLECTIVE, DUEL, Fight
from .registry import CARD, PLAYER, REG, TOKENS, P, act, dead_check
from .rules import Ctx

if TYPE_CHECKING:
    from .state import War

_fight = contest._fight  # (pickles made before the Fight moved to contest.py name it here)
Step = Callable[..., None]


def _unsettled(st: War, *args: Any) -> None:
    raise AssertionError("settle.py gives fight.py its steps when it is imported")


# settle.py's steps that a challenge calls, given by settle.py when it is imported
# (`settle_with`): settle.py imports this module (so this module's verbs are declared first,
# and the action space numbers them first, whichever is imported first), so this module
# does not import it back
_reveal: Step = _unsettled
_close: Step = _unsettled
_replace: Step = _unsettled
_no_contest: Step = _unsettled
_REVEAL: tuple[Step, tuple[()]] = (_unsettled, ())  # a queue item, shared


def settle_with(reveal: Step, close: Step, replace: Step, no_contest: Step) -> None:
    """settle.py's steps, given once by settle.py (see above)."""
    global _reveal, _close, _replace, _no_contest, _REVEAL
    _reveal, _close, _replace, _no_contest = reveal, close, replace, no_contest
    _REVEAL = (reveal, ())


def _stake(st: War, p: int, n: int) -> None:
    f = st.fight
    assert f is not None
    st.tokens[p] -= n
    f.stake[p] += n
    seats = f.seats
    if not seats:  # (the attacker's first stake)
        seats.append(p)
    elif p not in seats:  # in order of play from the attacker (W3): after those before it,
        att, n = f.attacker, st.players  # looked for from the last (stakes come mostly in
        d = (p - att) % n  # that order: a duel's defender goes after the attacker at once)
        i = len(seats)
        while i and (seats[i - 1] - att) % n > d:
            i -= 1
        seats.insert(i, p)


# ====================================================================== a duel (W5-W7)
def challenge(st: War, attacker: int, defender: int) -> None:
    """`attacker` challenges `defender` (W4): a bet, a face-down card, the answer."""
    st.fight = st.tab.new_fight(DUEL, attacker, defender)
    if st.logging:
        st.note("challenge", st.seat(attacker), st.seat(defender))
    st.queue.append(ASK_DEFENDER)
    st.ask = attacker
    st.wait = BET  # (ask_bet, written out)


def ask_bet(st: War, p: int) -> None:
    st.ask = p
    st.wait = BET  # (pause(BET), written out)


def _legal_bet(st: War) -> list[Action]:
    p = st.ask
    n, lists = st.tokens[p], st.tab.bet_lists[p]
    if n >= len(lists):  # (more than the box holds: only from a position set by hand)
        return [act(V_BET, p, k) for k in range(1, n + 1)]
    return lists[n]  # W5: 1 to all the bettor holds (the listing made once, as it is)


def _apply_bet(st: War, a: Action) -> None:
    f = st.fight
    assert f is not None and isinstance(a.arg, int)
    f.bet = n = a.arg
    p = a.player
    if f.seats:  # (a bet is a challenge's first stake: `_stake`, written out, below)
        _stake(st, p, n)
    else:
        st.tokens[p] -= n
        f.stake[p] += n
        f.seats.append(p)
    if st.logging:
        st.note("bet", st.seat(a.player), a.arg)
    st.wait = PLAY  # the card face down, before the target answers


def _legal_play(st: War) -> list[Action]:
    p = st.ask
    row = st.tab.plays[p]
    out = []  # W8: any card; each kind held, once a kind, in card order
    last = -1
    for k in st.hands[p]:
        if k != last:
            out.append(row[k])
            last = k
    return out


def _apply_play(st: War, a: Action) -> None:
    f = st.fight
    assert f is not None
    kind = st.tab.index[a.arg]
    st.hands[a.player].remove(kind)
    f.card[a.player] = kind
    if st.logging:
        st.note("face_down", st.seat(a.player), a.arg)
    q = st.queue  # what the bet or the answer queued runs next: at once (a work-stack round
    if q:  # trip less): the defender asked, or the cards revealed
        top = q[-1]
        if top is ASK_DEFENDER:
            q.pop()
            st.ask = f.defender  # (_ask_defender, written out)
            st.wait = ANSWER
        elif top is _REVEAL:
            q.pop()
            _reveal(st)


def _seen_play(a: Action, viewer: int) -> str:
    return f"play {P[a.player]}"  # the card stays face down until revealed (W19)


def _ask_defender(st: War) -> None:
    f = st.fight
    assert f is not None
    st.ask = f.defender
    st.wait = ANSWER


def _legal_answer(st: War) -> list[Action]:
    f = st.fight
    assert f is not None
    p, bet, t = st.ask, f.bet, st.tab
    held = st.tokens[p]
    if held < bet:  # W5: with fewer tokens than the bet, only refuse
        return t.refuse_lists[p]  # (the listings made once, given as they are)
    lists = t.answer_lists[p]
    if f.kind != DUEL:  # none in a Massacre (W14)
        return lists[0]
    most = t.raise_limit * bet  # W7: up to the initial bet again
    if held - bet < most:
        most = held - bet
    if most <= 0:
        return lists[0]
    if most < len(lists):
        return lists[most]
    return [t.refuse[p], t.accept[p], *(act(V_RAISE, p, n) for n in range(1, most + 1))]


def _apply_refuse(st: War, a: Action) -> None:
    """W6: the defender pays half the bet, rounded up, as far as their tokens go."""
    f = st.fight
    assert f is not None
    p, att, tokens = a.player, f.attacker, st.tokens
    paid = (f.bet + 1) // 2  # half, rounded up (the seed: "the attacker bet 3, you owe them 2")
    if tokens[p] < paid:  # as far as their tokens go
        paid = tokens[p]
    tokens[p] -= paid
    tokens[att] += paid
    if st.logging:
        st.note("refuse", st.seat(p), paid)
    if f.kind == DUEL:
        _refused_duel(st)


def _refused_duel(st: War) -> None:
    """W6: the attacker takes back the bet; their engaged card is discarded face up (or,
    under the house rule, goes back to hand unrevealed)."""
    f = st.fight
    assert f is not None
    _refused(st, f.attacker)


def _refused(st: War, att: int) -> None:
    """A challenge everyone refused (a duel, or a Massacre no one entered): the attacker
    takes back the bet; their engaged card is discarded face up, or under W6's house rule
    goes back to hand unrevealed; the challenge closes."""
    f = st.fight
    assert f is not None
    st.tokens[att] += f.stake[att]
    f.stake[att] = 0
    kind = f.card[att]
    if st.tab.refused_to_hand:
        st.hands[att].append(kind)
        st.hands[att].sort()
    else:  # shown, then discarded (to_discard, written out)
        st.trail.append((len(st.history), REVEAL, att, kind))
        st.discard[kind] += 1
    f.card[att] = -1
    _close(st, (att,))


def _apply_accept(st: War, a: Action) -> None:
    f = st.fight
    assert f is not None
    _stake(st, a.player, f.bet)
    if st.logging:
        st.note("accept", st.seat(a.player))
    if f.kind == DUEL:
        st.queue.append(_REVEAL)
    st.wait = PLAY


def _apply_raise(st: War, a: Action) -> None:
    """W7: match the bet, add 1 or more up to the initial bet, a card face down; then the
    attacker matches or folds."""
    f = st.fight
    assert f is not None and isinstance(a.arg, int)
    f.raised = a.arg
    _stake(st, a.player, f.bet + a.arg)
    if st.logging:
        st.note("raise", st.seat(a.player), a.arg)
    st.queue.append((_ask_attacker, ()))
    st.wait = PLAY


def _ask_attacker(st: War) -> None:
    f = st.fight
    assert f is not None
    st.ask = f.attacker
    st.wait = RESPONSE


def _legal_response(st: War) -> list[Action]:
    f = st.fight
    assert f is not None
    match, fold = st.tab.response_lists[st.ask]  # (the listings made once, as they are)
    return match if st.tokens[st.ask] >= f.raised else fold


def _apply_match(st: War, a: Action) -> None:
    f = st.fight
    assert f is not None
    _stake(st, a.player, f.raised)
    if st.logging:
        st.note("match", st.seat(a.player))
    st.queue.append(_REVEAL)


def _apply_fold(st: War, a: Action) -> None:
    """W7: the defender takes the attacker's bet and their own stake back; both cards are
    discarded face up; no collateral damage; the defender, as winner, draws one card."""
    f = st.fight
    assert f is not None
    d = f.defender
    st.tokens[d] += sum(f.stake)  # (the stakes left on the challenge: `_close` takes it
    # off the table next, as settle.py's settlements leave theirs)
    if st.logging:
        st.note("fold", st.seat(a.player))
    trail, discard, at, att = st.trail, st.discard, len(st.history), f.attacker
    for p in (att, d):  # each shown, then discarded (to_discard, written out)
        k = f.card[p]
        trail.append((at, REVEAL, p, k))
        discard[k] += 1
        f.card[p] = -1
    st.queue.append((_replace, (d, 1)))
    _close(st, (d,))


# ====================================================================== a Massacre (W14)
def collective_challenge(st: War, ctx: Ctx) -> None:
    """The Massacre's drawer attacks every other player holding a card and a token (W14)."""
    p = ctx.player
    if not st.hands[p]:  # W13: a drawer with no card in hand dies; tokens to the centre
        st.fated[p] = 1
        if st.logging:
            st.note("fated", st.seat(p))
        return
    if not st.tokens[p]:  # (no token to bet: no challenge; the drawer dies of it, W17)
        return
    st.fight = st.tab.new_fight(COLLECTIVE, p, -1)
    others = [q for q in st.order_from(p, True) if st.hands[q] and st.tokens[q]]
    if st.logging:
        st.note("collective", st.seat(p))
    st.push(_collective_end)
    st.push(_ask_each, tuple(others))
    ask_bet(st, p)


def _ask_each(st: War, others: tuple[int, ...]) -> None:
    """Each other player in order of play: refuse (paying half the bet) or accept (W14)."""
    if others:
        st.push(_ask_each, others[1:])
        st.ask = others[0]
        st.wait = ANSWER  # (pause(ANSWER), written out)


def _collective_end(st: War) -> None:
    f = st.fight
    assert f is not None
    if len(f.seats) > 1:
        _reveal(st)
        return
    # everyone refused: the attacker takes back the bet and wins the refusals (W14, W17)
    _refused(st, f.attacker)


# ====================================================================== a Fortune Teller (W15)
def blind_challenge(st: War, ctx: Ctx, n: int) -> None:
    """Every player holding a card and `n` tokens, in order of play from the drawer, bets
    `n` and draws a card from the deck onto the table; then all are revealed (W15)."""
    p = ctx.player
    st.fight = st.tab.new_fight(BLIND, p, -1)
    seats = tuple(q for q in st.order_from(p, False) if st.hands[q] and st.tokens[q] >= n)
    if st.logging:
        st.note("blind", st.seat(p))
    st.push(_blind_end)
    st.push(_blind_draw, seats, n)


def _blind_draw(st: War, seats: tuple[int, ...], n: int) -> None:
    if not seats:
        return
    st.push(_blind_draw, seats[1:], n)
    if deck_size(st):  # a player who cannot draw takes no part (W15)
        _stake(st, seats[0], n)
        st.chance(DRAWN, _blind_drawn, (seats[0],))


def _blind_drawn(st: War, name: Any, p: int) -> None:
    kind = st.rules.index[name]
    take(st, kind)
    st.record(DRAWN, p, kind)
    f = st.fight
    assert f is not None
    f.card[p] = kind
    if st.logging:
        st.note("blind_draw", st.seat(p), name)


def _blind_end(st: War) -> None:
    f = st.fight
    assert f is not None
    if len(f.seats) > 1:
        _reveal(st)
    else:
        _no_contest(st, ())  # fewer than two took part (W9)


def _asked(st: War, a: Action, kind: Kind) -> bool:
    """`a` is the asked player's, at a decision of `kind`: its numbers are the rule's."""
    return st.wait is kind and a.player == st.ask and st.fight is not None


def _bet_check(st: War, a: Action) -> str | None:
    """A bet of no token or of more than the bettor holds names W5."""
    if _asked(st, a, BET) and isinstance(a.arg, int) and not 1 <= a.arg <= st.tokens[a.player]:
        return (f"{a}: a bet is 1 token or more, at most what the bettor holds "
                f"({P[a.player]} holds {st.tokens[a.player]}) (W5)")
    return dead_check(st, a)


def _answer_check(st: War, a: Action) -> str | None:
    """An accept or raise the defender cannot pay, or a raise past double, names W5, W7."""
    f = st.fight
    if not _asked(st, a, ANSWER) or f is None:
        return dead_check(st, a)
    p, held = a.player, st.tokens[a.player]
    holds = f"{P[p]} holds {held} token{'' if held == 1 else 's'}"
    if held < f.bet:
        return f"{a}: {holds}, fewer than the bet of {f.bet}: only refuse (W5)"
    if a.verb == "raise" and f.kind != DUEL:
        return f"{a}: there is no raising in a Massacre or a Fortune Teller (W14)"
    if a.verb == "raise" and isinstance(a.arg, int):
        most = st.rules.p("rules.raise_limit") * f.bet
        if not 1 <= a.arg <= most:
            return (f"{a}: a raise adds 1 token or more, up to the initial bet again ({most}): "
                    "at most double (W7)")
        if f.bet + a.arg > held:
            return f"{a}: {holds}, not the bet of {f.bet} and {a.arg} more (W5)"
    return dead_check(st, a)


def _match_check(st: War, a: Action) -> str | None:
    """A match the attacker cannot pay names W7."""
    f = st.fight
    if _asked(st, a, RESPONSE) and f is not None and st.tokens[a.player] < f.raised:
        return (f"{a}: {P[a.player]} holds {st.tokens[a.player]} of the {f.raised} the raise "
                "asks: fold (W7)")
    return dead_check(st, a)


ASK_DEFENDER: Final = (_ask_defender, ())  # a queue item, shared (turn.py queues it too)
V_BET: Final = REG.verb("bet", PLAYER, TOKENS, apply=_apply_bet, check=_bet_check,
                        help="bet tokens, 1 to all you hold (W5)")
V_PLAY: Final = REG.verb("play", PLAYER, CARD, apply=_apply_play, check=dead_check,
                         private=True, seen=_seen_play,
                         help="lay a card of your hand face down (W8)")
V_REFUSE: Final = REG.verb("refuse", PLAYER, apply=_apply_refuse, check=dead_check,
                           help="refuse the challenge: pay half the bet, rounded up (W6)")
V_ACCEPT: Final = REG.verb("accept", PLAYER, apply=_apply_accept, check=_answer_check,
                           help="accept: match the bet and lay a card face down")
V_RAISE: Final = REG.verb("raise", PLAYER, TOKENS, apply=_apply_raise, check=_answer_check,
                          help="match the bet and add up to the bet again (W7)")
V_MATCH: Final = REG.verb("match", PLAYER, apply=_apply_match, check=_match_check,
                          help="match the defender's raise (W7)")
V_FOLD: Final = REG.verb("fold", PLAYER, apply=_apply_fold, check=dead_check,
                         help="give up your bet to the raiser (W7)")
BET: Final = REG.kind("bet", _legal_bet, (V_BET,), "the attacker's bet (W5)")
PLAY: Final = REG.kind("play", _legal_play, (V_PLAY,), "a card laid face down (W8)")
ANSWER: Final = REG.kind("answer", _legal_answer, (V_REFUSE, V_ACCEPT, V_RAISE),
                         "the challenged player refuses, accepts or raises (W5-W7, W14)")
RESPONSE: Final = REG.kind("response", _legal_response, (V_MATCH, V_FOLD),
                           "the attacker matches the raise or folds (W7)")


__all__ = ["ANSWER", "ASK_DEFENDER", "BET", "BLIND", "COLLECTIVE", "DUEL", "PLAY", "RESPONSE",
           "V_BET", "V_PLAY", "Fight", "blind_challenge", "challenge", "collective_challenge",
           "settle_with"]
