"""Policies: who takes the decisions in a simulated game. Plug-ins register by name.

A policy factory takes a seed and returns a function from a state to one of its legal
actions. `register_policy("mine", factory)` makes it available to `simulate` and
`artproject simulate --policy mine`.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from functools import cache
from typing import Any

from .core.actions import ALLY_PAWN, Action
from .core.rules import Ctx, Rules
from .core.state import State

Policy = Callable[[State], Action]
PolicyFactory = Callable[[int], Policy]
POLICIES: dict[str, PolicyFactory] = {}


def register_policy(name: str, factory: PolicyFactory) -> None:
    """Make a policy available by name to `simulate` and the command line."""
    POLICIES[name] = factory


def random_policy(seed: int) -> Policy:
    """Random legal actions from its own seeded generator: a random verb, then one of its actions.

    Picking the verb first keeps a verb with many actions (thirty `draw`s, say) from
    crowding out the one `done`, so random games reach every phase.
    """
    rng = random.Random(seed)

    def choose(st: State) -> Action:
        legal = st.legal_actions()
        verbs = sorted({a.verb for a in legal})
        verb = verbs[rng.randrange(len(verbs))]
        return rng.choice([a for a in legal if a.verb == verb])

    return choose


def cautious_policy(seed: int) -> Policy:
    """Like `random`, but never takes an action that costs health when another does not.

    Each candidate is tried on a clone, so this is slower; it plays deeper games, which
    the tests and `verify` use to reach every phase.
    """
    rng = random.Random(seed)

    def choose(st: State) -> Action:
        legal = st.legal_actions()
        health = sum(st.health)
        safe = []
        for a in legal:
            c = st.clone()
            c.apply(a)
            # a question of who pays a health token (R5's unlock) means health is paid
            if sum(c.health) >= health and c.outcome != "lost" and c.wait != "hurt":
                safe.append(a)
        pool = safe or legal
        verbs = sorted({a.verb for a in pool})
        verb = verbs[rng.randrange(len(verbs))]
        return rng.choice([a for a in pool if a.verb == verb])

    return choose


# ====================================================================== the heuristic bot
@cache
def _distances(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Roads between every two cities (1 everywhere when pawns move anywhere)."""
    n = len(rules.cities)
    if rules.params["rules.movement"] == "anywhere":
        return tuple(tuple(0 if a == b else 1 for b in range(n)) for a in range(n))
    out = []
    for a in range(n):
        dist = [99] * n
        dist[a] = 0
        q = deque([a])
        while q:
            c = q.popleft()
            for r in rules.neighbours[c]:
                if dist[r.dst] == 99:
                    dist[r.dst] = dist[c] + 1
                    q.append(r.dst)
        out.append(tuple(dist))
    return tuple(out)


