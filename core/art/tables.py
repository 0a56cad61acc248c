"""What the engine's hot paths read, worked out once per rules: constants and action tables.

The rules keep their parameters as a mapping of dotted names (`components.ally_dice`) and
their board as objects; a decision step would otherwise look the same things up again and
again. `tables(rules)` turns them, once, into plain attributes, index maps and the interned
actions each decision offers, and caches the result on the rules (`Rules.cache`).
"""

from __future__ import annotations

from typing import Any, Final

from ..actions import TEAM, Action
from .cardplay import card_plays
from .registry import ALLY_PAWN, P, act
from .rules import Ctx, Road, Rules

MAX_PLAYERS: Final = 6

# a pawn's move from one city: (destination, road or None, its `move` and `carry` actions,
# the context its cost is worked out in: who pays, the destination, the road)
Move = tuple[int, Road | None, Action, Action, Ctx]


class Tables:
    """Constants and interned actions for one set of rules (see the module's text)."""

    __slots__ = (
        "agent_tokens",
        "ally_cost_at",
        "ally_dice",
        "ally_labels",
        "ally_res",
        "artwork_tokens",
        "battle_labels",
        "bearing",
        "bearing_of",
        "boost_res",
        "boosts",
        "card_play",
        "carry",
        "city_ctx",
        "city_symbol",
        "clue_exchange",
        "clues",
        "deploys",
        "die_faces",
        "discard_late",
        "draws",
        "each_triple",
        "fights",
        "health_tokens",
        "hooks",
        "joins",
        "lost_city_at",
        "markers",
        "move_to",
        "moves",
        "names",
        "need",
        "open_moves",
        "per_round",
        "play_of",
        "player_ctx",
        "plays",
        "reroll_own_dice",
        "rerolls",
        "res_cap",
        "res_index",
        "resources",
        "solo_per_round",
        "team_threat",
        "threat_at",
        "track_mark",
        "track_need",
        "trades",
        "weapon_bonus",
    )

    def __init__(self, rules: Rules) -> None:
        self._constants(rules)
        self._cards(rules)
        self._actions(rules)

    def _constants(self, rules: Rules) -> None:
        p = rules.params
        self.resources = rules.resources
        self.res_index = {k: i for i, k in enumerate(rules.resources)}
        self.res_cap = int(p["components.resource_tokens"])
        self.health_tokens = int(p["components.health_tokens"])
        self.agent_tokens = int(p["components.agent_tokens"])
        self.artwork_tokens = int(p["components.artwork_tokens"])
        self.markers = int(p["components.lost_city_markers"])
        self.ally_dice = int(p["components.ally_dice"])
        self.die_faces = int(p["components.die_faces"])
        self.need = int(p["rules.clues_per_artwork"])
        self.ally_res = str(p["rules.ally_resource"])
        self.boost_res = str(p["rules.boost_resource"])
        self.weapon_bonus = int(p["rules.weapon_bonus"])  # a boost's strength (R16)
        self.hooks = {e: hs for e, hs in rules.hooks.items() if hs}  # in file order
        self.carry = bool(p["rules.carry_artworks"])
        self.clue_exchange = bool(p["rules.clue_exchange"])
        self.reroll_own_dice = bool(p["rules.reroll_own_dice"])  # R21, with per_player chains
        self.lost_city_at = int(p["rules.lost_city_at"])
        # several triples one card completes: all resolve ("each"), or the first only (R10)
        self.each_triple = p["rules.simultaneous_triples"] == "each"
        # cards drawn and played by each player in a round's mission phase (R6; solo R24)
        self.per_round = (int(p["rules.draw_per_round"]), int(p["rules.play_per_round"]))
        self.solo_per_round = (int(p["solo.draw_per_round"]), int(p["solo.play_per_round"]))
        # by solo mode (False, True): whether the cards left in hand are discarded at the
        # round's end rather than the mission phase's (rulebook, phase A; Solo Mode)
        self.discard_late = (p["rules.discard_rest"] == "round_end",
                             p["solo.discard_rest"] == "round_end")
        self.names = tuple(c.name for c in rules.cities)
        # by the number of artworks on the track: the first free space's threat (R15) and
        # ally cost (R17); a full track reads its last space
        t = (*rules.track, rules.track[-1])
        self.threat_at = tuple(s.threat for s in t)
        self.ally_cost_at = tuple(s.ally_cost for s in t)
        # the threat a team of n players adds to every space, at index n (R15;
        # rules.threat_by_players, our reconstruction)
        self.team_threat = (0, *(int(x) for x in p["rules.threat_by_players"]))
        # the ally dice's labels in a battle (R17): a1, a2...
        self.ally_labels = tuple(f"a{i + 1}" for i in range(self.ally_dice))
        # a battle's dice labels by its leader and the ally dice unlocked: the leader's die,
        # then the ally dice (R14, R17); copied per battle
        self.battle_labels = _battle_labels(self.ally_labels)
        # the contexts of an event about a city (no player), and of a player's act
        self.city_ctx = tuple(Ctx(-1, c) for c in range(len(rules.cities)))
        self.player_ctx = tuple(Ctx(p) for p in range(MAX_PLAYERS))
        # what goes onto the track: by artworks already there, the symbol the next space
        # demands (None: any, or the track is full; a board's order); by city, what it puts there
        self.track_need = (*(s.symbol for s in rules.track), None)
        self.track_mark = tuple(c.symbol or c.name for c in rules.cities)
        self.city_symbol = tuple(c.symbol for c in rules.cities)

    def _cards(self, rules: Rules) -> None:
        self.clues = {i: c.clues for i, c in rules.cards.items()}
        # per symbol, the cards bearing it (a triple is `need` of them in a chain, R9)
        self.bearing = tuple(frozenset(i for i, cl in self.clues.items() if s in cl)
                             for s in range(len(rules.symbols)))
        self.bearing_of = dict(zip(rules.symbols, self.bearing, strict=True))  # by name
        # each card's play (R8: cost, agents, gains, clue) as flat Python for these rules
        # (cardplay.py), by card
        self.card_play = card_plays(rules, self)

    def _actions(self, rules: Rules) -> None:
        names, players = self.names, range(MAX_PLAYERS)
        # draw actions (R6) by team size and the van's counts, filled as they are met
        self.draws: dict[tuple[int, ...], list[Action]] = {}
        # play actions per player, by card
        self.plays = tuple({c: act("play", pl, c) for c in rules.cards} for pl in players)
        self.play_of = tuple(p.__getitem__ for p in self.plays)  # the same, as functions
        # a player's clue card handed on (R21), by player and card
        self.trades = tuple({c: act("trade", pl, c) for c in rules.cards} for pl in players)
        # fight actions per player, by city (R14)
        self.fights = tuple(tuple(act("fight", pl, name) for name in names) for pl in players)
        # who joins a battle, boosts it, which clue card rerolls (R14, R16); set-up agents by
        # player and city (R23)
        self.joins = tuple(act("join", pl) for pl in players)
        self.boosts = tuple(act("boost", pl) for pl in players)
        self.rerolls = {c: act("reroll", TEAM, c) for c in rules.cards}
        self.deploys = tuple(tuple(act("deploy", pl, name) for name in names) for pl in players)
        self.moves, self.move_to = _move_tables(rules, names)
        # per (solo, lost cities as bytes): per pawn, per city, its moves and carries (R11,
        # R23) into cities not lost; filled as lost cities are met (see `open_moves`)
        self.open_moves: dict[tuple[bool, bytes], OpenMoves] = {}


