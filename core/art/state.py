"""The A.R.T. game's state: its table of fields, and the readings every rule shares.

The rules themselves live one module per part of the round (setup, mission, clues,
movement, collection, battle, exchange, allies, end, round) and in effects.py (the golden
rule and the other effects); they run on the kernel's machine (core/machine.py). The
methods bound here are what other modules, the DSL's compiled effects (see facade.py), the
tools and the tests call on a state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from ...missions import DEFAULT
from ..fields import (
    COPY,
    DERIVED,
    HIDDEN,
    LIST,
    LISTS,
    MACHINE,
    PRIVATE,
    PUBLIC,
    SHARE,
    Entry,
    Field,
)
from ..machine import MACHINE_FIELDS, Machine
from ..schema import Name, param
from . import battle as _battle
from . import (
    chance,
    clues,
    collection,
    effects,
    info,
    invariants,
    pickling,
    position,
    setup,
)
from . import round as _round
from .battle import NO_BATTLE, Battle
from .registry import ALLY_PAWN, GAME, REG, no_such_player
from .rules import Ctx, Rules
from .tables import Tables


def _battle_fp(b: Battle | None) -> dict[str, Any]:
    b = b or NO_BATTLE
    return {"reroller": b.reroller,
            "battle": [b.city, b.leader, b.parts, b.dice, b.labels, b.bonus, b.picks, b.reroll]}


def _entry(key: str, t: Any, meaning: str, info: str = PUBLIC, **declared: Any) -> Entry:
    """A position entry read and written by position.py's `read_KEY` and `write_KEY`, its
    value of type `t`, declared (meaning, range) as `schema.param` declares any key."""
    return Entry(key, getattr(position, f"read_{key}"), getattr(position, f"write_{key}"), info,
                 t, param(meaning, default=None, **declared))


# The game's fields, after the machine's own (see core/fields.py): how a copy takes each,
# what it is to the players, its fingerprint, its position entries (applied in this order).
ART_FIELDS: Final = (
    Field("tab", DERIVED, MACHINE),  # the rules' tables (tables.py), shared
    Field("players", SHARE, PUBLIC),
    Field("difficulty", SHARE, PUBLIC),
    Field("solo", SHARE, PUBLIC),
    Field("round", SHARE, PUBLIC, entries=(_entry("round", int, "the round", lo=1),)),
    Field("phase", SHARE, PUBLIC, fp="phase"),
    Field("van", LIST, PUBLIC, entries=(_entry(
        "van", dict[Name, int], "resources in the van, at most resource_tokens each", lo=0),)),
    Field("health", LIST, PUBLIC, entries=(_entry(
        "health", list[int] | dict[str, int], "each player's health", lo=1,
        expects="a list of whole numbers from 1, p1 first, or a table of pN = health"),)),
    Field("pawns", LIST, PUBLIC, entries=(_entry(
        "pawns", list[str] | dict[str, str], "each pawn's city (`ally`: the solo ally pawn)",
        expects="a list of cities, p1 first, or a table of pN (or ally) = city"),)),
    Field("agents", LIST, PUBLIC, entries=(_entry(
        "agents", dict[str, int], "agents in cities, by city", lo=0,
        expects="a table of city = whole number from 0"),)),
    Field("hq", SHARE, PUBLIC, entries=(_entry(
        "hq", int, "agents in the White Hand's headquarters", lo=0),)),
    Field("artworks", LIST, PUBLIC, entries=(_entry(
        "artworks", list[str], "the cities holding an artwork", expects="a list of cities"),)),
    Field("lost", LIST, PUBLIC, entries=(_entry(
        "lost", list[str], "the lost cities (their agents are cleared)",
        expects="a list of cities"),)),
    Field("track", LIST, PUBLIC, entries=(_entry(
        "track", list[str], "artwork symbols already on the track, in order",
        expects="a list of artwork symbols"),)),
    Field("allies", SHARE, PUBLIC, entries=(_entry("allies", int, "ally dice unlocked", lo=0),)),
    Field("hands", LISTS, PRIVATE, entries=(_entry(  # each in card order
        "hands", list[list[int]] | dict[str, list[int]], "each player's hand, by card number",
        PRIVATE, lo=0, expects="a list of lists of card numbers, p1 first, or a table of pN = "
        "card numbers"),)),
    Field("chains", LISTS, PUBLIC, entries=(
        _entry("chain", list[int], "the team's clue chain by card number, oldest first", lo=0),
        _entry("chains", dict[str, list[int]], "each player's clue chain (clue_chains = "
               "\"per_player\")", lo=0, expects="a table of pN = card numbers"))),
    Field("discard", LIST, PUBLIC, entries=(_entry(  # face up (our ruling)
        "discard", list[int], "cards in the discard pile", lo=0),)),
    Field("deck_top", LIST, HIDDEN, entries=(_entry(  # known to lie on top (scenarios)
        "deck_top", list[int], "cards on top of the deck, the first listed drawn first",
        HIDDEN, lo=0),)),
    Field("carried", LIST, PUBLIC, entries=(_entry(  # per pawn (R23)
        "carried", list[str], "the pawns carrying an artwork (R23)",
        expects="a list of pN (or ally)"),)),
    Field("final_round", SHARE, PUBLIC, entries=(_entry(
        "final_round", bool, "the final card has been drawn (R20)"),)),
    Field("forced_dice", LIST, HIDDEN, entries=(_entry(  # scenarios' dice
        "dice", list[int], "the next dice results, before the seeded generator", HIDDEN,
        lo=1, hi=100),)),
    Field("deck", LIST, HIDDEN, fp="deck", enc=sorted),  # the cards left, in no order
    Field("above", SHARE, PUBLIC, fp="above"),  # cards above the final card; -1: drawn (R3)
    Field("removed", LIST, HIDDEN, fp="removed", enc=list),  # solo: out of the game (R24)
    Field("plays_left", LIST, PUBLIC, fp="plays_left", enc=list),
    Field("fought", LIST, PUBLIC, fp="fought", enc=list),
    Field("moved", LIST, PUBLIC, fp="moved", enc=list),
    Field("must_leave", LIST, PUBLIC, fp="must_leave", enc=list),
    Field("deploy_left", LIST, PUBLIC, fp="deploy_left", enc=list),  # setup agents (R23)
    Field("battle", COPY, PUBLIC, fp="*", enc=_battle_fp),  # the battle under way, if any
)


MAX_DECISIONS: Final = 2000  # the adapters' and search's maximum game length (decisions)


class State(Machine):
    """One game of The A.R.T. Project in progress. Build it with `State.new()` (or
    `artproject.new_game`)."""

    game = GAME
    registry = REG
    PACKAGE = "artproject.core.art"  # its game, scenarios modules (hooks.py)
    TOOLS = "artproject.core.art.tools"  # what the tools ask of it (core/games.py)
    TITLE = "The A.R.T. Project"
    RULES_OPTION: ClassVar[str | None] = "mission"
    OPTIONS: ClassVar[Mapping[str, Any]] = {"mission": DEFAULT, "players": 2,
                                            "difficulty": "medium"}
    UTILITY = "shared"  # the team wins or loses together
    FIELDS = MACHINE_FIELDS + ART_FIELDS
    NO_CONTEXT = Ctx()
    INVARIANTS = invariants.INVARIANTS
    STEP_CHECKS = invariants.STEP_CHECKS
    PROPERTY_CHECKS = invariants.PROPERTY_CHECKS
    __slots__ = tuple(f.name for f in ART_FIELDS)

    rules: Rules
    tab: Tables
    players: int
    difficulty: str
    solo: bool
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
    hands: list[list[int]]
    chains: list[list[int]]
    discard: list[int]
    deck_top: list[int]
    carried: list[int]
    final_round: bool
    forced_dice: list[int]
    deck: list[int]
    above: int
    removed: list[int]
    plays_left: list[int]
    fought: list[int]
    moved: list[int]
    must_leave: list[int]
    deploy_left: list[int]
    battle: Battle | None

    # ------------------------------------------------------------------ building
    new = classmethod(setup.new)
    _build = classmethod(setup.build)
    start_round = _round.start_round

    def restart(self, log: bool) -> State:
        """The same game at its start (set-up and any set position), not yet played."""
        st = State.new(self.rules, self.players, self.difficulty, self.seed, start=False,
                       log=log, chance="explicit" if self.explicit else "sample")
        if self.start is not None:
            position.apply_position(st, self.start.get("position", {}))
            st.start = self.start
        st.start_round(self.start.get("phase", "mission") if self.start else "mission")
        return st

    # ------------------------------------------------------------------ reading
    def threat(self) -> int:
        """The threat on the first free track space (R15), with what the team's size adds
        to it (`rules.threat_by_players`)."""
        t = self.tab
        return t.threat_at[len(self.track)] + t.team_threat[self.players]

    def ally_cost(self) -> int:
        """Radio to unlock the next ally die: printed over the first free space (R17)."""
        return self.tab.ally_cost_at[len(self.track)]

    def reserve(self, kind: str) -> int:
        """Tokens of `kind` left in the reserve (derived: the components minus those in play)."""
        t = self.tab
        r = t.res_index.get(kind)
        if r is not None:
            return t.res_cap - self.van[r]
        count = _RESERVES.get(kind)
        if count is None:
            raise KeyError(kind)
        return count(self)

    def agent_strength(self, city: int | str) -> int:
        """Agents in the city + threat + agents in headquarters (R15); `city` its index in
        the board's cities (as `battle.city`) or its name."""
        if type(city) is not int or not 0 <= city < len(self.agents):
            city = self._city_arg(city)
        return self.agents[city] + self.threat() + self.hq

    def _city_arg(self, city: Any, name: str = "city") -> int:
        """A public function's city argument (its index in the board's cities, numpy's
        integers too, or its name) as its index; GameError naming `name` and what it takes."""
        import operator

        from ..checks import what
        from ..errors import GameError, closest

        if isinstance(city, str):
            found = self.rules.city_index.get(city)
            if found is None:
                raise GameError(f"{name}: unknown city {city!r} on {self.rules.name}"
                                + closest(city, self.rules.city_index))
            return int(found)
        try:
            i = -1 if isinstance(city, bool) else operator.index(city)
        except TypeError:
            i = -1
        if not 0 <= i < len(self.agents):
            raise GameError(f"{name} must be a city's name or its index (0 to "
                            f"{len(self.agents) - 1}), not {what(city)}")
        return i

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

    def city_name(self, c: int) -> str:
        return self.tab.names[c]

    def wait_name(self) -> str:
        """The pending decision's name ('' when none)."""
        return str(self.wait or "")

    fighting = _battle.fighting
    artwork_at = collection.artwork_at
    can_collect = collection.can_collect
    completed = clues.completed
    deck_size = chance.deck_size

    # ------------------------------------------------------------------ rules the DSL and
    # the tools call as methods (the rule modules call the functions themselves)
    gain_all = effects.gain_all
    pay_all = effects.pay_all
    lose_all = effects.lose_all
    gain = effects.gain
    pay = effects.pay
    lose = effects.lose
    lose_health = effects.lose_health
    place_agents = effects.place_agents
    end_game = effects.end_game
    emit = effects.emit
    add_clue = clues.add_clue
    resolve_triple = clues.resolve_triple
    uncover = clues.uncover
    collect = collection.collect
    roll = chance.roll
    pick = chance.pick
    draw_card = chance.draw_card

    def if_city_falls(self, city: int) -> State:
        """What happens if `city` falls now: a copy with the city lost and its `city_lost`
        hooks run up to the next decision (for bots that weigh a city's fall)."""
        probe = self.clone()
        probe.lost[city] = 1
        probe.queue.clear()
        probe.wait, probe.options, probe.resume, probe.wargs = None, (), None, ()
        effects.emit(probe, "city_lost", Ctx(-1, city))
        probe._run()
        return probe

    # ------------------------------------------------------------------ the machine's hooks
    def note(self, *event: Any) -> None:
        """Record an event, stamped with its round (when this game records them)."""
        if self.logging:
            self.log.append((self.round, *event))

    def refusal(self, action: Any) -> str | None:
        return no_such_player(self, action) or super().refusal(action)

    def over_text(self) -> str:
        return f"the game is over (the team {self.outcome}: {self.reason})"

    def returns(self) -> list[float]:
        """Each seat's return: the team's +1 (won) or -1 (lost) for every player; 0 before
        the end."""
        v = 0.0 if self.outcome is None else 1.0 if self.outcome == "won" else -1.0
        return [v] * self.players

    # ------------------------------------------------------------------ search and learning
    def num_players(self) -> int:
        return self.players

    def derived(self) -> dict[Any, Any]:
        return self.rules.cache

    def tensor_segments(self, kind: str) -> tuple[Any, ...]:
        from .tensors import segments

        return segments(self, kind)

    def max_game_length(self) -> int:
        """A game is cut after MAX_DECISIONS decisions (the heuristic bot's longest games
        take about 200), and counts as lost (`limit_returns`)."""
        return MAX_DECISIONS

    def limit_returns(self) -> list[float]:
        """A game cut at its maximum length: the team did not win, so it lost."""
        return [-1.0] * self.players

    shaped_score = info.shaped_score
    shaped_scorer = info.shaped_scorer
    resample = info.resample

    # ------------------------------------------------------------------ saves, scenarios
    def event_text(self, event: tuple[Any, ...]) -> str:
        """An event as a scenario reads it: its words, without the round it is stamped with."""
        return " ".join(str(x) for x in event[1:])

    observation = info.observation
    start_view = info.start_view
    _op_ref = pickling.op_ref
    _arg_ref = pickling.arg_ref
    _op_from = pickling.op_from
    _arg_from = pickling.arg_from

    def _after_unpickle(self) -> None:
        from .tables import tables

        self.tab = tables(self.rules)


def _health_left(st: State) -> int:
    return st.tab.health_tokens - sum(st.health)


def _agents_left(st: State) -> int:
    return st.tab.agent_tokens - sum(st.agents) - st.hq


def _artworks_left(st: State) -> int:
    return st.tab.artwork_tokens - sum(st.artworks) - len(st.track) - sum(st.carried)


def _markers_left(st: State) -> int:
    return st.tab.markers - sum(st.lost)


def _allies_left(st: State) -> int:
    return st.tab.ally_dice - st.allies


_RESERVES: Final = {"health": _health_left, "agent": _agents_left, "artwork": _artworks_left,
                    "marker": _markers_left, "ally": _allies_left}
