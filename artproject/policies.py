"""Policies: who takes the decisions in a simulated game. Plug-ins register by name.

A policy factory takes a seed (and, if it has any, its options as keywords) and returns a
function from a state to one of its legal actions. `register_policy("mine", factory)` makes
it available to `simulate` and `artproject simulate --policy mine`. A policy is named with
its options as `NAME:KEY=VALUE,KEY=VALUE` (`ismcts:budget=64`): `make_policy` reads them.
"""

from __future__ import annotations

import inspect
import random
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, Final

from .core.actions import Action
from .core.art.registry import ALLY_PAWN, REG
from .core.art.rules import Ctx, Rules
from .core.art.state import State

Policy = Callable[[State], Action]
PolicyFactory = Callable[..., Policy]  # (seed, **options) -> policy
POLICIES: dict[str, PolicyFactory] = {}


def policies_of(game: str) -> Mapping[str, PolicyFactory]:
    """The policies of a game by its name: the default game's here, another's from its tools
    (`POLICIES` of core/games.py `game_tools`); GameError for a game without bots."""
    from .core.games import DEFAULT, game_tools

    if game == DEFAULT:
        return POLICIES
    found: Mapping[str, PolicyFactory] = game_tools(game).POLICIES
    return found


def register_policy(name: str, factory: PolicyFactory) -> None:
    """Make a policy available by name to `simulate` and the command line."""
    POLICIES[name] = factory


def policy_spec(spec: str, policies: Mapping[str, PolicyFactory] | None = None,
                ) -> tuple[str, dict[str, Any]]:
    """A policy's name and options from `NAME` or `NAME:KEY=VALUE,...` (numbers read as
    numbers), among `policies` (the first game's by default); GameError saying what was
    expected, naming the policies or the options."""
    from .core.errors import GameError, closest

    known_policies = POLICIES if policies is None else policies
    name, _, rest = spec.partition(":")
    factory = known_policies.get(name)
    if factory is None:
        raise GameError(f"unknown policy {name!r}{closest(name, known_policies)}; policies: "
                        + ", ".join(known_policies))
    known = [k for k in inspect.signature(factory).parameters if k != "seed"]
    options: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in known:
            hint = closest(key, known) if eq else ""
            raise GameError(f"policy {spec!r}: {item!r} is not an option{hint}; expected "
                            + (f"KEY=VALUE with KEY one of: {', '.join(known)}" if known else
                               f"none: {name} takes no options"))
        options[key] = _option_value(value.strip())
    return name, options


def _option_value(text: str) -> Any:
    for read in (int, float):
        try:
            return read(text)
        except ValueError:
            pass
    return text