class Heuristic:
    """A bot that plays sensibly: it watches cities near 5 agents, artworks it can reach,
    whether a battle is winnable, the fuel for the trip, and the golden rule's cost."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self._critical: tuple[Any, frozenset[int]] = (None, frozenset())
        self.receiver = -1  # whom the clue card being traded is meant for

    def critical(self, st: State) -> frozenset[int]:
        """Cities whose fall would lose the game at once (a mission's hook may say so): found
        by letting the engine itself play the fall on a copy, whatever the rules are."""
        key = (st.rules, st.round, len(st.track), tuple(st.lost))
        if self._critical[0] == key:
            return self._critical[1]

        out = set()
        if st.rules.hooks.get("city_lost"):
            for c in range(len(st.rules.cities)):
                if st.lost[c]:
                    continue
                probe = st.clone()
                probe.lost[c] = 1
                probe.queue.clear()
                probe.wait = None
                probe.emit("city_lost", Ctx(-1, c))
                while probe.queue and probe.outcome is None and probe.wait is None:
                    fn, args = probe.queue.pop()
                    fn(probe, *args)
                if probe.outcome == "lost":
                    out.add(c)
        result = frozenset(out)
        self._critical = (key, result)
        return result

    # ---------------------------------------------------------------- helpers
    @staticmethod
    def have(st: State, kind: str) -> int:
        return st.van[st.rules.resources.index(kind)]

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
        here = [p for p in range(st.players) if st.pawns[p] == city]
        if not here:
            return -99.0
        boost = st.rules.params["rules.boost_resource"]
        bonus = int(st.rules.params["rules.weapon_bonus"])
        strength = 3.5 * self.dice(st, city, here) + bonus * self.have(st, boost)
        return strength - st.agent_strength(city)

    def card_score(self, st: State, player: int, card: int) -> float:
        r = st.rules
        c = r.cards[card]
        score = 0.0
        cost = c.cost
        score -= sum(n for _, n in cost) * 0.6
        short = self.shortfall(st, cost)
        score -= short * (6.0 if short > self.spare(st, player) else 1.0)
        for kind, n in c.gain:
            if kind == "health":
                score += 2.0 * n
            else:
                score += min(n, st.reserve(kind)) * (1.2 if self.have(st, kind) < 2 else 0.8)
        placing = sum(n * max(1, len(r.by_symbol.get(sym, ()))) for sym, n in c.agents)
        if placing and st.reserve("agent") - placing < 4:
            score -= 8.0 * (4 - (st.reserve("agent") - placing))  # running out loses (R2)
        for sym, n in c.agents:
            for city in r.by_symbol.get(sym, ()):
                if st.lost[city]:
                    score -= 1.5 * n  # strengthens every battle
                    continue
                after = st.agents[city] + n
                score -= 0.5 * n
                if city in self.critical(st):
                    score -= 1.0 * n * max(0, after - 1)
                if after >= int(r.params["rules.lost_city_at"]):
                    score -= 6.0 if self.win_margin(st, city) < 0 else 1.5
                elif after == int(r.params["rules.lost_city_at"]) - 1:
                    score -= 1.0
        chain = st.chain_of(player)
        need = int(r.params["rules.clues_per_artwork"])
        for s in c.clues:
            have = sum(1 for x in chain if s in r.cards[x].clues)
            sym = r.symbols[s]
            free = [x for x in r.by_symbol.get(sym, ()) if not st.lost[x] and not st.artworks[x]]
            if have + 1 >= need:
                score += 4.0 if free else -0.5
            else:
                score += 0.6 * (have + 1) if free else 0.1
        return score

    def targets(self, st: State) -> list[int]:
        """Cities worth going to: artworks to collect, agents near 5 to fight."""
        r = st.rules
        at = int(r.params["rules.lost_city_at"])
        nxt = r.track[len(st.track)].symbol if len(st.track) < len(r.track) else None
        out = []
        for c in range(len(r.cities)):
            if st.lost[c]:
                continue
            if st.artwork_at(c) and (st.agents[c] == 0 or self.win_margin(st, c) > -4):
                if nxt is None or nxt == r.cities[c].symbol or st.artworks[c]:
                    out.append(c)
            elif st.agents[c] >= at - (3 if c in self.critical(st) else 2):
                out.append(c)
        if nxt is not None and (any(st.artworks) or any(st.carried)):
            # a track that demands its artworks in order: deliver to the district it names
            out += [c for c in r.by_symbol.get(nxt, ()) if not st.lost[c] and c not in out]
        return out

    @staticmethod
    def delivery(st: State) -> list[int]:
        """The cities whose symbol the next track space demands (empty: any will do)."""
        r = st.rules
        nxt = r.track[len(st.track)].symbol if len(st.track) < len(r.track) else None
        return [c for c in r.by_symbol.get(nxt, ()) if not st.lost[c]] if nxt else []

    # ---------------------------------------------------------------- the decision
    def __call__(self, st: State) -> Action:
        legal = st.legal_actions()
        w = st.wait
        pick = getattr(self, f"on_{w}", None)
        a = pick(st, legal) if pick is not None else None
        return a if a is not None else legal[-1] if legal[-1].verb == "done" else legal[0]

    def on_boundary(self, st: State, legal: list[Action]) -> Action | None:
        # only when the van holds the radio: an unlock it cannot pay costs health (R5)
        ally = st.rules.params["rules.ally_resource"]
        unlock = [a for a in legal if a.verb == "unlock"]
        if (unlock and self.have(st, ally) >= st.ally_cost()
                and (st.allies < 2 or st.ally_cost() <= 2)):
            return unlock[0]
        return None  # done

    def on_plan(self, st: State, legal: list[Action]) -> Action | None:
        plays = [a for a in legal if a.verb == "play"]
        scored = [(self.card_score(st, a.player, int(a.arg or 0)), a) for a in plays]
        best_by_player: dict[int, float] = {}
        for s, a in scored:
            best_by_player[a.player] = max(best_by_player.get(a.player, -99.0), s)
        # an extra card for a player whose hand is poor, paid from a plentiful resource (R6)
        for p, best in best_by_player.items():
            if best < -3:
                kinds = [a for a in legal if a.verb == "draw" and a.player == p and
                         a.arg != "health" and self.have(st, str(a.arg)) >= 3]
                if kinds:
                    return max(kinds, key=lambda a: self.have(st, str(a.arg)))
        return max(scored, key=lambda sa: sa[0])[1] if scored else None

    on_play = on_plan

    def on_give(self, st: State, legal: list[Action]) -> Action:
        return min(legal, key=lambda a: st.health[a.player])

    def on_hurt(self, st: State, legal: list[Action]) -> Action:
        return max(legal, key=lambda a: st.health[a.player])

    def on_lose(self, st: State, legal: list[Action]) -> Action:
        return max(legal, key=lambda a: self.have(st, str(a.arg)))

    def on_discard(self, st: State, legal: list[Action]) -> Action:
        return legal[0]

    def on_triple(self, st: State, legal: list[Action]) -> Action:
        r = st.rules

        def useful(a: Action) -> int:
            return sum(1 for c in r.by_symbol.get(str(a.arg), ())
                       if not st.lost[c] and not st.artworks[c])
        return max(legal, key=useful)

    def on_place(self, st: State, legal: list[Action]) -> Action:
        """The artwork goes where it is easiest to collect: fewest agents, nearest pawn."""
        d = _distances(st.rules)

        def cost(a: Action) -> tuple[int, int]:
            c = st.rules.city_index[str(a.arg)]
            return (st.agents[c], min(d[p][c] for p in st.pawns))
        return min(legal, key=cost)

    def on_collect(self, st: State, legal: list[Action]) -> Action:
        return legal[0]

    def on_move(self, st: State, legal: list[Action]) -> Action | None:
        r = st.rules
        d = _distances(r)
        targets = self.targets(st)
        moves = [a for a in legal if a.verb in ("move", "carry")]
        forced = [a for a in moves if st.pawn_index(a.player) in st.must_leave
                  and st.lost[st.pawns[st.pawn_index(a.player)]]]
        if forced:
            return forced[0]
        if not targets:
            return None
        # each target to its nearest pawn, the less busy one on a tie, so that the pawns
        # spread out over the board (on a board where a pawn goes anywhere, every tie)
        mine: dict[int, list[int]] = {}
        for t in targets:
            near = min(range(len(st.pawns)),
                       key=lambda i: (d[st.pawns[i]][t], len(mine.get(i, ())), i))
            mine.setdefault(near, []).append(t)
        best: tuple[float, Action] | None = None
        for a in moves:
            i = st.pawn_index(a.player)
            goals = mine.get(i) or targets
            here, dst = st.pawns[i], r.city_index[str(a.arg)]
            if here in goals and st.can_collect(here):
                continue  # stay and collect
            if a.verb == "carry" or st.carried[i]:
                goals = self.delivery(st) or goals  # take the artwork where it is wanted
            gain = min(d[here][t] for t in goals) - min(d[dst][t] for t in goals)
            if gain <= 0:
                continue
            payer = 0 if a.player == ALLY_PAWN else a.player
            cost = r.move_cost(st, _ctx(payer, dst, here, r))
            short = self.shortfall(st, cost)
            if short > self.spare(st, payer):
                continue
            value = gain - 1.2 * short - 0.3 * sum(n for _, n in cost)
            if a.verb == "carry":
                value += 1.5
            if best is None or value > best[0]:
                best = (value, a)
        return best[1] if best is not None and best[0] > 0 else None

    def on_battle(self, st: State, legal: list[Action]) -> Action | None:
        fights = [a for a in legal if a.verb == "fight"]
        best: tuple[float, Action] | None = None
        at = int(st.rules.params["rules.lost_city_at"])
        for a in fights:
            c = st.rules.city_index[str(a.arg)]
            margin = self.win_margin(st, c)
            urgency = (3 if st.agents[c] >= at - 1 else 0) + (2 if st.artwork_at(c) else 0)
            if c in self.critical(st) and st.agents[c] >= at - 2:
                urgency += 3
            value = margin + urgency
            leader_spare = max(self.spare(st, p) for p in range(st.players) if st.pawns[p] == c)
            if margin > -3 - 1.5 * leader_spare or (urgency >= 3 and margin > -6):
                leader = max((p for p in range(st.players) if st.pawns[p] == c),
                             key=lambda p: st.health[p])
                act = Action("fight", leader, a.arg)
                if act in legal and (best is None or value > best[0]):
                    best = (value, act)
        return best[1] if best else None

    def on_muster(self, st: State, legal: list[Action]) -> Action:
        joins = [a for a in legal if a.verb == "join"]
        return joins[0] if joins else legal[-1]

    def on_losing(self, st: State, legal: list[Action]) -> Action:
        b = st.fighting()
        deficit = st.agent_strength(b.city) - st.strength()
        bonus = int(st.rules.params["rules.weapon_bonus"])
        weapons = self.have(st, st.rules.params["rules.boost_resource"])
        boosts = [a for a in legal if a.verb == "boost"]
        if boosts and weapons * bonus >= deficit:
            return boosts[0]
        rerolls = [a for a in legal if a.verb == "reroll"]
        low = sum(1 for v in b.dice if v <= 3)
        if rerolls and low and deficit <= 3 * low + weapons * bonus:
            two = [a for a in rerolls if len(st.rules.cards[int(a.arg or 0)].clues) == 2]
            return (two or rerolls)[0] if low > 1 else rerolls[0]
        if weapons == 0 and boosts:
            # health for the win rather than one for conceding, from whoever can spare it
            need = -(-deficit // bonus)
            payer = max(boosts, key=lambda a: self.spare(st, a.player))
            if need <= self.spare(st, payer.player):
                return payer
        return Action("concede")

    def on_pick(self, st: State, legal: list[Action]) -> Action:
        picks = [a for a in legal if a.verb == "pick"]
        if picks:
            b = st.fighting()
            i = min(range(len(b.labels)), key=lambda k: (k in b.picks, b.dice[k]))
            want = Action("pick", -1, b.labels[i])
            if want in picks and b.dice[i] <= 3:
                return want
        return Action("roll") if Action("roll") in legal else picks[0]

    def on_deploy(self, st: State, legal: list[Action]) -> Action:
        r = st.rules
        last = [s.symbol for s in r.track]

        def later(a: Action) -> tuple[int, int]:
            c = r.city_index[str(a.arg)]
            sym = r.cities[c].symbol
            order = last.index(sym) if sym in last else len(last)
            return (st.agents[c] >= 2, -order)
        return min(legal, key=later)

    def on_exchange(self, st: State, legal: list[Action]) -> Action:
        """Hand over a clue card that completes a triple in the receiver's chain (R21)."""
        r = st.rules
        need = int(r.params["rules.clues_per_artwork"])
        for a in legal:
            if a.verb != "trade":
                continue
            card = r.cards[int(a.arg or 0)]
            here = st.pawns[a.player]
            for q in range(st.players):
                if q == a.player or st.pawns[q] != here:
                    continue
                for s in card.clues:
                    if sum(1 for c in st.chains[q] if s in r.cards[c].clues) == need - 1:
                        self.receiver = q
                        return a
        return legal[-1]

    def on_receive(self, st: State, legal: list[Action]) -> Action:
        want = [a for a in legal if a.player == self.receiver]
        return want[0] if want else legal[0]


def heuristic_policy(seed: int) -> Policy:
    """The heuristic bot (see `Heuristic`)."""
    return Heuristic(seed)


def _ctx(player: int, dst: int, src: int, rules: Rules) -> Any:


    road = next((x for x in rules.neighbours[src] if x.dst == dst), None)
    return Ctx(player, dst, road)


register_policy("random", random_policy)
register_policy("cautious", cautious_policy)
register_policy("heuristic", heuristic_policy)
