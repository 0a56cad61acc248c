"""The clue chain (R8's fourth section, R9, R10): a played card joins the chain clue side up;
three matching clues uncover an artwork on the city of their symbol, in the order the team
picks when several triples complete at once (`[rules] simultaneous_triples`: the card that
completed them goes with the first, R10; or, the variant each-triple, every one resolves).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice
from typing import TYPE_CHECKING, Final

from .effects import emit
from .registry import CITY, REG, SHOW_CITY, SYMBOL, answer_arg, answer_city, city_check
from .rules import Ctx

if TYPE_CHECKING:
    from .state import State


def add_clue(st: State, player: int, card: int) -> None:
    """The played card turns clue side up onto the chain (R8, its fourth section)."""
    d = st.discard
    if d and d[-1] == card:  # where the play left it: nothing is discarded mid-card
        d.pop()
    else:
        d.remove(card)
    chains = st.chains
    chain = chains[0] if len(chains) == 1 else chains[player]
    chain.append(card)
    # only this card's symbols can have reached a triple (the chain held none before)
    t = st.tab
    need = t.need
    if len(chain) >= need:
        bearing, done = t.bearing, []
        for s in t.clues[card]:
            if sum(map(bearing[s].__contains__, chain)) >= need:
                done.append(st.rules.symbols[s])
        if done:
            triples_found(st, player, done)


def triples_found(st: State, player: int, done: list[str]) -> None:
    """Triples completed in the player's chain: the team picks which resolves first (R10);
    a single one resolves at once (as a pause of one option would)."""
    if len(done) == 1:
        resolve_triple(st, player, done[0])
    elif st.tab.each_triple:  # [rules] simultaneous_triples = "each" (the variant each-triple)
        st.pause(TRIPLE, done, _each_choice, (_ctx(st, player), tuple(done)))
    else:
        st.pause(TRIPLE, done, _triple_choice, (_ctx(st, player),))


def completed(st: State, player: int, among: Iterable[int] | None = None) -> list[str]:
    """The symbols with a full triple in the player's chain (only `among`, if given)."""
    chain = st.chain_of(player)
    t = st.tab
    need, bearing, symbols = t.need, t.bearing, st.rules.symbols
    if len(chain) < need:
        return []
    return [symbols[s] for s in (range(len(symbols)) if among is None else among)
            if sum(map(bearing[s].__contains__, chain)) >= need]


def check_triples(st: State, player: int) -> None:
    """R10's re-check: a triple completed again (or by a traded card) resolves too."""
    done = completed(st, player)
    if done:
        triples_found(st, player, done)


def _triple_choice(st: State, symbol: str, ctx: Ctx) -> None:
    resolve_triple(st, ctx.player, symbol)


def _each_choice(st: State, symbol: str, ctx: Ctx, done: tuple[str, ...]) -> None:
    """`simultaneous_triples = "each"`: the picked triple resolves, then, once its artwork is
    placed, the others found with it, even with the shared card gone (each on the cards of
    its symbol still in the chain), in the team's order; R10's re-check comes after them."""
    mark = len(st.queue)  # where resolve_triple queues its re-check
    resolve_triple(st, ctx.player, symbol)
    rest = tuple(s for s in done if s != symbol)
    if rest and st.outcome is None:  # above the re-check, below the placing's own work
        st.queue.insert(mark + 1, (_each_rest, (ctx, rest)))


def _each_rest(st: State, ctx: Ctx, rest: tuple[str, ...]) -> None:
    """The triples still to resolve of those found together: the team picks the next."""
    st.pause(TRIPLE, rest, _each_choice, (ctx, rest))


def resolve_triple(st: State, player: int, symbol: str) -> None:
    """Discard the three cards bearing `symbol`; uncover an artwork on a free city of that
    symbol, in the team's choice of city (R10)."""
    t = st.tab
    chains = st.chains
    chain = chains[0] if len(chains) == 1 else chains[max(player, 0)]
    picked = list(islice(filter(t.bearing_of[symbol].__contains__, chain), t.need))
    for c in picked:
        chain.remove(c)
    st.discard.extend(picked)
    if st.logging:
        st.note("triple", symbol)
    st.queue.append((check_triples, (player,)))
    lost, arts = st.lost, st.artworks
    free = [c for c in st.rules.by_symbol.get(symbol, ()) if not lost[c] and not arts[c]]
    if not free or st.reserve("artwork") <= 0:
        st.note("wasted", symbol)
    elif len(free) == 1:  # nothing to choose: uncovered at once (as a pause of one option)
        uncover(st, free[0], player)
    else:
        st.pause(PLACE, free, _uncover, (_ctx(st, player),))


def _ctx(st: State, player: int) -> Ctx:
    """The context of a player's clue chain (made once per player)."""
    return st.tab.player_ctx[player] if player >= 0 else Ctx(player)


def _uncover(st: State, city: int, ctx: Ctx) -> None:
    uncover(st, city, ctx.player)


def uncover(st: State, city: int, player: int) -> None:
    st.artworks[city] = 1
    if st.logging:
        st.note("uncovered", st.city_name(city))
    if "artwork_uncovered" in st.tab.hooks:
        emit(st, "artwork_uncovered", Ctx(player, city))


V_TRIPLE: Final = REG.verb("triple", SYMBOL, apply=answer_arg,
                           help="which completed clue triple resolves first (R10)")
V_PLACE: Final = REG.verb("place", CITY, apply=answer_city, check=city_check,
                          help="which city receives the artwork or agents")
TRIPLE: Final = REG.choice("triple", V_TRIPLE, "which completed triple resolves first (R10)")
PLACE: Final = REG.choice("place", V_PLACE, "which city an uncovered artwork goes to (R10)",
                          show=SHOW_CITY)
