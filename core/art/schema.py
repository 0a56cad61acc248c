"""The A.R.T. rule files' keys: every section and parameter of mission, base, variant and
card files, declared once (type, range or choices, meaning) with the kernel's schema
(core/schema.py). The loader structures each file against these; docs/reference.md is
generated from them (`python tools/reference.py`), and a test keeps the two the same.
Scenario files and saves: scenarios.py and game.py; positions: state.py's table.
"""

from __future__ import annotations

import math
from typing import Any, Final

import attrs

from ..schema import Dsl, Name, Range, Word, Wrong, checked, gathered, param, section, what

MAX_COORD: Final = 100  # map coordinates run 0..100 on both axes (y grows southwards)


# ====================================================================== mission files
@section("rule parameter")
@attrs.frozen
class Components:
    """The game's components (R1, R2)."""

    resources: tuple[Name, ...] = param("the resource types a van holds (R1)")
    resource_tokens: int = param("tokens of each resource: van + reserve (R1)", lo=0,
                                 ruling="R1")
    health_tokens: int = param("health tokens in the game (R2)", lo=1, ruling="R2")
    agent_tokens: int = param("agent tokens; needing one the reserve lacks loses (R2)", lo=1,
                              ruling="R2")
    artwork_tokens: int = param("artwork tokens (R2); the track needs one a space", lo=1,
                                ruling="R2")
    ally_dice: int = param("ally dice that can be unlocked (R17)", lo=0, ruling="R17")
    lost_city_markers: int = param("lost-city markers; needing one more loses (R2)", lo=0,
                                   ruling="R2")
    die_faces: int = param("faces of every die", lo=1, hi=100)


@section("rule parameter")
@attrs.frozen
class Setup:
    """The set-up (R3, R23)."""

    van: dict[Name, int] = param("the van's resources at set-up, at most resource_tokens "
                                 "each (R1)", lo=0, ruling="R1")
    agents_per_city: int = param("agents in every city at set-up, unless a city says "
                                 "`agents`", lo=0)
    final_card_from_bottom: int = param("where the final card lies, counted from the bottom "
                                        "of the deck (R3)", lo=1, ruling="R3")
    player_agents: int = param("agents each player places where the team likes, before "
                               "round 1 (R23)", lo=0, ruling="R23")


@section("rule parameter")
@attrs.frozen
class RuleParams:
    """The round's rules."""

    draw_per_round: int = param("mission cards each player draws a round (R6)", lo=1,
                                ruling="R6")
    play_per_round: int = param("mission cards each player plays a round", lo=1)
    discard_rest: str = param("when the cards left in hand go to the discard pile: "
                              "`mission_end`, at the end of the mission phase (rulebook, "
                              "phase A), or `round_end`", choices=("mission_end", "round_end"))
    clues_per_artwork: int = param("matching clues in the chain that uncover an artwork (R10)",
                                   lo=1, ruling="R10")
    simultaneous_triples: str = param(
        "when one clue card completes several triples at once: `first`, the card goes with "
        "the first triple the team picks, so the others are no longer complete (R10 and its "
        "note); `each`, another reading of the rulebook's example: every triple it completed "
        "resolves, one at a time in the team's order, the later ones discarding the cards of "
        "their symbol still in the chain (the variant each-triple)",
        choices=("first", "each"), ruling="R10")
    lost_city_at: int = param("agents at the end of a round that make a city lost (R18)",
                              lo=1, ruling="R18")
    weapon_bonus: int = param("battle strength per boost_resource spent (R16)", lo=0,
                              ruling="R16")
    boost_resource: Name = param("what a participant spends to add weapon_bonus (R16)",
                                 ruling="R16")
    ally_resource: Name = param("what an ally die costs, per the track's ally cost (R17)",
                                ruling="R17")
    concede_health: int = param("the leader's health lost on conceding (R16)", lo=0,
                                ruling="R16")
    movement: str = param("`roads`: one road at a time (R11); `anywhere`: any city",
                          choices=("roads", "anywhere"), ruling="R11")
    move_cost: Dsl = param("what a move costs; may read road.ATTRIBUTE and road.heading",
                           dsl="cost")
    clue_chains: str = param("`team`: one shared clue chain; `per_player`: each player's own "
                             "(R21)", choices=("team", "per_player"), ruling="R21")
    clue_exchange: bool = param("players together in a city without agents trade clue cards "
                                "after the battles (R21)", ruling="R21")
    reroll_own_dice: bool = param("with per_player chains, a clue card rerolls only dice its "
                                  "owner rolls (R21)", ruling="R21")
    carry_artworks: bool = param("a pawn may carry one artwork along as it moves (R23)",
                                 ruling="R23")
    threat_by_players: tuple[int, ...] = param(
        "the threat added to every track space, for 1, 2, 3, 4, 5 and 6 players: a house "
        "rule's, not the rulebook's (R15 reads the printed space; docs/missions.md); no "
        "space's threat may fall below 0", ruling="R15",
        expects="a list of 6 whole numbers, from -10,000 to 10,000")
    team_threat: bool = param(
        "the house rule team-threat (not the rulebook's): each team size adds the board's "
        "own team_threat_by_players to every track space (docs/missions.md)")
    team_threat_by_players: tuple[int, ...] = param(
        "the board's own numbers for the house rule team-threat, for 1, 2, 3, 4, 5 and 6 "
        "players; played only when team_threat is on, added to threat_by_players",
        expects="a list of 6 whole numbers, from -10,000 to 10,000")


