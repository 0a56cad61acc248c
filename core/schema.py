"""Every rule file's sections and parameters, declared once: type, range or choices, meaning.

The loader structures each file with cattrs against these declarations: a value of the
wrong type, out of its range or not among its choices is refused with the file, line,
column and key path, saying what was expected. A section of the wrong shape (text where a
table belongs) is one error, never one per character. `docs/reference.md` is generated
from these declarations (`python tools/reference.py`), and a test keeps the two the same.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from types import UnionType
from typing import Any, Final, NewType, TypeVar, Union, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import (
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn, override

from ..missions import DEFAULT
from .errors import closest
from .state import PHASES

MAX_NUMBER: Final = 10_000  # every number in a rule file (and in its DSL) is at most this
MAX_COORD: Final = 100  # map coordinates run 0..100 on both axes (y grows southwards)

# A name the DSL can read: a city, artwork symbol, resource, road attribute.
Name = NewType("Name", str)
_NAME: Final = re.compile(r"[a-z_][a-z0-9_]*\Z")
# A word on the command line (a difficulty): letters, digits, - and _, no commas.
Word = NewType("Word", str)
_WORD: Final = re.compile(r"[a-z0-9][a-z0-9_\-]*\Z")
# A text in the effect DSL, compiled when the rules load (docs/dsl.md); `dsl` says which kind.
Dsl = NewType("Dsl", str)
# Whole numbers from low to high, both ends included: `[1, 3]` (a [tune] range).
Range = NewType("Range", tuple[int, int])

T = TypeVar("T")


@attrs.frozen
class Param:
    """What the reference says about one key: its meaning, range or choices, ruling."""

    meaning: str
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] = ()
    dsl: str = ""  # the DSL start rule of a text: cost, effect, hook, expr, amounts, ...
    ruling: str = ""
    expects: str = ""  # what the reference says it expects, where the type alone says less


def param(meaning: str, *, lo: float | None = None, hi: float | None = None,
          choices: tuple[str, ...] = (), dsl: str = "", ruling: str = "", expects: str = "",
          default: Any = attrs.NOTHING, factory: Any = None) -> Any:
    """An attrs field that carries its declaration (for checking and for the reference)."""
    meta = {"param": Param(meaning, lo, hi, choices, dsl, ruling, expects)}
    if factory is not None:
        return attrs.field(factory=factory, metadata=meta)
    return attrs.field(default=default, metadata=meta)


def declaration(field: attrs.Attribute[Any]) -> Param:
    p = field.metadata.get("param")
    assert isinstance(p, Param), field.name
    return p


# ====================================================================== describing types
_PRIMITIVE_WORDS: Final = {int: "a whole number", float: "a number", bool: "true or false",
                           str: "text", Name: "a name (lowercase letters, digits, _)",
                           Word: "a word (lowercase letters, digits, - and _)",
                           Dsl: "DSL text", Range: "a range [low, high] of two whole numbers"}


def _range(p: Param | None, number: bool) -> str:
    if p is None or not number:
        return ""
    lo, hi = p.lo, p.hi
    lo_t = _num(lo) if lo is not None else None
    hi_t = _num(hi) if hi is not None else f"{MAX_NUMBER:,}"
    if lo_t is None:
        return f" from -{MAX_NUMBER:,} to {hi_t}"
    return f" from {lo_t} to {hi_t}"


def _num(x: float) -> str:
    return f"{int(x):,}" if x == int(x) else f"{x:,g}"


def describe(t: Any, p: Param | None = None) -> str:
    """What a value of type `t` (declared as `p`) must be, in the reference's words."""
    if p is not None and p.expects:
        return p.expects
    if p is not None and p.choices:
        return "one of: " + ", ".join(p.choices)
    if p is not None and p.dsl:
        many = get_origin(t) in (tuple, list)
        return f"a list of DSL {p.dsl}s (docs/dsl.md)" if many else f"DSL {p.dsl} (docs/dsl.md)"
    return _describe_type(t, p)


