"""Art of War's rule files to `WarRules`: the rules file and its variants layered, the card
file, every key structured by the schema (schema.py), every DSL text compiled once with the
game's words (words.py), and the checks of meaning. Every mistake is gathered with its
file, line and column and raised together (RulesErrors), as The A.R.T. Project's loader does;
reading, layering and placing errors are the kernel's (core/sources.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import attrs

from ...dsl.compiler import Compiler
from ...missions import WAR_DEFAULT, variant_file
from .. import schema
from ..errors import RulesError, RulesErrors, closest
from ..files import exists, shorten, unreadable
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
    shipped_label,
)
from .registry import GAME, SEATS
from .rules import CardKind, WarRules
from .schema import PARAMETERS, WarCardFile, WarCardSpec, WarSpec
from .words import WORDS, WarScope, card_name_problem

DEFAULT: Final = WAR_DEFAULT  # the shipped rules file (missions/art-of-war.toml)


def _label(path: Path) -> str:
    return shipped_label(path, ("missions", "cards"))


def shipped_variants() -> list[str]:
    """The variants of this game shipped in missions/variants/."""
    d = package_dir("missions") / "variants"
    return sorted(p.stem for p in d.glob("*.toml") if game_of(p) == GAME)


# ====================================================================== loading
_SHIPPED: dict[str, WarRules] = {}


def _load_again(ref: str, variants: tuple[str, ...]) -> WarRules:
    """Rules a pickle names, loaded again from the same files (`WarRules.LOAD_AGAIN`)."""
    return load_rules(ref, variants)


WarRules.LOAD_AGAIN = _load_again  # here, not in rules.py: the rules import no loader


def load_rules(ref: str | Path = DEFAULT, variants: Iterable[str | Path] = ()) -> WarRules:
    """Load Art of War's rules (a shipped name or a file) with variants layered on; compile
    every card's texts. RulesError(s) naming file:line:col for every mistake."""
    variants = tuple(variants)
    key = str(ref)
    if not variants and is_name(key) and key in _SHIPPED:
        return _SHIPPED[key]
    rules = _load(ref, variants)
    rules = attrs.evolve(rules, ref=key, variants=tuple(str(v) for v in variants))
    rules.cache["loaded"] = (_abs(ref), tuple(_abs(v) for v in variants))
    if not variants and is_name(key):
        _SHIPPED[key] = rules
    return rules


def shipped(name: str) -> WarRules | None:
    """The shipped rules of that name without variants, if loaded already (a look-up: the
    start of every new game asks)."""
    return _SHIPPED.get(name)


def _abs(x: str | Path) -> str:
    return str(x) if is_name(str(x)) else str(Path(x).resolve())


def _rules_path(ref: str | Path) -> Path:
    if isinstance(ref, Path) or not is_name(ref):
        return Path(ref)
    path = package_dir("missions") / f"{ref}.toml"
    if not ref or not exists(path) or game_of(path) != GAME:
        raise RulesError(f"unknown rules {shorten(str(ref))!r}"
                         + closest(str(ref)[:100], [DEFAULT])
                         + f"; Art of War's shipped rules: {DEFAULT} (or give a file)")
    return path


def _variant_path(ref: str | Path) -> Path:
    path = variant_file(ref)
    if not is_name(ref):
        return path
    if not exists(path) or game_of(path) != GAME:
        known = shipped_variants()
        raise RulesError(f"unknown variant {shorten(str(ref))!r} of Art of War"
                         f"{closest(str(ref)[:100], known)}; its shipped variants: "
                         + ", ".join(known) + " (or give a file)")
    return path


def _layer(path: Path, what: str) -> Layer:
    doc, smap = read_toml(path, _label(path))
    game = doc.get("game")
    if game != GAME:
        shown = "The A.R.T. Project" if game is None else repr(game)
        raise RulesError(f"a file of {shown}, not {what} of Art of War (its files say "
                         f'game = "{GAME}")', smap.locate(("game",)))
    return Layer(doc, smap, path)


def _load(ref: str | Path, variants: tuple[str | Path, ...]) -> WarRules:
    """The rules compiled, or as compiled before from the same files (core/cache.py: the
    entry holds every file read or looked for while compiling, so it is never stale)."""
    from .. import cache, frozen

    request = (GAME, *((type(x).__name__, str(x)) for x in (ref, *variants)))
    kept = cache.lookup("rules", request)
    if kept is not None:
        try:
            return frozen.thaw(kept, WarRules)
        except Exception:  # a damaged entry: compiled afresh, and kept again
            pass
    with cache.watching() as read:
        rules = _compile(ref, variants)
    data = frozen.freeze(rules, rules.made[0].__globals__ if rules.made else None)
    if data is not None:
        cache.store("rules", request, read, data)
    return rules


