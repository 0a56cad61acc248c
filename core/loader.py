"""Rule files to `Rules`: read TOML, merge base, mission and variants, check, compile once.

Every mistake is gathered with its file, line and column (a DSL mistake) or its path inside
the document (`cards/mission-cards.toml: card[17].gain`), and raised together as one
`RulesErrors`, so `artproject check` can report all of them.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import attrs
import cattrs
from cattrs.v import transform_error

from ..dsl.compiler import Compiler, Scope
from ..dsl.parser import Origin
from ..missions import DEFAULT
from .art.rules import Card, City, Ctx, Hook, Property, Road, Rules, TrackSpace
from .art.tunables import check_tunables
from .errors import Location, RulesError, RulesErrors, closest

MISSIONS_DIR: Final = Path(__file__).resolve().parent.parent / "missions"
CARDS_DIR: Final = Path(__file__).resolve().parent.parent / "cards"
_MAX_NUMBER: Final = 10_000  # a number larger than this in a rule file is refused


def _package_dir(name: str) -> Path:
    # Installed, the data folders are packages beside core/; in a checkout, beside it too.
    from importlib import resources

    return Path(str(resources.files(f"artproject.{name}")))


def shipped_missions() -> list[str]:
    """Names of the mission boards shipped with the package."""
    d = _package_dir("missions")
    return sorted(p.stem for p in d.glob("*.toml") if p.stem != "base")


# ====================================================================== TOML + positions
class SourceMap:
    """Where each key's value starts in a TOML file, by document path; for error locations."""

    _HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-]+)\s*\]\]?")
    _KEY = re.compile(r"^(\s*)([A-Za-z0-9_\-]+)\s*=\s*")

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.lines = text.splitlines()
        self.where: dict[tuple[Any, ...], tuple[int, int]] = {}
        counts: dict[str, int] = {}
        table: tuple[Any, ...] = ()
        array_key: tuple[Any, ...] | None = None
        array_i = 0
        for n, line in enumerate(self.lines, start=1):
            m = self._HEADER.match(line)
            if m and not self._KEY.match(line):
                name = m.group(2)
                parts = tuple(name.split("."))
                if m.group(1) == "[[":
                    counts[name] = counts.get(name, -1) + 1
                    table = (*parts, counts[name])
                else:
                    table = parts
                self.where[table] = (n, 1)
                array_key = None
                continue
            m = self._KEY.match(line)
            if m and array_key is None:
                key = (*table, m.group(2))
                self.where[key] = (n, m.end() + 1)
                if line[m.end():].startswith("["):
                    array_key, array_i = key, 0
                    array_i, done = self._items(n, line, m.end() + 1, key, 0)
                    if done:
                        array_key = None
                continue
            if array_key is not None:
                array_i, done = self._items(n, line, 0, array_key, array_i)
                if done:
                    array_key = None

    _STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|\]|#')

    def _items(self, n: int, line: str, start: int, key: tuple[Any, ...], i: int,
               ) -> tuple[int, bool]:
        """Record the strings of an array of strings on this line; (next index, closed?)."""
        for m in self._STRING.finditer(line, start):
            tok = m.group(0)
            if tok == "#":
                break
            if tok == "]":
                return i, True
            self.where[(*key, i)] = (n, m.start() + 1)
            i += 1
        return i, False

    def locate(self, path: tuple[Any, ...]) -> Location:
        """The location of `path`, or of its nearest known ancestor."""
        p = path
        while p:
            if p in self.where:
                line, col = self.where[p]
                return Location(self.file, line, col, self.lines[line - 1])
            p = p[:-1]
        return Location(self.file)

    def origin(self, path: tuple[Any, ...], value: str) -> Origin:
        """Where the DSL text at `path` begins (inside its quotes), for the DSL's positions."""
        loc = self.locate(path)
        if loc.line and loc.column:
            src = self.lines[loc.line - 1]
            col = loc.column
            quote = src[col - 1: col + 2]
            if quote in ('"""', "'''"):
                # A newline right after the opening triple quote is not part of the value.
                if src[col + 2:].strip() == "":
                    return Origin(self.file, loc.line + 1, 1, self.lines)
                return Origin(self.file, loc.line, col + 3, self.lines)
            if quote[:1] in ('"', "'"):
                return Origin(self.file, loc.line, col + 1, self.lines)
        return Origin(self.file, loc.line or 1, 1, self.lines)


