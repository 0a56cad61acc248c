"""The static rules of one A.R.T. game: board, track, deck and compiled effects, frozen once
built. A `Rules` pickles by reference to how it was loaded (mission, variants, card file)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import attrs

from ..sources import LoadedRules

# A compiled effect step: run against a state with a context; may push work or ask a decision.
Op = Callable[[Any, "Ctx"], None]
# A compiled expression: a value read from a state in a context.
Fn = Callable[[Any, "Ctx"], Any]


class Ctx(NamedTuple):
    """What an effect runs about: the acting player, the city, the road being travelled."""

    player: int = -1
    city: int = -1
    road: Road | None = None


@attrs.frozen
class City:
    name: str
    symbol: str | None
    x: float
    y: float
    title: str = ""


@attrs.frozen
class Road:
    """A road between two cities, seen in the direction of travel (`src` to `dst`)."""

    src: int
    dst: int
    attrs: Mapping[str, Any]
    heading: str  # north, south, east or west, from the map coordinates


@attrs.frozen
class TrackSpace:
    threat: int
    ally_cost: int
    symbol: str | None = None  # a track that demands artworks in order names them


@attrs.frozen
class Card:
    """A mission card: its four sections compiled, the texts kept for display."""

    id: int
    title: str
    clues: tuple[int, ...]  # symbol indices on its back (R9: 1 or 2, distinct)
    text: Mapping[str, str]  # section name -> DSL text, as written
    # the first three sections as data, run by the core in this order (R8)
    cost: tuple[tuple[str, int], ...] = ()  # (resource or health, count)
    agents: tuple[tuple[str, int], ...] = ()  # (symbol, count)
    gain: tuple[tuple[str, int], ...] = ()


@attrs.frozen
class Hook:
    event: str
    cond: Fn | None
    ops: tuple[Op, ...]
    text: str


@attrs.frozen
class Property:
    name: str
    check: Fn
    text: str
    where: str = ""  # `file:line:col` of its check, in the file that declares it


@attrs.frozen(eq=False)
class Rules(LoadedRules):
    """Everything fixed for a game: parameters, board, track, deck, compiled effects."""

    # LOAD_AGAIN, a pickle's way back (the same files loaded again): the loader's, set there

    name: str
    title: str
    source: str
    params: Mapping[str, Any]
    resources: tuple[str, ...]
    symbols: tuple[str, ...]
    cities: tuple[City, ...]
    city_index: Mapping[str, int]
    start: int
    neighbours: tuple[tuple[Road, ...], ...]  # per city, the roads leaving it
    by_symbol: Mapping[str, tuple[int, ...]]  # symbol -> cities bearing it
    track: tuple[TrackSpace, ...]
    cards: Mapping[int, Card]
    deck: tuple[int, ...]  # mission card ids, in file order
    final_card: int
    move_cost: Callable[[Any, Ctx], tuple[tuple[str, int], ...]]
    hooks: Mapping[str, tuple[Hook, ...]]
    properties: tuple[Property, ...]
    difficulties: Mapping[str, int]
    setup_agents: tuple[int, ...]  # per city
    setup_artworks: tuple[int, ...]  # cities holding an artwork at setup
    setup_van: tuple[int, ...]
    city_effects: tuple[tuple[Op, ...], ...]  # per city: run when its artwork is collected
    raw: Mapping[str, Any]  # the merged TOML document, for tools
    ref: str = ""  # how it was asked for: a shipped name or a file path (saves record it)
    variants: tuple[str, ...] = ()
    # what `check` reports as odd but playable (RulesWarning), with its place in the files
    warnings: tuple[Any, ...] = attrs.field(default=(), eq=False, repr=False)
    # Work derived from these rules once, for the engine's fast paths (set-up templates,
    # action tables). Never part of the rules' meaning; a copy made by evolve starts empty.
    cache: dict[Any, Any] = attrs.field(init=False, factory=dict, eq=False, repr=False)

    def p(self, key: str) -> Any:
        """A rule parameter by dotted name (`rules.lost_city_at`)."""
        return self.params[key]

