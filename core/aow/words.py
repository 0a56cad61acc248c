"""Art of War's words in the effect DSL (docs/dsl.md, "Art of War"): its quantities per
player and per card, its statements (lose and gain tokens or cards, for each [other]
player, and the card powers' own: take_back, steal, withdraw, collective_challenge,
blind_challenge) and the helpers the generated code calls. The compiler is every game's
(dsl/compiler.py); the code it makes for these words touches a state only through
`WarState` (facade.py).

A text runs for one player, `player` (a card's owner, the winner whose card's collateral
hits the others, the drawer of a card played at once); `for each other player` is every
living player but them, in order of play from them (W3).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Final

import attrs

from ...dsl import ast as a
from ...dsl.compiler import keywords
from ...dsl.words import Code, Sig, Words
from .facade import WarState
from .registry import P
from .rules import Ctx

if TYPE_CHECKING:
    from ...dsl.compiler import Compiler


@attrs.frozen
class WarScope:
    """The names a rule text of Art of War may use besides the words: the deck's cards."""

    cards: dict[str, int]


def _of(xs: list[int], i: int) -> int:
    """A seat's entry, 0 for a seat the game does not have (p7 in a 4-player game)."""
    return xs[i] if 0 <= i < len(xs) else 0


def _size(xs: list[list[int]], i: int) -> int:
    return len(xs[i]) if 0 <= i < len(xs) else 0


NAMES: Final[dict[str, Code]] = {
    "players": ("int", "st.players"),
    "living": ("int", "sum(st.alive)"),
    "centre": ("int", "st.centre"),
    "deck": ("int", "st.deck_size()"),
    "discard": ("int", "sum(st.discard)"),
    "table": ("int", "st.table()"),
    "out": ("int", "st.out"),
    "turn": ("int", "st.turn"),
    "bet": ("int", "st.bet_now()"),
    "challenge": ("str", "st.challenge_kind()"),
    "outcome": ("str", "(st.outcome or '')"),
    "wait": ("str", "st.wait_name()"),
}
CALLS: Final[dict[str, Sig]] = {
    "tokens": ((("player",),), "int", "_of(st.tokens, {0})"),
    "hand": ((("player",),), "int", "_size(st.hands, {0})"),
    "alive": ((("player",),), "bool", "bool(_of(st.alive, {0}))"),
    "stake": ((("player",),), "int", "st.stake_of({0})"),
    "played": ((("card",),), "int", "st.in_comparison({0})"),
    "discarded": ((("card",),), "int", "st.discard[{0}]"),
    # what only checks may read: hands, the deck, a face-down card, how a player died
    "holds": ((("player",), ("card",)), "int", "st.holds({0}, {1})"),
    "in_deck": ((("card",),), "int", "st.in_deck({0})"),
    "deck_top": ((("int",),), "str", "st.deck_card({0})"),
    "face_down": ((("player",),), "str", "st.face_down({0})"),
    "cause": ((("player",),), "str", "st.cause_of({0})"),
    "killers": ((("player",),), "str", "st.killers_of({0})"),
    "min": ((("int",), ("int",)), "int", "min({0}, {1})"),
    "max": ((("int",), ("int",)), "int", "max({0}, {1})"),
}
STATEMENTS: Final[dict[str, Sig]] = {
    # W11: a Thief's owner takes back what is left of their stake, steals N from each other
    "take_back": ((), "", "st.take_back(ctx)"),
    "steal": ((("int",),), "", "st.steal(ctx, {0})"),
    # the card leaves the comparison (its owner adds no Wise Man, draws no replacement)
    "withdraw": ((), "", "st.withdraw(ctx)"),
    # W14: the drawer attacks every other player holding a card and a token
    "collective_challenge": ((), "", "st.collective_challenge(ctx)"),
    # W15: every player holding a card and a token bets N and plays the deck's next card
    "blind_challenge": ((("int",),), "", "st.blind_challenge(ctx, {0})"),
}
HIDDEN: Final = frozenset({"holds()", "in_deck()", "deck_top()", "face_down()"})
AMOUNTS: Final = ("token", "card")

# Words the DSL reads as something else: no card may be named so.
RESERVED: Final = (keywords() | set(NAMES) | set(CALLS) | set(STATEMENTS) | set(P)
                   | {"player", "token", "tokens", "card", "cards"})


