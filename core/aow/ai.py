"""Art of War for search and learning (docs/ai.md): its tensors' layout, its shaped score and
its determinizations (`resample`, determinize.py's). Nothing here runs during play.

The tensors (core/tensors.py) show a player what W19 lets them see, as `observation`
(info.py) does: their own hand, everyone's tokens and hand sizes, the centre pile, the
deck's size, the discard pile, the challenge on the table (each face-down card only to its
owner until the reveal). A viewer that is no player (TEAM) sees no hand.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from itertools import compress
from typing import TYPE_CHECKING, Any, Final

from ..tensors import Segment, Segments, field, numbers, one_hot
from .chance import deck_size
from .determinize import resample as resample
from .fight import BLIND, COLLECTIVE, DUEL
from .registry import REG

if TYPE_CHECKING:
    from .state import War

FIGHTS: Final = (DUEL, COLLECTIVE, BLIND)
_FIGHT_ROW: Final = {kind: i for i, kind in enumerate(FIGHTS)}

def decisions() -> tuple[str, ...]:
    """The kinds of decision a player takes, in the registry's order (the `decision`
    segment), once every rule module has declared its own."""
    return tuple(name for name, k in REG.kinds.items() if k.verb is None and k.verbs)

MAX_TURN_DECISIONS: Final = 40  # the adapters' cut: W18's turn limit times this


# ====================================================================== tensors
_DECISION_ROW: dict[str, int] = {}  # each kind's row, filled at the first tensor


def _decision(st: War, v: int, out: list[float], at: int) -> None:
    w = st.wait
    if w is None:
        return
    if not _DECISION_ROW:
        _DECISION_ROW.update((name, i) for i, name in enumerate(decisions()))
    i = _DECISION_ROW.get(w.name)
    if i is not None:
        out[at + i] = 1.0


def _whose(st: War, v: int, out: list[float], at: int) -> None:
    n, c, a = st.players, st.current, st.ask  # (one_hot's three, inline: a tensor a step)
    if c is not None and c >= 0:
        out[at + c] = 1.0
    if a is not None and a >= 0:
        out[at + n + a] = 1.0
    if 0 <= v < n:
        out[at + 2 * n + v] = 1.0


def _count_numbers(st: War) -> tuple[int, int, int, int]:
    return st.turn, st.centre, st.out, deck_size(st)


def _hand(st: War, v: int, out: list[float], at: int) -> None:
    if 0 <= v < st.players:
        for k in st.hands[v]:
            out[at + k] += 1.0


def _hand_sizes(st: War) -> list[int]:
    return [*map(len, st.hands)]


def _fight(st: War, v: int, out: list[float], at: int) -> None:
    f = st.fight
    if f is None:
        return
    n = st.players
    out[at + _FIGHT_ROW[f.kind]] = 1.0
    if f.attacker >= 0:
        out[at + 3 + f.attacker] = 1.0
    if f.defender >= 0:
        out[at + 3 + n + f.defender] = 1.0
    at += 3 + 2 * n
    out[at], out[at + 1], out[at + 2] = f.bet, f.raised, float(f.revealed)
    at += 3
    for p in range(n):  # (one by one: core/tensors.py; 0 where out is 0 already)
        if f.stake[p]:
            out[at + p] = f.stake[p]
        if f.out[p]:
            out[at + 2 * n + p] = f.out[p]
        if f.card[p] >= 0:  # a card on the table
            out[at + 3 * n + p] = 1.0
    for p in f.seats:  # taking part
        out[at + n + p] = 1.0


def _cards_shown(st: War, v: int, out: list[float], at: int) -> None:
    """Each seat's card on the table (one-hot by kind) when the viewer may see it (its
    own, or after the reveal, W19), then the Wise Men each added."""
    f = st.fight
    if f is None:
        return
    k = len(st.rules.cards)
    for p, card in enumerate(f.card):
        if card >= 0 and (f.revealed or p == v):
            one_hot(out, at + p * k, card)
    at += st.players * k
    for p, added in enumerate(f.added):
        for card in added:
            out[at + p * k + card] += 1.0


def _dead(st: War) -> list[float]:
    return [0.0 if a else 1.0 for a in st.alive]


def _decisions(st: War) -> float:
    return float(len(st.history))


def segments(st: War, kind: str) -> tuple[Segment, ...]:
    """The `observation` or `information_state` tensor's segments for the game's rules and
    player count (docs/ai.md lists them)."""
    n, k = st.players, len(st.rules.cards)
    # the bounds of the counts, from the components (W1) and W18's turn limit
    tokens, cards = st.rules.p("components.tokens"), sum(c.count for c in st.rules.cards)
    most = max(c.count for c in st.rules.cards)
    obs: tuple[Segment, ...] = (
        Segment("decision", (len(decisions()),), "the decision pending, by kind: "
                + ", ".join(decisions()), _decision),
        Segment("whose", (3, n), "whose turn it is, whose decision, the viewer (one-hot "
                "rows)", _whose),
        Segment("counts", (4,), "turns begun (W18), tokens in the centre pile, out of the "
                "game, cards left in the deck", numbers(_count_numbers),
                max(st.rules.p("rules.turn_limit") + 1, tokens, cards)),
        Segment("dead", (n,), "each player dead (W17)", numbers(_dead)),
        Segment("tokens", (n,), "each player's tokens", field("tokens"), tokens),
        Segment("hand", (k,), "the viewer's hand, cards of each kind", _hand, most),
        Segment("hand_sizes", (n,), "each hand's size", numbers(_hand_sizes), cards),
        Segment("discard", (k,), "the discard pile (face up, W19), cards of each kind",
                field("discard"), most),
        Segment("challenge", (3 + 2 * n + 3 + 4 * n,), "the challenge: its kind (duel, "
                "collective, blind), attacker, defender (one-hot), bet, raise, revealed; "
                "each seat's stake, taking part, out of the comparison, a card on the table",
                _fight, max(tokens, 2)),
        Segment("table", (2, n, k), "each seat's card on the table by kind, when the viewer "
                "may see it (its own, or revealed); the Wise Men each added", _cards_shown,
                most),
    )
    if kind != "observation":
        obs = (*obs, Segment("decisions", (1,), "decisions taken so far",
                             numbers(_decisions), st.max_game_length()))
    return Segments(obs, view=_view(st, obs))


def _view(st: War, segs: tuple[Segment, ...]) -> Callable[..., None]:
    """The layout's numbers in one call (core/tensors.py `Segments`): what the segments'
    writers above set, for the adapters' step (tests/test_adapters_packed.py compares them
    over random play), as one flat function made for the player count (each player's
    numbers set by a line of its own, every offset a constant: no loop over the players).
    What changes seldom is kept by its value: the discard pile's bytes, the deck's count
    (a sum of its counts), each viewer's hand's bytes (the test above fails when one is
    stale)."""
    at: dict[str, int] = {}
    for seg in segs:
        at[seg.name] = sum(s.size for s in segs[:len(at)])
    n, k = st.players, len(st.rules.cards)
    de, wh, co, dd, to, ha, hs, di, ch, ta = (at[x] for x in (
        "decision", "whose", "counts", "dead", "tokens", "hand", "hand_sizes", "discard",
        "challenge", "table"))
    if not _DECISION_ROW:
        _DECISION_ROW.update((name, i) for i, name in enumerate(decisions()))
    pile: list[Any] = [([], b"")]  # the last discard pile packed and its bytes, by value
    deck: list[Any] = [(None, 0)]  # the last deck's counts and their sum
    kept: dict[int, Any] = {}  # each viewer's last hand and its bytes
    space: dict[str, Any] = {"row": _DECISION_ROW, "deck": deck, "pile": pile,
             "kept": kept, "unseen": (None, b""),
             "pack": struct.Struct(f"={k}f").pack, "fights": _FIGHT_ROW,
             "decisions": _decisions}
    players = ", ".join(f"out[{{}} + {p}]" for p in range(n))  # (a row of n, from an offset)
    body = [
        "w = st.wait",
        "if w is not None:",
        "    i = row.get(w.name)",
        "    if i is not None:",
        f"        out[{de} + i] = 1.0",
        "c, a = st.current, st.ask",
        "if c is not None and c >= 0:",
        f"    out[{wh} + c] = 1.0",
        "if a is not None and a >= 0:",
        f"    out[{wh + n} + a] = 1.0",
        f"if 0 <= v < {n}:",
        f"    out[{wh + 2 * n} + v] = 1.0",
        "    h, seen = st.hands[v], kept.get(v, unseen)  # (the viewer's last hand and its",
        "    if h == seen[0]:  # bytes: a hand changes at a play or a draw)",
        f"        buf[{4 * ha}:{4 * (ha + k)}] = seen[1]",
        "    else:",
        "        for x in h:",
        f"            out[{ha} + x] += 1.0",
        f"        kept[v] = ([*h], bytes(buf[{4 * ha}:{4 * (ha + k)}]))",
        "dk, seen = st.deck, deck[0]  # (deck_size's sum of the deck's counts, kept with",
        "if dk != seen[0]:  # the counts: they change at a draw, summed again only then)",
        "    seen = deck[0] = ([*dk], sum(dk))",
        f"out[{co}], out[{co + 1}], out[{co + 2}], out[{co + 3}] = st.turn, st.centre, "
        "st.out, len(st.deck_top) + seen[1]",
        "alive, hands = st.alive, st.hands",
        *(line for p in range(n) for line in (f"if not alive[{p}]:",
                                              f"    out[{dd + p}] = 1.0")),
        f"{players.format(*[to] * n)}, = st.tokens",
        f"{players.format(*[hs] * n)}, = " + ", ".join(f"len(hands[{p}])" for p in range(n)),
        "d, last = st.discard, pile[0]  # (one pair read and written at once: thread-safe)",
        "if d != last[0]:  # (it changes seldom: packed again only then)",
        "    last = pile[0] = ([*d], pack(*d))",
        f"buf[{4 * di}:{4 * (di + k)}] = last[1]",
        *_fight_lines(n, k, ch, ta),
    ]
    if "decisions" in at:
        body.append(f"out[{at['decisions']}] = decisions(st)")
    code = "def write(st, v, out, buf):\n" + "".join(f"    {line}\n" for line in body)
    exec(compile(code, f"<Art of War's tensor writer, {n} players>", "exec"), space)
    made: Callable[..., None] = space["write"]  # (made above from constants and names)
    return made


def _fight_lines(n: int, k: int, ch: int, ta: int) -> list[str]:
    """The lines of `_view`'s writer that set the challenge (from `ch`) and the cards on
    the table (from `ta`): `_fight` and `_cards_shown` for n players and k kinds."""
    fa = ch + 3 + 2 * n + 3  # each seat's stake, taking part, out, card, from here
    return [
        "f = st.fight",
        "if f is not None:",
        f"    out[{ch} + fights[f.kind]] = 1.0",
        "    if f.attacker >= 0:",
        f"        out[{ch + 3} + f.attacker] = 1.0",
        "    if f.defender >= 0:",
        f"        out[{ch + 3 + n} + f.defender] = 1.0",
        f"    out[{fa - 3}], out[{fa - 2}], out[{fa - 1}] = f.bet, f.raised, "
        "f.revealed",  # (a flag: set as 1.0 or 0.0)
        "    stake, gone, card, shown = f.stake, f.out, f.card, f.revealed",
        *(line for p in range(n) for line in (  # (0 where out is 0 already)
            f"    if stake[{p}]:", f"        out[{fa + p}] = stake[{p}]",
            f"    if gone[{p}]:", f"        out[{fa + 2 * n + p}] = gone[{p}]",
            f"    if card[{p}] >= 0:",  # a card on the table; shown to its owner, or all
            f"        out[{fa + 3 * n + p}] = 1.0",
            f"        if shown or v == {p}:", f"            out[{ta + p * k} + card[{p}]] = 1.0")),
        "    for p in f.seats:",  # taking part
        f"        out[{fa + n} + p] = 1.0",
        "    added = f.added",  # the Wise Men each added
        *(line for p in range(n) for line in (
            f"    for x in added[{p}]:", f"        out[{ta + (n + p) * k} + x] += 1.0")),
    ]


def utility(st: War) -> str:
    """Zero-sum between two players (a win +1 and -1; a draw, W18, 0 and 0: both live, or
    both died at once), mixed from three (one winner, -1 for each other; a draw gives the
    living 0 and the dead -1)."""
    return "zero_sum" if st.players == 2 else "mixed"


def shown(st: War, player: int) -> tuple[()]:
    """Nothing beyond the history: every card shown (a reveal, a discard, a take) is an
    action or a trail event each player sees as W19 lets them (chance.py)."""
    return ()


# ====================================================================== the shaped score
SHAPE_TOKENS: Final = 0.5  # the weight of a player's share of the tokens; the rest: cards


def shaped_score(st: War) -> list[float]:
    """Each player's shaped score: the returns once it is over; in between -1 for the dead
    and, for each of the n living, 0.9 * (n * s - 1) / (n - 1), at most 0.9, where s = 0.5 *
    (their share of the tokens the living hold) + 0.5 * (their share of the cards in the
    living's hands): 0 for a fair share, 0.9 for all of it. (Worked out by a function made
    for the player count, `_score_of`: the adapters ask for it every step.)"""
    return _SCORES[st.players](st)


def shaped_scorer(st: War) -> Callable[[War], list[float]]:
    """`shaped_score` for the states of `st`'s game: the flat function made for its player
    count (`_score_of`), without `shaped_score`'s look-up and call."""
    return _SCORES[st.players]


