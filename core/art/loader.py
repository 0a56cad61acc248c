"""Rule files to `Rules`: read TOML, merge base, mission and variants, check, compile once.

Every mistake is gathered with its file, line and column (a DSL mistake) or its path inside
the document (`cards/mission-cards.toml: card[17].gain`), and raised together as one
`RulesErrors`, so `artproject check` can report all of them. Reading, layering and placing
errors are the kernel's (core/sources.py); the keys are declared in schema.py, the checks
of meaning are meaning.py's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import attrs

from ...dsl.compiler import Compiler, Scope
from ...missions import DEFAULT
from .. import schema
from ..errors import Location, RulesError, closest
from ..files import WATCHERS, exists, sha256, shorten, watched
from ..sources import (
    Layer,
    SourceMap,
    Where,
    game_of,
    is_name,
    layered,
    package_dir,
    path_text,
    read_toml,
    real_path,
    shipped_label,
)
from . import meaning
from .rules import Card, City, Ctx, Hook, Property, Road, Rules, TrackSpace
from .schema import CardFile, CardSpec, Components, MissionSpec, RuleParams, Setup, Solo
from .tunables import check_tunables
from .words import WORDS


def shipped_missions() -> list[str]:
    """Names of the mission boards shipped with the package (not another game's rules, which
    lie beside them: `game = "..."`)."""
    d = package_dir("missions")
    return sorted(p.stem for p in d.glob("*.toml") if p.stem != "base" and game_of(p) is None)


def shipped_variants() -> list[str]:
    """Names of the variants of this game shipped with the package."""
    d = package_dir("missions") / "variants"
    return sorted(p.stem for p in d.glob("*.toml") if game_of(p) is None)


# ====================================================================== merging
def _resolve(ref: str, relative_to: Path | None) -> Path:
    p = Path(ref)
    if p.suffix == ".toml" or "/" in ref or "\\" in ref:
        if not p.is_absolute() and relative_to is not None and not exists(p):
            cand = relative_to.parent / p
            if exists(cand):
                return cand
        return p
    return package_dir("missions") / f"{ref}.toml"


def _label(path: Path) -> str:
    """Show shipped files by their place in the project (missions/NAME.toml)."""
    return shipped_label(path, ("missions", "cards"))


def _layers(mission: str | Path, base: Path | None = None) -> list[Layer]:
    """The chain of files a mission extends, base first (`base` replaces the shipped base)."""
    chain: list[Layer] = []
    ref: str | Path = mission
    relative: Path | None = None
    seen: set[Path] = set()
    while True:
        path = ref if isinstance(ref, Path) else _resolve(ref, relative)
        if base is not None and ref == "base":
            path = base
        if is_name(ref) and not exists(path):
            if not ref:
                raise RulesError("no mission named: give a shipped mission's name or a file")
            raise RulesError(f"unknown mission {shorten(str(ref))!r}"
                             + closest(str(ref)[:100], shipped_missions())
                             + "; shipped missions: " + ", ".join(shipped_missions()))
        other = game_of(path) if exists(path) else None
        if other is not None:
            raise RulesError(f"the rules of another game, {other!r}, not a mission of The "
                             f"A.R.T. Project: play it with --game {other}",
                             Location(_label(path)))
        if real_path(path) in seen:
            raise RulesError(f"{shorten(str(path))} extends itself (a loop of 'extends')",
                             Location(shorten(str(path))))
        seen.add(real_path(path))
        doc, smap = read_toml(path, _label(path))
        chain.append(Layer(doc, smap, path))
        parent = doc.get("extends")
        if parent is None:
            break
        if not isinstance(parent, str):
            break  # the schema says what 'extends' must be
        ref, relative = parent, path
    chain.reverse()
    return chain


# ====================================================================== building Rules
def _load_again(mission: str, variants: tuple[str, ...], cards: str | None,
                base: str | None = None) -> Rules:
    """Rules a pickle names, loaded again from the same files (`Rules.LOAD_AGAIN`)."""
    return load_rules(mission, variants, cards=cards, base=base)


Rules.LOAD_AGAIN = _load_again  # here, not in rules.py: the rules import no loader


def load_rules(mission: str | Path = DEFAULT, variants: Iterable[str | Path] = (),
               cards: str | Path | None = None, base: str | Path | None = None) -> Rules:
    """Load a mission (shipped name or file path) and variants on top; compile every effect.

    `cards` replaces the mission's card file and `base` the shipped base rules (used to
    check such a file on its own, on the default board).
    """
    if cards is None and base is None and not variants and mission.__class__ is str:
        shipped = _SHIPPED.get(mission)
        if shipped is not None:  # the usual case, and a new game's first step: kept short
            return shipped
    variants = tuple(variants)
    if cards is not None or base is not None:
        return _loaded(_load(mission, variants, None if cards is None else str(cards),
                             None if base is None else Path(base)), mission, variants, cards,
                       base)
    if _cacheable(mission, variants):
        rules = _SHIPPED[str(mission)] = attrs.evolve(_load(mission, ()), ref=str(mission))
        return _loaded(rules, mission, variants)
    rules = _load(mission, variants)
    rules = attrs.evolve(rules, ref=str(mission), variants=tuple(str(v) for v in variants))
    return _loaded(rules, mission, variants)


def _loaded(rules: Rules, mission: str | Path, variants: tuple[str | Path, ...],
            cards: str | Path | None = None, base: str | Path | None = None) -> Rules:
    """Note how the rules were loaded: a pickle names them so (files by absolute path)."""
    def ref(x: str | Path) -> str:
        return str(Path(x).resolve()) if isinstance(x, Path) or str(x).endswith(".toml") or (
            "/" in str(x)) else str(x)
    rules.cache["loaded"] = (ref(mission), tuple(ref(v) for v in variants),
                             None if cards is None else ref(cards),
                             None if base is None else ref(base))
    return rules


def _cacheable(mission: str | Path, variants: tuple[str | Path, ...]) -> bool:
    return is_name(mission) and bool(mission) and not variants


_SHIPPED: dict[str, Rules] = {}  # shipped missions by name, loaded once


def _load(mission: str | Path, variants: tuple[str | Path, ...], cards: str | None = None,
          base: Path | None = None) -> Rules:
    """The rules compiled, or as compiled before from the same files (core/cache.py)."""
    from .. import cache
    from . import frozen

    request = tuple((type(x).__name__, str(x)) for x in (mission, *variants, cards, base))
    kept = cache.lookup("rules", request)
    if kept is not None:
        try:
            return frozen.thaw(kept)
        except Exception:  # a damaged entry: compiled afresh, and kept again
            pass
    with cache.watching() as read:
        rules = _compile(mission, variants, cards, base)
    data = frozen.freeze(rules)
    if data is not None:
        cache.store("rules", request, read, data)
    return rules


def _compile(mission: str | Path, variants: tuple[str | Path, ...], cards: str | None = None,
             base: Path | None = None) -> Rules:
    layers = _layers(Path(mission) if isinstance(mission, Path) else mission, base)
    _refuse_other_kinds(layers[-1], "a mission")
    for v in variants:
        layer = _variant(v)
        _refuse_other_kinds(layer, "a variant")
        layers.append(layer)
    merged, w = layered(layers, accumulate=("hooks",))  # a variant's hooks add to the board's
    if cards is not None:
        merged["cards"] = cards
    rules = _build(merged, w)
    w.raise_errors()
    assert rules is not None
    return attrs.evolve(rules, warnings=tuple(w.warnings))


def _variant(ref: str | Path) -> Layer:
    if isinstance(ref, Path) or not is_name(ref):
        path = Path(ref)
    else:
        path = package_dir("missions") / "variants" / f"{ref}.toml"
        if not exists(path) or game_of(path) is not None:
            known = shipped_variants()
            raise RulesError(f"unknown variant {shorten(str(ref))!r}"
                             f"{closest(str(ref)[:100], known)}; shipped "
                             "variants: " + ", ".join(known) + " (or give a file)")
    other = game_of(path) if exists(path) else None
    if other is not None:
        raise RulesError(f"a variant of another game ({other!r}), not of The A.R.T. Project",
                         Location(_label(path)))
    doc, smap = read_toml(path, _label(path))
    return Layer(doc, smap, path)


def _refuse_other_kinds(layer: Layer, wanted: str) -> None:
    """A scenario or a card file given where a mission or variant belongs: say which it is."""
    doc = layer.doc
    if ("step" in doc or "position" in doc) and "extends" not in doc:
        raise RulesError(f"a scenario, not {wanted}: run it with `artproject scenario`",
                         Location(layer.smap.file))
    if ("card" in doc or "final" in doc) and "extends" not in doc:
        raise RulesError(f"a card file, not {wanted}: a mission names it with cards = \"...\"",
                         Location(layer.smap.file))


@attrs.frozen
class _Board:
    cities: tuple[City, ...]
    index: dict[str, int]
    start: int
    by_symbol: dict[str, tuple[int, ...]]
    neighbours: tuple[tuple[Road, ...], ...]
    road_attrs: frozenset[str]


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


def _build(doc: dict[str, Any], w: Where) -> Rules | None:
    spec = _shape(doc, w)
    sections = _sections(spec, doc, w) if spec is not None else None
    if spec is None or sections is None:
        return None  # a file of the wrong shape: its own errors, not a cascade of others
    resources = sections.components.resources
    meaning.names(spec, w.err)
    check_tunables(spec.tune, spec.difficulty, w.err,  # what `artproject tune` may change
                   min((t.threat for t in spec.track), default=None))
    _check_resources(spec, sections, w)
    board = _board(spec, w)
    track = _track(spec, w)
    if board is None or not track:
        return None
    scope = Scope(resources, spec.symbols, board.index, board.road_attrs, board.by_symbol)
    comp = Compiler(scope, WORDS)
    move_cost = comp.cost(sections.rules.move_cost,
                          w.origin(("rules", "move_cost"), sections.rules.move_cost))
    hooks = _hooks(spec, comp, w)
    props = _properties(spec, comp, w)
    effects = _city_effects(spec, comp, w)
    cards, deck, final = _load_cards(spec.cards, w.map(("cards",)), comp, resources, w.errors)
    w.errors.extend(comp.errors)
    if w.errors or move_cost is None:
        return None
    setup = _setup(spec, sections)
    rules = Rules(
        name=spec.name or Path(w.top.file).stem, title=spec.title or Path(w.top.file).stem,
        source=w.top.file,
        params=MappingProxyType(sections.params()), resources=resources,
        symbols=spec.symbols, cities=board.cities, city_index=MappingProxyType(board.index),
        start=board.start, neighbours=board.neighbours,
        by_symbol=MappingProxyType(board.by_symbol), track=track,
        cards=MappingProxyType(cards), deck=deck, final_card=final, move_cost=move_cost,
        hooks=MappingProxyType({k: tuple(v) for k, v in hooks.items()}),
        properties=tuple(props),
        difficulties=MappingProxyType({str(k): v for k, v in spec.difficulty.items()}),
        setup_agents=setup[0], setup_artworks=setup[1], setup_van=setup[2],
        city_effects=tuple(effects), raw=doc,
    )
    meaning.check(rules, w.err, w.warn)
    return rules


def _setup(spec: MissionSpec, s: _Sections,
           ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Set-up: agents per city, the cities holding an artwork, the van."""
    per_city = s.setup.agents_per_city
    return (tuple(per_city if c.agents is None else c.agents for c in spec.city),
            tuple(i for i, c in enumerate(spec.city) if c.artwork),
            tuple(s.setup.van.get(r, 0) for r in s.components.resources))