def _describe_type(t: Any, p: Param | None) -> str:
    origin, args = get_origin(t), get_args(t)
    if origin is tuple or origin is list:
        return f"a list of {_plural(args[0], p)}"
    if origin is dict:
        return "a table" if args[1] is Any else \
            f"a table of {_plural(args[0])} = {describe(args[1], p)}"
    if origin in (Union, UnionType):  # X | None: absent, or an X; a list or a table
        return " or ".join(describe(a, p) for a in args if a is not type(None))
    if attrs.has(t):
        return "a table"
    word = _PRIMITIVE_WORDS.get(t, getattr(t, "__name__", str(t)))
    return word + _range(p, t in (int, float))


def _plural(t: Any, p: Param | None = None) -> str:
    if attrs.has(t) or get_origin(t) is dict:
        return "tables"
    if t in (int, float):
        return ("whole numbers" if t is int else "numbers") + _range(p, True)
    return {Name: "names", Word: "words", str: "texts", Dsl: "DSL texts",
            Range: "ranges"}.get(t, describe(t))


def what(value: Any) -> str:
    """A value as the error shows it: its kind and (shortened) repr."""
    kind = {bool: "a boolean", int: "a whole number", float: "a number", str: "text",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)
    if isinstance(value, dict | list):
        return kind
    text = repr(value)
    return f"{kind} {text[:40] + '...' if len(text) > 40 else text}"


# ====================================================================== the converter
class Wrong(ValueError):
    """A value that is not what its key expects; the message says what was."""


def _number(value: Any, t: type, p: Param | None) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float) or (
            t is int and not isinstance(value, int)):
        raise Wrong(f"expected {describe(t, p)}, not {what(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise Wrong(f"expected {describe(t, p)}, not {value}")
    lo = p.lo if p is not None and p.lo is not None else -MAX_NUMBER
    hi = p.hi if p is not None and p.hi is not None else MAX_NUMBER  # only a seed goes higher
    if not lo <= value <= hi:
        raise Wrong(f"{value} is out of range: expected {describe(t, p)}")
    return t(value)


def _text(value: Any, t: Any, p: Param | None) -> str:
    if not isinstance(value, str):
        raise Wrong(f"expected {describe(t, p)}, not {what(value)}")
    if t is Name and not _NAME.match(value):
        raise Wrong(f"{value!r} is not a name: expected lowercase letters, digits and _, "
                    "starting with a letter or _ (the DSL reads names so)")
    if t is Word and not _WORD.match(value):
        raise Wrong(f"{value!r} is not a word: expected lowercase letters, digits, - and _")
    if p is not None and p.choices and value not in p.choices:
        raise Wrong(f"unknown value {value!r}{closest(value, p.choices)}; expected one of: "
                    + ", ".join(p.choices))
    return value


def _check(value: Any, t: Any, p: Param | None) -> Any:
    """A primitive value, checked against its type and declaration."""
    if t in (int, float):
        return _number(value, t, p)
    if t is bool:
        if not isinstance(value, bool):
            raise Wrong(f"expected true or false, not {what(value)}")
        return value
    return _text(value, t, p)


CONVERTER: Final = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
_PRIMITIVES: Final = (int, float, bool, str, Name, Word, Dsl)
for _t in _PRIMITIVES:
    CONVERTER.register_structure_hook(_t, lambda v, t: _check(v, t, None))


def _is_seq(t: Any) -> bool:
    return get_origin(t) in (tuple, list)


def _inner(p: Param | None) -> Param | None:
    """A declaration as its items see it: the range holds, the field's own wording not."""
    return None if p is None else attrs.evolve(p, expects="")


def _seq_hook(t: Any, p: Param | None = None) -> Callable[[Any, Any], Any]:
    item = get_args(t)[0]
    item_hook = _hook_for(item, _inner(p) if item in (int, float) or _is_seq(item) else None)

    def hook(value: Any, _: Any) -> Any:
        if not isinstance(value, list):
            raise Wrong(f"expected {describe(t, p)}, not {what(value)}")
        out, errors = [], []
        for i, x in enumerate(value):
            try:
                out.append(item_hook(x, item))
            except Exception as exc:  # gathered, as cattrs gathers an attrs class's errors
                exc.__notes__ = [*getattr(exc, "__notes__", []),
                                 IterableValidationNote(f"@ index {i}", i, item)]
                errors.append(exc)
        if errors:
            raise IterableValidationError(f"While structuring {t}", errors, t)
        return tuple(out) if get_origin(t) is tuple else out
    return hook


def _map_hook(t: Any, p: Param | None) -> Callable[[Any, Any], Any]:
    key_t, val_t = get_args(t)
    val_hook = _hook_for(val_t, _inner(p))

    def hook(value: Any, _: Any) -> Any:
        if not isinstance(value, dict):
            raise Wrong(f"expected {describe(t, p)}, not {what(value)}")
        out, errors = {}, []
        for k, v in value.items():
            try:
                out[_check(k, key_t, None)] = val_hook(v, val_t)
            except Exception as exc:
                exc.__notes__ = [*getattr(exc, "__notes__", []),
                                 IterableValidationNote(f"@ key {k!r}", k, val_t)]
                errors.append(exc)
        if errors:
            raise IterableValidationError(f"While structuring {t}", errors, t)
        return out
    return hook


def _hook_for(t: Any, p: Param | None) -> Callable[[Any, Any], Any]:
    """The structure hook for a field of type `t` declared as `p`."""
    args = get_args(t)
    if args and type(None) in args:
        inner = [a for a in args if a is not type(None)]
        one = inner[0] if len(inner) == 1 else Union[tuple(inner)]  # noqa: UP007 - built
        inner_hook = _hook_for(one, p)
        return lambda v, _: None if v is None else inner_hook(v, one)
    if get_origin(t) in (Union, UnionType):
        return _union_hook(t, p)
    if t in _PRIMITIVES:
        return lambda v, _: _check(v, t, p)
    if t is Range:
        return _low_high
    if _is_seq(t):
        return _seq_hook(t, p)
    if get_origin(t) is dict:
        return _map_hook(t, p)
    return CONVERTER.get_structure_hook(t)


def _low_high(value: Any, _: Any) -> tuple[int, int]:
    """A Range: two whole numbers, the low end first (whether the parameter it tunes takes
    them is a check of meaning: core/tunables.py)."""
    if not (isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)):
        shown = repr(value) if isinstance(value, list) and len(repr(value)) <= 40 else what(value)
        raise Wrong(f"expected a range [low, high] of two whole numbers, not {shown}")
    low, high = value
    if low > high:
        raise Wrong(f"an empty range: its low end {low} is above its high end {high}")
    return low, high


