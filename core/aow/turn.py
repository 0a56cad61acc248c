"""The turn (W3, W4), the deaths at its end (W17) and the end of the game (W18).

On their turn a living player draws a card, draws a token, or challenges another living
player (W4). When the turn's settlement is over, every player left with no card or no token
dies at once: their killer takes their tokens (killed for lack of cards) or their cards
(for lack of tokens, keeping at most the hand limit) (W17); the last player standing wins,
and if the last ones die at once the game is drawn among them (W18). Turns go round the
seats from the current player, skipping the dead (W3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import Action
from .cards import draw_into_hand, trim
from .chance import TAKEN
from .contest import DUEL
from .fight import ASK_DEFENDER, BET
from .registry import PLAYER, REG, SEAT_OF, TARGET, P, dead_check

if TYPE_CHECKING:
    from .state import War


def start_turn(st: War) -> None:
    """A step: the current player's turn, unless the turn limit has been reached (W18)."""
    limit = st.tab.turn_limit
    if st.turn >= limit:
        living = [P[p] for p in range(st.players) if st.alive[p]]
        _draw_game(st, f"the turn limit ({limit} turns) was reached: drawn among "
                   f"{', '.join(living)} (W18)")
        return
    st.turn += 1
    none = st.tab.no_doom  # nobody doomed yet this turn (W17): (kept where they are so)
    if st.doom_cards != none:
        st.doom_cards = none.copy()
    if st.doom_tokens != none:
        st.doom_tokens = none.copy()
    if st.logging:
        st.note("turn", st.turn, st.seat(st.current))
    st.ask = st.current
    st.wait = TURN  # (pause(TURN), written out)


def _legal_turn(st: War) -> list[Action]:
    p = st.current
    t = st.tab
    # (the deck compared with an empty one: a comparison, not a call of any())
    draw = len(st.hands[p]) < t.hand_limit and (st.deck_top or st.deck != t.no_cards)
    lists = st.seating.turn_lists[p]  # the listing made once for the living (tables.py),
    if draw:  # as it is, by whether the player may draw (2) and take (1)
        return lists[3] if st.centre else lists[2]
    return lists[1] if st.centre else lists[0]


def _apply_draw(st: War, a: Action) -> None:
    q = st.queue
    q.append(_END_TURN)
    draw_into_hand(st, a.player)
    if st.wait is None and q[-1] is _END_TURN:  # nothing queued after it: it runs next
        q.pop()
        end_turn(st)


def _apply_take(st: War, a: Action) -> None:
    st.centre -= 1
    st.tokens[a.player] += 1
    if st.logging:
        st.note("token", st.seat(a.player))
    end_turn(st)  # (queued, it would run next)


def _apply_challenge(st: War, a: Action) -> None:
    """W4: the challenge (fight.py's `challenge`, written out), then the turn's end."""
    attacker, defender = a.player, SEAT_OF[a.arg]  # type: ignore[index]  # (a listed challenge
    st.fight = st.tab.new_fight(DUEL, attacker, defender)  # names its target pN)
    if st.logging:
        st.note("challenge", st.seat(attacker), st.seat(defender))
    q = st.queue
    q.append(_END_TURN)
    q.append(ASK_DEFENDER)
    st.ask = attacker
    st.wait = BET  # a bet, a face-down card, the answer


def _draw_check(st: War, a: Action) -> str | None:
    """A draw on the player's turn with a full hand or from an empty deck names W4."""
    why = dead_check(st, a)
    if why or st.wait is not TURN or st.current != a.player:
        return why
    held, t = len(st.hands[a.player]), st.tab
    if held >= t.hand_limit:
        return f"{a}: {P[a.player]} holds {held} cards, a full hand: no drawing (W4)"
    if not st.deck_top and st.deck == t.no_cards:
        return f"{a}: the deck is empty, and the discard pile is never reshuffled (W4)"
    return None


def _take_check(st: War, a: Action) -> str | None:
    """A token taken on the player's turn from an empty centre pile names W4."""
    why = dead_check(st, a)
    if why or st.wait is not TURN or st.current != a.player or st.centre:
        return why
    return f"{a}: the centre pile is empty: no token to draw (W4)"


def _challenge_check(st: War, a: Action) -> str | None:
    why = dead_check(st, a)
    if why or not isinstance(a.arg, str):
        return why
    q = P.index(a.arg)
    if q >= st.players:
        return f"{a}: there is no {a.arg} in a {st.players}-player game"
    if q == a.player:
        return f"{a}: a player challenges another player (W4)"
    if not st.alive[q]:
        return f"{a}: {a.arg} is dead (W17)"
    return None


# ====================================================================== deaths (W17)
def end_turn(st: War) -> None:
    """The turn's settlement is over: every death at once (W16, W17), then the end (W18)
    or the next turn; a killer over the hand limit discards down to it first."""
    if 0 not in st.tokens and [] not in st.hands and 1 not in st.fated:  # (the dead hold
        t = st.tab  # nothing: all live, nobody dies; C-level scans): the next seat's turn
        st.current = p = t.others[st.current][0]
        if st.turn < t.turn_limit:  # (start_turn, written out, but for the limit, W18)
            st.turn += 1
            none = t.no_doom
            if st.doom_cards != none:
                st.doom_cards = none.copy()
            if st.doom_tokens != none:
                st.doom_tokens = none.copy()
            if st.logging:
                st.note("turn", st.turn, st.seat(p))
            st.ask = p
            st.wait = TURN
            return
        start_turn(st)
        return
    _dying(st)


