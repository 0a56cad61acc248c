"""The game state and its rules machine: setup, the four phases, battles and the end of game.

The state is a mutable, slotted object with an explicit field-by-field `clone()`. Every
rule runs as a step on a small work stack (`queue`): the round's phases, a card's sections,
a hook's statements. A step that needs the team to choose something sets `wait` and the
machine stops until `apply()` receives one of `legal_actions()`.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Iterable, Sequence
from itertools import compress
from typing import Any, Final

from .actions import ALLY_PAWN, TEAM, Action
from .errors import GameError, IllegalActionError, closest
from .rules import Ctx, Op, Rules
from .tables import Tables, act, tables

_MASK: Final = (1 << 64) - 1
_LCG_A: Final = 6364136223846793005  # Knuth's MMIX multiplier and increment (see _next)
_LCG_C: Final = 1442695040888963407


def _rng_state(seed: int) -> int:
    """The generator's first state for a seed: the seed through splitmix64's mixer."""
    z = (seed + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)

NO_CTX: Final = Ctx()
PHASES: Final = ("mission", "movement", "battle", "end")

_P: Final = ("p1", "p2", "p3", "p4", "p5", "p6")
_CTXS: Final = tuple(Ctx(p) for p in range(6))
# Queue items are (function, args): the function is called as function(state, *args).
# Only plain functions go on the queue (never bound methods), so a clone can share them.
Item = tuple[Callable[..., None], tuple[Any, ...]]


class Battle:
    """A battle under way (R14-R16): its city, leader and participants, the dice rolled (each
    with its label and the player who owns it), weapon bonuses and a reroll being picked."""

    __slots__ = ("bonus", "city", "dice", "labels", "leader", "owner", "parts", "picks",
                 "reroll", "reroller")

    def __init__(self, city: int, leader: int) -> None:
        self.city, self.leader, self.parts = city, leader, [leader] if leader >= 0 else []
        self.dice: list[int] = []
        self.labels: list[str] = []
        self.owner: list[int] = []
        self.bonus = 0
        self.picks: list[int] = []  # the dice picked for a reroll
        self.reroll = 0  # how many dice the reroll's card lets the team pick (R16)
        self.reroller = -1  # whose clue card pays the reroll, when each has a chain (R21)

    def copy(self) -> Battle:
        c = Battle.__new__(Battle)
        c.city, c.leader, c.parts = self.city, self.leader, self.parts.copy()
        c.dice, c.picks = self.dice.copy(), self.picks.copy()
        c.labels, c.owner, c.bonus = self.labels.copy(), self.owner.copy(), self.bonus
        c.reroll, c.reroller = self.reroll, self.reroller
        return c


_NO_BATTLE: Final = Battle(-1, -1)  # what a fingerprint shows when no battle is under way


class State:
    """One game in progress. Build it with `State.new()` (or `artproject.new_game`)."""

    __slots__ = (
        "above", "agents", "allies", "artworks", "battle", "carried",
        "chains", "deck", "deck_top", "deploy_left", "difficulty", "discard", "final_round",
        "forced_dice", "fought", "hands", "health", "history", "hook_runs", "hq",
        "legal_cache", "log", "logging",
        "lost", "moved", "must_leave", "options", "outcome", "pawns", "phase", "players",
        "plays_left", "queue", "reason", "removed", "resume", "rng", "round", "rules", "seed",
        "solo", "start", "tab", "track", "van", "wait", "wctx",
    )

    rules: Rules
    tab: Tables  # the rules' constants and action tables (shared, read-only)
    players: int
    difficulty: str
    seed: int
    solo: bool
    rng: int
    round: int
    phase: str
    van: list[int]
    health: list[int]
    pawns: list[int]
    agents: list[int]
    hq: int
    artworks: list[int]
    lost: list[int]
    track: list[str]
    allies: int
    deck: list[int]  # the cards still in the deck, in no order: each draw picks at random
    deck_top: list[int]  # cards known to lie on top (scenarios), the last drawn first
    above: int  # cards of `deck` above the final card; -1 once it is no longer in the deck
    discard: list[int]
    removed: list[int]
    hands: list[list[int]]  # each in card order (the order its plays are listed in)
    chains: list[list[int]]
    plays_left: list[int]
    fought: list[int]
    moved: list[int]
    must_leave: list[int]
    final_round: bool
    outcome: str | None
    reason: str
    queue: list[Item]
    wait: str | None
    options: tuple[Any, ...]
    resume: Callable[..., None] | None
    wctx: Ctx
    battle: Battle | None  # the battle under way, if any
    carried: list[int]  # per pawn: an artwork it carries (carry_artworks, R23)
    deploy_left: list[int]  # per player: agents still to place at setup (R23)
    forced_dice: list[int]
    start: dict[str, Any] | None  # the set position a game began from, if any (for saves)
    log: list[tuple[Any, ...]]  # the events, when recorded (`logging`); see `events()`
    logging: bool
    history: list[Action]
    legal_cache: list[Action] | None  # legal_actions() until the state next changes
    hook_runs: int  # hooks run for the current decision: a guard against rules that loop

    # ------------------------------------------------------------------ building
    @classmethod
    def new(cls, rules: Rules, players: int, difficulty: str, seed: int,
            start: bool = True, log: bool = False) -> State:
        """Set up a game (rulebook 'Setup', R3); with start=True, run to the first decision.

        log=True records the events as they happen; otherwise `events()` works them out
        when asked, by replaying the game (a game set up by hand must record them).

        Set-up is the same for every seed until the first random draw: when the first
        decision comes before any (the usual case), a game is a copy of a template built
        once per rules, team size and difficulty, with its seed set.
        """
        if not start:
            return cls._build(rules, players, difficulty, seed, False, log)
        base = cls._template(rules, players, difficulty, log)
        if base is None:
            return cls._build(rules, players, difficulty, seed, True, log)
        return base._reseeded(seed)

    @classmethod
    def _template(cls, rules: Rules, players: int, difficulty: str, log: bool) -> State | None:
        """The game at its first decision that every seed shares (built once and kept in
        `rules.cache`; never handed out: a change to it would change every later game), or
        None when set-up draws at random and so depends on the seed."""
        key = ("new", players, difficulty)
        templates: tuple[State | None, State | None] | None = rules.cache.get(key)
        if templates is None:  # (recording its events, not recording them)
            loud = cls._build(rules, players, difficulty, 0, True, True)
            if loud.rng == _rng_state(0):  # no random draw yet: the same for every seed
                quiet = loud.clone()
                quiet.logging, quiet.log = False, []
                templates = (loud, quiet)
            else:
                templates = (None, None)
            rules.cache[key] = templates
        return templates[0] if log else templates[1]

    def _reseeded(self, seed: int) -> State:
        """A template's copy with another seed: that seed's game. (Mid-game, a new seed would
        make a game its own history does not replay.)"""
        s = self.clone()
        s.seed, s.rng = seed, _rng_state(seed)
        return s

    @classmethod
    def _build(cls, rules: Rules, players: int, difficulty: str, seed: int,
               start: bool, log: bool) -> State:
        if not 1 <= players <= 6:
            raise GameError(f"players must be 1 to 6, not {players}")
        if difficulty not in rules.difficulties:
            hint = closest(difficulty, rules.difficulties)
            raise GameError(f"unknown difficulty {difficulty!r}{hint}; expected one of: "
                            + ", ".join(rules.difficulties))
        s = cls.__new__(cls)
        s.rules, s.players, s.difficulty, s.seed = rules, players, difficulty, seed
        s.tab = tables(rules)
        s.solo = players == 1 and bool(rules.p("solo.enabled"))
        s.rng = _rng_state(seed)
        n = len(rules.cities)
        health = rules.difficulties[difficulty]
        if s.solo:
            health *= int(rules.p("solo.health_factor"))
        s.round, s.phase = 1, "setup"
        s.van = list(rules.setup_van)
        s.health = [health] * players
        s.pawns = [rules.start] * (players + (1 if s.solo else 0))
        s.carried = [0] * len(s.pawns)
        s.deploy_left = [int(rules.p("setup.player_agents"))] * players
        s.agents = list(rules.setup_agents)
        s.hq = 0
        s.artworks = [0] * n
        for c in rules.setup_artworks:
            s.artworks[c] = 1
        s.lost = [0] * n
        s.track, s.allies = [], 0
        # The deck is shuffled lazily: each draw takes a card at random from those left, which
        # is the same as shuffling once, without paying for the shuffle at setup.
        s.deck, s.deck_top, s.removed = list(rules.deck), [], []
        if s.solo:
            for _ in range(int(rules.p("solo.removed_cards"))):
                s.removed.append(s._pick())
        below = int(rules.p("setup.final_card_from_bottom")) - 1  # R3: on the last 12
        s.above = max(len(s.deck) - below, 0)
        s.discard, s.hands = [], [[] for _ in range(players)]
        chains = 1 if rules.p("rules.clue_chains") == "team" else players
        s.chains = [[] for _ in range(chains)]
        s.plays_left, s.fought, s.moved, s.must_leave = [0] * players, [], [], []
        s.final_round, s.outcome, s.reason = False, None, ""
        s.queue, s.wait, s.options, s.resume, s.wctx = [], None, (), None, NO_CTX
        s.battle = None
        s.forced_dice, s.log, s.history, s.start = [], [], [], None
        s.logging, s.legal_cache, s.hook_runs = log, None, 0
        s._check_setup()
        if start:
            s.start_round()
        return s

    def _check_setup(self) -> None:
        if self.reserve("agent") < 0:
            self.end_game(False, "not enough agent tokens for setup (R2)")

    def start_round(self, phase: str = "mission") -> None:
        """Schedule the round from `phase` on and run to the first decision."""
        self._schedule_round(phase)
        self._run()

    def _schedule_round(self, phase: str) -> None:
        steps: list[Callable[..., None]]
        if phase == "mission" and not any(self.deploy_left):
            self.queue += _FULL_ROUND_ITEMS  # the usual case, built once
            return
        steps = []
        if phase == "mission":
            if any(self.deploy_left):
                steps.append(_op_deploy)
            steps.append(_op_round_start)
        for name in PHASES[PHASES.index(phase):]:
            if name != phase or phase == "mission":  # a round entered mid-way starts in it
                steps.append(_BOUNDARY_OPS[name])
            steps.append(_PHASE_OPS[name])
        steps.append(_op_next_round)
        self.push_ops(tuple(steps), NO_CTX)

    # ------------------------------------------------------------------ cloning
    def clone(self) -> State:
        """An independent copy (lists copied; rules, ops and contexts are shared values)."""
        c = State.__new__(State)
        c.rules, c.tab, c.players = self.rules, self.tab, self.players
        c.difficulty, c.seed, c.solo = self.difficulty, self.seed, self.solo
        c.rng, c.round, c.phase = self.rng, self.round, self.phase
        c.van, c.health = self.van.copy(), self.health.copy()
        c.pawns, c.agents, c.hq = self.pawns.copy(), self.agents.copy(), self.hq
        c.artworks, c.lost = self.artworks.copy(), self.lost.copy()
        c.track, c.allies = self.track.copy(), self.allies
        c.deck, c.deck_top, c.above = self.deck.copy(), self.deck_top.copy(), self.above
        c.discard, c.removed = self.discard.copy(), self.removed.copy()
        c.hands = [h.copy() for h in self.hands]
        c.chains = [ch.copy() for ch in self.chains]
        c.plays_left, c.fought = self.plays_left.copy(), self.fought.copy()
        c.moved, c.must_leave = self.moved.copy(), self.must_leave.copy()
        c.final_round, c.outcome, c.reason = self.final_round, self.outcome, self.reason
        c.queue, c.wait, c.options = self.queue.copy(), self.wait, self.options
        c.resume, c.wctx = self.resume, self.wctx
        c.battle = None if self.battle is None else self.battle.copy()
        c.carried, c.deploy_left = self.carried.copy(), self.deploy_left.copy()
        c.forced_dice, c.history = self.forced_dice.copy(), self.history.copy()
        c.log, c.logging = self.log.copy(), self.logging
        c.start, c.legal_cache, c.hook_runs = self.start, self.legal_cache, 0
        return c

    # ------------------------------------------------------------------ chance
    def _next(self) -> int:
        # A 64-bit linear congruential generator (Knuth's MMIX constants) giving its high 32
        # bits: its whole state is one int, cheap to clone and save, and a step is three
        # integer operations. `_rng_state` scrambles the seed so nearby seeds start apart.
        self.rng = z = (self.rng * _LCG_A + _LCG_C) & _MASK
        return z >> 32

    def roll(self) -> int:
        """One die, from the forced results first (scenarios), then the seeded generator."""
        if self.forced_dice:
            return self.forced_dice.pop(0)
        return 1 + self._next() % self.tab.die_faces

    def _pick(self) -> int:
        """A card taken at random from the deck's unordered remainder."""
        d = self.deck
        self.rng = z = (self.rng * _LCG_A + _LCG_C) & _MASK  # `_next`, written out: hot
        j = (z >> 32) % len(d)
        d[j], d[-1] = d[-1], d[j]
        return d.pop()

    def deck_size(self) -> int:
        return len(self.deck_top) + len(self.deck) + (1 if self.above >= 0 else 0)

    def draw_card(self) -> int | None:
        """The next card of the deck (R3: the final card after `above` others), or None."""
        if self.deck_top:
            return self.deck_top.pop()
        if self.above > 0 or (self.above < 0 and self.deck):
            self.above -= self.above > 0
            return self._pick()
        if self.above == 0:
            self.above = -1
            return self.rules.final_card
        return None

    # ------------------------------------------------------------------ reading
    def threat(self) -> int:
        """The threat on the first free track space (R15)."""
        return self.tab.threat_at[len(self.track)]

    def ally_cost(self) -> int:
        """Radio to unlock the next ally die: printed over the first free space (R17)."""
        return self.tab.ally_cost_at[len(self.track)]

    def reserve(self, kind: str) -> int:
        """Tokens of `kind` left in the reserve (derived: the components minus those in play)."""
        t = self.tab
        r = t.res_index.get(kind)
        if r is not None:
            return t.res_cap - self.van[r]
        if kind == "health":
            return t.health_tokens - sum(self.health)
        if kind == "agent":
            return t.agent_tokens - sum(self.agents) - self.hq
        if kind == "artwork":
            return t.artwork_tokens - sum(self.artworks) - len(self.track) - sum(self.carried)
        if kind == "marker":
            return t.markers - sum(self.lost)
        if kind == "ally":
            return t.ally_dice - self.allies
        raise KeyError(kind)

    def agent_strength(self, city: int) -> int:
        """Agents in the city + threat + agents in headquarters (R15)."""
        return self.agents[city] + self.threat() + self.hq

    def strength(self) -> int:
        """The team's strength in the battle under way: dice plus weapon bonuses."""
        b = self.battle
        return 0 if b is None else sum(b.dice) + b.bonus

    def clue_count(self, symbol: str) -> int:
        i = self.rules.symbols.index(symbol)
        cards = self.rules.cards
        return sum(1 for ch in self.chains for c in ch if i in cards[c].clues)

    @property
    def every_city(self) -> tuple[int, ...]:
        return tuple(range(len(self.rules.cities)))

    def pawn_index(self, player: int) -> int:
        return self.players if player == ALLY_PAWN else player

    def chain_of(self, player: int) -> list[int]:
        return self.chains[0] if len(self.chains) == 1 else self.chains[max(player, 0)]

    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def actor(self) -> int:
        """The player whose decision it is, or TEAM (-1) when any player may act."""
        acts = {a.player for a in self.legal_actions()}
        return acts.pop() if len(acts) == 1 else TEAM

    def city_name(self, c: int) -> str:
        return self.tab.names[c]

    # ------------------------------------------------------------------ the machine
    def push_ops(self, ops: Sequence[Op], ctx: Ctx) -> None:
        """Run `ops` next, in order, with `ctx`."""
        q = self.queue
        for op in reversed(ops):
            q.append((op, (ctx,)))

    def push_many(self, items: Sequence[tuple[Op, Ctx]]) -> None:
        q = self.queue
        for op, ctx in reversed(items):
            q.append((op, (ctx,)))

    def push(self, fn: Callable[..., None], *args: Any) -> None:
        self.queue.append((fn, args))

    def _run(self) -> None:
        self.legal_cache = None
        self.hook_runs = 0
        q = self.queue
        if self.wait is None and self.outcome is None:
            pop = q.pop
            while q:
                fn, args = pop()
                fn(self, *args)
                if self.wait is not None or self.outcome is not None:
                    break
        if self.outcome is not None:
            self._over()

    def _over(self) -> None:
        self.queue.clear()
        self.wait, self.options, self.resume = None, (), None
        self.phase = "over"

    def ask(self, kind: str, options: Sequence[Any], resume: Callable[..., None],
            ctx: Ctx = NO_CTX) -> None:
        """Stop for a team choice among `options`; one option is taken without asking."""
        opts = tuple(options)
        if len(opts) == 1:
            resume(self, opts[0], ctx)
            return
        self.wait, self.options, self.resume, self.wctx = kind, opts, resume, ctx

    def _await(self, kind: str) -> None:
        """Stop for decision `kind` once the work pushed after this call has run."""
        self.push(_set_wait, kind)

    def note(self, *event: Any) -> None:
        """Record an event (when this game records them: `logging`)."""
        if self.logging:
            self.log.append((self.round, *event))

    def end_game(self, won: bool, reason: str) -> None:
        """The game ends at once (R7, R19, R2...)."""
        if self.outcome is None:
            self.outcome = "won" if won else "lost"
            self.reason = reason
            self.note("won" if won else "lost", reason)

    # ------------------------------------------------------------------ effects
    def gain_all(self, pairs: Sequence[tuple[str, int]], ctx: Ctx) -> None:
        """Gains in order; resources at once, and from the first health on (a choice of who
        receives it may stop the machine) the rest one token at a time from the queue."""
        t, van = self.tab, self.van
        index = t.res_index
        for i, (kind, n) in enumerate(pairs):
            r = index.get(kind)
            if r is None:  # health
                for k, m in reversed(pairs[i:]):
                    for _ in range(m):
                        self.push(State.gain, k, 1, ctx)
                return
            room = t.res_cap - van[r]
            if n <= room:
                van[r] += n
            else:
                self.gain(kind, n, ctx)

    def pay_all(self, pairs: Sequence[tuple[str, int]], ctx: Ctx) -> None:
        """Costs in order: a named payer pays at once; the team's payer is asked token by
        token from the queue (R5)."""
        if ctx.player >= 0 or ctx.player == ALLY_PAWN:
            for kind, n in pairs:
                self.pay(ctx.player, kind, n)
                if self.outcome is not None:
                    return
            return
        for kind, n in reversed(pairs):
            self.push(State.pay, ctx.player, kind, n)

    def lose_all(self, pairs: Iterable[tuple[str, int]], ctx: Ctx) -> None:
        for kind, n in reversed(list(pairs)):
            for _ in range(n):
                self.push(State.lose, kind, 1, ctx)

    def gain(self, kind: str, n: int, ctx: Ctx) -> None:
        """Gain from the reserve: what it lacks is not gained (R1, R2); health to a named player."""
        if kind == "health":
            if n > 1:
                for _ in range(n):
                    self.push(State.gain, kind, 1, ctx)
            elif self.reserve("health") <= 0:
                self.note("no_gain", "health")
            else:
                self.ask("give", range(self.players), _give_health, ctx)
            return
        t = self.tab
        r = t.res_index[kind]
        van = self.van
        room = t.res_cap - van[r]
        if n <= room:
            van[r] += n
        else:
            van[r] += room
            self.note("no_gain", kind, n - room)

    def pay(self, player: int, kind: str, n: int) -> None:
        """The golden rule (R4, R5): the van pays while it holds the kind, else the payer."""
        if player == ALLY_PAWN:
            player = 0  # the solo player pays for the ally pawn (R24)
        if kind == "health":
            if player < 0:  # a team's health cost: the team names who pays each token (R5)
                for _ in range(n):
                    self.push(State.lose, kind, 1, NO_CTX)
                return
            self.lose_health(player, n, "pays health")
            return
        r = self.tab.res_index[kind]
        if player < 0:  # the team names who pays: one token at a time, each may stop to ask
            if self.van[r] >= n:  # the van holds it all: nobody is asked
                self.van[r] -= n
            elif n > 1:
                for _ in range(n):
                    self.push(State.pay, player, kind, 1)
            else:
                self.ask("hurt", self._alive(), _hurt_for(kind))
            return
        van = self.van
        have = van[r]
        if have >= n:
            van[r] = have - n
            return
        van[r] = 0  # the van pays what it holds, the payer a health token for each missing
        if self.logging:
            self.lose_health(player, n - have, f"paid health for {kind}",
                             ("health_for", _P[player], kind))
        else:
            self.lose_health(player, n - have, "")

    def lose(self, kind: str, n: int, ctx: Ctx) -> None:
        """Lose tokens: health for a missing resource, nothing for a missing clue card."""
        if kind == "clue":
            cards = [c for ch in self.chains for c in ch]
            if cards:
                self.ask("discard", sorted(cards), _discard_clue, ctx)
            return
        if kind == "health":
            if ctx.player >= 0:
                self.lose_health(ctx.player, n, "lost health")
            else:
                self.ask("hurt", self._alive(), _hurt_for("health"), ctx)
            return
        if kind == "resource":
            have = [k for i, k in enumerate(self.rules.resources) if self.van[i] > 0]
            if have:
                self.ask("lose", have, _lose_kind, ctx)
            else:
                self.ask("hurt", self._alive(), _hurt_for("resource"), ctx)
            return
        r = self.tab.res_index[kind]
        if self.van[r] > 0:
            self.van[r] -= 1
        elif ctx.player >= 0:
            self.lose_health(ctx.player, 1, f"lost health for {kind}")
        else:
            self.ask("hurt", self._alive(), _hurt_for(kind), ctx)

    def _alive(self) -> range:
        return range(self.players)

    def lose_health(self, player: int, n: int, why: str, each: tuple[Any, ...] = ()) -> None:
        """`player` loses `n` health tokens one by one, each noted after the event `each` (if
        given); the last one lost ends the game (R7)."""
        health, rnd, who = self.health, self.round, _P[player]
        log = self.log if self.logging else None
        for _ in range(n):
            health[player] -= 1
            if log is not None:
                if each:
                    log.append((rnd, *each))
                log.append((rnd, "health", who, -1, why))
            if health[player] <= 0:
                self.end_game(False, f"p{player + 1} lost their last health token (R7)")
                return

    def place_agents(self, cities: Sequence[int], n: int, ctx: Ctx) -> None:
        """Agents onto cities; a lost city's go to headquarters; none left loses (R2, R18)."""
        agents, lost = self.agents, self.lost
        left = self.tab.agent_tokens - sum(agents) - self.hq
        for c in cities:  # -1 stands for the White Hand's headquarters
            hq = c < 0 or lost[c]
            put = n if n <= left else left
            if hq:
                self.hq += put
            else:
                agents[c] += put
            left -= put
            if put < n:
                self.end_game(False, "an agent token was needed and none was left (R2)")
                return
            if self.logging:
                self.log.append((self.round, "agents", "hq" if hq else self.tab.names[c], n))

    def emit(self, event: str, ctx: Ctx) -> None:
        """Announce an event: run the hooks that listen to it, in file order."""
        hooks = self.tab.hooks.get(event)
        if hooks:
            q = self.queue
            for h in reversed(hooks):
                q.append((_run_hook, (h, ctx)))

    # ------------------------------------------------------------------ clue chain (R10)
    def add_clue(self, player: int, card: int) -> None:
        """The played card turns clue side up onto the chain (R8, its fourth section)."""
        d = self.discard
        if d and d[-1] == card:  # where _apply_play left it: nothing is discarded mid-card
            d.pop()
        else:
            d.remove(card)
        chains = self.chains
        chain = chains[0] if len(chains) == 1 else chains[player]
        chain.append(card)
        # only this card's symbols can have reached a triple (the chain held none before)
        if len(chain) >= self.tab.need:
            done = self.completed(player, self.tab.clues[card])
            if done:
                self.ask("triple", done, _triple_choice, Ctx(player))

    def completed(self, player: int, among: Iterable[int] | None = None) -> list[str]:
        """The symbols with a full triple in the player's chain (only `among`, if given)."""
        chain = self.chain_of(player)
        need = self.tab.need
        clues = self.tab.clues
        symbols = self.rules.symbols
        if among is not None:
            out = []
            if len(chain) >= need:
                for s in among:
                    k = 0
                    for c in chain:
                        if s in clues[c]:
                            k += 1
                    if k >= need:
                        out.append(symbols[s])
            return out
        counts = [0] * len(symbols)
        for c in chain:
            for x in clues[c]:
                counts[x] += 1
        return [symbols[i] for i, k in enumerate(counts) if k >= need]

    def resolve_triple(self, player: int, symbol: str) -> None:
        i = self.rules.symbols.index(symbol)
        need = int(self.rules.p("rules.clues_per_artwork"))
        chain = self.chain_of(player)
        bearing = [c for c in chain if i in self.rules.cards[c].clues][:need]
        for c in bearing:
            chain.remove(c)
            self.discard.append(c)
        self.note("triple", symbol)
        self.push(_check_triples, player)
        free = [c for c in self.rules.by_symbol.get(symbol, ())
                if not self.lost[c] and not self.artworks[c]]
        if not free or self.reserve("artwork") <= 0:
            self.note("wasted", symbol)
        else:
            self.ask("place", free, _uncover, Ctx(player))

    def uncover(self, city: int, player: int) -> None:
        self.artworks[city] = 1
        self.note("uncovered", self.city_name(city))
        self.emit("artwork_uncovered", Ctx(player, city))

    # ------------------------------------------------------------------ collection (R12)
    def artwork_at(self, c: int) -> bool:
        """An artwork lies in city c, or a pawn there carries one."""
        if self.artworks[c]:
            return True
        return any(k and self.pawns[i] == c for i, k in enumerate(self.carried))

    def can_collect(self, c: int) -> bool:
        if self.agents[c] or self.lost[c] or not self.artwork_at(c):
            return False
        t = self.rules.track
        need = t[len(self.track)].symbol if len(self.track) < len(t) else None
        return need is None or need == self.rules.cities[c].symbol

    def collect(self, city: int) -> None:
        """The artwork goes onto the lowest free track space; filling the last wins (R19).

        A carried artwork in the city is collected first, freeing its pawn.
        """
        carrier = next((i for i, k in enumerate(self.carried) if k and self.pawns[i] == city), -1)
        if carrier >= 0:
            self.carried[carrier] = 0
        else:
            self.artworks[city] = 0
        self.track.append(self.rules.cities[city].symbol or self.city_name(city))
        self.note("collected", self.city_name(city))
        if len(self.track) >= len(self.rules.track):
            self.end_game(True, "the last artwork reached the track (R19)")
            return
        self.emit("artwork_collected", Ctx(-1, city))
        effect = self.rules.city_effects[city]
        if effect:  # the city's own effect (on_collect), before the hooks
            self.push_ops(effect, Ctx(-1, city))

    # ------------------------------------------------------------------ battles
    def fighting(self) -> Battle:
        """The battle under way (a battle's steps call this; outside one it is an error)."""
        b = self.battle
        if b is None:
            raise GameError("no battle is under way")
        return b

    def _roll_battle(self) -> None:
        """The leader rolls their die and every ally die; each other participant their own (R14)."""
        b = self.fighting()
        lead = b.leader
        labels: list[str] = [f"p{lead + 1}"]
        owner: list[int] = [lead]
        labels += [f"a{i + 1}" for i in range(self.allies)]
        owner += [lead] * self.allies
        if self.solo and self.pawns[self.players] == b.city:
            labels.append("ally")  # the ally pawn's die, rolled by the solo player (R24)
            owner.append(lead)
        for p in b.parts:
            if p != lead:
                labels.append(_P[p])
                owner.append(p)
        b.labels, b.owner = labels, owner
        b.dice = [self.roll() for _ in labels]
        if self.logging:
            dice = zip(labels, b.dice, strict=True)
            self.note("rolled", " ".join(f"{lab}={d}" for lab, d in dice))
        self._battle_check()

    def _battle_check(self) -> None:
        c = self.fighting().city
        if self.strength() >= self.agent_strength(c):
            self.note("battle_won", self.city_name(c), self.strength(), self.agent_strength(c))
            self.agents[c] = 0
            self.battle = None
            self.fought.append(c)
            self._await("battle")
            self.emit("battle_won", Ctx(-1, c))
            if self.can_collect(c):
                self.push(State.collect, c)  # collected at once (R15)
        else:
            self._await("losing")

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> list[Action]:
        """Every action the rules allow now, in a stable order (a new list each call)."""
        legal = self.legal_cache
        if legal is None:
            w = self.wait
            legal = self.legal_cache = [] if w is None or self.outcome is not None else _LEGAL[
                w](self)
        return legal.copy()

    def compute_legal(self) -> list[Action]:
        """The legal actions worked out from the state, bypassing the cache."""
        w = self.wait
        if w is None or self.outcome is not None:
            return []
        return _LEGAL[w](self).copy()  # the tables' lists are shared: never hand them out

    def apply(self, action: Action | str) -> None:
        """Take one decision; an illegal one raises IllegalActionError and changes nothing."""
        if isinstance(action, str):
            action = Action.parse(action)
        legal = self.legal_cache
        if legal is None:
            legal = self.legal_cache = self.compute_legal()
        if action not in legal:
            raise IllegalActionError(self.why_illegal(action))
        self.history.append(action)
        _APPLY[action[0]](self, action)
        if self.wait is None or self.outcome is not None:
            self._run()  # the machine runs to the next decision
        else:  # the action's own step asked the next decision: nothing to run
            self.legal_cache = None
            self.hook_runs = 0

    def why_illegal(self, action: Action) -> str:
        """A one-line reason why `action` is not allowed now."""
        if self.outcome is not None:
            return f"the game is over (the team {self.outcome}: {self.reason})"
        legal = self.legal_actions()
        same = [a for a in legal if a.verb == action.verb]
        if action.verb in ("move", "collect", "place", "fight") and isinstance(action.arg, str):
            if action.arg not in self.rules.city_index:
                return f"{action}: unknown city {action.arg!r}" + closest(
                    action.arg, self.rules.city_index)
            c = self.rules.city_index[action.arg]
            if self.lost[c] and action.verb == "move":
                return f"{action}: {action.arg} is a lost city; no pawn may enter it (R11)"
        if action.player >= self.players or (action.player == ALLY_PAWN and not self.solo):
            return f"{action}: there is no such player in this game"
        if action.verb == "play" and action.player >= 0 and action.arg not in self.hands[
                action.player]:
            return f"{action}: card {action.arg} is not in p{action.player + 1}'s hand"
        if not same:
            verbs = sorted({a.verb for a in legal})
            return (f"{action}: not now; the team is deciding {self.wait}"
                    f" and may: {', '.join(verbs)}")
        return f"{action}: not allowed now; allowed: " + ", ".join(str(a) for a in same[:12])

    # ------------------------------------------------------------------ observation
    def observation(self, player: int) -> dict[str, Any]:
        """What `player` may see: every public fact, their own hand, others' clue backs only."""
        r = self.rules
        sym = r.symbols
        return {
            "round": self.round, "phase": self.phase, "wait": self.wait,
            "van": dict(zip(r.resources, self.van, strict=True)),
            "health": {f"p{i + 1}": h for i, h in enumerate(self.health)},
            "pawns": [self.city_name(c) for c in self.pawns],
            "agents": {c.name: self.agents[i] for i, c in enumerate(r.cities)},
            "hq": self.hq,
            "artworks": [r.cities[i].name for i, a in enumerate(self.artworks) if a],
            "lost": [r.cities[i].name for i, x in enumerate(self.lost) if x],
            "track": list(self.track), "threat": self.threat(), "ally_cost": self.ally_cost(),
            "allies": self.allies, "deck": self.deck_size(), "final_round": self.final_round,
            "hand": list(self.hands[player]),
            "hand_backs": {f"p{i + 1}": [[sym[s] for s in r.cards[c].clues] for c in h]
                           for i, h in enumerate(self.hands) if i != player},
            "chains": [[{"card": c, "clues": [sym[s] for s in r.cards[c].clues]} for c in ch]
                       for ch in self.chains],
            "battle": None if (b := self.battle) is None else {
                "city": self.city_name(b.city), "leader": f"p{b.leader + 1}",
                "dice": dict(zip(b.labels, b.dice, strict=True)),
                "strength": self.strength(), "agents": self.agent_strength(b.city)},
            "outcome": self.outcome, "reason": self.reason,
            # another player's `play` would show the cards in their hand: left out
            "legal": [str(a) for a in self.legal_actions()
                      if a.verb != "play" or a.player == player],
        }

    def fingerprint(self) -> dict[str, Any]:
        """Every fact of the state as plain data: equal fingerprints mean equal games."""
        from .position import position_of

        b = self.battle or _NO_BATTLE
        return {
            "position": position_of(self), "phase": self.phase, "wait": self.wait,
            "options": [str(o) for o in self.options], "outcome": self.outcome,
            "reason": self.reason, "rng": self.rng, "removed": list(self.removed),
            "deck": sorted(self.deck), "above": self.above,
            "plays_left": list(self.plays_left), "fought": list(self.fought),
            "moved": list(self.moved), "must_leave": list(self.must_leave),
            "deploy_left": list(self.deploy_left), "reroller": b.reroller,
            "battle": [b.city, b.leader, b.parts, b.dice, b.labels, b.bonus, b.picks, b.reroll],
            "queue": len(self.queue), "legal": [str(a) for a in self.legal_actions()],
        }

    def events(self) -> list[str]:
        """The event log as text lines: `round event args...`.

        A game that does not record its events (the default: recording costs every step
        time) replays its decisions from its seed, recording, to tell them.
        """
        log = self.log if self.logging else self._replay_log()
        return [" ".join(str(x) for x in e) for e in log]

    def _replay_log(self) -> list[tuple[Any, ...]]:
        from .position import apply_position

        st = State.new(self.rules, self.players, self.difficulty, self.seed, start=False,
                       log=True)
        if self.start is not None:
            apply_position(st, self.start.get("position", {}))
            st.start = self.start
        st.start_round(self.start.get("phase", "mission") if self.start else "mission")
        for a in self.history:
            st.apply(a)
        if st.fingerprint() != self.fingerprint():
            raise GameError("this game did not record its events and was changed outside "
                            "its rules, so a replay cannot tell them: set it up with log=True")
        return st.log