class WarWords(Words):
    """Art of War's vocabulary; its scope (`Compiler.scope`) is a `WarScope`."""

    game = "Art of War"
    names = NAMES
    calls = CALLS
    statements = STATEMENTS
    hidden = HIDDEN
    players = P
    env = MappingProxyType({"_of": _of, "_size": _size})
    facade = WarState
    rules = "a card's rules"

    def ref(self, comp: Compiler, e: a.Ref, bound: frozenset[str]) -> Code:
        head = e.parts[0]
        if len(e.parts) == 1 and head not in bound and head in comp.scope.cards:
            return str(comp.scope.cards[head]), "card"
        return comp.plain_ref(e, bound)

    def known(self, comp: Compiler, bound: frozenset[str]) -> list[str]:
        return [*NAMES, *bound, *comp.scope.cards]

    def statement(self, comp: Compiler, s: a.Stmt, bound: frozenset[str]) -> str:
        if isinstance(s, a.Lose | a.Gain):
            return _amounts(comp, s, bound)
        if isinstance(s, a.ForEach):
            return _for_each(comp, s, bound)
        return super().statement(comp, s, bound)


def _amounts(comp: Compiler, s: a.Lose | a.Gain, bound: frozenset[str]) -> str:
    """`lose 1 token, 1 card`: tokens to the centre pile, cards discarded face up by their
    owner's choice (W9), as far as the player's holdings go; `gain 2 tokens`: from the centre,
    as far as it goes. For `player` where bound, else the player the text runs for."""
    lines = []
    for x in s.amounts:
        kind = comp.kind(x, AMOUNTS)
        if isinstance(s, a.Gain) and kind == "card":
            comp.err("'gain' takes tokens from the centre pile; cards are drawn only by the "
                     "rules (W9)", x)
        verb = "gain_tokens" if isinstance(s, a.Gain) else f"lose_{kind}s"
        lines.append(f"st.{verb}(ctx.player, {x.count})")
    return "\n".join(lines) or "pass"


def _for_each(comp: Compiler, s: a.ForEach, bound: frozenset[str]) -> str:
    if s.city is not None:
        comp.err("'in' names a city of The A.R.T. Project; Art of War has none", s)
    inner = bound | {"player"}
    body = comp.const(comp.stmt(s.body, inner))
    cond = "True"
    if s.cond is not None:
        cond = comp.const(comp.fn("st, ctx", "return " + comp.condition_code(s.cond, inner)))
        cond += "(st, _c)"
    ctxs = comp.const(_CTXS)
    if s.cond is None and _tokens_only(s.body):
        # tokens lost or gained queue nothing and ask nothing, and a statement's code ends its
        # step (a block queues its statements): the players' steps, queued, would run next,
        # one after the other, so they run now, in the same order
        return (f"for _p in st.order_from(ctx.player, {s.others}):\n"
                f"    {body}(st, {ctxs}[_p])")
    if s.cond is None and _one_card(s.body):
        # `lose 1 card`: each player's step, when it runs, only queues that player's discard
        # (a living player's, always one: the order holds the living), so each discard is
        # queued at once in its player's place instead, the first player's on top: the
        # same discards asked in the same order, as many steps queued at each
        return (f"for _p in reversed(st.order_from(ctx.player, {s.others})):\n"
                "    st.lose_cards(_p, 1)")
    return (f"_items = []\nfor _p in st.order_from(ctx.player, {s.others}):\n"
            f"    _c = {ctxs}[_p]\n"
            f"    if {cond}:\n        _items.append(({body}, _c))\n"
            "st.push_many(_items)")


def _one_card(s: a.Stmt) -> bool:
    """`lose 1 card` alone (its step queues one discard and does nothing else)."""
    return (isinstance(s, a.Lose) and len(s.amounts) == 1 and s.amounts[0].count == 1
            and s.amounts[0].kind in ("card", "cards"))


def _tokens_only(s: a.Stmt) -> bool:
    """`lose 1 token`, `gain 2 tokens`: effects on tokens alone (they never queue a step)."""
    return isinstance(s, a.Lose | a.Gain) and all(x.kind in ("token", "tokens")
                                                  for x in s.amounts)


_CTXS: Final = tuple(Ctx(p) for p in range(len(P)))  # each seat's context, shared (immutable)


def card_name_problem(name: str) -> str | None:
    """Why a card cannot be named so (a word the DSL reads as something else), or None."""
    if name in RESERVED:
        return (f"{name!r} cannot be a card's name: the DSL reads it as a word of its own "
                "(tokens, hand, steal, p1, ...); choose another")
    return None


WORDS: Final = WarWords()
__all__ = ["RESERVED", "WORDS", "WarScope", "WarWords", "card_name_problem"]