def _dying(st: War) -> None:
    """`end_turn` where someone is dead or may die: who dies now (W17), then the next turn or
    the deaths."""
    hands, tokens, fated, s = st.hands, st.tokens, st.fated, st.seating
    dead = []
    for p in s.living:  # (the dead not walked)
        if fated[p] or not hands[p] or not tokens[p]:
            dead.append(p)
    if not dead and len(s.living) > 1:  # nobody died: the next turn (queued, it would run
        st.current = s.next[st.current]  # now; next_turn, written out)
        start_turn(st)
        return
    _deaths(st, dead)


def _deaths(st: War, dead: list[int]) -> None:
    """`end_turn` with deaths (or a game that no longer has two players living)."""
    killers: list[int] = []
    for p in dead:
        killers += _bury(st, p, dead)
    alive = st.alive
    for p in dead:
        alive[p] = 0
    st.seating = s = st.tab.seating(alive)  # (who lives now)
    living = s.living
    if len(living) == 1:
        st.end_game(P[living[0]], f"{P[living[0]]} is the last player standing (W18)")
        return
    if not living:
        names = " and ".join(P[p] for p in dead)
        _draw_game(st, f"{names} died at once: the game is drawn among them (W18)",
                   tuple(dead))
        return
    st.push(next_turn)
    for k in reversed(s.order[st.current]):  # (the living in order of play: order_from's)
        if k in killers:
            st.push(trim, k)


def _bury(st: War, p: int, dead: list[int]) -> list[int]:
    """A death: its cause, its killers, what they take (W13, W17); the killers who took
    cards (they may hold more than the limit now)."""
    fated = bool(st.fated[p])
    cause = "cards" if fated or not st.hands[p] else "tokens"
    found = st.doom_cards[p] if cause == "cards" else st.doom_tokens[p]
    killers = () if fated or found is None else found
    heirs = [k for k in killers if k not in dead and st.alive[k]]
    tokens, cards = st.tokens[p], st.hands[p]
    st.tokens[p], st.hands[p] = 0, []
    _share_tokens(st, tokens, heirs if cause == "cards" else [])
    took = _share_cards(st, p, cards, heirs if cause == "tokens" else [])
    st.deaths.append((st.turn, p, cause, tuple(killers)))
    if st.logging:
        st.note("dies", st.seat(p), cause, *(P[k] for k in killers))
    return took


def _share_tokens(st: War, n: int, heirs: list[int]) -> None:
    """Killed for lack of cards: the killers share the tokens; the rest to the centre."""
    share = n // len(heirs) if heirs else 0
    for k in heirs:
        st.tokens[k] += share
    st.centre += n - share * len(heirs)


def _share_cards(st: War, dead: int, cards: list[int], heirs: list[int]) -> list[int]:
    """Killed for lack of tokens: the killers share the cards, dealt highest score first in
    turn to each; what does not share evenly goes face up to the discard pile (W17). Each
    share is a TAKEN entry in the trail, (dead, cards) its value: a determinization (ai.py
    `resample`) traces the cards back to the dead player's own draws."""
    discard = st.discard
    if not heirs or not cards:  # nobody takes them (killed for lack of cards: none left)
        for k in cards:
            discard[k] += 1
        return []
    if len(heirs) == 1:  # one killer takes them all, the hand sorted already (below, written out)
        heir = heirs[0]
        hand = st.hands[heir]
        hand += cards
        hand.sort()
        st.trail.append((len(st.history), TAKEN, heir, (dead, tuple(cards))))  # (st.record)
        return [heir]
    order = sorted(cards, key=st.tab.share_rank.__getitem__)  # highest score first
    n = len(order) // len(heirs) * len(heirs)
    got: dict[int, list[int]] = {}
    for i, k in enumerate(order[:n]):
        got.setdefault(heirs[i % len(heirs)], []).append(k)
    for k in order[n:]:
        discard[k] += 1
    for heir, kinds in got.items():
        hand = st.hands[heir]
        hand += kinds
        hand.sort()
        kinds.sort()
        st.record(TAKEN, heir, (dead, tuple(kinds)))
    return list(got)


def next_turn(st: War) -> None:
    """The next living seat after the current player's (W3)."""
    st.current = st.seating.next[st.current]  # (none other living: the current player's)
    start_turn(st)  # (queued, it would run next)


def _draw_game(st: War, reason: str, among: tuple[int, ...] | None = None) -> None:
    st.drawn = among if among is not None else tuple(
        p for p in range(st.players) if st.alive[p])
    st.end_game("draw", reason)


_END_TURN: Final = (end_turn, ())  # a queue item, shared
V_DRAW: Final = REG.verb("draw", PLAYER, apply=_apply_draw, check=_draw_check,
                         help="draw a card (not with a full hand, W4)")
V_TAKE: Final = REG.verb("take", PLAYER, apply=_apply_take, check=_take_check,
                         help="draw a token from the centre pile (W4)")
V_CHALLENGE: Final = REG.verb("challenge", PLAYER, TARGET, apply=_apply_challenge,
                              check=_challenge_check,
                              help="challenge another living player (W4): then bet and lay "
                                   "a card face down")
TURN: Final = REG.kind("turn", _legal_turn, (V_DRAW, V_TAKE, V_CHALLENGE),
                       "a player's turn: draw a card, draw a token, or challenge (W4)")
