"""What one decision of the heuristic bot reads from the state (`Now`: each fact worked out
at most once for it), and what the bot keeps between decisions (`Bot`, the base of
`Heuristic`: which cities are critical, the clue chains' counts, the helpers every part
reads)."""

from __future__ import annotations

import random
from typing import Any, Final

from ...actions import Action
from ..state import State
from .board import _Board, board


class Bot:
    """The heuristic bot's memory and helpers, which every part of it reads (see
    `Heuristic`)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self._critical: tuple[Any, dict[int, bool]] = (None, {})  # see critical_known
        self._board: tuple[Any, Any] = (None, None)  # (rules, their `_Board`): see `_Now`
        self.receiver = -1  # whom the clue card being traded is meant for
        self._chains: dict[int, tuple[list[int], list[int]]] = {}  # see chain_counts
        # the free symbols and each player's clue parts, as last seen (see `_Now`)
        self._free: tuple[Any, list[int], list[int], list[bool]] = (None, [], [], [])
        self._parts: dict[int, list[Any]] = {}  # by chain: see `_Now.clue_parts`
        # a move phase's free moves known to end, by position: see Movement._comes_back
        self._ends: tuple[Any, dict[tuple[Any, ...], Action | None]] = (None, {})

    def critical(self, st: State) -> frozenset[int]:
        """Cities whose fall would lose the game at once (a mission's hook may say so): found
        by letting the engine itself play the fall on a copy, whatever the rules are."""
        if not board(st.rules).city_lost:
            return frozenset()  # no hook on a city's fall: no fall loses at once
        now = Now(self, st)
        return frozenset(c for c in range(len(st.rules.cities)) if now.critical(c))

    def critical_known(self, st: State) -> dict[int, bool]:
        """Whether each city asked about so far is critical (see `critical`), kept while the
        round, the track and the lost cities are the same."""
        key = (st.rules, st.round, len(st.track), tuple(st.lost))
        if self._critical[0] != key:
            self._critical = (key, {})
        return self._critical[1]

    def chain_counts(self, chain: list[int], b: _Board) -> list[int]:
        """Cards of a clue chain bearing each symbol. A chain grows a card at a time: the
        counts of the chain as last seen are kept, and only the cards added since counted
        (a chain that changed otherwise is counted afresh)."""
        seen = self._chains.get(id(chain))
        if seen is not None:
            was, counts = seen
            if was == chain:
                return counts
            n = len(was)
            if n < len(chain) and chain[:n] == was:
                counts = counts.copy()
                for x in chain[n:]:
                    for s in b.clues[x]:
                        counts[s] += 1
                self._chains[id(chain)] = (chain.copy(), counts)
                return counts
        counts = [0] * len(b.symbol_cities)
        for x in chain:
            for s in b.clues[x]:
                counts[s] += 1
        self._chains[id(chain)] = (chain.copy(), counts)
        return counts

    # ---------------------------------------------------------------- helpers
    @staticmethod
    def have(st: State, kind: str) -> int:
        return st.van[st.tab.res_index[kind]]

    @staticmethod
    def spare(st: State, player: int) -> int:
        """Health a player may spend and keep one token: the easier, the more (difficulty)."""
        return max(0, st.health[player] - 1)

    def shortfall(self, st: State, pairs: Any) -> int:
        """Health tokens a cost would take under the golden rule."""
        need: dict[str, int] = {}
        for k, n in pairs:
            need[k] = need.get(k, 0) + n
        return sum(max(0, n - (self.have(st, k) if k != "health" else 0)) for k, n in
                   need.items())

    @staticmethod
    def dice(st: State, city: int, players: list[int]) -> int:
        n = len(players) + st.allies
        if st.solo and st.pawns[st.players] == city:
            n += 1
        return n

    def win_margin(self, st: State, city: int) -> float:
        """Expected team strength (dice and spare weapons) minus the agents' strength."""
        return win_margin(st, board(st.rules), city)


class Now:
    """What one decision reads, each worked out at most once for it: the cities whose fall
    loses, the battles' margins, each player's clues by symbol, the symbols still to find."""

    __slots__ = ("b", "bot", "crit", "deliver", "free", "left", "margins", "st")

    def __init__(self, bot: Bot, st: State) -> None:
        self.bot, self.st = bot, st
        known = bot._board  # the board of the rules last seen
        if known[0] is st.rules:
            self.b = known[1]
        else:
            self.b = board(st.rules)
            bot._board = (st.rules, self.b)
        self.crit: dict[int, bool] | None = None  # the cities asked about so far
        self.margins: dict[int, float] = {}
        self.free: list[bool] | None = None
        self.left: int | None = None
        # the cities where the next track space wants an artwork (empty: any will do)
        self.deliver: tuple[int, ...] | None = None

    def agents_left(self) -> int:
        """Agent tokens left in the reserve."""
        if self.left is None:
            st = self.st
            self.left = st.tab.agent_tokens - sum(st.agents) - st.hq
        return self.left

    def critical(self, city: int) -> bool:
        """Whether the city's fall would lose the game at once (`Heuristic.critical`),
        worked out for the cities asked about only."""
        known = self.crit
        if known is None:
            if not self.b.city_lost:
                return False
            known = self.crit = self.bot.critical_known(self.st)
        c = known.get(city)
        if c is None:
            st = self.st
            c = known[city] = not st.lost[city] and st.if_city_falls(city).outcome == "lost"
        return c

    def margin(self, city: int) -> float:
        """`_win_margin` (written out: a decision asks for up to one a city)."""
        m = self.margins.get(city)
        if m is None:
            st = self.st
            pawns, players = st.pawns, st.players
            n = (pawns if len(pawns) == players else pawns[:players]).count(city)
            if not n:
                m = -99.0
            else:
                n += st.allies
                if st.solo and pawns[players] == city:
                    n += 1
                b = self.b
                strength = 3.5 * n + b.bonus * st.van[b.boost_i]
                m = strength - (st.agents[city] + st.threat() + st.hq)  # (agent_strength)
            self.margins[city] = m
        return m

    def free_symbols(self) -> list[bool]:
        """Per symbol: a city bearing it is neither lost nor holds its artwork yet (the
        same list as the last decision's while the lost cities and artworks are)."""
        f = self.free
        if f is None:
            st, bot = self.st, self.bot
            lost, artworks = st.lost, st.artworks
            seen = bot._free
            if seen[0] is self.b and seen[1] == lost and seen[2] == artworks:
                f = self.free = seen[3]
            else:
                f = self.free = []
                for cities in self.b.symbol_cities:
                    for c in cities:
                        if not lost[c] and not artworks[c]:
                            f.append(True)
                            break
                    else:
                        f.append(False)
                bot._free = (self.b, lost.copy(), artworks.copy(), f)
        return f

    def clue_parts(self, chain: list[int]) -> list[float]:
        """Per symbol: what a clue of it adds to the score of a card played onto `chain`,
        from the chain's cards bearing it (kept while the chain's counts and the free
        symbols are)."""
        b, free = self.b, self.free_symbols()
        need = b.need
        seen = self.bot._parts.get(id(chain))  # [chain as seen, counts, free, parts, board]
        todo: Any = None
        if seen is not None:
            if seen[2] is free and seen[4] is b and seen[0] == chain:
                return seen[3]  # type: ignore[no-any-return]  # (the same: the usual case)
            todo = _grown(seen, chain, b, free) if seen[4] is b else _AFRESH
            if todo is None:
                return seen[3]  # type: ignore[no-any-return]
            if todo is _AFRESH:
                seen = None
        if seen is None:
            fresh = [0] * len(b.symbol_cities)
            for x in chain:
                for sym in b.clues[x]:
                    fresh[sym] += 1
            seen = self.bot._parts[id(chain)] = [chain.copy(), fresh, free,
                                                 [0.0] * len(fresh), b]
            todo = range(len(fresh))
        counts: list[int] = seen[1]
        parts: list[float] = seen[3]
        seen[2] = free
        for sym in todo:
            have = counts[sym]
            if have + 1 >= need:
                parts[sym] = 4.0 if free[sym] else -0.5
            else:
                parts[sym] = 0.6 * (have + 1) if free[sym] else 0.1
        return parts


_AFRESH: Final = object()  # `_grown`: the chain changed otherwise: count it afresh


def _grown(seen: list[Any], chain: list[int], b: _Board, free: list[bool]) -> Any:
    """The symbols whose clue parts a chain as last seen (`seen`, kept by `Now.clue_parts`)
    needs anew: None for none (the same chain, the same free symbols), every symbol when the
    free symbols changed, the symbols of the cards added when the chain grew (their counts
    added), or _AFRESH when it changed otherwise."""
    was, counts = seen[0], seen[1]
    if was == chain:
        if seen[2] is free:
            return None
        return range(len(counts))  # every part anew
    if len(was) < len(chain) and chain[:len(was)] == was:
        todo: Any = set()  # a chain grows a card at a time: the symbols it adds, anew
        for x in chain[len(was):]:
            for sym in b.clues[x]:
                counts[sym] += 1
                todo.add(sym)
        was[len(was):] = chain[len(was):]
        if seen[2] is not free:
            todo = range(len(counts))
        return todo
    return _AFRESH


def win_margin(st: State, b: _Board, city: int) -> float:
    """Expected team strength (dice and spare weapons) minus the agents' strength."""
    pawns, players = st.pawns, st.players
    n = (pawns if len(pawns) == players else pawns[:players]).count(city)  # the players'
    if not n:
        return -99.0
    n += st.allies
    if st.solo and pawns[players] == city:
        n += 1
    strength = 3.5 * n + b.bonus * st.van[b.boost_i]
    return strength - st.agent_strength(city)


def nearest(targets: list[int], pawns: list[int], dist_to: tuple[tuple[int, ...], ...],
            ) -> dict[int, list[int]]:
    """Each target to its nearest pawn, the less busy one on a tie, then the first
    (`dist_to`: per city, the roads to it from every city)."""
    mine: dict[int, list[int]] = {}
    load = [0] * len(pawns)
    others = range(1, len(pawns))
    for t in targets:
        to = dist_to[t]
        near, nd, nl = 0, to[pawns[0]], load[0]
        for i in others:
            di = to[pawns[i]]
            if di <= nd and (di < nd or load[i] < nl):
                near, nd, nl = i, di, load[i]
        load[near] += 1
        mine.setdefault(near, []).append(t)
    return mine


def delivery(st: State) -> list[int]:
    """The cities whose symbol the next track space demands (empty: any will do)."""
    r = st.rules
    nxt = r.track[len(st.track)].symbol if len(st.track) < len(r.track) else None
    return [c for c in r.by_symbol.get(nxt, ()) if not st.lost[c]] if nxt else []