def _union_hook(t: Any, p: Param | None) -> Callable[[Any, Any], Any]:
    """A list or a table (`health = [3, 2]` or `{ p2 = 1 }`): chosen by the value's shape."""
    by_shape = {(list if _is_seq(a) else dict): (a, _hook_for(a, _inner(p)))
                for a in get_args(t)}

    def hook(value: Any, _: Any) -> Any:
        shape = list if isinstance(value, list) else dict if isinstance(value, dict) else None
        if shape not in by_shape:
            raise Wrong(f"expected {describe(t, p)}, not {what(value)}")
        kind, inner = by_shape[shape]
        return inner(value, kind)
    return hook


def _section_hook(cls: type[Any], special: Mapping[str, Callable[[Any, Any], Any]] | None = None,
                  ) -> Callable[[Any, Any], Any]:
    """A table: refuses anything else as one error, then structures its keys (all errors)."""
    special = special or {}
    overrides = {f.name: override(struct_hook=special.get(f.name) or _hook_for(
        f.type, f.metadata.get("param"))) for f in attrs.fields(cls)}
    inner = make_dict_structure_fn(cls, CONVERTER, **overrides)  # type: ignore[arg-type]

    def hook(value: Any, _: Any) -> Any:
        if not isinstance(value, dict):
            raise Wrong(f"expected {describe(cls)}, not {what(value)}")
        return inner(value, cls)
    return hook


def _resolve_types(cls: type[Any]) -> None:
    attrs.resolve_types(cls, globals())