class _Scores(dict[int, Callable[["War"], list[float]]]):
    """`_score_of`'s functions by player count, each made at its first use."""

    def __missing__(self, n: int) -> Callable[[War], list[float]]:
        made = self[n] = _score_of(n)
        return made


_SCORES = _Scores()
SHARES: Final = 64  # the shares kept: of up to this many tokens or cards (more: worked out)


def _shares(weight: float) -> list[list[float]]:
    """weight * x / total for each total (the row) from 1 to SHARES and x from 0 to it
    (row 0 empty: a total of none counts as 1): `_shaped`'s terms, worked out once."""
    return [[], *([weight * x / total for x in range(total + 1)]
                  for total in range(1, SHARES + 1))]


def _score_of(n: int) -> Callable[[War], list[float]]:
    """`shaped_score` for n players as one flat function: while every player lives (the
    common case), `_shaped`'s very operations in its order, each player's numbers read by
    a constant index and its two terms (weight * x / total, for the tokens and the cards)
    read from `_shares`' rows (no loop, no `compress`, `min` as its comparison: the same
    floats to the bit, tests/test_adapters_packed.py compares them); a player dead, or
    more tokens or cards than the rows hold: `_shaped`."""
    ps = range(n)
    spread = max(1, n - 1)
    div = f" / {spread}" if spread != 1 else ""  # (x / 1 is x, exactly)
    lines = [
        "if st.outcome is not None:",
        "    return st.returns()",
        f"{''.join(f'a{p}, ' for p in ps)}= st.alive",
        f"if not ({' and '.join(f'a{p}' for p in ps)}):",
        "    return shaped(st)",
        f"{''.join(f't{p}, ' for p in ps)}= st.tokens",
        f"{''.join(f'h{p}, ' for p in ps)}= st.hands",
        f"{''.join(f'c{p}, ' for p in ps)}= {', '.join(f'len(h{p})' for p in ps)}",
        "try:  # (every x within its total: the living hold them all)",
        f"    t, c = tokens[{' + '.join(f't{p}' for p in ps)} or 1], "
        f"cards[{' + '.join(f'c{p}' for p in ps)} or 1]",
        "except IndexError:",
        "    return shaped(st)",
        *(f"x{p} = 0.9 * ({n} * (t[t{p}] + c[c{p}]) - 1.0){div}" for p in ps),
        f"return [{', '.join(f'x{p} if x{p} < 0.9 else 0.9' for p in ps)}]",
    ]
    space: dict[str, Any] = {"shaped": _shaped, "tokens": _shares(SHAPE_TOKENS),
                             "cards": _shares(1 - SHAPE_TOKENS)}
    code = "def score(st):\n" + "".join(f"    {line}\n" for line in lines)
    exec(compile(code, f"<Art of War's shaped score, {n} players>", "exec"),
         space)  # (made above from constants)
    made: Callable[[War], list[float]] = space["score"]
    return made


def _shaped(st: War) -> list[float]:
    alive, tokens, hands = st.alive, st.tokens, st.hands
    n = len(alive) - alive.count(0)  # (0 dead, 1 alive)
    held = sum(compress(tokens, alive)) or 1  # the living's tokens and cards (integers)
    cards = sum(map(len, compress(hands, alive))) or 1
    w, rest, spread = SHAPE_TOKENS, 1 - SHAPE_TOKENS, max(1, n - 1)
    return [min(0.9, 0.9 * (n * (w * t / held + rest * len(h) / cards) - 1.0) / spread)
            if a else -1.0 for a, t, h in zip(alive, tokens, hands, strict=True)]