def _shape(doc: dict[str, Any], w: Where) -> MissionSpec | None:
    """The merged document structured by the schema; every shape error, or None."""
    spec, found = schema.structure(doc, MissionSpec)
    missing = [path for path, msg in found if msg.startswith("missing")]
    if missing and "extends" not in doc:  # one error for a file that forgot its parent
        w.err(f"not a mission: it extends no mission and lacks {len(missing)} of the base "
              f"rules ({path_text(missing[0])}, ...); a mission file says extends = \"base\" "
              "(or the name of a board)", ("extends",))
        return None
    for path, msg in found:
        w.err(msg, path)
    return spec


_SECTIONS: Final = ("components", "setup", "rules", "solo")


def _sections(spec: MissionSpec, doc: Mapping[str, Any], w: Where) -> _Sections | None:
    """The four sections of parameters, which base.toml gives every mission."""
    missing = [k for k in _SECTIONS if getattr(spec, k) is None]
    if not missing:
        return _Sections(spec.components, spec.setup, spec.rules,  # type: ignore[arg-type]
                         spec.solo)  # type: ignore[arg-type]
    if "extends" not in doc:
        w.err("not a mission: it extends no mission and lacks the base rules; a mission file "
              'says extends = "base" (or the name of a board)', ("extends",))
    else:
        for k in missing:
            w.err(f"missing [{k}] (does the file extend 'base'?)", (k,))
    return None


