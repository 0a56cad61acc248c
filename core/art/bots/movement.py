"""The heuristic bot's movement: where the pawns are wanted (artworks to collect and
deliver, cities near the agents' limit to fight for), each target to its nearest pawn, and
each move weighed by how much nearer it brings its pawn against what it costs under the
golden rule (R4, R5); where an artwork is placed.

A move that costs nothing (a board's free roads, or its free moves one way) is one the team may
make again and again (R11 sets no limit, and none is needed: players stop when they like).
The bot stops too: where its own next free moves would bring the phase straight back to
where it stands, it ends the movement there (`_comes_back`), so no game loops on them."""

from __future__ import annotations

from typing import Any, Final

from ...actions import Action
from ..registry import ALLY_PAWN
from ..state import State
from .board import distances
from .now import Bot, Now, delivery, nearest

_MOVES: Final = frozenset({"move", "carry"})
_LOOKAHEAD: Final = 64  # the bot's own free moves followed to see whether they come back


class Movement(Bot):
    """The move phase's decisions (see the module's text)."""

    def targets(self, st: State) -> list[int]:
        """Cities worth going to: artworks to collect, agents near 5 to fight."""
        return self._targets(Now(self, st))

    def _targets(self, now: Now) -> list[int]:
        st, b = now.st, now.b
        syms = b.track_symbols
        nxt = syms[len(st.track)] if len(st.track) < len(syms) else None
        carried = {st.pawns[i] for i, k in enumerate(st.carried) if k} if any(st.carried) else ()
        out = _collect_or_fight(now, nxt, carried)
        if nxt is not None and (any(st.artworks) or carried):
            # a track that demands its artworks in order: deliver to the district it names
            lost = st.lost
            out += [c for c in st.rules.by_symbol.get(nxt, ()) if not lost[c] and c not in out]
        return out

    delivery = staticmethod(delivery)

    def on_move(self, st: State, legal: list[Action]) -> Action | None:
        """A pawn that must leave a lost city leaves; else the first best move toward a
        target, if any is worth its cost, unless it is free and the bot's own free moves
        after it would bring the pawns back to where they stand: no progress, so the
        movement ends here (None: the default, `done`)."""
        known = self._ends
        if known[0] is not None and known[0] == _phase(st):
            way = known[1]
            here = _position(st)
            if here in way:
                return way[here]  # on the way of free moves already followed to their end
        now = Now(self, st)
        a = self._move(st, legal, now)
        if a is None or a.verb not in _MOVES or not _free(st, now.b, a):
            return a
        return None if self._comes_back(st, a, now.b) else a

    def _comes_back(self, st: State, a: Action, b: Any) -> bool:
        """Whether the bot's own moves from `st`, `a` first, come back to `st`'s position
        (see `_position`) by free moves only. A move that costs something cannot be part
        of such a loop (what the team spends does not come back within the phase), and
        the bot's choice depends on the state alone, so once back it would go round
        forever. Where they end without coming back to any position, the move from each
        position on the way is kept (`_ends`): from there the bot takes the same way, so
        its next decisions need not work it out again."""
        start, phase = _position(st), st.wait
        way: dict[tuple[Any, ...], Action | None] = {start: a}
        c = st.clone()
        for _ in range(_LOOKAHEAD):
            c.apply(a)
            if c.outcome is not None or c.wait != phase:
                break  # the movement ended (or the game)
            here = _position(c)
            if here == start:
                return True
            if here in way:
                return False  # a loop ahead, not through here: asked again when there
            nxt = self._move(c, c.legal_actions())
            way[here] = nxt
            if nxt is None or nxt.verb not in _MOVES or not _free(c, b, nxt):
                break
            a = nxt
        else:
            return False
        self._ends = (_phase(st), way)
        return False

    def _move(self, st: State, legal: list[Action], now: Now | None = None,
              ) -> Action | None:
        """The move the bot wants, before it asks whether the move comes back (`on_move`)."""
        now = Now(self, st) if now is None else now
        targets = self._targets(now)
        if st.must_leave:
            pawns = st.pawns
            forced = [a for a in legal if a.verb in _MOVES
                      and st.pawn_index(a.player) in st.must_leave
                      and st.lost[pawns[st.pawn_index(a.player)]]]
            if forced:
                return forced[0]
        if not targets:
            return None
        return _best_move(now, legal, targets)

    def on_place(self, st: State, legal: list[Action]) -> Action:
        """The artwork goes where it is easiest to collect: fewest agents, nearest pawn."""
        d = distances(st.rules)

        def cost(a: Action) -> tuple[int, int]:
            c = st.rules.city_index[str(a.arg)]
            return (st.agents[c], min(d[p][c] for p in st.pawns))
        return min(legal, key=cost)

    def on_collect(self, st: State, legal: list[Action]) -> Action:
        return legal[0]


def _free(st: State, b: Any, a: Action) -> bool:
    """Whether a move (or carry) costs the team nothing, health included (the rules' cost of
    its road, R11; a mission's own, such as a board's free roads)."""
    i = st.players if a.player == ALLY_PAWN else a.player
    _dst, ctx = b.steps[a.player][st.pawns[i]][a.arg]
    need, total = b.costs[st.rules.move_cost(st, ctx)]
    return total == 0 and not any(n for _k, n in need)