# ====================================================================== phase steps
def _set_wait(st: State, kind: str) -> None:
    st.wait, st.options, st.resume = kind, (), None


def _op_round_start(st: State, ctx: Ctx) -> None:
    if st.logging:
        st.note("round", st.round)
    st.emit("round_start", NO_CTX)


def _op_boundary_for(phase: str) -> Op:
    label = f"before {phase}"

    def boundary(st: State, ctx: Ctx) -> None:
        # A phase boundary: the team may unlock ally dice (R17).
        st.phase = label
        if st.allies < st.tab.ally_dice:  # last in its step: no need to queue
            st.wait, st.options, st.resume = "boundary", (), None
    boundary.__name__ = f"_op_boundary_{phase}"
    return boundary


def _op_mission(st: State, ctx: Ctx) -> None:
    st.phase = "mission"
    draws, plays = st.tab.solo_per_round if st.solo else st.tab.per_round
    if not st.deck_top and st.above >= draws * st.players:
        # the usual case: every card drawn lies above the final card (R3)
        st.above -= draws * st.players
        pick = st._pick
        for hand in st.hands:
            for _ in range(draws):
                insort(hand, pick())
    else:
        for p in range(st.players):
            for _ in range(draws):
                _draw(st, p)
                if st.outcome is not None:
                    return
    st.plays_left = [plays] * st.players
    st.push(_op_mission_end)
    _set_wait(st, "plan")  # last in its step: no need to queue