def _check_resources(spec: MissionSpec, s: _Sections, w: Where) -> None:
    resources = s.components.resources
    for key in ("ally_resource", "boost_resource"):
        name = getattr(s.rules, key)
        if name not in resources:
            w.err(f"unknown resource {name!r}{closest(name, resources)}; resources: "
                  + ", ".join(resources), ("rules", key))
    for k in s.setup.van:
        if k not in resources:
            w.err(f"unknown resource {k!r}" + closest(k, resources), ("setup", "van", k))
    if not spec.symbols:
        w.err("no artwork symbols: 'symbols' must list them", ("symbols",))


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
           ) -> tuple[tuple[tuple[Road, ...], ...], frozenset[str]]:
    neighbours: list[list[Road]] = [[] for _ in cities]
    road_attrs: set[str] = set()
    seen: set[tuple[int, int]] = set()
    for i, raw in enumerate(spec.road):
        ends = []
        for k in ("from", "to"):
            name = raw[k]
            if name not in index:
                w.err(f"unknown city {name!r}" + closest(name, index), ("road", i, k))
            else:
                ends.append(index[name])
        extra = {k: v for k, v in raw.items() if k not in ("from", "to")}
        road_attrs.update(extra)
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
    return tuple(tuple(n) for n in neighbours), frozenset(road_attrs)


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
    props: list[Property] = []
    for i, p in enumerate(spec.property):
        fn = comp.expr(p.check, w.origin(("property", i, "check"), p.check))
        if fn is not None:
            props.append(Property(p.name, fn, p.check))
    return props


