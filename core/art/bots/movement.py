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
        if nxt is not None and (carried or any(st.artworks)):
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
        phase, way = self._ends
        # (a phase of another round, or rules, is told apart without building its key)
        if phase is not None and phase[1] == st.round and phase[0] is st.rules \
                and phase == _phase(st):
            here = _position(st)
            if here in way:
                return way[here]  # on the way of free moves already followed to their end
        now = Now(self, st)
        a, free = self._wanted(st, legal, now)
        if a is None or a[0] not in _MOVES or not (_free(st, now.b, a) if free is None
                                                   else free):
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
            nxt, free = self._wanted(c, c.legal_actions(), Now(self, c))
            way[here] = nxt
            if nxt is None or nxt[0] not in _MOVES or _first(c, nxt) \
                    or not (_free(c, b, nxt) if free is None else free):
                break  # (after a pawn's first move of the phase no position comes back)
            a = nxt
        else:
            return False
        self._ends = (_phase(st), way)
        return False

    def _move(self, st: State, legal: list[Action], now: Now | None = None,
              ) -> Action | None:
        """The move the bot wants, before it asks whether the move comes back (`on_move`)."""
        return self._wanted(st, legal, Now(self, st) if now is None else now)[0]

    def _wanted(self, st: State, legal: list[Action], now: Now) -> tuple[Action | None,
                                                                          bool | None]:
        """`_move`, and whether that move is free (see `_free`; None: not worked out)."""
        targets = self._targets(now)
        if st.must_leave:
            pawns = st.pawns
            forced = [a for a in legal if a.verb in _MOVES
                      and st.pawn_index(a.player) in st.must_leave
                      and st.lost[pawns[st.pawn_index(a.player)]]]
            if forced:
                return forced[0], None
        if not targets:
            return None, None
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


def _first(st: State, a: Action) -> bool:
    """Whether a move (or carry) is its pawn's first of the phase: the pawns that have moved
    (`st.moved`, a part of `_position`) only grow within a phase, so no position after it is
    one before it."""
    return (st.players if a[1] == ALLY_PAWN else a[1]) not in st.moved


def _free(st: State, b: Any, a: Action) -> bool:
    """Whether a move (or carry) costs the team nothing, health included (the rules' cost of
    its road, R11; a mission's own, such as a board's free roads)."""
    i = st.players if a.player == ALLY_PAWN else a.player
    step = b.steps[a.player][st.pawns[i]][a.arg]
    need, total = b.costs[st.rules.move_cost(st, step[1])] if step[2] is None else step[2]
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
    few = b.lost_at - 3  # agents under which a city is no target (critical or not)
    lost, artworks = st.lost, st.artworks
    city_symbol, margin, critical, city_lost = (b.city_symbol, now.margin, now.critical,
                                                b.city_lost)
    out = []
    for c, n in enumerate(st.agents):
        if lost[c]:
            continue
        if (artworks[c] or c in carried) and (not n or margin(c) > -4):
            if nxt is None or nxt == city_symbol[c] or artworks[c]:
                out.append(c)
            continue
        if n < few:
            continue
        if n > few or (city_lost and critical(c)):  # (lost_at - 2 agents or more, or its
            out.append(c)                          # fall loses: a rule on a city's fall)
    return out


def _along(now: Now, here: int, goals: list[int]) -> tuple[int, ...] | None:
    """Where an artwork a pawn takes along (carried, or held) goes: where the next track
    space wants it, if it names a place, else to the pawn's goals; None when the pawn stays
    to collect (it takes nothing along)."""
    st = now.st
    if here in goals and st.can_collect(here):
        return None
    deliver = now.deliver
    if deliver is None:
        deliver = now.deliver = tuple(delivery(st))
    return deliver or tuple(goals)


def _wanted_moves(now: Now, mine: dict[int, list[int]], targets: list[int],
                  ) -> dict[Action, tuple[int, Any, Any, float]]:
    """Each pawn's moves (and carries) that bring it nearer where it is wanted (the targets
    nearest it, else all; an artwork taken along: see `_along`): per action, how many roads
    nearer, its cost's context and facts (`Step`), and 1.5 for a carried artwork."""
    st, b = now.st, now.b
    players, carried, artworks, steps, toward = (st.players, st.carried, st.artworks,
                                                 b.steps, b.toward)
    want: dict[Action, tuple[int, Any, Any, float]] = {}
    for i, here in enumerate(st.pawns):
        goals = mine.get(i) or targets
        ways = steps[i if i < players else ALLY_PAWN][here]
        holds = carried[i]
        along = _along(now, here, goals) if holds or (artworks[here] and b.carry) else None
        if not holds or along:  # its moves (the artwork it holds goes along)
            for name, gain in toward[here, along if holds else tuple(goals)].items():
                step = ways[name]
                want[step[3]] = (gain, step[1], step[2], 0.0)
        if along and not holds:  # its carries: the city's artwork taken along
            for name, gain in toward[here, along].items():
                step = ways[name]
                want[step[4]] = (gain, step[1], step[2], 1.5)
    return want


def _best_move(now: Now, legal: list[Action], targets: list[int],
               ) -> tuple[Action | None, bool | None]:
    """The first best move, and whether it is free: each target to its nearest pawn, the
    less busy one on a tie, so that the pawns spread out over the board (on a board where a
    pawn goes anywhere, every tie); each move that brings its pawn nearer weighed against
    what it costs."""
    st, b = now.st, now.b
    want = _wanted_moves(now, nearest(targets, st.pawns, b.dist_to), targets)
    r, health, costs = st.rules, st.health, b.costs
    van = [*st.van, 0]  # what the van holds of each resource, and none of health (-1)
    best: Action | None = None
    top = 0.0  # the first best move, if it is worth anything
    paid: Any = None  # what it costs
    for a in legal:
        got = want.get(a)
        if got is None:
            continue  # no nearer (or no move)
        gain, ctx, facts, carried = got
        if facts is None:
            facts = costs[r.move_cost(st, ctx)]
        short = 0  # what the golden rule would take in health (R4)
        for k, n in facts[0]:
            short += max(0, n - van[k])
        if short > max(0, health[ctx.player] - 1):
            continue  # more health than its payer may spare (R4, R5)
        value = gain - 1.2 * short - 0.3 * facts[1] + carried  # a carried artwork: +1.5
        if value > top:
            best, top, paid = a, value, facts
    return best, paid is not None and paid[1] == 0 and not any(n for _k, n in paid[0])
