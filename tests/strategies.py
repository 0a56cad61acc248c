"""Hypothesis strategies shared by the tests: DSL trees, games, action sequences."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from hypothesis import strategies as st

from artproject.dsl import ast as a

NAMES = st.sampled_from(["fuel", "radio", "weapon", "health", "tokyo", "kyoto", "films",
                         "threat", "round", "hq", "city", "player", "van", "music"])
SMALL = st.integers(min_value=0, max_value=99)


def exprs(depth: int = 3) -> st.SearchStrategy[a.Expr]:
    """Expression trees, as the parser builds them."""
    leaves: st.SearchStrategy[a.Expr] = st.one_of(
        SMALL.map(a.Num),
        st.text(alphabet="abc xyz", max_size=5).map(a.Str),
        st.booleans().map(a.Bool),
        st.lists(NAMES, min_size=1, max_size=2).map(lambda p: a.Ref(tuple(p))),
    )
    if depth == 0:
        return leaves
    sub = exprs(depth - 1)
    return st.one_of(
        leaves,
        st.builds(lambda n, xs: a.Call(n, tuple(xs)), NAMES, st.lists(sub, max_size=2)),
        st.builds(a.Unary, st.sampled_from(["not", "-"]), sub),
        st.builds(a.Binary, st.sampled_from(["or", "and", "==", "!=", "<", "<=", ">", ">=",
                                             "+", "-", "*"]), sub, sub),
        st.builds(a.Choice, sub, sub, sub),
    )


AMOUNTS = st.lists(st.builds(a.Amount, st.integers(1, 9), NAMES), min_size=1, max_size=3).map(
    tuple)


def stmts(depth: int = 2) -> st.SearchStrategy[a.Stmt]:
    """Statement trees."""
    leaves: st.SearchStrategy[a.Stmt] = st.one_of(
        AMOUNTS.map(a.Gain), AMOUNTS.map(a.Pay), AMOUNTS.map(a.Lose),
        st.builds(a.Place, st.integers(1, 5),
                  st.sampled_from(["@hq", "@every", "@every_other", "tokyo", "films"])),
        st.builds(a.EndGame, st.booleans(), st.one_of(st.none(), st.text("ab c", max_size=6))),
    )
    if depth == 0:
        return leaves
    sub = stmts(depth - 1)
    return st.one_of(
        leaves,
        st.builds(a.If, exprs(1), sub, st.one_of(st.none(), sub)),
        st.builds(a.ForEach, st.one_of(st.none(), st.just("dallas")),
                  st.one_of(st.none(), exprs(1)), sub),
        st.lists(sub, min_size=2, max_size=3).map(lambda xs: a.Block(tuple(xs))),
    )


@st.composite
def card_positions(draw: st.DrawFn, deck: tuple[int, ...], final: int, players: int,
                   clues: Mapping[int, tuple[int, ...]], need: int = 3) -> dict[str, object]:
    """The card entries of a position (hands, chain, discard, deck_top, final_round): some
    cards of `deck`, each named once, and sometimes the final card where it may lie. The
    chain never holds `need` cards bearing one clue symbol (`clues`: each card's), as no
    chain does (R10): a card that would complete a set goes to the discard."""
    named = draw(st.lists(st.sampled_from(deck), unique=True, max_size=len(deck)))
    places = ["chain", "discard", "deck_top", *(f"p{i + 1}" for i in range(players))]
    pos: dict[str, object] = {}
    hands: dict[str, list[int]] = {}
    held: Counter[int] = Counter()  # the chain's clue symbols
    for c in named:
        where = draw(st.sampled_from(places))
        if where == "chain" and any(held[s] + 1 >= need for s in clues[c]):
            where = "discard"
        if where.startswith("p"):
            hands.setdefault(where, []).append(c)
        else:
            pos.setdefault(where, []).append(c)  # type: ignore[union-attr]
            held.update(clues[c] if where == "chain" else ())
    if hands:
        pos["hands"] = hands
    fate = draw(st.sampled_from(["deck", "discard", "deck_top", "final_round"]))
    if fate == "final_round":
        pos["final_round"] = True
    elif fate != "deck":
        pile = pos.setdefault(fate, [])
        assert isinstance(pile, list)
        pile.insert(draw(st.integers(0, len(pile))), final)
    return pos