def section(cls: type[T]) -> type[T]:
    """Register an attrs class as a declared section (decorator)."""
    _resolve_types(cls)
    CONVERTER.register_structure_hook(cls, _section_hook(cls))
    return cls


# ====================================================================== errors -> paths
Path_ = tuple[Any, ...]


def problems(exc: BaseException, path: Path_ = ()) -> Iterator[tuple[Path_, str]]:
    """Each error inside a cattrs exception, with its key path and a message."""
    if isinstance(exc, ClassValidationError | IterableValidationError):
        for sub in exc.exceptions:
            yield from problems(sub, (*path, *_note_path(sub)))
    elif isinstance(exc, ForbiddenExtraKeysError):
        known = [f.name.rstrip("_") for f in attrs.fields(exc.cl)]
        kind = KEY_WORDS.get(exc.cl, "key")
        for k in sorted(exc.extra_fields):
            yield (*path, k), f"unknown {kind} {k!r}{closest(k, known)}; expected one of: " \
                + ", ".join(known)
    elif isinstance(exc, KeyError):
        yield path, "missing: this key is required"
    elif isinstance(exc, Wrong):
        yield path, str(exc)
    else:  # a hook of ours that failed: said plainly, never a traceback
        yield path, f"invalid value ({exc})"


def _note_path(exc: BaseException) -> Path_:
    for note in getattr(exc, "__notes__", ()):
        if isinstance(note, IterableValidationNote):
            return (note.index,)
        name = getattr(note, "name", None)
        if name is not None:
            return (name,)
    return ()


def structure(value: Any, cls: type[T]) -> tuple[T | None, list[tuple[Path_, str]]]:
    """`value` as a `cls`, or None and every problem found (key path, message)."""
    try:
        return CONVERTER.structure(value, cls), []
    except (ClassValidationError, IterableValidationError, Wrong) as exc:
        return None, list(problems(exc))


# ====================================================================== mission files
@section
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


@section
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


@section
@attrs.frozen
class RuleParams:
    """The round's rules."""

    draw_per_round: int = param("mission cards each player draws a round (R6)", lo=1,
                                ruling="R6")
    play_per_round: int = param("mission cards each player plays a round", lo=1)
    clues_per_artwork: int = param("matching clues in the chain that uncover an artwork (R10)",
                                   lo=1, ruling="R10")
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


@section
@attrs.frozen
class Solo:
    """Solo mode (rulebook, "Solo Mode"; R24)."""

    enabled: bool = param("a one-player game plays solo mode (R24)", ruling="R24")
    health_factor: int = param("the set-up health multiplier in solo mode", lo=1)
    removed_cards: int = param("mission cards taken out of the deck at set-up in solo mode",
                               lo=0)
    draw_per_round: int = param("cards drawn a round in solo mode", lo=1)
    play_per_round: int = param("cards played a round in solo mode", lo=1)


@section
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


@section
@attrs.frozen
class RoadEnds:
    """A road between two cities: one [[road]] table."""

    from_: Name = param("one end: a city", default="")
    to: Name = param("the other end: a city", default="")


@section
@attrs.frozen
class TrackSpec:
    """A space of the artwork track, lowest first: one [[track]] table."""

    threat: int = param("the agents' threat while this is the first free space (R15)", lo=0,
                        ruling="R15")
    ally_cost: int = param("ally_resource to unlock the next ally die while it is (R17)",
                           lo=0, ruling="R17")
    symbol: Name | None = param("the artwork this space takes, for a track that demands an "
                                "order", default=None)


@section
@attrs.frozen
class PropertySpec:
    """A property the mission promises: one [[property]] table (docs/verification.md)."""

    name: str = param("what the property says, in words")
    check: Dsl = param("must hold after every decision", dsl="expr")


RoadAttr = str | int | bool  # a road's own attribute (thread = "red"), read by move_cost


@section
@attrs.frozen
class Ramp:
    """`threat = { first = [2, 4], last = [10, 14] }`: the spaces between lie on a line."""

    first: Range = param("the first space's value: its lowest and highest")
    last: Range = param("the last space's value: its lowest and highest")


_RAMP: Final = "a ramp: { first = [low, high], last = [low, high] }"