def _city_effects(spec: MissionSpec, comp: Compiler, w: Where) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for i, c in enumerate(spec.city):
        ops: tuple[Any, ...] | None = ()
        if c.on_collect is not None:
            path = ("city", i, "on_collect")
            ops = comp.effect(c.on_collect, w.origin(path, c.on_collect), frozenset({"city"}))
        out.append(ops or ())
    return out


def scope_of(rules: Rules) -> Scope:
    """The names rule texts may use with these rules (for scenario checks and properties)."""
    attrs_seen = frozenset(k for roads in rules.neighbours for r in roads for k in r.attrs)
    return Scope(rules.resources, rules.symbols, dict(rules.city_index), attrs_seen,
                 dict(rules.by_symbol))


def _heading(cities: tuple[City, ...], a: int, b: int) -> str:
    dx, dy = cities[b].x - cities[a].x, cities[b].y - cities[a].y
    if abs(dy) >= abs(dx):
        return "south" if dy > 0 else "north"  # map y grows downwards, as in SVG
    return "east" if dx > 0 else "west"


# ====================================================================== card files
Cards = tuple[dict[int, Card], tuple[int, ...], int]


def _load_cards(ref: str, smap: Any, comp: Compiler, resources: tuple[str, ...],
                errors: list[RulesError]) -> Cards:
    if not ref:
        errors.append(RulesError("'cards' must name a card file (such as 'mission-cards')",
                                 smap.locate(("cards",)), "cards"))
        return {}, (), -1
    p = _card_path(ref, smap)
    # A card file compiles the same for every board with the same resources and symbols
    # (agents are placed by symbol when played), so one compile serves all six missions.
    try:
        st = p.stat()
        key: tuple[Any, ...] | None = (str(p.resolve()), st.st_mtime_ns, st.st_size, resources,
                                       comp.scope.symbols)
    except (OSError, ValueError, RuntimeError):
        key = None
    if key is not None and key in _CARD_CACHE:
        if WATCHERS:  # compiled before in this process: still a file these rules come from
            try:
                watched(p, sha256(p.read_bytes()).hexdigest())
            except OSError:
                watched(p, "!")  # cannot be told unchanged: the entry will never be used
        return _CARD_CACHE[key]
    before = len(errors) + len(comp.errors)
    result = _compile_cards(p, comp, resources, errors)
    if key is not None and len(errors) + len(comp.errors) == before:
        if len(_CARD_CACHE) > 32:
            _CARD_CACHE.clear()
        _CARD_CACHE[key] = result
    return result