def _draw(st: State, p: int) -> bool:
    """Draw one card into p's hand; the final card is discarded and replaced (R20)."""
    while (card := st.draw_card()) is not None:
        if card == st.rules.final_card:
            st.discard.append(card)
            st.final_round = True
            st.note("final_card")
            continue
        insort(st.hands[p], card)  # hands are kept in card order
        return True
    return False


def _op_mission_end(st: State) -> None:
    for left, hand in zip(st.plays_left, st.hands, strict=False):  # one each player
        if left and hand:
            st.queue.append((_op_mission_end, ()))
            st.wait, st.options, st.resume = "play", (), None  # last in its step
            return
    for h in st.hands:
        st.discard.extend(h)
        h.clear()
    st.emit("mission_end", NO_CTX)


def _op_movement(st: State, ctx: Ctx) -> None:
    st.phase = "movement"
    st.moved = []
    # R13: a pawn in a lost city must leave this phase; with no way out the team loses.
    st.must_leave = [i for i, c in enumerate(st.pawns) if st.lost[c]] if any(st.lost) else []
    for i in st.must_leave:
        c = st.pawns[i]
        moves = st.tab.moves[i if i < st.players else ALLY_PAWN][c]
        if all(st.lost[m[0]] for m in moves):
            st.end_game(False, f"a pawn in lost {st.city_name(c)} cannot leave (R13)")
            return
    st.push(_op_collection)
    _set_wait(st, "move")  # last in its step: no need to queue


