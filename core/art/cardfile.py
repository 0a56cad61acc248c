"""Card files to cards: a mission's deck read, structured and compiled (each card's cost,
agents, gain and clues), every mistake gathered with its place; one compile serves every
board with the same resources and symbols. The loader (loader.py) and the builder
(build.py) call it.
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

from ...dsl.compiler import Compiler
from .. import schema
from ..errors import RulesError, closest
from ..files import WATCHERS, sha256, shorten, unreadable, watched
from ..sources import SourceMap, game_of, package_dir, path_text, read_toml, shipped_label
from .rules import Card
from .schema import CardFile, CardSpec


def label(path: Path) -> str:
    """Show shipped files by their place in the project (missions/NAME.toml, cards/NAME.toml)."""
    return shipped_label(path, ("missions", "cards"))


Cards = tuple[dict[int, Card], tuple[int, ...], int]


def load_cards(ref: str, smap: Any, comp: Compiler, resources: tuple[str, ...],
                errors: list[RulesError]) -> Cards:
    if not ref:
        errors.append(RulesError("'cards' must name a card file (such as 'mission-cards')",
                                 smap.locate(("cards",)), "cards"))
        return {}, (), -1
    p, why = card_file(ref, smap.real)
    if why is not None:  # told at the `cards` that names it, not as the file's own error
        errors.append(RulesError(why, smap.locate(("cards",)), "cards"))
        return {}, (), -1
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


def card_file(ref: str, real: Path | None) -> tuple[Path, str | None]:
    """The card file `ref` names (a relative path read from the folder of `real`, the file
    that names it, never from the current directory; from there only when no file names
    it: `real` None), and why it cannot be read: an unknown shipped name (the nearest and
    every shipped one told), or the path looked at; None when it can."""
    p = Path(ref)
    if p.suffix != ".toml":
        p = package_dir("cards") / f"{ref}.toml"
        if unreadable(p) is None:
            return p, None
        known = shipped_card_files()
        return p, (f"unknown card file {shorten(ref)!r}{closest(ref[:100], known)}; shipped "
                   "card files: " + ", ".join(known) + " (or a path ending in .toml)")
    note = ""
    if not p.is_absolute() and real is not None:
        p, note = real.parent / p, " (a path is read relative to the file that names it)"
    why = unreadable(p)
    return p, None if why is None else f"{why}: {shorten(str(p))}{note}"


def shipped_card_files() -> list[str]:
    """Names of the card files of this game shipped with the package."""
    return sorted(p.stem for p in package_dir("cards").glob("*.toml") if game_of(p) is None)


_CARD_CACHE: dict[tuple[Any, ...], Cards] = {}


def _compile_cards(p: Path, comp: Compiler, resources: tuple[str, ...],
                   errors: list[RulesError]) -> Cards:
    cdoc, cmap = read_toml(p, label(p))
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