def _battle_labels(ally: tuple[str, ...]) -> tuple[tuple[list[str], ...], ...]:
    """By leader and ally dice unlocked, a battle's dice labels: the leader's, then a1, a2..."""
    return tuple(tuple([P[p], *ally[:n]] for n in range(len(ally) + 1))
                 for p in range(MAX_PLAYERS))


def _ways(rules: Rules) -> list[list[tuple[int, Road | None]]]:
    """Per city, where a pawn may go from it: along each road, or anywhere (R11, R22)."""
    n = len(rules.cities)
    if rules.params["rules.movement"] == "anywhere":
        return [[(d, None) for d in range(n) if d != c] for c in range(n)]
    return [[(r.dst, r) for r in rules.neighbours[c]] for c in range(n)]


def _move_tables(rules: Rules, names: tuple[str, ...]) -> tuple[Any, Any]:
    """Moves per pawn label (a player or the ally pawn), per city of departure: as tuples, and
    by destination name."""
    ways = _ways(rules)
    moves: dict[int, tuple[tuple[Move, ...], ...]] = {}
    move_to: dict[int, tuple[dict[str | int | None, Move], ...]] = {}
    for who in (*range(MAX_PLAYERS), ALLY_PAWN):
        payer = 0 if who == ALLY_PAWN else who  # the solo player pays for the ally (R24)
        per_city = tuple(
            tuple((d, r, act("move", who, names[d]), act("carry", who, names[d]),
                   Ctx(payer, d, r)) for d, r in ways[c])
            for c in range(len(rules.cities)))
        moves[who] = per_city
        move_to[who] = tuple({names[m[0]]: m for m in ms} for ms in per_city)
    return moves, move_to


# per pawn (players in order, then the solo ally pawn), per city: the `move` and the `carry`
# actions into cities not lost
OpenMoves = tuple[tuple[tuple[list[Action], ...], ...], tuple[tuple[list[Action], ...], ...]]
OPEN_MOVES_KEPT: Final = 4096  # lost-city sets remembered per rules (a bound on the cache)


def open_moves(t: Tables, solo: bool, lost: list[int]) -> OpenMoves:
    """The moves a pawn may make from each city with these cities lost (R11: no pawn enters a
    lost city), worked out once per set of lost cities."""
    key = (solo, bytes(lost))
    got = t.open_moves.get(key)
    if got is None:
        if len(t.open_moves) >= OPEN_MOVES_KEPT:
            t.open_moves.clear()
        who = (0, ALLY_PAWN) if solo else tuple(range(MAX_PLAYERS))
        moves = tuple(tuple([m[2] for m in ms if not lost[m[0]]] for ms in t.moves[w])
                      for w in who)
        carries = tuple(tuple([m[3] for m in ms if not lost[m[0]]] for ms in t.moves[w])
                        for w in who)
        got = t.open_moves[key] = (moves, carries)
    return got


def tables(rules: Rules) -> Tables:
    """The tables of `rules`, made on first use."""
    t = rules.cache.get("tables")
    if t is None:
        t = rules.cache["tables"] = Tables(rules)
    assert isinstance(t, Tables)
    return t