def make_policy(spec: str, seed: int, policies: Mapping[str, PolicyFactory] | None = None,
                ) -> Policy:
    """The policy `spec` names (`NAME` or `NAME:KEY=VALUE,...`) among `policies` (the first
    game's by default), seeded."""
    from .core.errors import ArtError, GameError

    known = POLICIES if policies is None else policies
    name, options = policy_spec(spec, known)
    try:
        return known[name](seed, **options)
    except TypeError as err:  # an option's value of the wrong kind
        raise GameError(f"policy {spec!r}: {err}") from None
    except ArtError as err:
        raise GameError(f"policy {spec!r}: {err}") from None


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
def _distances(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Roads between every two cities (1 everywhere when pawns move anywhere)."""
    return _board(rules).dist


def _roads_between(rules: Rules) -> tuple[tuple[tuple[int, ...], ...], dict[tuple[int, int], Any]]:
    n = len(rules.cities)
    if rules.params["rules.movement"] == "anywhere":
        return tuple(tuple(0 if a == b else 1 for b in range(n)) for a in range(n)), {}
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
    first: dict[tuple[int, int], Any] = {}
    for src, roads in enumerate(rules.neighbours):
        for r in roads:
            first.setdefault((src, r.dst), r)  # the first road between two cities
    return tuple(out), first


class _Card:
    """A card as the bot weighs it, worked out once per rules."""

    __slots__ = ("agents", "agents_top", "base", "clues", "cost_weight", "gains",
                 "need", "need_health", "need_res", "placing")

    def __init__(self, rules: Rules, card: int) -> None:
        c = rules.cards[card]
        res = {k: i for i, k in enumerate(rules.resources)}
        self.cost_weight = sum(n for _, n in c.cost) * 0.6
        need: dict[str, int] = {}
        for k, n in c.cost:
            need[k] = need.get(k, 0) + n
        # (resource index, or -1 for health: the van holds none, n)
        self.need = tuple((res.get(k, -1) if k != "health" else -1, n) for k, n in need.items())
        # the same apart: what the van holds none of (always short), and the rest
        self.need_health = sum(n for i, n in self.need if i < 0)
        self.need_res = tuple((i, n) for i, n in self.need if i >= 0)
        self.base = 0.0 - self.cost_weight  # a score's start (as `0.0; score -= cost_weight`)
        self.gains = tuple((res[k] if k != "health" else -1, n) for k, n in c.gain)
        self.placing = sum(n * max(1, len(rules.by_symbol.get(sym, ()))) for sym, n in c.agents)
        # (cities, n, and the weights the score takes n times, worked out once)
        self.agents = tuple((rules.by_symbol.get(sym, ()), n, 1.5 * n, 0.5 * n, 1.0 * n)
                            for sym, n in c.agents)
        self.clues = c.clues
        # the most the agents it places can add to its score (see `Heuristic._scorer`):
        # each city takes at least the plain weight
        self.agents_top = -sum(0.5 * n * len(cities) for cities, n, *_ in self.agents)


class _Board:
    """What the bot reads from the rules, worked out once per rules (kept in `rules.cache`):
    distances, roads, constants and each card's weights."""

    __slots__ = (
        "anywhere",
        "bonus",
        "boost_i",
        "cards",
        "city_lost",
        "city_symbol",
        "clues",
        "costs",
        "dist",
        "later",
        "lost_at",
        "need",
        "res_cap",
        "steps",
        "symbol_cities",
        "track_symbols",
        "weigh",
    )

    def __init__(self, rules: Rules) -> None:
        p = rules.params
        self.dist, road = _roads_between(rules)
        # per mover (a player or the ally pawn), per city, per destination's name: the
        # destination and the context its cost is worked out in (who pays, where, the road)
        n = len(rules.cities)
        anywhere = self.anywhere = rules.params["rules.movement"] == "anywhere"
        ways = [[d for d in range(n) if d != c and (anywhere or (c, d) in road)]
                for c in range(n)]
        self.steps: dict[int, tuple[dict[Any, tuple[int, Ctx]], ...]] = {
            who: tuple({rules.cities[d].name: (d, Ctx(0 if who == ALLY_PAWN else who, d,
                                                      road.get((c, d))))
                        for d in ways[c]} for c in range(n))
            for who in (*range(6), ALLY_PAWN)}
        self.lost_at = int(p["rules.lost_city_at"])
        self.need = int(p["rules.clues_per_artwork"])
        self.bonus = int(p["rules.weapon_bonus"])
        self.boost_i = rules.resources.index(p["rules.boost_resource"])
        self.res_cap = int(p["components.resource_tokens"])
        self.cards = {i: _Card(rules, i) for i in rules.cards}
        self.weigh = _weighers(self.cards, self.res_cap)
        self.clues = {i: tuple(set(c.clues)) for i, c in rules.cards.items()}  # distinct
        self.costs: dict[Any, tuple[tuple[tuple[int, int], ...], int]] = {}  # move costs met
        self.city_lost = bool(rules.hooks.get("city_lost"))
        self.city_symbol = tuple(c.symbol for c in rules.cities)
        self.symbol_cities = tuple(rules.by_symbol.get(s, ()) for s in rules.symbols)
        self.track_symbols = tuple(s.symbol for s in rules.track)
        # per city: how late the track asks for its symbol, negated (not at all: last)
        last = list(self.track_symbols)
        self.later = tuple(-(last.index(c.symbol) if c.symbol in last else len(last))
                           for c in rules.cities)


def _weighers(cards: dict[int, _Card], res_cap: int,
              ) -> dict[int, Callable[[list[int], int, list[float]], tuple[float, Any, float]]]:
    """Per card, the cheap part of its score (see `Heuristic._scorer`'s `weigh`) written out
    as plain Python, once per rules: `(van, spare health, clue part per symbol) -> (score
    before the agents' part, the clue parts, the most the score can be)`. The same float
    operations in the same order as the loops over the card's needs and gains would do."""
    src: list[str] = []
    for k, c in enumerate(cards.values()):
        src += [f"def w{k}(van, spare, ps):", f"    score = {c.base!r}",
                f"    short = {c.need_health}"]
        for i, n in c.need_res:
            src += [f"    v = van[{i}]", f"    if v < {n}:", f"        short += {n} - v"]
        src += ["    if short:", "        score -= short * (6.0 if short > spare else 1.0)"]
        for i, n in c.gains:
            if i < 0:
                src.append(f"    score += {2.0 * n!r}")
            else:
                src += [f"    v = van[{i}]", f"    room = {res_cap} - v",
                        f"    score += ({n} if {n} <= room else room) * (1.2 if v < 2 else 0.8)"]
        names = [f"a{k}" for k in range(len(c.clues))]
        src += [f"    {a} = ps[{sym}]" for a, sym in zip(names, c.clues, strict=True)]
        src.append(f"    return score, ({''.join(a + ', ' for a in names)}), "
                   f"score + {c.agents_top!r} + ({' + '.join(names) or '0'}) + 1e-6")
    space: dict[str, Any] = {}
    exec(compile("\n".join(src), "<the heuristic's card weights>", "exec"), space)
    return {card: space[f"w{k}"] for k, card in enumerate(cards)}


def _board(rules: Rules) -> _Board:
    b = rules.cache.get("heuristic")
    if b is None:
        b = rules.cache["heuristic"] = _Board(rules)
    assert isinstance(b, _Board)
    return b


class _Now:
    """What one decision reads, each worked out at most once for it: the cities whose fall
    loses, the battles' margins, each player's clues by symbol, the symbols still to find."""

    __slots__ = ("b", "bot", "crit", "free", "left", "margins", "st")

    def __init__(self, bot: Heuristic, st: State) -> None:
        self.bot, self.st = bot, st
        known = bot._board  # the board of the rules last seen
        if known[0] is st.rules:
            self.b = known[1]
        else:
            self.b = _board(st.rules)
            bot._board = (st.rules, self.b)
        self.crit: dict[int, bool] | None = None  # the cities asked about so far
        self.margins: dict[int, float] = {}
        self.free: list[bool] | None = None
        self.left: int | None = None

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
        counts: list[int]
        parts: list[float]
        seen = self.bot._parts.get(id(chain))  # [chain as seen, counts, free, parts, board]
        if seen is not None and seen[4] is b:
            was, counts, _, parts, _ = seen
            if was == chain:
                if seen[2] is free:
                    return parts
                todo: Any = range(len(counts))  # every part anew
            elif len(was) < len(chain) and chain[:len(was)] == was:
                todo = set()  # a chain grows a card at a time: the symbols it adds, anew
                for x in chain[len(was):]:
                    for sym in b.clues[x]:
                        counts[sym] += 1
                        todo.add(sym)
                was[len(was):] = chain[len(was):]
                if seen[2] is not free:
                    todo = range(len(counts))
            else:
                seen = None
        if seen is None:
            counts = [0] * len(b.symbol_cities)
            for x in chain:
                for sym in b.clues[x]:
                    counts[sym] += 1
            parts = [0.0] * len(counts)
            seen = self.bot._parts[id(chain)] = [chain.copy(), counts, free, parts, b]
            todo = range(len(counts))
        seen[2] = free
        for sym in todo:
            have = counts[sym]
            if have + 1 >= need:
                parts[sym] = 4.0 if free[sym] else -0.5
            else:
                parts[sym] = 0.6 * (have + 1) if free[sym] else 0.1
        return parts


def _win_margin(st: State, b: _Board, city: int) -> float:
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


def _nearest(targets: list[int], pawns: list[int], d: tuple[tuple[int, ...], ...],
             ) -> dict[int, list[int]]:
    """Each target to its nearest pawn, the less busy one on a tie, then the first."""
    mine: dict[int, list[int]] = {}
    load = [0] * len(pawns)
    for t in targets:
        near, nd, nl = 0, d[pawns[0]][t], load[0]
        for i in range(1, len(pawns)):
            di = d[pawns[i]][t]
            if di < nd or (di == nd and load[i] < nl):
                near, nd, nl = i, di, load[i]
        load[near] += 1
        mine.setdefault(near, []).append(t)
    return mine


def _cost_facts(rules: Rules, cost: tuple[tuple[str, int], ...],
                ) -> tuple[tuple[tuple[int, int], ...], int]:
    """A cost as the bot weighs it: what it needs of each resource (index, or -1 for health:
    the van holds none), the kinds together, and its size."""
    need: dict[str, int] = {}
    for k, n in cost:
        need[k] = need.get(k, 0) + n
    index = {k: i for i, k in enumerate(rules.resources)}
    return (tuple((index[k] if k != "health" else -1, n) for k, n in need.items()),
            sum(n for _, n in cost))


_MOVES: Final = frozenset({"move", "carry"})
_NO_FLOOR: Final = float("-inf")
_HANDLERS: dict[type, dict[str, Callable[..., Action | None]]] = {}


def _handlers(cls: type) -> dict[str, Callable[..., Action | None]]:
    """The bot's `on_KIND` method for each decision kind the game declares (its registry; a
    subclass may add or replace them), by the kind's name (a `Kind` hashes in Python); a
    kind without one takes the default choice."""
    h = _HANDLERS.get(cls)
    if h is None:
        h = _HANDLERS[cls] = {k.name: getattr(cls, f"on_{k.name}") for k in REG.kinds.values()
                              if hasattr(cls, f"on_{k.name}")}
    return h


class Heuristic:
    """A bot that plays sensibly: it watches cities near 5 agents, artworks it can reach,
    whether a battle is winnable, the fuel for the trip, and the golden rule's cost.

    What a decision reads from the rules is worked out once per rules (`_Board`), and what
    it reads from the state once per decision (`_Now`), not once per option."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self._critical: tuple[Any, dict[int, bool]] = (None, {})  # see critical_known
        self._board: tuple[Any, Any] = (None, None)  # (rules, their `_Board`): see `_Now`
        self.receiver = -1  # whom the clue card being traded is meant for
        self._on = _handlers(type(self))
        self._chains: dict[int, tuple[list[int], list[int]]] = {}  # see chain_counts
        # the free symbols and each player's clue parts, as last seen (see `_Now`)
        self._free: tuple[Any, list[int], list[int], list[bool]] = (None, [], [], [])
        self._parts: dict[int, list[Any]] = {}  # by chain: see `_Now.clue_parts`

    def critical(self, st: State) -> frozenset[int]:
        """Cities whose fall would lose the game at once (a mission's hook may say so): found
        by letting the engine itself play the fall on a copy, whatever the rules are."""
        if not _board(st.rules).city_lost:
            return frozenset()  # no hook on a city's fall: no fall loses at once
        now = _Now(self, st)
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
        return _win_margin(st, _board(st.rules), city)

    def card_score(self, st: State, player: int, card: int) -> float:
        """How much the team gains by `player` playing `card` now (higher is better)."""
        weigh, finish = self._scorer(_Now(self, st))
        play = (None, player, card)
        scores, adds, _ = weigh([play])
        return finish(card, scores[0], adds[0])

    def _scorer(self, now: _Now) -> tuple[Callable[[list[Any]], tuple[list[float], list[Any],
                                                                     list[float]]],
                                          Callable[[int, float, Any], float]]:
        """card_score for one decision, in two parts: `weigh(plays)` works out the cheap part
        of each play's score (its cost and gains; its clues, to be added last) and the most
        its score can be (its agents can only take away: `_Card.agents_top`); `finish`
        adds the agents' part and the clues to give the score. What every card's score
        reads is read once."""
        st, b = now.st, now.b
        cards, van, health, lost, agents = b.cards, st.van, st.health, st.lost, st.agents
        at = b.lost_at
        city_lost = b.city_lost
        clue_parts, margin, chain_of, critical = (now.clue_parts, now.margin, st.chain_of,
                                                  now.critical)
        weighers = b.weigh

        def weigh(plays: list[Any]) -> tuple[list[float], list[Any], list[float]]:
            """Per play (verb, player, card): the score before its agents' part, the clues'
            parts, and the most its score can be (a little over: rounding)."""
            scores: list[float] = []
            parts: list[Any] = []
            tops: list[float] = []
            last = chain = None
            for _, player, card in plays:
                if player != last:  # (a player's plays come together)
                    last, spare = player, health[player] - 1
                    if chain_of(player) is not chain:  # (a team's chain is shared)
                        chain = chain_of(player)
                        per_symbol = clue_parts(chain)
                score, adds, top = weighers[card](van, spare, per_symbol)
                scores.append(score)
                parts.append(adds)
                tops.append(top)
            return scores, parts, tops

        def finish(card: int, score: float, adds: Any) -> float:
            """The score: the agents' part taken from `score`, then the clues' added."""
            c = cards[card]
            placing = c.placing
            if placing:
                left = now.left
                if left is None:
                    left = now.agents_left()
                if left - placing < 4:
                    score -= 8.0 * (4 - (left - placing))  # running out loses (R2)
            for cities, n, lost_weight, weight, crit_weight in c.agents:
                for city in cities:
                    if lost[city]:
                        score -= lost_weight  # strengthens every battle
                        continue
                    after = agents[city] + n
                    score -= weight
                    # (a critical city takes crit_weight * (after - 1): nothing for one agent)
                    if after > 1 and city_lost and critical(city):
                        score -= crit_weight * (after - 1)
                    if after >= at:
                        score -= 6.0 if margin(city) < 0 else 1.5
                    elif after == at - 1:
                        score -= 1.0
            for x in adds:
                score += x
            return score

        return weigh, finish

    def targets(self, st: State) -> list[int]:
        """Cities worth going to: artworks to collect, agents near 5 to fight."""
        return self._targets(_Now(self, st))

    def _targets(self, now: _Now) -> list[int]:
        st, b = now.st, now.b
        at = b.lost_at
        syms = b.track_symbols
        nxt = syms[len(st.track)] if len(st.track) < len(syms) else None
        lost, agents, artworks = st.lost, st.agents, st.artworks
        carried = {st.pawns[i] for i, k in enumerate(st.carried) if k} if any(st.carried) else ()
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
        if nxt is not None and (any(artworks) or carried):
            # a track that demands its artworks in order: deliver to the district it names
            out += [c for c in st.rules.by_symbol.get(nxt, ()) if not lost[c] and c not in out]
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
        pick = self._on.get(w.name) if w is not None else None
        a = pick(self, st, legal) if pick is not None else None
        if a is not None:
            return a
        a = legal[-1]
        return a if a[0] == "done" else legal[0]

    def on_boundary(self, st: State, legal: list[Action]) -> Action | None:
        # only when the van holds the radio: an unlock it cannot pay costs health (R5)
        for a in legal:
            if a[0] == "unlock":  # the first unlock
                cost = st.ally_cost()
                if (self.have(st, st.rules.params["rules.ally_resource"]) >= cost
                        and (st.allies < 2 or cost <= 2)):
                    return a
                break
        return None  # done

    def on_plan(self, st: State, legal: list[Action]) -> Action | None:
        plays = []
        for a in legal:
            if a[0] == "play":
                plays.append(a)
        if not plays:
            return None
        n = len(plays)
        # the draws an extra card for a poor hand could take: paid from a plentiful resource
        rich = [a for a in legal if a.verb == "draw" and a.arg != "health"
                and self.have(st, str(a.arg)) >= 3] if (
            n < len(legal) and max(st.van, default=0) >= 3) else None
        if n == 1 and not rich:
            return plays[0]  # nothing to weigh
        weigh, finish = self._scorer(_Now(self, st))
        base, adds, tops = weigh(plays)
        # the first best play: the plays scored whole from the highest bound down, until
        # the bound left falls under the best score (no play under it can be best)
        scores: list[float | None] = [None] * n
        best, first = _NO_FLOOR, 0
        for k in sorted(range(n), key=tops.__getitem__, reverse=True):
            if tops[k] < best:
                break
            s = scores[k] = finish(plays[k][2], base[k], adds[k])  # type: ignore[arg-type]
            if s > best or (s == best and k < first):
                best, first = s, k
        # an extra card for a player whose hand is poor (every score under -3), paid from
        # a plentiful resource (R6); the players in the order they first come
        if rich:
            for p in dict.fromkeys(a[1] for a in plays):
                kinds = [a for a in rich if a.player == p]
                if kinds and self._poor(p, plays, scores, tops, base, adds, finish):
                    return max(kinds, key=lambda a: self.have(st, str(a.arg)))
        return plays[first]

    @staticmethod
    def _poor(p: int, plays: list[Action], scores: list[float | None], tops: list[float],
              base: list[float], adds: list[list[float]],
              finish: Callable[[int, float, list[float]], float]) -> bool:
        """Whether every play of player p scores under -3 (scores worked out as needed)."""
        for k, a in enumerate(plays):
            if a[1] != p:
                continue
            s = scores[k]
            if s is None:
                if tops[k] < -3:
                    continue
                s = scores[k] = finish(a[2], base[k], adds[k])  # type: ignore[arg-type]
            if s >= -3:
                return False
        return True

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
        now = _Now(self, st)
        r, b = st.rules, now.b
        d = b.dist
        targets = self._targets(now)
        pawns, players = st.pawns, st.players
        if st.must_leave:
            forced = [a for a in legal if a.verb in _MOVES
                      and st.pawn_index(a.player) in st.must_leave
                      and st.lost[pawns[st.pawn_index(a.player)]]]
            if forced:
                return forced[0]
        if not targets:
            return None
        # each target to its nearest pawn, the less busy one on a tie, so that the pawns
        # spread out over the board (on a board where a pawn goes anywhere, every tie)
        mine = _nearest(targets, pawns, d)
        deliver: list[int] | None = None
        steps, costs, anywhere, names = b.steps, b.costs, b.anywhere, st.tab.names
        van, health, carried = st.van, st.health, st.carried
        best: Action | None = None
        top = 0.0  # the first best move, if it is worth anything
        who_now = None  # the mover whose moves these are (each mover's come together)
        for a in legal:
            verb, who, arg = a
            if who != who_now:
                if verb not in _MOVES:
                    continue
                who_now = who
                i = players if who == ALLY_PAWN else who
                goals = mine.get(i) or targets
                here = pawns[i]
                ways = steps[who][here]
                stay = here in goals and st.can_collect(here)
                row = d[here]
                near = 99
                for g in goals:
                    if row[g] < near:
                        near = row[g]
                holds = carried[i]
                # at a goal, no move brings the pawn nearer, unless it carries an artwork
                quiet = stay or (near == 0 and not holds)
                # where a pawn goes anywhere in one move, only a move onto a goal is nearer
                onto = frozenset(map(names.__getitem__, goals)) if anywhere and not holds else None
                deliver_near = -1  # (worked out when first needed)
                one = goals[0] if len(goals) == 1 else None  # (a single goal: read directly)
            if verb == "carry":
                if stay:
                    continue  # stay and collect
                carry = True
            else:
                if quiet:
                    continue  # stay and collect, or already where it is wanted
                if onto is not None and arg not in onto:
                    continue  # no nearer
                carry = False
            dst, ctx = ways[arg]
            if carry or holds:
                if deliver is None:
                    deliver = self.delivery(st)
                if deliver:  # take the artwork where it is wanted
                    if deliver_near < 0:
                        deliver_near = min(map(d[here].__getitem__, deliver))
                    gain = deliver_near - min(map(d[dst].__getitem__, deliver))
                else:
                    gain = near - min(map(d[dst].__getitem__, goals))
            elif one is not None:
                gain = near - d[dst][one]
            else:
                there = d[dst]
                far = 99
                for g in goals:
                    if there[g] < far:
                        far = there[g]
                gain = near - far
            if gain <= 0:
                continue
            cost = r.move_cost(st, ctx)
            facts = costs.get(cost)
            if facts is None:
                facts = costs[cost] = _cost_facts(r, cost)
            need, total = facts
            short = 0
            for k, n in need:
                short += max(0, n - (van[k] if k >= 0 else 0))
            if short > max(0, health[ctx.player] - 1):
                continue
            value = gain - 1.2 * short - 0.3 * total
            if carry:
                value += 1.5
            if value > top:
                best, top = a, value
        return best

    def on_battle(self, st: State, legal: list[Action]) -> Action | None:
        now = _Now(self, st)
        best: tuple[float, Action] | None = None
        at = now.b.lost_at
        health, pawns, agents = st.health, st.pawns, st.agents
        seen = set()  # a city's fights (one a player there) all weigh the same: once
        for a in legal:
            if a.verb != "fight" or a.arg in seen:
                continue
            seen.add(a.arg)
            c = st.rules.city_index[str(a.arg)]
            margin = now.margin(c)
            urgency = (3 if agents[c] >= at - 1 else 0) + (2 if st.artwork_at(c) else 0)
            if agents[c] >= at - 2 and now.critical(c):
                urgency += 3
            value = margin + urgency
            # the healthiest there is the leader (the first of them on a tie) and the most to
            # spare
            leader = pawns.index(c)
            for p in range(leader + 1, st.players):
                if pawns[p] == c and health[p] > health[leader]:
                    leader = p
            leader_spare = max(0, health[leader] - 1)
            if margin > -3 - 1.5 * leader_spare or (urgency >= 3 and margin > -6):
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
        index, later, agents = st.rules.city_index, _board(st.rules).later, st.agents

        def key(a: Action) -> tuple[bool, int]:
            c = index[str(a.arg)]
            return (agents[c] >= 2, later[c])
        return min(legal, key=key)

    def on_exchange(self, st: State, legal: list[Action]) -> Action:
        """Hand over a clue card that completes a triple in the receiver's chain (R21)."""
        r = st.rules
        need = int(r.params["rules.clues_per_artwork"])
        held: dict[int, list[int]] = {}  # per receiver: the cards of its chain per symbol

        def count(q: int, s: int) -> int:
            counts = held.get(q)
            if counts is None:
                counts = held[q] = [0] * len(r.symbols)
                for c in st.chains[q]:
                    for x in set(r.cards[c].clues):
                        counts[x] += 1
            return counts[s]

        for a in legal:
            if a.verb != "trade":
                continue
            card = r.cards[int(a.arg or 0)]
            here = st.pawns[a.player]
            for q in range(st.players):
                if q == a.player or st.pawns[q] != here:
                    continue
                for s in card.clues:
                    if count(q, s) == need - 1:
                        self.receiver = q
                        return a
        return legal[-1]

    def on_receive(self, st: State, legal: list[Action]) -> Action:
        want = [a for a in legal if a.player == self.receiver]
        return want[0] if want else legal[0]


def heuristic_policy(seed: int) -> Policy:
    """The heuristic bot (see `Heuristic`)."""
    return Heuristic(seed)


def ismcts_policy(seed: int, budget: int = 32, depth: int = 400, tree: int = 2,
                  margin: float = 0.2, z: float = 2.0) -> Policy:
    """The search bot (artproject/search.py): information-set MCTS with the heuristic bot as
    its rollouts and for the decisions it does not search. `budget`: simulations a searched
    decision; `depth`: decisions a simulation plays before the shaped score judges it;
    `tree`: the side's decisions deep the tree grows; `margin`: how much better than the
    heuristic's choice another must be to be taken."""
    from .search import Ismcts

    return Ismcts(seed, Heuristic(seed), Heuristic(seed + 1), budget=budget, depth=depth,
                  tree=tree, margin=margin, z=z)


register_policy("random", random_policy)
register_policy("cautious", cautious_policy)
register_policy("heuristic", heuristic_policy)
register_policy("ismcts", ismcts_policy)
