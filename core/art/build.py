"""A mission's merged document to `Rules`: its sections of parameters, the board (cities,
roads, the start, the symbols' cities), the track, the hooks, properties and city effects
compiled, the deck (cardfile.py), then the checks of meaning (meaning.py). Every mistake is
gathered in the `Where` the loader (loader.py) gives it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import attrs

from ...dsl.compiler import Compiler, Scope
from .. import salvage
from ..errors import closest
from ..salvage import gone_from
from ..sources import SourceMap, Where, path_text
from . import meaning
from .cardfile import load_cards
from .rules import City, Hook, Property, Road, Rules, TrackSpace
from .schema import Components, MissionSpec, RuleParams, Setup, Solo
from .tunables import TRACK_KEYS, check_tunables
from .words import WORDS

Gone = Callable[..., bool]  # whether any of these key paths was dropped as wrong


@attrs.frozen
class _Board:
    cities: tuple[City, ...]
    index: dict[str, int]
    start: int
    by_symbol: dict[str, tuple[int, ...]]
    neighbours: tuple[tuple[Road, ...], ...]
    road_attrs: dict[str, frozenset[Any] | None]  # (Scope's: each attribute's values)


@attrs.frozen
class _Sections:
    components: Components
    setup: Setup
    rules: RuleParams
    solo: Solo

    def params(self) -> dict[str, Any]:
        """The parameters by dotted name (`rules.lost_city_at`), as `Rules.p` reads them;
        `rules.threat_by_players` is what the team faces: the house rule team-threat's
        numbers added when it is on (every reader of the threat reads this one list)."""
        out: dict[str, Any] = {}
        for name in ("components", "setup", "rules", "solo"):
            section = getattr(self, name)
            for f in attrs.fields(type(section)):
                out[f"{name}.{f.name}"] = getattr(section, f.name)
        own, house = self.rules.threat_by_players, self.rules.team_threat_by_players
        if self.rules.team_threat and len(own) == len(house):  # lengths: meaning.py's check
            out["rules.threat_by_players"] = tuple(a + b for a, b in zip(own, house,
                                                                          strict=True))
        return out


def build(doc: dict[str, Any], w: Where, mission: SourceMap | None = None) -> Rules | None:
    """The `Rules` of the merged document `doc` (every mistake gathered in `w`); `mission`:
    the mission's own file (the last of its chain, below any variant), whose own `name`
    and `title` the rules take. A key of the wrong type or range is told, and the rest
    checked without it: each check that reads it is left until it is mended (`_Shaped`)."""
    shaped = _shape(doc, w)
    parts = None if shaped is None else _parts(shaped, doc, w)
    if shaped is None or parts is None:
        return None  # a file that is no mission: its own error, not a cascade of others
    spec, sections, board, track = parts
    made = _compiled(spec, sections, board, w, shaped.gone)
    if made is None or w.errors or sections is None or not track:
        return None
    setup = _setup(spec, sections)
    name, title = _named(spec, w, mission or w.top)
    rules = Rules(
        name=name, title=title, source=w.top.file,
        params=MappingProxyType(sections.params()), resources=sections.components.resources,
        symbols=spec.symbols, cities=board.cities, city_index=MappingProxyType(board.index),
        start=board.start, neighbours=board.neighbours,
        by_symbol=MappingProxyType(board.by_symbol), track=track,
        cards=MappingProxyType(made.cards), deck=made.deck, final_card=made.final,
        move_cost=made.move_cost,
        hooks=MappingProxyType({k: tuple(v) for k, v in made.hooks.items()}),
        properties=tuple(made.props),
        difficulties=MappingProxyType({str(k): v for k, v in spec.difficulty.items()}),
        setup_agents=setup[0], setup_artworks=setup[1], setup_van=setup[2],
        city_effects=tuple(made.effects), raw=doc,
    )
    meaning.check(rules, w.err, w.warn)
    return rules


def _parts(shaped: _Shaped, doc: dict[str, Any], w: Where,
           ) -> tuple[MissionSpec, _Sections | None, _Board, tuple[TrackSpace, ...]] | None:
    """The checks that read no rule text, each left alone while a key it reads is dropped as
    wrong; the parameters, board and track, or None where the rule texts cannot be compiled
    (no board to name, or no resources)."""
    spec, gone = shaped.spec, shaped.gone
    sections = _sections(spec, doc, w, gone)
    if sections is None and not gone(*((k,) for k in _SECTIONS)):
        return None
    meaning.names(spec, w.err, gone)
    _check_tune(spec, doc, w, gone)
    _check_resources(spec, sections, w, gone)
    board = None if gone(("city",), ("road",), ("symbols",)) else _board(spec, w)
    track = () if gone(("track",), ("symbols",)) else _track(spec, w)
    if board is None or spec.components is None or gone(("components", "resources")):
        return None
    return spec, sections, board, track


@attrs.frozen
class _Compiled:
    """The rule texts compiled: the move's cost, the hooks, properties, city effects, and
    the deck."""

    move_cost: Any
    hooks: dict[str, list[Hook]]
    props: list[Property]
    effects: list[tuple[Any, ...]]
    cards: Any
    deck: Any
    final: Any


def _compiled(spec: MissionSpec, sections: _Sections | None, board: _Board, w: Where,
              gone: Gone) -> _Compiled | None:
    """Every rule text compiled against the board's names (a text whose key was dropped as
    wrong is left alone); None when one does not compile, or could not be."""
    resources = spec.components.resources if spec.components is not None else ()
    scope = Scope(resources, spec.symbols, board.index, board.road_attrs, board.by_symbol)
    comp = Compiler(scope, WORDS)
    move_cost = None if sections is None or gone(("rules", "move_cost")) else comp.cost(
        sections.rules.move_cost, w.origin(("rules", "move_cost"), sections.rules.move_cost))
    hooks = {} if gone(("hooks",)) else _hooks(spec, comp, w)
    props = [] if gone(("property",)) else _properties(spec, comp, w)
    effects = _city_effects(spec, comp, w)
    cards, deck, final = ({}, (), None) if gone(("cards",)) else load_cards(
        spec.cards, w.map(("cards",)), comp, resources, w.errors)
    w.errors.extend(comp.errors)
    if w.errors or move_cost is None or final is None:
        return None
    return _Compiled(move_cost, hooks, props, effects, cards, deck, final)


def _named(spec: MissionSpec, w: Where, mission: SourceMap) -> tuple[str, str]:
    """The mission's name and title: its own file's, never a parent's (a file extending a
    shipped board without `name` is not that board: its saves, tuned variants,
    counterexamples and rows would be named so). Without its own, the name is the file's
    name and the title the name (docs/reference.md)."""
    def own(key: str) -> str:
        value = getattr(spec, key)
        return value if value and w.map((key,)).file == mission.file else ""

    name = own("name") or Path(mission.file).stem
    return name, own("title") or name


def _setup(spec: MissionSpec, s: _Sections,
           ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Set-up: agents per city, the cities holding an artwork, the van."""
    per_city = s.setup.agents_per_city
    return (tuple(per_city if c.agents is None else c.agents for c in spec.city),
            tuple(i for i, c in enumerate(spec.city) if c.artwork),
            tuple(s.setup.van.get(r, 0) for r in s.components.resources))