def _op_collection(st: State) -> None:
    st.emit("movement_end", NO_CTX)
    st.push(_collect_next)


def _collect_next(st: State) -> None:
    # R12: every city with a pawn, no agent and an artwork, in the order the team picks.
    arts, carrying, ready = st.artworks, any(st.carried), []
    for c in st.pawns:
        if (arts[c] or carrying) and c not in ready and st.can_collect(c):
            ready.append(c)
    if ready:
        ready.sort()
        st.push(_collect_next)
        st.ask("collect", [st.city_name(c) for c in ready], _collect_choice)


def _collect_choice(st: State, name: str, ctx: Ctx) -> None:
    st.collect(st.rules.city_index[name])


def _op_battle(st: State, ctx: Ctx) -> None:
    st.phase = "battle"
    st.fought = []
    st.push(_exchange_step)
    _set_wait(st, "battle")  # last in its step: no need to queue


def _exchange_groups(st: State) -> dict[int, list[int]]:
    """Cities with 2+ players and no agent: where clue cards may change hands (R21)."""
    by_city: dict[int, list[int]] = {}
    for p in range(st.players):
        by_city.setdefault(st.pawns[p], []).append(p)
    return {c: ps for c, ps in by_city.items() if len(ps) > 1 and not st.agents[c]}