def path_text(path: Iterable[Any]) -> str:
    """`card[17].gain` from ('card', 17, 'gain')."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def read_toml(path: Path, label: str | None = None) -> tuple[dict[str, Any], SourceMap]:
    """Parse a TOML file; a syntax error says file:line:col with a caret."""
    label = label or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RulesError("no such file", Location(label)) from None
    except (OSError, UnicodeDecodeError) as err:
        raise RulesError(f"cannot read this file: {err}", Location(label)) from None
    smap = SourceMap(label, text)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        msg = str(err)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        where = Location(label)
        if m:
            line, col = int(m.group(1)), int(m.group(2))
            src = smap.lines[line - 1] if 0 < line <= len(smap.lines) else ""
            where = Location(label, line, col, src)
            msg = msg[: m.start()].strip()
        raise RulesError(f"not valid TOML: {msg}", where) from None
    return doc, smap


# ====================================================================== shapes (cattrs)
@attrs.define
class CardSpec:
    id: int
    clues: str
    cost: str = "nothing"
    agents: str = "nothing"
    gain: str = "nothing"
    title: str = ""


@attrs.define
class FinalSpec:
    id: int
    title: str = "Final card"


@attrs.define
class CitySpec:
    name: str
    x: float
    y: float
    symbol: str | None = None
    start: bool = False
    agents: int | None = None
    artwork: bool = False
    title: str = ""
    on_collect: str | None = None  # an effect run when the city's artwork is collected


@attrs.define
class TrackSpec:
    threat: int
    ally_cost: int
    symbol: str | None = None


@attrs.define
class PropertySpec:
    name: str
    check: str


_CONVERTER: Final = cattrs.Converter(forbid_extra_keys=True)


def _strict(kind: type, name: str) -> Any:
    # cattrs would turn 3 into "3" or "3" into 3; a rule file must say what it means.
    def hook(value: Any, _: Any) -> Any:
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if not ok:
            raise ValueError(f"expected {name}, not {type(value).__name__} {value!r}")
        if kind is int and not -_MAX_NUMBER <= value <= _MAX_NUMBER:
            raise ValueError(f"{value} is out of range ({-_MAX_NUMBER} to {_MAX_NUMBER})")
        return kind(value)
    return hook


for _kind, _name in ((str, "text"), (int, "a whole number"), (float, "a number"),
                     (bool, "true or false")):
    _CONVERTER.register_structure_hook(_kind, _strict(_kind, _name))

_TOP_KEYS: Final = {
    "name", "title", "about", "extends", "cards", "symbols", "components", "difficulty",
    "setup", "rules", "solo", "city", "road", "track", "hooks", "property", "tune",
}


def _structure(value: Any, cls: type[Any], path: tuple[Any, ...], smap: SourceMap,
               errors: list[RulesError]) -> Any:
    try:
        return _CONVERTER.structure(value, cls)
    except Exception as exc:  # cattrs raises ClassValidationError / exception groups
        for msg in transform_error(exc, path="$", format_exception=_format_exception):
            text, _, where = msg.rpartition(" @ ")
            sub = _parse_cattrs_path(where)
            full = (*path, *sub)
            errors.append(RulesError(text or msg, smap.locate(full), path_text(full)))
        return None


def _format_exception(exc: BaseException, kind: Any) -> str:
    if isinstance(exc, ValueError):
        return str(exc)
    if isinstance(exc, KeyError):
        return "required field missing"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        return f"unknown field(s): {', '.join(sorted(exc.extra_fields))}"
    return f"invalid value ({exc})"


def _parse_cattrs_path(where: str) -> tuple[Any, ...]:
    out: list[Any] = []
    for m in re.finditer(r"\.([A-Za-z0-9_]+)|\[(\d+)\]|\['([^']*)'\]", where.removeprefix("$")):
        if m.group(1):
            out.append(m.group(1))
        elif m.group(2):
            out.append(int(m.group(2)))
        else:
            out.append(m.group(3))
    return tuple(out)


# ====================================================================== merging
@attrs.define
class _Layer:
    doc: dict[str, Any]
    smap: SourceMap
    path: Path


def _resolve(ref: str, relative_to: Path | None) -> Path:
    p = Path(ref)
    if p.suffix == ".toml" or "/" in ref or "\\" in ref:
        if not p.is_absolute() and relative_to is not None and not p.exists():
            cand = relative_to.parent / p
            if cand.exists():
                return cand
        return p
    return _package_dir("missions") / f"{ref}.toml"


def _label(path: Path) -> str:
    """Show shipped files by their place in the project (missions/NAME.toml)."""
    try:
        rp = path.resolve()
        for pkg in ("missions", "cards"):
            base = _package_dir(pkg).resolve()
            if rp.is_relative_to(base):
                return f"{pkg}/{rp.relative_to(base)}"
    except (OSError, ValueError):
        pass
    return str(path)


def _layers(mission: str | Path, errors: list[RulesError]) -> list[_Layer]:
    """The chain of files a mission extends, base first."""
    chain: list[_Layer] = []
    ref: str | Path = mission
    relative: Path | None = None
    seen: set[Path] = set()
    while True:
        path = ref if isinstance(ref, Path) else _resolve(ref, relative)
        if not path.exists() and isinstance(ref, str) and "/" not in ref and not ref.endswith(
                ".toml"):
            raise RulesError(f"unknown mission {ref!r}" + closest(ref, shipped_missions())
                             + "; shipped missions: " + ", ".join(shipped_missions()))
        if path.resolve() in seen:
            raise RulesError(f"{path} extends itself (a loop of 'extends')", Location(str(path)))
        seen.add(path.resolve())
        doc, smap = read_toml(path, _label(path))
        chain.append(_Layer(doc, smap, path))
        parent = doc.get("extends")
        if parent is None:
            break
        if not isinstance(parent, str):
            errors.append(RulesError("'extends' must be the name or path of a mission",
                                     smap.locate(("extends",)), "extends"))
            break
        ref, relative = parent, path
    chain.reverse()
    return chain


def _merge(into: dict[str, Any], doc: Mapping[str, Any], prefix: tuple[Any, ...],
           owner: dict[tuple[Any, ...], SourceMap], smap: SourceMap) -> None:
    for key, value in doc.items():
        path = (*prefix, key)
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value, path, owner, smap)
        elif key == "hooks" and not prefix and isinstance(value, list) and isinstance(
                into.get(key), list):
            base = len(into[key])
            into[key] = into[key] + value  # hooks accumulate: a variant adds, never drops
            for i in range(len(value)):
                owner[(key, base + i)] = _Shifted(smap, (key, i))  # type: ignore[assignment]
        else:
            into[key] = value
            owner[path] = smap


class _Shifted:
    """A source map seen through an index shift (hooks appended after the parent's)."""

    def __init__(self, smap: SourceMap, path: tuple[Any, ...]) -> None:
        self.smap, self.path = smap, path
        self.file = smap.file

    def locate(self, path: tuple[Any, ...]) -> Location:
        return self.smap.locate(self.path + path[2:])

    def origin(self, path: tuple[Any, ...], value: str) -> Origin:
        return self.smap.origin(self.path + path[2:], value)


def _owner(owner: Mapping[tuple[Any, ...], Any], path: tuple[Any, ...], default: Any) -> Any:
    p = path
    while p:
        if p in owner:
            return owner[p]
        p = p[:-1]
    return default


# ====================================================================== building Rules
def load_rules(mission: str | Path = DEFAULT, variants: Iterable[str | Path] = (),
               cards: str | Path | None = None) -> Rules:
    """Load a mission (shipped name or file path) and variants on top; compile every effect.

    `cards` replaces the mission's card file (used to check a card file on its own).
    """
    if cards is None and not variants and mission.__class__ is str:
        shipped = _SHIPPED.get(mission)
        if shipped is not None:  # the usual case, and a new game's first step: kept short
            return shipped
    variants = tuple(variants)
    if cards is not None:
        return _loaded(_load(mission, variants, str(cards)), mission, variants, cards)
    if _cacheable(mission, variants):
        rules = _SHIPPED[str(mission)] = attrs.evolve(_load(mission, ()), ref=str(mission))
        return _loaded(rules, mission, variants, None)
    rules = _load(mission, variants)
    rules = attrs.evolve(rules, ref=str(mission), variants=tuple(str(v) for v in variants))
    return _loaded(rules, mission, variants, None)


def _loaded(rules: Rules, mission: str | Path, variants: tuple[str | Path, ...],
            cards: str | Path | None) -> Rules:
    """Note how the rules were loaded: a pickle names them so (files by absolute path)."""
    def ref(x: str | Path) -> str:
        return str(Path(x).resolve()) if isinstance(x, Path) or str(x).endswith(".toml") or (
            "/" in str(x)) else str(x)
    rules.cache["loaded"] = (ref(mission), tuple(ref(v) for v in variants),
                             None if cards is None else ref(cards))
    return rules


def _cacheable(mission: str | Path, variants: tuple[str | Path, ...]) -> bool:
    return isinstance(mission, str) and "/" not in mission and not mission.endswith(
        ".toml") and not variants


_SHIPPED: dict[str, Rules] = {}  # shipped missions by name, loaded once


def _load(mission: str | Path, variants: tuple[str | Path, ...], cards: str | None = None,
          ) -> Rules:
    errors: list[RulesError] = []
    layers = _layers(Path(mission) if isinstance(mission, Path) else mission, errors)
    last = layers[-1]
    if ("step" in last.doc or "position" in last.doc) and "extends" not in last.doc:
        raise RulesError("a scenario file, not a mission: run it with `artproject scenario`",
                         Location(last.smap.file))
    if ("card" in last.doc or "final" in last.doc) and "extends" not in last.doc:
        raise RulesError("a card file, not a mission: a mission names it with cards = \"...\"",
                         Location(last.smap.file))
    for v in variants:
        vp = Path(v) if isinstance(v, Path) or str(v).endswith(".toml") else (
            _package_dir("missions") / "variants" / f"{v}.toml")
        doc, smap = read_toml(vp, _label(vp))
        layers.append(_Layer(doc, smap, vp))
    merged: dict[str, Any] = {}
    owner: dict[tuple[Any, ...], Any] = {}
    for layer in layers:
        for k in layer.doc:
            if k not in _TOP_KEYS:
                errors.append(RulesError(f"unknown key {k!r}" + closest(k, _TOP_KEYS),
                                         layer.smap.locate((k,)), k))
        _merge(merged, layer.doc, (), owner, layer.smap)
    if cards is not None:
        merged["cards"] = cards
    top = layers[-1]
    rules = _build(merged, owner, top, errors)
    if errors:
        errors.sort(key=lambda e: (e.where.file, e.where.line, e.where.column) if e.where
                    else ("", 0, 0))
        raise RulesErrors(errors) if len(errors) > 1 else errors[0]
    assert rules is not None
    return rules


def _flatten(doc: Mapping[str, Any], sections: Iterable[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for sec in sections:
        for k, v in doc.get(sec, {}).items():
            out[f"{sec}.{k}"] = v
    return out


# parameter -> (type, check) ; every parameter has its default in missions/base.toml
_PARAMS: Final[dict[str, type | tuple[type, ...]]] = {
    "components.resources": list, "components.resource_tokens": int,
    "components.health_tokens": int, "components.agent_tokens": int,
    "components.artwork_tokens": int, "components.ally_dice": int,
    "components.lost_city_markers": int, "components.die_faces": int,
    "setup.van": dict, "setup.agents_per_city": int, "setup.final_card_from_bottom": int,
    "setup.player_agents": int, "rules.clue_exchange": bool, "rules.carry_artworks": bool,
    "rules.reroll_own_dice": bool,
    "rules.ally_resource": str, "rules.boost_resource": str,
    "rules.draw_per_round": int, "rules.play_per_round": int, "rules.clues_per_artwork": int,
    "rules.lost_city_at": int, "rules.weapon_bonus": int, "rules.concede_health": int,
    "rules.movement": str, "rules.move_cost": str, "rules.clue_chains": str,
    "solo.enabled": bool, "solo.health_factor": int, "solo.removed_cards": int,
    "solo.draw_per_round": int, "solo.play_per_round": int,
}
_CHOICES: Final = {"rules.movement": ("roads", "anywhere"),
                   "rules.clue_chains": ("team", "per_player")}


def _build(doc: dict[str, Any], owner: dict[tuple[Any, ...], Any], top: _Layer,
           errors: list[RulesError]) -> Rules | None:
    def where(path: tuple[Any, ...]) -> Any:
        return _owner(owner, path, top.smap)

    def err(msg: str, path: tuple[Any, ...]) -> None:
        errors.append(RulesError(msg, where(path).locate(path), path_text(path)))

    params = _flatten(doc, ("components", "setup", "rules", "solo"))
    for k, v in params.items():
        path: tuple[Any, ...] = tuple(k.split("."))
        want = _PARAMS.get(k)
        if want is None:
            err(f"unknown rule parameter {path[-1]!r}"
                + closest(k, _PARAMS).replace(f"{path[0]}.", ""), path)
        elif not isinstance(v, want) or (want is int and isinstance(v, bool)):
            err(f"expected {getattr(want, '__name__', want)}, not {type(v).__name__}", path)
        elif isinstance(v, int) and not 0 <= v <= _MAX_NUMBER:
            err(f"{v} is out of range (0 to {_MAX_NUMBER})", path)
        elif k in _CHOICES and v not in _CHOICES[k]:
            err(f"unknown value {v!r}; expected one of: {', '.join(_CHOICES[k])}", path)
    missing = [k for k in _PARAMS if k not in params]
    if len(missing) > 3 and "extends" not in doc:
        err("not a mission: it extends no mission and lacks the base rules; a mission file "
            "says extends = \"base\" (or the name of a board)", ("extends",))
        return None
    for k in missing:
        err(f"missing rule parameter {k!r} (does the file extend 'base'?)", (k.split(".")[0],))
    if missing:
        return None
    resources = tuple(str(r) for r in params["components.resources"])
    for k in ("rules.ally_resource", "rules.boost_resource"):
        if params[k] not in resources:
            err(f"unknown resource {params[k]!r}" + closest(str(params[k]), resources),
                tuple(k.split(".")))
    symbols = tuple(str(s) for s in doc.get("symbols", ()))
    if not symbols:
        err("no artwork symbols: 'symbols' must list them", ("symbols",))

    # ---- difficulty
    difficulties: dict[str, int] = {}
    for k, v in doc.get("difficulty", {}).items():
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= _MAX_NUMBER:
            err("health per player must be a whole number from 1", ("difficulty", k))
        else:
            difficulties[k] = v

    # ---- what `artproject tune` may change (core/tunables.py)
    check_tunables(doc.get("tune"), params, difficulties, err)

    # ---- board
    city_specs: list[CitySpec] = []
    for i, raw in enumerate(doc.get("city", [])):
        spec = _structure(raw, CitySpec, ("city", i), where(("city", i)), errors)
        if spec is not None:
            city_specs.append(spec)
    if not city_specs:
        err("a mission needs cities: add [[city]] tables", ("city",))
        return None
    city_index = {c.name: i for i, c in enumerate(city_specs)}
    if len(city_index) != len(city_specs):
        err("two cities share a name", ("city",))
    for i, c in enumerate(city_specs):
        if c.symbol is not None and c.symbol not in symbols:
            err(f"unknown artwork symbol {c.symbol!r}" + closest(c.symbol, symbols),
                ("city", i, "symbol"))
    starts = [i for i, c in enumerate(city_specs) if c.start]
    if len(starts) != 1:
        err(f"exactly one city must be the start (start = true), not {len(starts)}", ("city",))
    cities = tuple(City(c.name, c.symbol, c.x, c.y, c.title) for c in city_specs)
    by_symbol: dict[str, tuple[int, ...]] = {
        s: tuple(i for i, c in enumerate(cities) if c.symbol == s) for s in symbols}

    neighbours: list[list[Road]] = [[] for _ in cities]
    road_attrs: set[str] = set()
    for i, raw in enumerate(doc.get("road", [])):
        if not isinstance(raw, dict):
            err("a road is a table with 'from' and 'to'", ("road", i))
            continue
        ends = []
        for k in ("from", "to"):
            name = raw.get(k)
            if not isinstance(name, str):
                err(f"a road needs '{k}' = a city name", ("road", i, k))
            elif name not in city_index:
                err(f"unknown city {name!r}" + closest(name, city_index), ("road", i, k))
            else:
                ends.append(city_index[name])
        extra = {k: v for k, v in raw.items() if k not in ("from", "to")}
        road_attrs.update(extra)
        if len(ends) == 2:
            a, b = ends
            neighbours[a].append(Road(a, b, MappingProxyType(extra), _heading(cities, a, b)))
            neighbours[b].append(Road(b, a, MappingProxyType(extra), _heading(cities, b, a)))

    track: list[TrackSpace] = []
    for i, raw in enumerate(doc.get("track", [])):
        spec = _structure(raw, TrackSpec, ("track", i), where(("track", i)), errors)
        if spec is not None:
            if spec.symbol is not None and spec.symbol not in symbols:
                err(f"unknown artwork symbol {spec.symbol!r}" + closest(spec.symbol, symbols),
                    ("track", i, "symbol"))
            track.append(TrackSpace(spec.threat, spec.ally_cost, spec.symbol))
    if not track:
        err("a mission needs an artwork track: add [[track]] tables", ("track",))
        return None

    scope = Scope(resources, symbols, city_index, frozenset(road_attrs), by_symbol)
    comp = Compiler(scope)

    # ---- movement cost
    mc_path = ("rules", "move_cost")
    mc_text = params["rules.move_cost"]
    move_cost = comp.cost(mc_text, where(mc_path).origin(mc_path, mc_text))

    # ---- hooks and properties
    hooks: dict[str, list[Hook]] = {}
    for i, text in enumerate(doc.get("hooks", [])):
        path = ("hooks", i)
        if not isinstance(text, str):
            err("a hook is a string such as 'on round_end: ...'", path)
            continue
        h = comp.hook(text, where(path).origin(path, text))
        if h is not None:
            hooks.setdefault(h.event, []).append(h)
    props: list[Property] = []
    for i, raw in enumerate(doc.get("property", [])):
        path = ("property", i)
        spec = _structure(raw, PropertySpec, path, where(path), errors)
        if spec is not None:
            cpath = (*path, "check")
            fn = comp.expr(spec.check, where(cpath).origin(cpath, spec.check))
            if fn is not None:
                props.append(Property(spec.name, fn, spec.check))

    # ---- city effects
    city_effects: list[tuple[Any, ...]] = []
    for i, c in enumerate(city_specs):
        ops: tuple[Any, ...] | None = ()
        if c.on_collect is not None:
            path = ("city", i, "on_collect")
            ops = comp.effect(c.on_collect, where(path).origin(path, c.on_collect),
                              frozenset({"city"}))
        city_effects.append(ops or ())

    # ---- setup
    van = params["setup.van"]
    for k in van:
        if k not in resources:
            err(f"unknown resource {k!r}" + closest(k, resources), ("setup", "van", k))
    setup_van = tuple(int(van.get(r, 0)) for r in resources)
    per_city = int(params["setup.agents_per_city"])
    setup_agents = tuple(c.agents if c.agents is not None else per_city for c in city_specs)
    setup_artworks = tuple(i for i, c in enumerate(city_specs) if c.artwork)

    # ---- cards
    cards, deck, final = _load_cards(doc, where(("cards",)), comp, resources, errors, err)
    errors.extend(comp.errors)
    if errors or move_cost is None:
        return None
    return Rules(
        name=str(doc.get("name", top.path.stem)), title=str(doc.get("title", top.path.stem)),
        source=top.smap.file, params=MappingProxyType(params), resources=resources,
        symbols=symbols, cities=cities, city_index=MappingProxyType(city_index),
        start=starts[0], neighbours=tuple(tuple(n) for n in neighbours),
        by_symbol=MappingProxyType(by_symbol), track=tuple(track),
        cards=MappingProxyType(cards), deck=deck, final_card=final, move_cost=move_cost,
        hooks=MappingProxyType({k: tuple(v) for k, v in hooks.items()}),
        properties=tuple(props), difficulties=MappingProxyType(difficulties),
        setup_agents=setup_agents, setup_artworks=setup_artworks, setup_van=setup_van,
        city_effects=tuple(city_effects),
        raw=doc,
    )


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


def _load_cards(doc: Mapping[str, Any], smap: Any, comp: Compiler, resources: tuple[str, ...],
                errors: list[RulesError], err: Any,
                ) -> tuple[dict[int, Card], tuple[int, ...], int]:
    ref = doc.get("cards")
    if not isinstance(ref, str):
        err("'cards' must name a card file (such as 'mission-cards')", ("cards",))
        return {}, (), -1
    p = Path(ref)
    if p.suffix != ".toml":
        p = _package_dir("cards") / f"{ref}.toml"
    elif not p.is_absolute() and not p.exists() and smap.file:
        p = Path(smap.file).parent / p
    # A card file compiles the same for every board with the same resources and symbols
    # (agents are placed by symbol when played), so one compile serves all six missions.
    try:
        st = p.stat()
        key: tuple[Any, ...] | None = (str(p.resolve()), st.st_mtime_ns, st.st_size, resources,
                                       comp.scope.symbols)
    except OSError:
        key = None
    if key is not None and key in _CARD_CACHE:
        return _CARD_CACHE[key]
    before = len(errors) + len(comp.errors)
    result = _compile_cards(p, comp, resources, errors)
    if key is not None and len(errors) + len(comp.errors) == before:
        if len(_CARD_CACHE) > 32:
            _CARD_CACHE.clear()
        _CARD_CACHE[key] = result
    return result


_CARD_CACHE: dict[tuple[Any, ...], tuple[dict[int, Card], tuple[int, ...], int]] = {}


def _compile_cards(p: Path, comp: Compiler, resources: tuple[str, ...],
                   errors: list[RulesError]) -> tuple[dict[int, Card], tuple[int, ...], int]:
    cdoc, cmap = read_toml(p, _label(p))
    for k in cdoc:
        if k not in ("about", "final", "card"):
            errors.append(RulesError(f"unknown key {k!r}" + closest(k, ("about", "final", "card")),
                                     cmap.locate((k,)), k))
    final = _structure(cdoc.get("final"), FinalSpec, ("final",), cmap, errors)
    raw_cards = cdoc.get("card")
    if not isinstance(raw_cards, list) or not raw_cards:
        errors.append(RulesError("a card file needs [[card]] tables", cmap.locate(("card",)),
                                 "card"))
        return {}, (), -1
    specs = [(i, _structure(raw, CardSpec, ("card", i), cmap, errors))
             for i, raw in enumerate(raw_cards)]
    if final is None:
        return {}, (), -1
    cards: dict[int, Card] = {}
    kinds = (*resources, "health")
    for i, c in specs:
        if c is None:
            continue
        path: tuple[Any, ...] = ("card", i)
        if c.id in cards or c.id == final.id:
            errors.append(RulesError(f"card id {c.id} is used twice", cmap.locate((*path, "id")),
                                     path_text((*path, "id"))))
        texts = {"cost": c.cost, "agents": c.agents, "gain": c.gain, "clues": c.clues}
        org = {k: cmap.origin((*path, k), v) for k, v in texts.items()}
        cost = comp.amounts(c.cost, kinds, org["cost"])
        agents = comp.placements(c.agents, org["agents"])
        gain = comp.amounts(c.gain, kinds, org["gain"])
        clues = comp.symbols(c.clues, org["clues"])
        if cost is None or agents is None or gain is None or clues is None:
            continue
        cards[c.id] = Card(c.id, c.title, clues, MappingProxyType(texts), cost, agents, gain)
    return cards, tuple(c.id for _, c in specs if c is not None), final.id


__all__ = ["Ctx", "load_rules", "read_toml", "shipped_missions"]