@attrs.frozen
class _Shaped:
    """The merged document structured, and which of its paths were dropped as wrong
    (`gone(*paths)`: whether any of `paths` reads one; core/salvage.py)."""

    spec: MissionSpec
    dropped: tuple[tuple[Any, ...], ...]

    def gone(self, *paths: tuple[Any, ...]) -> bool:
        return bool(self.dropped) and gone_from(self.dropped, *paths)


def _shape(doc: dict[str, Any], w: Where) -> _Shaped | None:
    """The merged document structured by the schema, every shape error told; a list with a
    wrong item left empty (its places are told, its items judged once they are mended).
    None for a file that is no mission, or of no shape at all."""
    spec, found, dropped = salvage.salvaged(doc, MissionSpec)
    missing = [path for path, msg in found if msg.startswith("missing")]
    if missing and "extends" not in doc:  # one error for a file that forgot its parent
        w.err(f"not a mission: it extends no mission and lacks {len(missing)} of the base "
              f"rules ({path_text(missing[0])}, ...); a mission file says extends = \"base\" "
              "(or the name of a board)", ("extends",))
        return None
    for path, msg in found:
        w.err(msg, path)
    if spec is None or gone_from(dropped, ("extends",)):
        return None  # (without its parent, a file lacks what it would have inherited)
    emptied: dict[str, Any] = {f.name: () for f in attrs.fields(MissionSpec)
               if isinstance(getattr(spec, f.name), tuple)
               and gone_from(dropped, (f.name.rstrip("_"),))}
    return _Shaped(attrs.evolve(spec, **emptied), tuple(dropped))


_SECTIONS: Final = ("components", "setup", "rules", "solo")


def _sections(spec: MissionSpec, doc: Mapping[str, Any], w: Where, gone: Gone,
              ) -> _Sections | None:
    """The four sections of parameters, which base.toml gives every mission (one dropped
    as wrong is not missing: its error is told)."""
    missing = [k for k in _SECTIONS if getattr(spec, k) is None]
    if not missing:
        return _Sections(spec.components, spec.setup, spec.rules,  # type: ignore[arg-type]
                         spec.solo)  # type: ignore[arg-type]
    missing = [k for k in missing if not gone((k,))]
    if "extends" not in doc and missing:
        w.err("not a mission: it extends no mission and lacks the base rules; a mission file "
              'says extends = "base" (or the name of a board)', ("extends",))
    else:
        for k in missing:
            w.err(f"missing [{k}] (does the file extend 'base'?)", (k,))
    return None