@section
@attrs.frozen
class TuneTrack:
    """The artwork track's numbers, each a ramp from its first space to its last."""

    threat: Ramp | None = param("the spaces' threat (R15)", ruling="R15", default=None,
                                expects=_RAMP)
    ally_cost: Ramp | None = param("the spaces' ally cost (R17)", ruling="R17", default=None,
                                   expects=_RAMP)


_TUNED: Final = ("a whole-number parameter of [{0}] and its range: NAME = [low, high]; the "
                 "range within what [{0}] accepts")


@section
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


@attrs.frozen
class MissionSpec:
    """A mission, base or variant file, merged with everything it extends."""

    name: str = param("the mission's name (default: the file's name)", default="")
    title: str = param("the title shown to players", default="")
    about: str = param("one line about the file", default="")
    extends: str | None = param("the mission this file builds on: a shipped name or a path "
                                "relative to this file", default=None)
    cards: str = param("the card file: a shipped name or a path", default="")
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
    errors: list[Exception] = []
    out: dict[str, Any] = {}
    for k, v in value.items():
        try:
            if k in ("from", "to"):
                out[k] = _check(v, str, None)  # a city's name: the loader looks it up
                continue
            _check(k, Name, None)
            if isinstance(v, dict | list) or (isinstance(v, float) and not math.isfinite(v)):
                raise Wrong(f"a road attribute is text, a whole number or true/false, not "
                            f"{what(v)}")
            out[k] = _check(v, int, None) if isinstance(v, int | float) and not isinstance(
                v, bool) else v
        except Wrong as exc:
            exc.__notes__ = [IterableValidationNote(f"@ key {k!r}", k, str)]
            errors.append(exc)
    for k in ("from", "to"):
        if k not in value:
            missing = Wrong(f"missing: a road needs '{k}' = a city name")
            missing.__notes__ = [IterableValidationNote(f"@ key {k!r}", k, str)]
            errors.append(missing)
    if errors:
        raise IterableValidationError("While structuring a road", errors, dict)
    return out


def _roads(value: Any, _: Any) -> tuple[dict[str, Any], ...]:
    if not isinstance(value, list):
        raise Wrong(f"expected a list of tables ([[road]]), not {what(value)}")
    out, errors = [], []
    for i, x in enumerate(value):
        try:
            out.append(_road_hook(x, None))
        except Exception as exc:
            exc.__notes__ = [*getattr(exc, "__notes__", []),
                             IterableValidationNote(f"@ index {i}", i, dict)]
            errors.append(exc)
    if errors:
        raise IterableValidationError("While structuring the roads", errors, list)
    return tuple(out)


# A road's extra keys are its attributes, not mistakes: the roads have their own hook.
_resolve_types(MissionSpec)
CONVERTER.register_structure_hook(MissionSpec, _section_hook(MissionSpec, {"road": _roads}))


# The sections of rule parameters (every one has its value in missions/base.toml).
PARAMETERS: Final = (Components, Setup, RuleParams, Solo)


# ====================================================================== card files
@section
@attrs.frozen
class FinalSpec:
    """The final card: [final]."""

    id: int = param("the final card's number", lo=0)
    title: str = param("its title", default="Final card")


@section
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


@section
@attrs.frozen
class CardFile:
    """A card file (cards/*.toml)."""

    about: str = param("one line about the file", default="")
    final: FinalSpec | None = param("[final]: the final card", default=None)
    card: tuple[CardSpec, ...] = param("the mission cards: [[card]] tables", factory=tuple)


# ====================================================================== positions
# A player's entry: a list (p1 first) or a table by player (`p2 = ...`; `ally` for the solo
# ally pawn where the entry allows it).
PerPlayer = list[T] | dict[str, T]