@section("rule parameter")
@attrs.frozen
class Solo:
    """Solo mode (rulebook, "Solo Mode"; R24)."""

    enabled: bool = param("a one-player game plays solo mode (R24)", ruling="R24")
    health_factor: int = param("the set-up health multiplier in solo mode", lo=1)
    removed_cards: int = param("mission cards taken out of the deck at set-up in solo mode",
                               lo=0)
    draw_per_round: int = param("cards drawn a round in solo mode", lo=1)
    play_per_round: int = param("cards played a round in solo mode", lo=1)
    discard_rest: str = param("when the cards left in hand go to the discard pile in solo "
                              "mode: `round_end`, at the end of the round (rulebook, Solo "
                              "Mode), or `mission_end`", choices=("mission_end", "round_end"))


@section()
@attrs.frozen
class CitySpec:
    """A city of the board: one [[city]] table."""

    name: Name = param("the city's name, as actions and the DSL write it")
    x: float = param("map position, west to east", lo=0, hi=MAX_COORD)
    y: float = param("map position, north to south", lo=0, hi=MAX_COORD)
    symbol: Name | None = param("the artwork symbol of the city; none for a junction",
                                default=None)
    start: bool = param("the pawns' start (the flag): exactly one city", default=False)
    agents: int | None = param("agents here at set-up, instead of agents_per_city", lo=0,
                               default=None)
    artwork: bool = param("an artwork lies here at set-up", default=False)
    title: str = param("the name shown to players, when it differs", default="")
    on_collect: Dsl | None = param("an effect run when this city's artwork is collected",
                                   dsl="effect", default=None)


@section()
@attrs.frozen
class RoadEnds:
    """A road between two cities: one [[road]] table."""

    from_: Name = param("one end: a city", default="")
    to: Name = param("the other end: a city", default="")


@section()
@attrs.frozen
class TrackSpec:
    """A space of the artwork track, lowest first: one [[track]] table."""

    threat: int = param("the agents' threat while this is the first free space (R15)", lo=0,
                        ruling="R15")
    ally_cost: int = param("ally_resource to unlock the next ally die while it is (R17)",
                           lo=0, ruling="R17")
    symbol: Name | None = param("the artwork this space takes, for a track that demands an "
                                "order", default=None)


@section()
@attrs.frozen
class PropertySpec:
    """A property the mission promises: one [[property]] table (docs/verification.md)."""

    name: str = param("what the property says, in words")
    check: Dsl = param("must hold after every decision", dsl="expr")


RoadAttr = str | int | bool  # a road's own attribute (thread = "red"), read by move_cost


@section()
@attrs.frozen
class Ramp:
    """`threat = { first = [2, 4], last = [10, 14] }`: the spaces between lie on a line."""

    first: Range = param("the first space's value: its lowest and highest")
    last: Range = param("the last space's value: its lowest and highest")


_RAMP: Final = "a ramp: { first = [low, high], last = [low, high] }"


@section("track number")
@attrs.frozen
class TuneTrack:
    """The artwork track's numbers, each a ramp from its first space to its last."""

    threat: Ramp | None = param("the spaces' threat (R15)", ruling="R15", default=None,
                                expects=_RAMP)
    ally_cost: Ramp | None = param("the spaces' ally cost (R17)", ruling="R17", default=None,
                                   expects=_RAMP)


_TUNED: Final = ("a whole-number parameter of [{0}] and its range: NAME = [low, high]; the "
                 "range within what [{0}] accepts")


@section("[tune] section")
@attrs.frozen
class TuneSpec:
    """What `artproject tune` may change, and how far (docs/missions.md)."""

    components: dict[Name, Range] = param(_TUNED.format("components"), factory=dict)
    setup: dict[Name, Range] = param(_TUNED.format("setup"), factory=dict)
    rules: dict[Name, Range] = param(_TUNED.format("rules"), factory=dict)
    solo: dict[Name, Range] = param(_TUNED.format("solo"), factory=dict)
    difficulty: dict[Word, Range] = param("health per player at one of the mission's "
                                          "difficulties: NAME = [low, high], from 1",
                                          factory=dict)
    track: TuneTrack | None = param("[tune.track]: the track's ramps, below", default=None)
    threat_by_players: dict[Word, Range] = param(
        "entries of [rules] threat_by_players, by team size: N = [low, high], N from 1 to 6; "
        "the range's low end must leave every track space's threat at 0 or more (R15)",
        ruling="R15", factory=dict)