def _card_path(ref: str, smap: Any) -> Path:
    p = Path(ref)
    if p.suffix != ".toml":
        return package_dir("cards") / f"{ref}.toml"
    if not p.is_absolute() and not exists(p) and smap.real is not None:
        return Path(smap.real).parent / p  # a path relative to the file that names it
    return p


_CARD_CACHE: dict[tuple[Any, ...], Cards] = {}


def _compile_cards(p: Path, comp: Compiler, resources: tuple[str, ...],
                   errors: list[RulesError]) -> Cards:
    cdoc, cmap = read_toml(p, _label(p))
    spec, found = schema.structure(cdoc, CardFile)
    for path, msg in found:
        errors.append(RulesError(msg, cmap.locate(path), path_text(path)))
    if spec is None:
        # Cards stand alone: those of the right shape are still compiled, for their errors.
        raw = cdoc.get("card")
        for i, item in enumerate(raw if isinstance(raw, list) else ()):
            c, _ = schema.structure(item, CardSpec)
            if c is not None:
                _card(c, ("card", i), cmap, comp, (*resources, "health"))
        return {}, (), -1
    if not spec.card:
        errors.append(RulesError("a card file needs [[card]] tables", cmap.locate(("card",)),
                                 "card"))
    if spec.final is None:
        errors.append(RulesError("a card file needs its [final] card (id = ...)",
                                 cmap.locate(("final",)), "final"))
    if not spec.card or spec.final is None:
        return {}, (), -1
    cards: dict[int, Card] = {}
    kinds = (*resources, "health")
    for i, c in enumerate(spec.card):
        where: tuple[Any, ...] = ("card", i)
        if c.id in cards or c.id == spec.final.id:
            errors.append(RulesError(f"card id {c.id} is used twice",
                                     cmap.locate((*where, "id")), path_text((*where, "id"))))
        card = _card(c, where, cmap, comp, kinds)
        if card is not None:
            cards[c.id] = card
    return cards, tuple(c.id for c in spec.card), spec.final.id


def _card(c: CardSpec, path: tuple[Any, ...], cmap: SourceMap, comp: Compiler,
          kinds: tuple[str, ...]) -> Card | None:
    texts = {"cost": c.cost, "agents": c.agents, "gain": c.gain, "clues": c.clues}
    org = {k: cmap.origin((*path, k), v) for k, v in texts.items()}
    cost = comp.amounts(c.cost, kinds, org["cost"])
    agents = comp.placements(c.agents, org["agents"])
    gain = comp.amounts(c.gain, kinds, org["gain"])
    clues = comp.symbols(c.clues, org["clues"])
    if cost is None or agents is None or gain is None or clues is None:
        return None
    return Card(c.id, c.title, clues, MappingProxyType(texts), cost, agents, gain)


__all__ = ["Ctx", "load_rules", "read_toml", "shipped_missions"]