def _exchange_step(st: State) -> None:
    if st.tab.clue_exchange and len(st.chains) > 1 and _legal_exchange(st)[:-1]:
        st.phase = "exchange"
        _set_wait(st, "exchange")  # last in its step: no need to queue


def _op_deploy(st: State, ctx: Ctx) -> None:
    st.phase = "setup"
    if any(st.deploy_left):
        _set_wait(st, "deploy")  # last in its step: no need to queue


def _op_end(st: State, ctx: Ctx) -> None:
    st.phase = "end"
    at = st.tab.lost_city_at
    falling = [c for c in range(len(st.agents)) if not st.lost[c] and st.agents[c] >= at
               ] if max(st.agents) >= at else []
    for c in falling:  # R18
        if st.reserve("marker") <= 0:
            st.end_game(False, "a lost-city marker was needed and none was left (R2)")
            return
        st.agents[c] = 0
        st.artworks[c] = 0
        for i, p in enumerate(st.pawns):  # an artwork carried in the city goes back too
            if p == c:
                st.carried[i] = 0
        st.lost[c] = 1
        st.note("city_lost", st.city_name(c))
    st.push(_op_round_checks)
    if falling:
        st.push_many([(_emit_op("city_lost"), Ctx(-1, c)) for c in falling])


def _op_round_checks(st: State) -> None:
    # R27: lost cities (above), then the mission's round-end hooks, then the final-round
    # check (R20), so a round_end hook can still win or lose the last round. The queue is
    # a stack: the check goes on first, the hooks above it, and they run first.
    st.push(_final_check)
    st.emit("round_end", NO_CTX)


