"""Rule files to `Rules`: read TOML, merge base, mission and variants, check, compile once.

Every mistake is gathered with its file, line and column (a DSL mistake) or its path inside
the document (`cards/mission-cards.toml: card[17].gain`), and raised together as one
`RulesErrors`, so `artproject check` can report all of them. Reading, layering and placing
errors are the kernel's (core/sources.py); the keys are declared in schema.py, the checks
of meaning are meaning.py's. This module finds and layers the files and keeps what it
loaded; build.py makes the `Rules` of the merged document, cardfile.py reads its deck.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

import attrs

from ...dsl.compiler import Scope
from ...missions import DEFAULT, variant_file
from ..errors import Location, RulesError, RulesErrors, closest
from ..files import exists, outside, shorten, unreadable
from ..sources import (
    Layer,
    SourceMap,
    game_of,
    is_name,
    layered,
    package_dir,
    read_toml,
    real_path,
)
from .build import build, note_value
from .cardfile import card_file, label
from .rules import Ctx, Rules


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
    """The file `ref` names: a shipped mission's name, or a path; a relative one read from
    the folder of `relative_to`, the file whose `extends` names it, and never from the
    current directory (where the command is run is no part of the rules); from the current
    directory only when no file names it (the mission given by the caller)."""
    p = Path(ref)
    if p.suffix == ".toml" or "/" in ref or "\\" in ref:
        if not p.is_absolute() and relative_to is not None:
            return relative_to.parent / p
        return p
    return package_dir("missions") / f"{ref}.toml"


def _layers(mission: str | Path, base: Path | None = None) -> list[Layer]:
    """The chain of files a mission extends, base first (`base` replaces the shipped base).

    A reference a file makes that leads nowhere (an unknown name, no such file, a loop) is
    told at that file's `extends`, line and column; the mission itself, named by no file,
    by its name."""
    chain: list[Layer] = []
    ref: str | Path = mission
    reals: list[Path] = []  # each file of the chain, its links resolved
    by: Layer | None = None  # the file whose `extends` names `ref`
    while True:
        path = _found(ref, by, base)
        real = real_path(path)
        if real in reals:
            _refuse_loop(chain[reals.index(real):])
        doc, smap = read_toml(path, label(path))
        layer = Layer(doc, smap, path)
        chain.append(layer)
        reals.append(real)
        parent = doc.get("extends")
        if not isinstance(parent, str):
            break  # none; or not text, which the schema tells
        ref, by = parent, layer
    chain.reverse()
    return chain


def _found(ref: str | Path, by: Layer | None, base: Path | None) -> Path:
    """The file `ref` names (`by`'s `extends` names it, or the caller when None), or a
    RulesError told where the reference is."""
    if base is not None and ref == "base":
        path = base
    else:
        path = ref if isinstance(ref, Path) else _resolve(ref, None if by is None else by.path)
    where, key = (None, "") if by is None else (by.smap.locate(("extends",)), "extends")
    if is_name(ref) and not exists(path):
        if not ref:
            raise RulesError("no mission named: give a shipped mission's name or a file",
                             where, key)
        raise RulesError(f"unknown mission {shorten(str(ref))!r}"
                         + closest(str(ref)[:100], shipped_missions())
                         + "; shipped missions: " + ", ".join(shipped_missions())
                         + _not_toml(str(ref), by), where, key)
    if by is not None:
        _refuse_unreadable(path, by, not is_name(ref) and not Path(ref).is_absolute())
    _refuse_other_game(path, by)
    return path


def _not_toml(ref: str, by: Layer | None) -> str:
    """A hint for a name that is no shipped mission but a file's, there without .toml (a
    mission file's name ends in .toml; a name without is a shipped mission's)."""
    p = Path(ref) if by is None else by.path.parent / ref
    try:  # (a name too long or with a NUL is no file; nor one outside what may be read)
        there = not outside(p) and p.is_file()
    except (OSError, ValueError):
        there = False
    if not there:
        return ""
    return (f"; the file {shorten(str(p))} is there, but a mission file's name ends in .toml "
            f"(a name without is a shipped mission's): rename it {shorten(ref)}.toml, or give "
            f"it with a folder, ./{shorten(ref)}")


def _refuse_other_game(path: Path, by: Layer | None) -> None:
    """Another game's rules (`game = "..."`), extended by `by` or given as the mission."""
    other = game_of(path) if exists(path) else None
    if other is None:
        return
    if by is not None:
        raise RulesError(f"{label(path)} is the rules of another game ({other!r}), not a "
                         "mission of The A.R.T. Project", by.smap.locate(("extends",)),
                         "extends")
    raise RulesError(f"the rules of another game, {other!r}, not a mission of The A.R.T. "
                     f"Project: play it with --game {other}", Location(label(path)))