@section
@attrs.frozen
class PositionSpec:
    """A position: any part of a game's state (scenarios' [position], saves' start)."""

    round: int | None = param("the round", lo=1, default=None)
    van: dict[Name, int] | None = param("resources in the van, at most resource_tokens each",
                                        lo=0, default=None)
    health: list[int] | dict[str, int] | None = param(
        "each player's health", lo=1, default=None,
        expects="a list of whole numbers from 1, p1 first, or a table of pN = health")
    pawns: list[str] | dict[str, str] | None = param(
        "each pawn's city (`ally`: the solo ally pawn)", default=None,
        expects="a list of cities, p1 first, or a table of pN (or ally) = city")
    agents: dict[str, int] | None = param("agents in cities, by city", lo=0, default=None,
                                          expects="a table of city = whole number from 0")
    hq: int | None = param("agents in the White Hand's headquarters", lo=0, default=None)
    artworks: list[str] | None = param("the cities holding an artwork", default=None,
                                       expects="a list of cities")
    lost: list[str] | None = param("the lost cities (their agents are cleared)", default=None,
                                   expects="a list of cities")
    track: list[str] | None = param("artwork symbols already on the track, in order",
                                    default=None, expects="a list of artwork symbols")
    allies: int | None = param("ally dice unlocked", lo=0, default=None)
    hands: list[list[int]] | dict[str, list[int]] | None = param(
        "each player's hand, by card number", lo=0, default=None,
        expects="a list of lists of card numbers, p1 first, or a table of pN = card numbers")
    chain: list[int] | None = param("the team's clue chain by card number, oldest first",
                                    lo=0, default=None)
    chains: dict[str, list[int]] | None = param(
        "each player's clue chain (clue_chains = \"per_player\")", lo=0, default=None,
        expects="a table of pN = card numbers")
    deck_top: list[int] | None = param("cards on top of the deck, the first listed drawn "
                                       "first", lo=0, default=None)
    discard: list[int] | None = param("cards in the discard pile", lo=0, default=None)
    final_round: bool | None = param("the final card has been drawn (R20)", default=None)
    dice: list[int] | None = param("the next dice results, before the seeded generator",
                                   lo=1, hi=100, default=None)
    carried: list[str] | None = param("the pawns carrying an artwork (R23)", default=None,
                                      expects="a list of pN (or ally)")


# ====================================================================== scenarios
@section
@attrs.frozen
class StepSpec:
    """A step of a scenario: one [[step]] table."""

    do: str | None = param("an action to apply; the scenario fails if it is refused",
                           default=None, expects="an action in the notation")
    refuse: str | None = param("an action that must be refused, leaving the state untouched",
                               default=None, expects="an action in the notation")
    reason: str | None = param("text the refusal's message must contain", default=None)
    pay_health: tuple[str, ...] | None = param(
        "the players who pay health for missing resources in the step, in order (R4, R5)",
        default=None, expects="a list of pN")
    expect: tuple[Dsl, ...] = param("expressions that must hold after the step", dsl="expr",
                                    factory=tuple)
    events: tuple[str, ...] = param("whole events that must be logged in the step",
                                    factory=tuple)
    not_events: tuple[str, ...] = param("whole events that must not be logged",
                                        factory=tuple)
    events_like: tuple[str, ...] = param("texts some event of the step must contain",
                                         factory=tuple)
    not_events_like: tuple[str, ...] = param("texts no event of the step may contain",
                                             factory=tuple)
    legal: tuple[str, ...] = param("actions that must be legal after the step",
                                   factory=tuple, expects="a list of actions")
    illegal: tuple[str, ...] = param("actions that must not be legal after the step",
                                     factory=tuple, expects="a list of actions")
    note: str = param("what the step shows", default="")


@section
@attrs.frozen
class ScenarioSpec:
    """A scenario file (docs/scenarios.md)."""

    about: str = param("one line: what the scenario proves", default="")
    cites: tuple[str, ...] = param("the rulebook passages and rulings it checks",
                                   factory=tuple)
    mission: str = param("a shipped mission's name or a path (relative to the scenario)",
                         default=DEFAULT)
    variants: tuple[str, ...] = param("variants to layer on the mission: names or paths",
                                      factory=tuple)
    cards: str | None = param("a card file to play with instead of the mission's (relative "
                              "to the scenario)", default=None)
    players: int = param("the team's size", lo=1, hi=6, default=2)
    difficulty: str = param("the difficulty, one of the mission's", default="medium")
    seed: int = param("the seed of the game's dice and draws", lo=-(2**63), hi=2**64 - 1,
                      default=0, expects="a whole number (64 bits)")
    phase: str = param("where the round starts: mission (with the boundary before it), or "
                       "in the phase itself", choices=PHASES, default="mission")
    position: PositionSpec | None = param("[position]: any part of the state, below",
                                          default=None, expects="a table (below)")
    step: tuple[StepSpec, ...] = param("[[step]]: the steps, in order", factory=tuple)
    invariants: bool = param("check the game's invariants after every step", default=False)
    properties: bool = param("check the mission's properties after every step",
                             default=False)