def _final_check(st: State) -> None:
    if st.final_round:  # R20
        st.end_game(False, "the final round ended before the last artwork was recovered (R20)")


def _op_next_round(st: State, ctx: Ctx) -> None:
    st.round += 1
    st._schedule_round("mission")  # the running machine takes it from here


_BOUNDARY_OPS: Final[dict[str, Op]] = {name: _op_boundary_for(name) for name in PHASES}
_PHASE_OPS: Final[dict[str, Op]] = {
    "mission": _op_mission, "movement": _op_movement, "battle": _op_battle, "end": _op_end,
}
_FULL_ROUND: Final[tuple[Op, ...]] = (
    _op_round_start,
    *(op for name in PHASES for op in (_BOUNDARY_OPS[name], _PHASE_OPS[name])),
    _op_next_round,
)
_FULL_ROUND_ITEMS: Final = [(op, (NO_CTX,)) for op in reversed(_FULL_ROUND)]  # as queued


def _emit_op(event: str) -> Op:
    def emit(st: State, ctx: Ctx) -> None:
        st.emit(event, ctx)
    return emit


HOOK_LIMIT: Final = 10_000  # hook runs in one decision's work before it counts as a loop


def _run_hook(st: State, h: Any, ctx: Ctx) -> None:
    if h.cond is None or h.cond(st, ctx):
        st.hook_runs += 1
        if st.hook_runs > HOOK_LIMIT:
            raise GameError(f"the hook {h.text!r} ran more than {HOOK_LIMIT} times for one "
                            "decision: a rule triggers itself")
        st.push_ops(h.ops, ctx)


# ====================================================================== choice resumers
def _give_health(st: State, p: int, ctx: Ctx) -> None:
    if st.reserve("health") > 0:
        st.health[p] += 1
        st.note("health", _P[p], 1, "gained")