def _position(st: State) -> tuple[Any, ...]:
    """What a move phase's decisions can change: where the pawns and the artworks are, what
    the team holds, who has moved, who must leave."""
    return (tuple(st.pawns), tuple(st.carried), tuple(st.artworks), tuple(st.van),
            tuple(st.health), tuple(st.moved), tuple(st.must_leave))


def _phase(st: State) -> tuple[Any, ...]:
    """What one move phase leaves as it is but may tell two phases the bot meets apart (a
    search's worlds: by the hands): with `_position`, what the bot's moves read."""
    return (st.rules, st.round, tuple(st.agents), tuple(st.lost), len(st.track), st.allies,
            st.hq, tuple(map(tuple, st.hands)))


def _collect_or_fight(now: Now, nxt: Any, carried: Any) -> list[int]:
    """The cities with an artwork to collect (or carried) where the next track space wants
    it and the battle is not hopeless, and those near the agents' limit (or whose fall
    would lose)."""
    st, b = now.st, now.b
    at = b.lost_at
    lost, agents, artworks = st.lost, st.agents, st.artworks
    city_symbol = b.city_symbol
    out = []
    for c in range(len(lost)):
        if lost[c]:
            continue
        if (artworks[c] or c in carried) and (agents[c] == 0 or now.margin(c) > -4):
            if nxt is None or nxt == city_symbol[c] or artworks[c]:
                out.append(c)
            continue
        if agents[c] < at - 3:
            continue  # (too few agents, critical or not)
        if agents[c] >= at - 2 or now.critical(c):
            out.append(c)
    return out


def _mover(now: Now, who: int, mine: dict[int, list[int]], targets: list[int],
           ) -> tuple[Any, ...]:
    """One mover's part of a move decision (a player's pawn or the ally pawn): its goals
    (the targets nearest it, else all), its moves by destination, whether it stays to
    collect, the only moves that may bring it nearer (by destination's name; None: any),
    whether it holds an artwork, how near its goals it is, where it is."""
    st, b = now.st, now.b
    i = st.players if who == ALLY_PAWN else who
    goals = mine.get(i) or targets
    here = st.pawns[i]
    stay = here in goals and st.can_collect(here)
    row = b.dist[here]
    near = 99
    for g in goals:
        if row[g] < near:
            near = row[g]
    holds = st.carried[i]
    # the moves that may bring it nearer (None: all): none at a goal, unless it carries an
    # artwork; where a pawn goes anywhere in one move, only a move onto a goal
    onto: frozenset[str] | None = None
    if stay or (near == 0 and not holds):
        onto = frozenset()
    elif b.anywhere and not holds:
        onto = frozenset(map(st.tab.names.__getitem__, goals))
    return goals, b.steps[who][here], stay, onto, holds, near, here


def _carrying(now: Now, here: int, near: int, goals: list[int], dst: int) -> int:
    """How much nearer a move from `here` to `dst` takes an artwork (carried, or held) to
    where the next track space wants it, or else to the mover's goals (where it is wanted
    and how near `here` is to it worked out once a decision)."""
    d = now.b.dist
    known = now.deliver
    if known is None:
        known = now.deliver = (delivery(now.st), {})
    deliver, nearness = known
    if deliver:  # take the artwork where it is wanted
        from_here = nearness.get(here)
        if from_here is None:
            from_here = nearness[here] = min(map(d[here].__getitem__, deliver))
        return from_here - min(map(d[dst].__getitem__, deliver))  # type: ignore[no-any-return]
    return near - min(map(d[dst].__getitem__, goals))  # type: ignore[no-any-return]


def _best_move(now: Now, legal: list[Action], targets: list[int]) -> Action | None:
    """The first best move: each target to its nearest pawn, the less busy one on a tie,
    so that the pawns spread out over the board (on a board where a pawn goes anywhere,
    every tie); each move that brings its pawn nearer weighed against what it costs."""
    st, b = now.st, now.b
    d, r, health, costs = b.dist, st.rules, st.health, b.costs
    van = [*st.van, 0]  # what the van holds of each resource, and none of health (-1)
    mine = nearest(targets, st.pawns, d)
    best: Action | None = None
    top = 0.0  # the first best move, if it is worth anything
    who_now = None  # the mover whose moves these are (each mover's come together)
    for a in legal:
        verb, who, arg = a
        if who != who_now:
            if verb not in _MOVES:
                continue
            who_now = who
            goals, ways, stay, onto, holds, near, here = _mover(now, who, mine, targets)
        carry = verb == "carry"
        # no nearer: a pawn that stays to collect (its artwork carried or not), is already
        # where it is wanted, or (where pawns go anywhere) a move onto no goal
        if stay if carry else onto is not None and arg not in onto:
            continue
        dst, ctx = ways[arg]
        if carry or holds:
            gain = _carrying(now, here, near, goals, dst)
        else:
            there = d[dst]
            far = 99
            for g in goals:
                if there[g] < far:
                    far = there[g]
            gain = near - far
        if gain <= 0:
            continue
        need, total = costs[r.move_cost(st, ctx)]
        short = 0  # what the golden rule would take in health (R4)
        for k, n in need:
            short += max(0, n - van[k])
        if short > max(0, health[ctx.player] - 1):
            continue  # more health than its payer may spare (R4, R5)
        value = gain - 1.2 * short - 0.3 * total + 1.5 * carry  # a carried artwork: +1.5
        if value > top:
            best, top = a, value
    return best