def _compile(ref: str | Path, variants: tuple[str | Path, ...]) -> WarRules:
    layers = [_layer(_rules_path(ref), "the rules")]
    layers += [_layer(_variant_path(v), "a variant") for v in variants]
    merged, w = layered(layers)
    spec = w.shape(merged, WarSpec)
    if spec is None:
        _cards_alone(merged, w)
    rules = _build(spec, merged, w) if spec is not None else None
    w.raise_errors()
    assert rules is not None
    return attrs.evolve(rules, warnings=tuple(w.warnings))


def _cards_alone(doc: dict[str, Any], w: Where) -> None:
    """The card file a rules document names, checked where the rest of the document could
    not be read (a mistake elsewhere in it): its own mistakes told in the same run, as
    `check` promises every error at once. Nothing is built."""
    ref = doc.get("cards")
    if isinstance(ref, str) and ref:
        _load_cards(ref, w.map(("cards",)), w.errors)


def _build(spec: WarSpec, doc: dict[str, Any], w: Where) -> WarRules | None:
    params = _params(spec, w)
    if params is not None:
        _check_params(params, w)
    if not spec.cards:
        w.err("'cards' must name a card file (such as 'art-of-war')", ("cards",))
        return None
    found = _load_cards(spec.cards, w.map(("cards",)), w.errors)  # (told with the rest)
    if w.errors or found is None or params is None:
        return None
    cards, made = found
    _check_deck(cards, params, w)
    return WarRules(name=spec.name or Path(w.top.file).stem,
                    title=spec.title or "Art of War", source=w.top.file,
                    params=MappingProxyType(params), cards=cards,
                    index=MappingProxyType({c.name: c.index for c in cards}), made=made,
                    raw=doc)


def _params(spec: WarSpec, w: Where) -> dict[str, Any] | None:
    out: dict[str, Any] = {}
    for name, _ in PARAMETERS:
        section = getattr(spec, name)
        if section is None:
            w.err(f"missing [{name}]: Art of War's rules file sets every parameter", (name,))
            continue
        for f in attrs.fields(type(section)):
            out[f"{name}.{f.name}"] = getattr(section, f.name)
    return out if len(out) == sum(len(attrs.fields(c)) for _, c in PARAMETERS) else None


def _check_params(p: dict[str, Any], w: Where) -> None:
    """Parameters that cannot work together (W1, W4)."""
    low, high = p["components.min_players"], p["components.max_players"]
    if low > high:
        w.err(f"min_players {low} is above max_players {high}", ("components", "min_players"),
              ("components", "max_players"))
    if high > SEATS:
        w.err(f"at most {SEATS} players (the notation's seats)", ("components", "max_players"))
    need = high * p["setup.tokens_dealt"] + p["setup.centre_tokens"]
    if need > p["components.tokens"]:
        w.err(f"{high} players are dealt {high * p['setup.tokens_dealt']} tokens and the centre "
              f"pile takes {p['setup.centre_tokens']}: {need}, more than the "
              f"{p['components.tokens']} tokens in the box (W1)", ("components", "tokens"),
              ("setup", "tokens_dealt"), ("setup", "centre_tokens"),
              ("components", "max_players"))
    if p["setup.cards_dealt"] > p["components.hand_limit"]:
        w.err(f"{p['setup.cards_dealt']} cards dealt, above the hand limit of "
              f"{p['components.hand_limit']} (W4)", ("setup", "cards_dealt"),
              ("components", "hand_limit"))


def _check_deck(cards: tuple[CardKind, ...], p: dict[str, Any], w: Where) -> None:
    dealt = sum(c.count for c in cards if c.deal)
    high = p["components.max_players"]
    if dealt < high * p["setup.cards_dealt"]:
        w.err(f"the deck deals {dealt} cards, fewer than {high} players x "
              f"{p['setup.cards_dealt']} (W1)", ("cards",), ("setup", "cards_dealt"))


# ====================================================================== the card file
def _card_path(ref: str, smap: Any) -> Path:
    """The card file `ref` names: a shipped one's name, or a path; a relative one read from
    the folder of the file that names it (`smap.real`), never from the current directory."""
    p = Path(ref)
    if p.suffix != ".toml":
        return package_dir("cards") / f"{ref}.toml"
    if not p.is_absolute() and getattr(smap, "real", None) is not None:
        return Path(smap.real).parent / p
    return p