def _check_tune(spec: MissionSpec, doc: Mapping[str, Any], w: Where, gone: Gone) -> None:
    """What `artproject tune` may change: every entry not dropped as wrong checked, each
    against what it reads only where that was not dropped (a difficulty's name, the track's
    lowest threat or a tuned threat ramp's)."""
    tune = spec.tune
    if tune is None:
        return
    ramp = gone(("tune", "track", "threat"))
    if tune.track is not None:
        tune = attrs.evolve(tune, track=attrs.evolve(tune.track, **{
            k: None for k in TRACK_KEYS if gone(("tune", "track", k))}))
    named = doc.get("difficulty")
    difficulties = list(named) if isinstance(named, dict) else list(spec.difficulty)
    if gone(("difficulty",)) and not isinstance(named, dict):
        tune = attrs.evolve(tune, difficulty={})
    lowest = None if ramp or gone(("track",)) else min(
        (t.threat for t in spec.track), default=None)
    check_tunables(tune, difficulties, w.err, lowest)


def _check_resources(spec: MissionSpec, s: _Sections | None, w: Where, gone: Gone) -> None:
    """The resources the rules and the van name, and the symbols: each check whose keys
    are all there and right."""
    if s is not None and not gone(("components", "resources")):
        _resources_named(s, w, gone)
    if not spec.symbols and not gone(("symbols",)):
        w.err("no artwork symbols: 'symbols' must list them", ("symbols",))


def _resources_named(s: _Sections, w: Where, gone: Gone) -> None:
    resources = s.components.resources
    for key in ("ally_resource", "boost_resource"):
        name = getattr(s.rules, key)
        if not gone(("rules", key)) and name not in resources:
            w.err(f"unknown resource {name!r}{closest(name, resources)}; resources: "
                  + ", ".join(resources), ("rules", key))
    for k in () if gone(("setup", "van")) else s.setup.van:
        if k not in resources:
            w.err(f"unknown resource {k!r}" + closest(k, resources), ("setup", "van", k))


def _board(spec: MissionSpec, w: Where) -> _Board | None:
    """Cities, the start, the symbols' cities and the roads."""
    if not spec.city:
        w.err("a mission needs cities: add [[city]] tables", ("city",))
        return None
    index: dict[str, int] = {}
    for i, c in enumerate(spec.city):
        if c.name in index:
            w.err(f"two cities are named {c.name!r}", ("city", i, "name"))
        index.setdefault(c.name, i)
        if c.symbol is not None and c.symbol not in spec.symbols:
            w.err(f"unknown artwork symbol {c.symbol!r}" + closest(c.symbol, spec.symbols),
                  ("city", i, "symbol"))
    starts = [i for i, c in enumerate(spec.city) if c.start]
    if len(starts) != 1:
        w.err(f"exactly one city must be the start (start = true), not {len(starts)}",
              ("city",))
        return None
    cities = tuple(City(c.name, c.symbol, c.x, c.y, c.title) for c in spec.city)
    by_symbol: dict[str, tuple[int, ...]] = {
        s: tuple(i for i, c in enumerate(cities) if c.symbol == s) for s in spec.symbols}
    neighbours, road_attrs = _roads(spec, index, cities, w)
    return _Board(cities, index, starts[0], by_symbol, neighbours, road_attrs)


def _roads(spec: MissionSpec, index: Mapping[str, int], cities: tuple[City, ...], w: Where,
           ) -> tuple[tuple[tuple[Road, ...], ...], dict[str, frozenset[Any] | None]]:
    neighbours: list[list[Road]] = [[] for _ in cities]
    road_attrs: dict[str, frozenset[Any] | None] = {}
    seen: set[tuple[int, int]] = set()
    inherited = _inherited_roads(w)
    lacking: dict[str, None] = {}  # cities inherited roads name, in order, once each
    for i, raw in enumerate(spec.road):
        ends = []
        for k in ("from", "to"):
            name = raw[k]
            if name in index:
                ends.append(index[name])
            elif inherited:
                lacking.setdefault(name)
            else:
                w.err(f"unknown city {name!r}" + closest(name, index), ("road", i, k))
        extra = {k: v for k, v in raw.items() if k not in ("from", "to")}
        for k, v in extra.items():
            note_value(road_attrs, k, v)
        if len(ends) != 2:
            continue
        a, b = ends
        if a == b:
            w.err(f"a road from {raw['from']!r} to itself", ("road", i))
            continue
        if (a, b) in seen:
            w.warn(f"a second road between {raw['from']!r} and {raw['to']!r}: moves are "
                   "offered once a road", ("road", i))
        seen.update({(a, b), (b, a)})
        neighbours[a].append(Road(a, b, MappingProxyType(extra), _heading(cities, a, b)))
        neighbours[b].append(Road(b, a, MappingProxyType(extra), _heading(cities, b, a)))
    if lacking:
        names = ", ".join(map(repr, list(lacking)[:6])) + (", ..." if len(lacking) > 6 else "")
        w.err(f"these cities replace the whole list of {w.map(('road',)).file}, whose roads "
              f"are kept and name {len(lacking)} cities this list lacks ({names}): a list "
              "replaces the parent's whole list, so give this board's [[road]] tables too",
              ("city",))
    return tuple(tuple(n) for n in neighbours), road_attrs


