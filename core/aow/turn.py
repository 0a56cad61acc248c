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
from .chance import TAKEN, deck_size
from .fight import challenge
from .registry import PLAYER, REG, TARGET, P, act, dead_check

if TYPE_CHECKING:
    from .state import War


def start_turn(st: War) -> None:
    """A step: the current player's turn, unless the turn limit has been reached (W18)."""
    limit = st.rules.p("rules.turn_limit")
    if st.turn >= limit:
        living = [P[p] for p in range(st.players) if st.alive[p]]
        _draw_game(st, f"the turn limit ({limit} turns) was reached: drawn among "
                   f"{', '.join(living)} (W18)")
        return
    st.turn += 1
    st.doom_cards = [None] * st.players
    st.doom_tokens = [None] * st.players
    st.note("turn", st.turn, st.seat(st.current))
    st.ask = st.current
    st.pause(TURN)


def _legal_turn(st: War) -> list[Action]:
    p = st.current
    out = []
    if len(st.hands[p]) < st.rules.p("components.hand_limit") and deck_size(st):
        out.append(act(V_DRAW, p))
    if st.centre:
        out.append(act(V_TAKE, p))
    out += [act(V_CHALLENGE, p, P[q]) for q in st.order_from(p, True)]
    return out


def _apply_draw(st: War, a: Action) -> None:
    st.push(end_turn)
    draw_into_hand(st, a.player)


def _apply_take(st: War, a: Action) -> None:
    st.centre -= 1
    st.tokens[a.player] += 1
    st.note("token", st.seat(a.player))
    st.push(end_turn)


def _apply_challenge(st: War, a: Action) -> None:
    st.push(end_turn)
    challenge(st, a.player, P.index(str(a.arg)))


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
    dead = [p for p in range(st.players)
            if st.alive[p] and (st.fated[p] or not st.hands[p] or not st.tokens[p])]
    killers: list[int] = []
    for p in dead:
        killers += _bury(st, p, dead)
    for p in dead:
        st.alive[p] = 0
    living = [p for p in range(st.players) if st.alive[p]]
    if len(living) == 1:
        st.end_game(P[living[0]], f"{P[living[0]]} is the last player standing (W18)")
        return
    if not living:
        names = " and ".join(P[p] for p in dead)
        _draw_game(st, f"{names} died at once: the game is drawn among them (W18)",
                   tuple(dead))
        return
    st.push(next_turn)
    for k in reversed(st.order_from(st.current, False)):
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
    took = _share_cards(st, cards, heirs if cause == "tokens" else [])
    st.deaths.append((st.turn, p, cause, tuple(killers)))
    st.note("dies", st.seat(p), cause, *(P[k] for k in killers))
    return took


def _share_tokens(st: War, n: int, heirs: list[int]) -> None:
    """Killed for lack of cards: the killers share the tokens; the rest to the centre."""
    share = n // len(heirs) if heirs else 0
    for k in heirs:
        st.tokens[k] += share
    st.centre += n - share * len(heirs)


def _share_cards(st: War, cards: list[int], heirs: list[int]) -> list[int]:
    """Killed for lack of tokens: the killers share the cards, dealt highest score first in
    turn to each; what does not share evenly goes face up to the discard pile (W17)."""
    score = st.rules.cards
    order = sorted(cards, key=lambda k: (-score[k].score, k))
    n = len(order) // len(heirs) * len(heirs) if heirs else 0
    got: dict[int, list[int]] = {}
    for i, k in enumerate(order[:n]):
        got.setdefault(heirs[i % len(heirs)], []).append(k)
    for k in order[n:]:
        st.discard[k] += 1
    for heir, kinds in got.items():
        st.hands[heir] = sorted(st.hands[heir] + kinds)
        st.record(TAKEN, heir, tuple(sorted(kinds)))
    return list(got)


def next_turn(st: War) -> None:
    """The next living seat after the current player's (W3)."""
    n = st.players
    for i in range(1, n + 1):
        q = (st.current + i) % n
        if st.alive[q]:
            st.current = q
            break
    st.push(start_turn)


def _draw_game(st: War, reason: str, among: tuple[int, ...] | None = None) -> None:
    st.drawn = among if among is not None else tuple(
        p for p in range(st.players) if st.alive[p])
    st.end_game("draw", reason)


V_DRAW: Final = REG.verb("draw", PLAYER, apply=_apply_draw, check=dead_check,
                         help="draw a card (not with a full hand, W4)")
V_TAKE: Final = REG.verb("take", PLAYER, apply=_apply_take, check=dead_check,
                         help="draw a token from the centre pile (W4)")
V_CHALLENGE: Final = REG.verb("challenge", PLAYER, TARGET, apply=_apply_challenge,
                              check=_challenge_check,
                              help="challenge another living player (W4): then bet and lay "
                                   "a card face down")
TURN: Final = REG.kind("turn", _legal_turn, (V_DRAW, V_TAKE, V_CHALLENGE),
                       "a player's turn: draw a card, draw a token, or challenge (W4)")