def _load_cards(ref: str, smap: Any, errors: list[RulesError],
                ) -> tuple[tuple[CardKind, ...], tuple[Any, ...]] | None:
    path = _card_path(ref, smap)
    if is_name(ref) and not exists(path):
        known = sorted(p.stem for p in package_dir("cards").glob("*.toml")
                       if game_of(p) == GAME)
        errors.append(RulesError(f"unknown card file {ref!r}{closest(ref, known)}; Art of "
                                 "War's: " + ", ".join(known), smap.locate(("cards",)), "cards"))
        return None
    why = unreadable(path)
    if why is not None:  # told at the `cards` that names it, not as the file's own error
        relative = Path(ref).suffix == ".toml" and not Path(ref).is_absolute()
        note = " (a path is read relative to the file that names it)" if relative else ""
        errors.append(RulesError(f"{why}: {shorten(str(path))}{note}", smap.locate(("cards",)),
                                 "cards"))
        return None
    try:
        layer = _layer(path, "a card file")
    except RulesErrors as errs:
        errors.extend(errs.errors)
        return None
    except RulesError as err:
        errors.append(err)
        return None
    return compile_cards(layer.doc, layer.smap, errors)


def compile_cards(doc: dict[str, Any], cmap: SourceMap, errors: list[RulesError],
                  ) -> tuple[tuple[CardKind, ...], tuple[Any, ...]] | None:
    """A card file's kinds of card, each text compiled; every error gathered."""
    spec, found = schema.structure(doc, WarCardFile)
    for p, msg in found:
        errors.append(RulesError(msg, cmap.locate(p), path_text(p)))
    if spec is None:
        return None
    if not spec.card:
        errors.append(RulesError("a card file needs [[card]] tables", cmap.locate(("card",)),
                                 "card"))
        return None
    index: dict[str, int] = {}
    for i, c in enumerate(spec.card):
        problem = card_name_problem(c.name)
        if problem:
            errors.append(RulesError(problem, cmap.locate(("card", i, "name")),
                                     path_text(("card", i, "name"))))
        if c.name in index:
            errors.append(RulesError(f"two kinds of card are named {c.name!r}",
                                     cmap.locate(("card", i, "name")),
                                     path_text(("card", i, "name"))))
        index.setdefault(c.name, i)
    comp = Compiler(WarScope(dict(index)), WORDS)
    cards = tuple(_card(c, i, cmap, comp, errors) for i, c in enumerate(spec.card))
    errors.extend(comp.errors)
    if any(c is None for c in cards):
        return None
    return tuple(c for c in cards if c is not None), tuple(comp.made)


def _card(c: WarCardSpec, i: int, cmap: SourceMap, comp: Compiler,
          errors: list[RulesError]) -> CardKind | None:
    path: tuple[Any, ...] = ("card", i)

    def effect(key: str) -> tuple[Any, ...] | None:
        text = getattr(c, key)
        if text is None:
            return ()
        return comp.effect(text, cmap.origin((*path, key), text), frozenset({"player"}))

    rank = comp.expr(c.rank, cmap.origin((*path, "rank"), c.rank), frozenset({"player"}),
                     rules=True)  # a rule: it reads nothing the players cannot see (W19)
    collateral, on_reveal, on_draw = effect("collateral"), effect("on_reveal"), effect("on_draw")
    if on_draw and c.deal:
        errors.append(RulesError(f"{c.name!r} is played at once when drawn (on_draw), so it "
                                 "cannot be dealt: say deal = false (W1)",
                                 cmap.locate((*path, "deal")), path_text((*path, "deal"))))
    if rank is None or collateral is None or on_reveal is None or on_draw is None:
        return None
    texts = {k: v for k in ("rank", "collateral", "on_reveal", "on_draw")
             if (v := getattr(c, k)) is not None}
    return CardKind(i, c.name, c.title or c.name.replace("_", " ").title(), c.count, c.score,
                    c.deal, c.bonus, c.draws, rank, collateral, on_reveal, on_draw,
                    MappingProxyType(texts), c.says)


def check_card_file(path: Path) -> list[RulesError]:
    """Every error in a card file of this game, checked alone."""
    try:
        layer = _layer(path, "a card file")
    except RulesErrors as errs:
        return list(errs.errors)
    except RulesError as err:
        return [err]
    errors: list[RulesError] = []
    compile_cards(layer.doc, layer.smap, errors)
    return errors


__all__ = ["DEFAULT", "check_card_file", "load_rules", "shipped_variants"]