def _hurt_for(kind: str) -> Callable[..., None]:
    # a health token standing in for a missing resource is logged as the golden rule's
    # payments are (`health_for`); a plain loss of health is not
    each = () if kind == "health" else ("health_for", kind)

    def hurt(st: State, p: int, ctx: Ctx) -> None:
        st.lose_health(p, 1, f"health for missing {kind}",
                       (each[0], _P[p], each[1]) if each else ())
    return hurt


def _discard_clue(st: State, card: int, ctx: Ctx) -> None:
    for ch in st.chains:
        if card in ch:
            ch.remove(card)
    st.discard.append(card)
    st.note("clue_lost", card)


def _lose_kind(st: State, kind: str, ctx: Ctx) -> None:
    st.van[st.tab.res_index[kind]] -= 1
    st.note("lost", kind)


def _check_triples(st: State, player: int) -> None:
    done = st.completed(player)
    if done:
        st.ask("triple", done, _triple_choice, Ctx(player))


def _triple_choice(st: State, symbol: str, ctx: Ctx) -> None:
    st.resolve_triple(ctx.player, symbol)


def _uncover(st: State, city: int, ctx: Ctx) -> None:
    st.uncover(city, ctx.player)


# ====================================================================== legal actions
_A: Final = act


_DONE: Final = _A("done")
_ROLL: Final = _A("roll")
_CONCEDE: Final = _A("concede")
_UNLOCK: Final = [_A("unlock"), _DONE]
_DONE_ONLY: Final = [_DONE]


def _legal_boundary(st: State) -> list[Action]:
    # R17; R5: an unlock names no payer: the team names one for each missing radio (`hurt`)
    return _DONE_ONLY if st.allies >= st.tab.ally_dice else _UNLOCK


def _legal_plan(st: State) -> list[Action]:
    out = _legal_play(st)
    if st.deck or st.deck_top or st.above >= 0:
        # the van's counts are never negative: compress keeps the kinds it holds
        key = (st.players, *st.van)
        draws = st.tab.draws.get(key)
        if draws is None:
            kinds = tuple(compress(st.tab.resources, st.van)) or ("health",)
            draws = st.tab.draws[key] = [_A("draw", p, k) for p in range(st.players)
                                         for k in kinds]
        out += draws  # R6
    return out


def _legal_play(st: State) -> list[Action]:
    out: list[Action] = []
    plays, hands = st.tab.plays, st.hands
    for p, left in enumerate(st.plays_left):
        if left:
            by_card = plays[p]
            for c in hands[p]:  # kept in card order
                out.append(by_card[c])
    return out


def _legal_move(st: State) -> list[Action]:
    out: list[Action] = []
    t, lost, players = st.tab, st.lost, st.players
    anylost = any(lost)
    for i, c in enumerate(st.pawns):
        who = i if i < players else ALLY_PAWN
        if not anylost:
            out += t.move_lists[who][c]
        else:
            out += [m[2] for m in t.moves[who][c] if not lost[m[0]]]
        if t.carry and st.artworks[c] and not st.carried[i]:  # R23: one artwork a pawn
            out += [m[3] for m in t.moves[who][c] if not lost[m[0]]]
    must = st.must_leave
    if not must or not any(lost[st.pawns[i]] for i in must):
        out.append(_DONE)
    return out


def _legal_battle(st: State) -> list[Action]:
    out = []
    for p in range(st.players):
        c = st.pawns[p]
        if st.agents[c] and c not in st.fought and not st.lost[c]:
            out.append(_A("fight", p, st.city_name(c)))
    out.append(_DONE)
    return out


def _legal_muster(st: State) -> list[Action]:
    b = st.fighting()
    return [_A("join", p) for p in range(st.players)
            if st.pawns[p] == b.city and p not in b.parts] + [_ROLL]


def _legal_losing(st: State) -> list[Action]:
    out = [_A("reroll", TEAM, c) for ch in _reroll_chains(st) for c in ch]
    out += [_A("boost", p) for p in st.fighting().parts]
    out.append(_CONCEDE)
    return out


def _reroll_chains(st: State) -> list[list[int]]:
    if len(st.chains) == 1:
        return st.chains
    # R21: each player rerolls with their own cards
    return [st.chains[p] for p in st.fighting().parts]


def _rerollable(st: State) -> list[int]:
    """The dice a reroll may pick: every die, or with per-player chains and
    `reroll_own_dice` (R21) only the dice the card's owner rolls."""
    b = st.fighting()
    r = b.reroller if st.tab.reroll_own_dice else -1
    return [i for i in range(len(b.labels)) if r < 0 or b.owner[i] == r]


def _legal_pick(st: State) -> list[Action]:
    b = st.fighting()
    out = [_A("pick", TEAM, b.labels[i]) for i in _rerollable(st) if i not in b.picks]
    if b.picks:
        out.append(_ROLL)
    return out


def _legal_choice(verb: str, as_player: bool) -> Callable[[State], list[Action]]:
    def legal(st: State) -> list[Action]:
        if as_player:
            return [_A(verb, p) for p in st.options]
        return [_A(verb, TEAM, st.city_name(o) if verb == "place" else o)
                for o in st.options]
    return legal


def _legal_exchange(st: State) -> list[Action]:
    out = [_A("trade", p, c) for ps in _exchange_groups(st).values() for p in ps
           for c in sorted(st.chains[p])]
    out.append(_DONE)
    return out


def _legal_deploy(st: State) -> list[Action]:
    return [_A("deploy", p, st.city_name(c)) for p in range(st.players) if st.deploy_left[p]
            for c in range(len(st.lost)) if not st.lost[c]]


_LEGAL: Final[dict[str, Callable[[State], list[Action]]]] = {
    "boundary": _legal_boundary, "plan": _legal_plan, "play": _legal_play,
    "move": _legal_move, "battle": _legal_battle, "muster": _legal_muster,
    "losing": _legal_losing, "pick": _legal_pick,
    "give": _legal_choice("give", True), "hurt": _legal_choice("hurt", True),
    "triple": _legal_choice("triple", False), "collect": _legal_choice("collect", False),
    "lose": _legal_choice("lose", False), "discard": _legal_choice("discard", False),
    "place": _legal_choice("place", False), "receive": _legal_choice("receive", True),
    "exchange": _legal_exchange, "deploy": _legal_deploy,
}


# ====================================================================== applying
def _apply_done(st: State, a: Action) -> None:
    st.wait = None


def _wait_after(st: State, at: int, kind: str) -> None:
    """Stop for decision `kind` once the work queued above the first `at` items has run;
    at once when nothing was queued or asked (the usual case)."""
    q = st.queue
    if len(q) == at and st.wait is None:
        st.wait, st.options, st.resume = kind, (), None
    else:
        q.insert(at, (_set_wait, (kind,)))


def _apply_unlock(st: State, a: Action) -> None:
    cost = st.tab.ally_cost_at[len(st.track)]  # R17
    st.wait = None
    st.allies += 1
    if st.logging:
        st.log.append((st.round, "unlock", st.allies, cost))
    at = len(st.queue)
    # R5: a team act: the van pays what it holds; each missing radio is paid with one
    # health by a player the team names (a `hurt` question each), different radios by
    # different players if the team likes
    st.pay(TEAM, st.tab.ally_res, cost)
    _wait_after(st, at, "boundary")