def _refuse_unreadable(path: Path, by: Layer, relative: bool) -> None:
    """No file to read where `by`'s `extends` leads: told there, with the path looked at (a
    `relative` one beside `by`, as `_resolve` found it, and said so)."""
    why = unreadable(path)
    if why is None:
        return
    note = " (a path is read relative to the file that names it)" if relative else ""
    raise RulesError(f"{why}: {shorten(str(path))}{note}", by.smap.locate(("extends",)),
                     "extends")


def _refuse_loop(loop: list[Layer]) -> None:
    """The files of a loop of `extends` (the first named again by the last): told at the
    `extends` that closes it, as the chain of files that make it."""
    names = [layer.smap.file for layer in loop]
    told = (f"{names[0]} extends itself" if len(names) == 1 else
            f"{names[0]} extends {names[1]}"
            + "".join(f", which extends {n}" for n in [*names[2:], names[0]]))
    raise RulesError(f"a loop of 'extends': {told}", loop[-1].smap.locate(("extends",)),
                     "extends")


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
    own = layers[-1].smap  # the mission's own file: its name and title, not a parent's
    _refuse_other_kinds(layers[-1], "a mission")
    for v in variants:
        layer = _variant(v)
        _refuse_other_kinds(layer, "a variant")
        _refuse_mission_keys(layer, mission)
        layers.append(layer)
    # A variant's (or an extending mission's) hooks and properties add to the board's: a
    # property is a promise of the board's, which no later file may drop unseen.
    merged, w = layered(layers, accumulate=("hooks", "property"))
    if cards is not None:  # given, not named by a file: told by its own name, read as given
        why = card_file(cards, None)[1]
        if why is not None:
            raise RulesError(why)
        merged["cards"] = _as_given(cards)
        # Not the file that set the mission's own `cards`: a relative path stays the caller's.
        w.owner = {**w.owner, ("cards",): SourceMap(shorten(merged["cards"]), "")}
    rules = build(merged, w, own)
    w.raise_errors()
    assert rules is not None
    return attrs.evolve(rules, warnings=tuple(w.warnings))


def _as_given(cards: str) -> str:
    """A card file given by its absolute path (as `check FILE` gives it) as a path from the
    current folder when it lies there, so that its errors name it as the user did, as a
    mission's do, not as /the/whole/path."""
    p = Path(cards)
    try:
        return str(p.relative_to(Path.cwd())) if p.is_absolute() else cards
    except (ValueError, OSError):  # elsewhere, or no current folder
        return cards


def _variant(ref: str | Path) -> Layer:
    path = variant_file(ref)
    if is_name(ref) and (not exists(path) or game_of(path) is not None):
        known = shipped_variants()
        raise RulesError(f"unknown variant {shorten(str(ref))!r}"
                         f"{closest(str(ref)[:100], known)}; shipped "
                         "variants: " + ", ".join(known) + " (or give a file)")
    other = game_of(path) if exists(path) else None
    if other is not None:
        raise RulesError(f"a variant of another game ({other!r}), not of The A.R.T. Project",
                         Location(label(path)))
    doc, smap = read_toml(path, label(path))
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


# Keys only a mission (or the base rules) sets: a file with one of them is no variant, which
# changes the rules of the board it is layered on, not which board it is. Not [[track]]: a
# variant may replace the whole track (`artproject tune`'s variants do).
MISSION_KEYS: Final = ("extends", "name", "title", "cards", "symbols", "city", "road")


def _refuse_mission_keys(layer: Layer, mission: str | Path) -> None:
    """A mission's keys in a variant, each told at its line: layered, `extends` would be
    ignored (the variant is on the board it is given) and the others would change the board
    itself (its name, title, card file, symbols or map) under the board's name."""
    on = shorten(str(mission))
    errors = []
    for key in sorted((k for k in MISSION_KEYS if k in layer.doc),
                      key=lambda k: layer.smap.where.get((k,), (0, 0))):
        if key == "extends":
            msg = (f"a variant cannot extend a board: it is layered on the mission it is given "
                   f"({on}); a file that extends {layer.doc[key]!r} is a mission: give it as "
                   "the mission")
        else:
            msg = (f"a mission's key, not a variant's: a variant changes the rules of the board "
                   f"it is layered on ({on}), not its name, title, cards, symbols or map")
        errors.append(RulesError(msg, layer.smap.locate((key,)), key))
    if errors:
        raise RulesErrors(errors) if len(errors) > 1 else errors[0]


def scope_of(rules: Rules) -> Scope:
    """The names rule texts may use with these rules (for scenario checks and properties)."""
    attrs_seen: dict[str, frozenset[Any] | None] = {}  # (each attribute's values)
    for roads in rules.neighbours:
        for r in roads:
            for k, v in r.attrs.items():
                note_value(attrs_seen, k, v)
    return Scope(rules.resources, rules.symbols, dict(rules.city_index), attrs_seen,
                 dict(rules.by_symbol))


__all__ = ["Ctx", "load_rules", "read_toml", "shipped_missions"]