# A road's extra keys are its attributes, not mistakes: the roads have their own hook.
@section(special={"road": lambda v, t: _roads(v, t)})
@attrs.frozen
class MissionSpec:
    """A mission, base or variant file, merged with everything it extends."""

    name: str = param("the mission's name (default: the file's name)", default="")
    title: str = param("the title shown to players", default="")
    about: str = param("one line about the file", default="")
    extends: str | None = param("the mission this file builds on: a shipped name or a path "
                                "relative to this file", default=None)
    cards: str = param("the card file: a shipped name or a path relative to this file",
                       default="")
    symbols: tuple[Name, ...] = param("the artwork symbols", factory=tuple)
    components: Components | None = param("the [components] table, below", default=None)
    difficulty: dict[Word, int] = param("health tokens per player at set-up, by difficulty",
                                        lo=1, factory=dict)
    setup: Setup | None = param("the [setup] table, below", default=None)
    rules: RuleParams | None = param("the [rules] table, below", default=None)
    solo: Solo | None = param("the [solo] table, below", default=None)
    city: tuple[CitySpec, ...] = param("the cities: [[city]] tables", factory=tuple)
    road: tuple[dict[str, Any], ...] = param("the roads: [[road]] tables", factory=tuple)
    track: tuple[TrackSpec, ...] = param("the artwork track: [[track]] tables, lowest first",
                                         factory=tuple)
    hooks: tuple[Dsl, ...] = param("rules run on events (`on EVENT: ...`); a variant's add "
                                   "to the mission's", dsl="hook", factory=tuple)
    property: tuple[PropertySpec, ...] = param("properties checked by verify", factory=tuple)
    tune: TuneSpec | None = param("[tune]: what `artproject tune` may change, below",
                                  default=None)


def _road_hook(value: Any, _: Any) -> dict[str, Any]:
    """A road: `from` and `to` (city names) and any attributes a move cost may read."""
    if not isinstance(value, dict):
        raise Wrong(f"expected a table with from, to and attributes, not {what(value)}")
    missing = [k for k in ("from", "to") if k not in value]
    items = [*value.items(), *((k, None) for k in missing)]
    return dict(gathered(items, lambda k, v: (k, _road_key(k, v, k in missing)), str))


def _road_key(k: str, v: Any, missing: bool) -> Any:
    if missing:
        raise Wrong(f"missing: a road needs '{k}' = a city name")
    if k in ("from", "to"):
        return checked(v, str)  # a city's name: the loader looks it up
    checked(k, Name)
    if isinstance(v, dict | list) or (isinstance(v, float) and not math.isfinite(v)):
        raise Wrong(f"a road attribute is text, a whole number or true/false, not {what(v)}")
    return checked(v, int) if isinstance(v, int | float) and not isinstance(v, bool) else v


def _roads(value: Any, _: Any) -> tuple[dict[str, Any], ...]:
    if not isinstance(value, list):
        raise Wrong(f"expected a list of tables ([[road]]), not {what(value)}")
    return tuple(gathered(enumerate(value), lambda _, x: _road_hook(x, None), dict))


# The sections of rule parameters (every one has its value in missions/base.toml).
PARAMETERS: Final = (Components, Setup, RuleParams, Solo)


# ====================================================================== card files
@section()
@attrs.frozen
class FinalSpec:
    """The final card: [final]."""

    id: int = param("the final card's number", lo=0)
    title: str = param("its title", default="Final card")


@section()
@attrs.frozen
class CardSpec:
    """A mission card: one [[card]] table; its four sections are DSL (R8)."""

    id: int = param("the card's number, unique in the file", lo=0)
    clues: Dsl = param("the clue symbols on its back: 1 or 2 distinct (R9)", dsl="symbols",
                       ruling="R9")
    cost: Dsl = param("what playing it costs (R8: first)", dsl="amounts", default="nothing")
    agents: Dsl = param("agents it places, by artwork symbol (R8: second)", dsl="placements",
                        default="nothing")
    gain: Dsl = param("what it gains (R8: third)", dsl="amounts", default="nothing")
    title: str = param("its title", default="")


@section()
@attrs.frozen
class CardFile:
    """A card file (cards/*.toml)."""

    about: str = param("one line about the file", default="")
    final: FinalSpec | None = param("[final]: the final card", default=None)
    card: tuple[CardSpec, ...] = param("the mission cards: [[card]] tables", factory=tuple)


# ====================================================================== the reference
# The sections of each kind of file, in the order the reference lists them.
MISSION_SECTIONS: Final[tuple[tuple[str, type[Any]], ...]] = (
    ("top", MissionSpec), ("[components]", Components), ("[setup]", Setup),
    ("[rules]", RuleParams), ("[solo]", Solo), ("[[city]]", CitySpec),
    ("[[road]]", RoadEnds), ("[[track]]", TrackSpec), ("[[property]]", PropertySpec),
    ("[tune]", TuneSpec), ("[tune.track]", TuneTrack), ("[tune.track] ramps", Ramp))
CARD_SECTIONS: Final[tuple[tuple[str, type[Any]], ...]] = (
    ("top", CardFile), ("[final]", FinalSpec), ("[[card]]", CardSpec))