def note_value(values: dict[str, frozenset[Any] | None], attr: str, value: Any) -> None:
    """A road's `attr` gives `value`: noted among the attribute's values (None from a value
    that is a list or a table on: the rule texts' checks leave those alone)."""
    if attr in values and values[attr] is None:
        return
    if isinstance(value, (list, dict)):
        values[attr] = None
        return
    values[attr] = (values.get(attr) or frozenset()) | {value}


def _inherited_roads(w: Where) -> bool:
    """Whether the roads are a parent's, kept under a city list a later file replaced: a
    road naming a city that list lacks is then the later file's doing, told there once
    (docs/missions.md: the error points at the key set last), not at each inherited road."""
    road, city = w.map(("road",)).file, w.map(("city",)).file
    return road != city and w.latest((("road",), ("city",))) == ("city",)


def _track(spec: MissionSpec, w: Where) -> tuple[TrackSpace, ...]:
    if not spec.track:
        w.err("a mission needs an artwork track: add [[track]] tables", ("track",))
    for i, t in enumerate(spec.track):
        if t.symbol is not None and t.symbol not in spec.symbols:
            w.err(f"unknown artwork symbol {t.symbol!r}" + closest(t.symbol, spec.symbols),
                  ("track", i, "symbol"))
    return tuple(TrackSpace(t.threat, t.ally_cost, t.symbol) for t in spec.track)


def _hooks(spec: MissionSpec, comp: Compiler, w: Where) -> dict[str, list[Hook]]:
    hooks: dict[str, list[Hook]] = {}
    for i, text in enumerate(spec.hooks):
        h = comp.hook(text, w.origin(("hooks", i), text))
        if h is not None:
            hooks.setdefault(h.event, []).append(h)
    return hooks


def _properties(spec: MissionSpec, comp: Compiler, w: Where) -> list[Property]:
    """The properties of every file (the mission, what it extends, its variants), each
    named once: a second of the same name is refused where it is written, never kept in
    place of the first (which would drop a promise) nor beside it (which a report could
    not tell apart)."""
    props: list[Property] = []
    first: dict[str, int] = {}
    for i, p in enumerate(spec.property):
        refused = _bad_name(p.name)
        if refused:
            w.err(refused, ("property", i, "name"))
            continue
        if p.name in first:
            at, here = ("property", first[p.name], "name"), ("property", i, "name")
            there = w.map(at).locate(at).prefix()
            w.err(f"this file is given twice (its property {p.name!r} is declared at "
                  f"{there} already): give it once" if there == w.map(here).locate(
                      here).prefix() else f"a property named {p.name!r} is already "
                  f"declared at {there}: give this one another name", here)
            continue
        first[p.name] = i
        path = ("property", i, "check")
        fn = comp.expr(p.check, w.origin(path, p.check), condition=True)
        if fn is not None:
            props.append(Property(p.name, fn, p.check, w.map(path).locate(path).prefix()))
    return props


def _bad_name(name: str) -> str:
    """Why a property may not be so named ('' if it may): a report names a property by its
    name, so a blank one names nothing, and "a " beside "a" would read as the same."""
    if not name.strip():
        return "a property needs a name: this one is blank"
    if name != name.strip():
        return (f"a property's name may not begin or end with a space: write "
                f"{name.strip()!r}, not {name!r}")
    return ""


def _city_effects(spec: MissionSpec, comp: Compiler, w: Where) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for i, c in enumerate(spec.city):
        ops: tuple[Any, ...] | None = ()
        if c.on_collect is not None:
            path = ("city", i, "on_collect")
            ops = comp.effect(c.on_collect, w.origin(path, c.on_collect), frozenset({"city"}))
        out.append(ops or ())
    return out


def _heading(cities: tuple[City, ...], a: int, b: int) -> str:
    dx, dy = cities[b].x - cities[a].x, cities[b].y - cities[a].y
    if abs(dy) >= abs(dx):
        return "south" if dy > 0 else "north"  # map y grows downwards, as in SVG
    return "east" if dx > 0 else "west"