# How an unknown key of each section is called in an error.
KEY_WORDS: Final[dict[type[Any], str]] = {
    **dict.fromkeys(PARAMETERS, "rule parameter"), PositionSpec: "position entry",
    StepSpec: "step key", TuneSpec: "[tune] section", TuneTrack: "track number"}


# ====================================================================== saves
SAVE_FORMAT: Final = "artproject-save"


@section
@attrs.frozen
class StartSpec:
    """How a game from a set position began: [start]."""

    phase: str = param("the phase the first round started in", choices=PHASES,
                       default="mission")
    position: PositionSpec | None = param("the position set before play "
                                          "(docs/scenarios.md)", default=None,
                                          expects="a table ([position] below)")


@section
@attrs.frozen
class SaveSpec:
    """A save file, JSON or TOML (`save FILE` in play, `save_game`)."""

    format: str = param(f'always "{SAVE_FORMAT}"', choices=(SAVE_FORMAT,))
    version: int = param("the save format's version", lo=1)
    mission: str = param("a shipped mission's name, or its file's path relative to the save")
    variants: tuple[str, ...] = param("the variants, named the same way")
    players: int = param("the team's size", lo=1, hi=6)
    difficulty: str = param("the difficulty, one of the mission's")
    seed: int = param("the seed of the game's dice and draws", lo=-(2**63), hi=2**64 - 1,
                      expects="a whole number (64 bits)")
    actions: tuple[str, ...] = param("every decision taken, in the action notation")
    digest: str | None = param("a digest of the final state: loading replays the actions "
                               "and compares; a save without it loads only with --trust",
                               default=None)
    start: StartSpec | None = param("[start]: the set position the game began from",
                                    default=None)


# ====================================================================== the reference
# The sections of each kind of file, in the order the reference lists them.
MISSION_SECTIONS: Final[tuple[tuple[str, type[Any]], ...]] = (
    ("top", MissionSpec), ("[components]", Components), ("[setup]", Setup),
    ("[rules]", RuleParams), ("[solo]", Solo), ("[[city]]", CitySpec),
    ("[[road]]", RoadEnds), ("[[track]]", TrackSpec), ("[[property]]", PropertySpec),
    ("[tune]", TuneSpec), ("[tune.track]", TuneTrack), ("[tune.track] ramps", Ramp))
CARD_SECTIONS: Final[tuple[tuple[str, type[Any]], ...]] = (
    ("top", CardFile), ("[final]", FinalSpec), ("[[card]]", CardSpec))
SAVE_SECTIONS: Final[tuple[tuple[str, type[Any]], ...]] = (
    ("top", SaveSpec), ("[start]", StartSpec))
SCENARIO_SECTIONS: Final[tuple[tuple[str, type[Any]], ...]] = (
    ("top", ScenarioSpec), ("[[step]]", StepSpec), ("[position]", PositionSpec))


def fields_of(cls: type[Any]) -> list[tuple[str, str, Param, str]]:
    """(key, what it expects, declaration, default) for every key of a section, in order."""
    out = []
    for f in attrs.fields(cls):
        p = declaration(f)
        if f.default is attrs.NOTHING:
            default = "required"
        elif isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
            default = "empty"
        elif f.default is None:
            default = "none"
        else:
            default = f"`{_toml(f.default)}`"
        out.append((f.name.rstrip("_"), describe(f.type, p), p, default))
    return out


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return f'"{v}"' if isinstance(v, str) else str(v)


def params_of(cls: type[Any]) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(cls))