def _apply_draw(st: State, a: Action) -> None:
    st.wait = None
    q = st.queue
    at = len(q)
    st.pay(a.player, str(a.arg), 1)  # R6: any resource the van holds; health only if none
    if len(q) == at and st.wait is None:  # paid at once
        if st.outcome is None:
            _draw(st, a.player)
            st.wait, st.options, st.resume = "plan", (), None
        return
    q[at:at] = [(_set_wait, ("plan",)), (_draw_op, (a.player,))]


def _draw_op(st: State, p: int) -> None:
    _draw(st, p)


def _apply_play(st: State, a: Action) -> None:
    p, card = a.player, int(a.arg or 0)
    st.hands[p].remove(card)
    st.discard.append(card)  # in play: should the game end mid-card, it lies discarded
    st.plays_left[p] -= 1
    st.wait = None
    if st.logging:
        st.log.append((st.round, "play", _P[p], card))
    # R8: cost, agents, gains, then the clue. The card's player pays (no one is asked);
    # gains take resources at once, a gained health queues its question of who receives
    # it; the clue follows whatever was queued, or comes at once if nothing was.
    cost, places, gain = st.tab.card_steps[card]
    for kind, n in cost:
        st.pay(p, kind, n)
        if st.outcome is not None:
            return
    ctx = _CTXS[p]
    for cities, n in places:
        st.place_agents(cities, n, ctx)
        if st.outcome is not None:
            return
    q = st.queue
    at = len(q)
    if gain:
        st.gain_all(gain, ctx)
    if len(q) == at:
        st.add_clue(p, card)
    else:
        q.insert(at, (State.add_clue, (p, card)))


def _apply_move(st: State, a: Action) -> None:
    who = a.player
    i = st.players if who == ALLY_PAWN else who
    src = st.pawns[i]
    dst, _, _, _, ctx = st.tab.move_to[who][src][a.arg]
    payer = ctx.player
    cost = st.rules.move_cost(st, ctx)
    st.wait = None
    if a.verb == "carry":
        st.artworks[src], st.carried[i] = 0, 1
    st.pawns[i] = dst
    if i not in st.moved:
        st.moved.append(i)
    if st.logging:
        names = st.tab.names
        st.log.append((st.round, "move", "ally" if who == ALLY_PAWN else _P[who], names[src],
                       names[dst]))
    at = len(st.queue)
    for kind, n in cost:
        st.pay(payer, kind, n)
        if st.outcome is not None:
            return
    _wait_after(st, at, "move")


def _apply_fight(st: State, a: Action) -> None:
    st.battle = Battle(st.rules.city_index[str(a.arg)], a.player)
    st.note("battle", st.city_name(st.battle.city), f"p{a.player + 1}")
    st.wait = None
    if len(_legal_muster(st)) > 1:
        st._await("muster")
    else:
        st._roll_battle()


def _apply_join(st: State, a: Action) -> None:
    st.fighting().parts.append(a.player)
    st.wait = None
    if len(_legal_muster(st)) > 1:
        st._await("muster")
    else:
        st._roll_battle()


def _apply_roll(st: State, a: Action) -> None:
    st.wait = None
    b = st.fighting()
    if b.picks:  # R16: the picked dice are rerolled all at once
        for i in b.picks:
            b.dice[i] = st.roll()
        if st.logging:
            st.note("rerolled", " ".join(f"{b.labels[i]}={b.dice[i]}" for i in b.picks))
        b.picks, b.reroll, b.reroller = [], 0, -1
        st._battle_check()
    else:
        st._roll_battle()


def _apply_reroll(st: State, a: Action) -> None:
    card = int(a.arg or 0)
    b = st.fighting()
    for owner, ch in enumerate(st.chains):
        if card in ch:
            ch.remove(card)
            b.reroller = owner if len(st.chains) > 1 else -1
    st.discard.append(card)
    b.reroll = len(st.rules.cards[card].clues)
    st.note("reroll_card", card)
    st.wait = None
    st._await("pick")


def _apply_pick(st: State, a: Action) -> None:
    b = st.fighting()
    b.picks.append(b.labels.index(str(a.arg)))
    st.wait = None
    if len(b.picks) >= b.reroll or len(b.picks) == len(_rerollable(st)):
        _apply_roll(st, _ROLL)
    else:
        st._await("pick")


def _apply_boost(st: State, a: Action) -> None:
    st.wait = None
    st.pay(a.player, st.tab.boost_res, 1)
    if st.outcome is None:
        st.fighting().bonus += int(st.rules.p("rules.weapon_bonus"))
        st.note("boost", f"p{a.player + 1}")
        st._battle_check()


def _apply_concede(st: State, a: Action) -> None:
    b = st.fighting()
    c, leader = b.city, b.leader
    st.fought.append(c)
    st.battle = None
    st.note("battle_lost", st.city_name(c))
    st.wait = None
    st._await("battle")
    st.emit("battle_lost", Ctx(leader, c))
    st.lose_health(leader, int(st.rules.p("rules.concede_health")), "conceded")


def _apply_trade(st: State, a: Action) -> None:
    st.wait = None
    st._await("exchange")
    group = next(ps for ps in _exchange_groups(st).values() if a.player in ps)
    st.ask("receive", [p for p in group if p != a.player], _receive(a.player, int(a.arg or 0)))


def _receive(giver: int, card: int) -> Callable[..., None]:
    def receive(st: State, p: int, ctx: Ctx) -> None:
        st.chains[giver].remove(card)
        st.chains[p].append(card)
        st.note("trade", f"p{giver + 1}", card, _P[p])
        st.push(_check_triples, p)  # the receiver may now hold a triple
    return receive


def _apply_deploy(st: State, a: Action) -> None:
    st.wait = None
    st.deploy_left[a.player] -= 1
    if any(st.deploy_left):
        st._await("deploy")
    st.place_agents((st.rules.city_index[str(a.arg)],), 1, Ctx(a.player))


def _apply_choice(st: State, a: Action) -> None:
    resume, ctx = st.resume, st.wctx
    answer: Any = a.player if a.verb in ("give", "hurt", "receive") else a.arg
    if a.verb == "place":
        answer = st.rules.city_index[str(a.arg)]
    st.wait, st.options, st.resume, st.wctx = None, (), None, NO_CTX
    assert resume is not None
    resume(st, answer, ctx)


_APPLY: Final[dict[str, Callable[[State, Action], None]]] = {
    "done": _apply_done, "unlock": _apply_unlock, "draw": _apply_draw, "play": _apply_play,
    "move": _apply_move, "fight": _apply_fight, "join": _apply_join, "roll": _apply_roll,
    "reroll": _apply_reroll, "pick": _apply_pick, "boost": _apply_boost,
    "concede": _apply_concede, "give": _apply_choice, "hurt": _apply_choice,
    "triple": _apply_choice, "collect": _apply_choice, "lose": _apply_choice,
    "discard": _apply_choice, "place": _apply_choice, "receive": _apply_choice,
    "carry": _apply_move, "trade": _apply_trade, "deploy": _apply_deploy,
}
