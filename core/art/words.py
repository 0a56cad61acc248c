"""The A.R.T. Project's words in the effect DSL (docs/dsl.md): its events, its names and
functions, its statements (gain, pay, lose, place, win, defeat, for each) and the helpers the
generated code calls. The compiler (dsl/compiler.py) is every game's; these declarations
are this game's (dsl/words.py). The code made touches a state only through `RuleState`
(facade.py), checked by tests/test_kernel.py.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from ...dsl import ast as a
from ...dsl.compiler import MULTIPLIER, keywords
from ...dsl.words import DEFAULT, UNKNOWN, Code, Words
from ..errors import closest
from .facade import RuleState
from .position import CARD_PLACES, card_place, deck_card, final_from_bottom, final_from_top
from .rules import Ctx, Hook

if TYPE_CHECKING:
    from ...dsl.compiler import Compiler

# Events the core announces; `ctx` names what a hook may read about the event.
EVENTS: Final = {
    "round_start": "a round begins (before its first phase boundary)",
    "mission_end": "every mission card of the round has been played",
    "movement_end": "the team has finished moving (before collection)",
    "artwork_uncovered": "an artwork is placed on `city`",
    "artwork_collected": "the artwork of `city` goes onto the track",
    "battle_won": "the team won the battle in `city`",
    "battle_lost": "the team conceded the battle in `city`",
    "city_lost": "`city` has just become lost",
    "round_end": "the round ends: after lost cities, before the final-round check (R27)",
}
HOOK: Final = "(a hook)"  # in what a hook's text binds: it runs for no player (no name)
PLAYER_NAMES: Final = tuple(f"p{i}" for i in range(1, 7))
_EXTRA_KINDS: Final = {"health", "resource", "clue"}
# Names readable in any expression, with their type and the Python that reads them.
_STATE_REFS: Final[dict[str, tuple[str, str]]] = {
    "threat": ("int", "st.threat()"),
    "ally_cost": ("int", "st.ally_cost()"),
    "round": ("int", "st.round"),
    "hq": ("int", "st.hq"),
    "allies": ("int", "st.allies"),
    "track": ("int", "len(st.track)"),
    "lost_cities": ("int", "sum(st.lost)"),
    "deck": ("int", "st.deck_size()"),
    "players": ("int", "st.players"),
    "health": ("int", "sum(st.health)"),
    "final_round": ("bool", "st.final_round"),
    "artworks": ("int", "sum(st.artworks)"),
    "chain": ("int", "sum(map(len, st.chains))"),
    "discard": ("int", "len(st.discard)"),
    # the final card's place in the deck (13th from the bottom at setup, R3; 0 once drawn)
    "final_from_bottom": ("int", "_final_from_bottom(st)"),
    "final_from_top": ("int", "_final_from_top(st)"),
    "strength": ("int", "st.strength()"),
    "agent_strength": ("int", "(0 if st.battle is None else st.agent_strength(st.battle.city))"),
    "outcome": ("str", "(st.outcome or '')"),
    "phase": ("str", "st.phase"),
    "wait": ("str", "st.wait_name()"),
}
_RESERVE_KINDS: Final = ("health", "agent", "artwork", "marker", "ally")
# what only a check may read (the deck's order, where each card lies): not a rule's business
_HIDDEN: Final = frozenset({"card()", "deck_top()", "final_from_bottom", "final_from_top"})

# Words the DSL reads as something else: a city, symbol or resource may not be named so
# (a city named `hq` would read as the headquarters, one named `p1` as a player).
RESERVED: Final = (keywords() | set(_STATE_REFS) | set(PLAYER_NAMES) | _EXTRA_KINDS
                   | {"van", "reserve", "road", "city", "player", "ally", "resources", "clues",
                      "heading", "from", "to"})


def _agents(st: RuleState, c: int) -> int:
    return int(st.agents[c]) if c >= 0 else int(st.hq)


def _on_track(st: RuleState, x: Any) -> bool:
    sym = st.rules.cities[x].symbol if isinstance(x, int) else x
    return sym in st.track


# function -> (argument kinds, result kind, Python template over the arguments' code)
_CALLS: Final[dict[str, tuple[tuple[tuple[str, ...], ...], str, str]]] = {
    "agents": ((("city",),), "int", "_agents(st, {0})"),
    "pawns": ((("city",),), "int", "st.pawns.count({0})"),
    "artwork": ((("city",),), "bool", "st.artwork_at({0})"),
    "symbol": ((("city",),), "str", "(st.rules.cities[{0}].symbol or '')"),
    "lost": ((("city",),), "bool", "bool(st.lost[{0}])"),
    "on_track": ((("city", "str"),), "bool", "_on_track(st, {0})"),
    "health": ((("player",),), "int", "(st.health[{0}] if {0} < st.players else 0)"),
    "hand": ((("player",),), "int", "(len(st.hands[{0}]) if {0} < st.players else 0)"),
    "moved": ((("player",),), "bool", "({0} in st.moved)"),
    "at": ((("player",), ("city",)), "bool", "(st.pawns[{0}] == {1})"),
    "clues": ((("str",),), "int", "st.clue_count({0})"),
    # cards by number: where one lies ("deck", "hand p1", "chain" or "chain p2", "discard",
    # "removed"), and the nth card from the top of the deck where known (-1 where not)
    "card": ((("int",),), "str", "_card_place(st, {0})"),
    "deck_top": ((("int",),), "int", "_deck_card(st, {0})"),
    "min": ((("int",), ("int",)), "int", "min({0}, {1})"),
    "max": ((("int",), ("int",)), "int", "max({0}, {1})"),
}


class ArtWords(Words):
    """The A.R.T. Project's vocabulary; its scope (`Compiler.scope`) is the loaded board's
    (dsl.compiler.Scope: resources, symbols, cities, road attributes)."""

    game = "The A.R.T. Project"
    names = _STATE_REFS
    calls = _CALLS
    events = EVENTS
    hidden = _HIDDEN
    players = PLAYER_NAMES
    # the helpers the generated code calls (in this order: it numbers the code's constants)
    env = MappingProxyType({"_agents": _agents, "_on_track": _on_track,
                            "_card_place": card_place, "_deck_card": deck_card,
                            "_final_from_bottom": final_from_bottom,
                            "_final_from_top": final_from_top})
    facade = RuleState
    rules = "a mission's rules"

    def bound_by(self, event: str) -> frozenset[str]:
        """What a hook's text may name (`city`, for an event about one), and HOOK: the text
        runs for no player (`for each other player` has no one to leave out)."""
        return frozenset({"city", HOOK}) if "city" in EVENTS.get(event, "") else \
            frozenset({HOOK})

    def hook(self, event: str, cond: Any, ops: tuple[Any, ...], text: str) -> Hook:
        return Hook(event, cond, ops, text)

    # ---- names ------------------------------------------------------------------
    def ref(self, comp: Compiler, e: a.Ref, bound: frozenset[str]) -> Code:
        head, rest = e.parts[0], e.parts[1:]
        sc = comp.scope
        if head == "van" and len(rest) == 1:
            if rest[0] in sc.resources:
                return f"st.van[{sc.resources.index(rest[0])}]", "int"
            comp.err(f"unknown resource {rest[0]!r}" + closest(rest[0], sc.resources), e)
            return UNKNOWN
        if head == "reserve" and len(rest) == 1:
            return _reserve(comp, e, rest[0])
        if head == "road" and len(rest) == 1:
            return _road(comp, e, rest[0], bound)
        if rest:
            comp.err(f"unknown name {'.'.join(e.parts)!r}", e)
            return UNKNOWN
        if head in bound and head in ("city", "player"):
            return f"ctx.{head}", head
        if head in _STATE_REFS:
            return _state_ref(comp, e, head)
        if head in sc.cities:
            return str(sc.cities[head]), "city"
        if head in sc.symbols:
            return repr(head), "str"
        if head in PLAYER_NAMES:
            return str(PLAYER_NAMES.index(head)), "player"
        comp.err(f"unknown name {head!r}" + closest(head, self.known(comp, bound)), e)
        return UNKNOWN

    def known(self, comp: Compiler, bound: frozenset[str]) -> list[str]:
        sc = comp.scope
        return [*_STATE_REFS, *sc.cities, *sc.symbols, *bound, "van", "reserve"]

    def call(self, comp: Compiler, e: a.Call, bound: frozenset[str]) -> Code:
        if e.name == "agents" and e.args == (a.Ref(("hq",)),):
            return "st.hq", "int"
        found = comp.call_args(e, bound)
        if found is None:
            return UNKNOWN
        codes, sig = found
        if e.name == "agents" and codes[0].isdigit():
            return f"st.agents[{codes[0]}]", "int"  # a named city: a plain index
        if e.name == "symbol":
            comp.note_values(e, frozenset({*comp.scope.symbols, ""}),
                             "the symbols")
        elif e.name == "card":
            comp.note_values(e, CARD_PLACES, "the places of a card")
        return sig[2].format(*codes), sig[1]

    # ---- statements ---------------------------------------------------------------
    def statement(self, comp: Compiler, s: a.Stmt, bound: frozenset[str]) -> str:
        res = comp.scope.resources
        if isinstance(s, a.Gain | a.Pay):
            pairs = tuple((comp.kind(x, (*res, "health")), x.count) for x in s.amounts)
            verb = "gain_all" if isinstance(s, a.Gain) else "pay_all"
            return f"st.{verb}({comp.const(pairs)}, ctx)"
        if isinstance(s, a.Lose):
            kinds = (*res, *sorted(_EXTRA_KINDS))
            pairs = tuple((comp.kind(x, kinds), x.count) for x in s.amounts)
            return f"st.lose_all({comp.const(pairs)}, ctx)"
        if isinstance(s, a.Place):
            return _place(comp, s, bound)
        if isinstance(s, a.EndGame):
            reason = s.reason or ("the rules say the team wins" if s.won else "the rules say so")
            return f"st.end_game({s.won}, {reason!r})"
        if isinstance(s, a.ForEach):
            return _for_each(comp, s, bound)
        return super().statement(comp, s, bound)


def _state_ref(comp: Compiler, e: a.Ref, head: str) -> Code:
    """A name of the state's (`threat`, `outcome`): its code and kind; the only texts it
    can take noted (`note_values`) where the game's tables tell them."""
    comp.hidden(head, e)
    kind, code = _STATE_REFS[head]
    if head in _READS:
        comp.note_values(e, *_READS[head]())
    return code, kind


def _reserve(comp: Compiler, e: a.Ref, name: str) -> Code:
    sc = comp.scope
    shown = name
    if name.endswith("s") and name[:-1] in (*sc.resources, *_RESERVE_KINDS):
        name = name[:-1]
    if name in (*sc.resources, *_RESERVE_KINDS):
        return f"st.reserve({name!r})", "int"
    comp.err(f"unknown reserve {shown!r}" + closest(shown, (*sc.resources, *_RESERVE_KINDS)), e)
    return UNKNOWN


def _road(comp: Compiler, e: a.Ref, attr: str, bound: frozenset[str]) -> Code:
    if "road" not in bound:
        comp.err("'road' is only known in a movement cost", e)
    if attr == "heading":
        comp.note_values(e, HEADINGS, "the headings")
        return "(ctx.road.heading if ctx.road else None)", "str"
    if attr in ("from", "to"):
        comp.note_values(e, frozenset(comp.scope.cities), "the cities")
        end = "src" if attr == "from" else "dst"
        return f"(st.rules.cities[ctx.road.{end}].name if ctx.road else None)", "str"
    if attr not in comp.scope.road_attrs:
        comp.err(f"no road has the attribute {attr!r}"
                 + closest(attr, (*comp.scope.road_attrs, "heading", "from", "to")), e)
        return UNKNOWN
    values = comp.scope.road_attrs[attr]
    kind = "?"
    if values is not None:  # (a road without it reads None: equal to no constant)
        comp.note_values(e, values, f"the values of the roads' {attr!r}")
        kinds = {_KINDS.get(type(v), "?") for v in values}
        kind = kinds.pop() if len(kinds) == 1 else "?"
    return f"(ctx.road.attrs.get({attr!r}) if ctx.road else None)", kind


# The texts the game's own tables can give a name or function read (`note_values`): a
# comparison with any other text is an error, not a condition that never holds (or always).
def _outcomes() -> tuple[frozenset[str], str]:
    from .effects import OUTCOMES

    return frozenset({*OUTCOMES, ""}), "the outcomes"


def _phases() -> tuple[frozenset[str], str]:
    from .round import PHASES as ROUND
    from .tensors import PHASES  # every phase a state is in (setup ... over), and the
    # boundary before each of the round's (round.py: `op_boundary`'s "before movement")

    return frozenset({*PHASES, *(f"before {p}" for p in ROUND)}), "the phases"


def _waits() -> tuple[frozenset[str], str]:
    from . import state  # noqa: F401  (every rule module's decision kinds declared)
    from .registry import REG

    return frozenset({*REG.kinds, ""}), "the decisions"


_READS: Final = {"outcome": _outcomes, "phase": _phases, "wait": _waits}
HEADINGS: Final = frozenset({"north", "south", "east", "west"})  # (build.py `_heading`'s)
_KINDS: Final = {bool: "bool", int: "int", str: "str"}  # a road attribute's kind by its type


def _city(comp: Compiler, name: str, node: Any, allow_symbol: bool = True) -> tuple[int, ...]:
    sc = comp.scope
    if name in sc.cities:
        return (sc.cities[name],)
    if allow_symbol and name in sc.symbols:
        return tuple(sc.cities_of.get(name, ()))
    known = list(sc.cities) + (list(sc.symbols) if allow_symbol else [])
    comp.err(f"unknown city {name!r}" + closest(name, known), node)
    return ()


def _place(comp: Compiler, s: a.Place, bound: frozenset[str]) -> str:
    n = s.count
    if s.where == "@hq":
        return f"st.place_agents((-1,), {n}, ctx)"
    if s.where == "@every":
        return f"st.place_agents(st.every_city, {n}, ctx)"
    if s.where == "@every_other":
        if "city" not in bound:
            comp.err("'every other city' needs an event about a city", s)
        return f"st.place_agents(tuple(c for c in st.every_city if c != ctx.city), {n}, ctx)"
    if s.where == "city" and "city" in bound:
        return f"st.place_agents((ctx.city,), {n}, ctx)"
    return f"st.place_agents({comp.const(_city(comp, s.where, s))}, {n}, ctx)"


def _for_each(comp: Compiler, s: a.ForEach, bound: frozenset[str]) -> str:
    inner = bound | {"player"}
    city = -1
    if s.city is not None:
        found = _city(comp, s.city, s, allow_symbol=False)
        city = found[0] if found else -1
    body = comp.const(comp.stmt(s.body, inner))
    cond = "True"
    if s.cond is not None:
        cond = comp.const(comp.fn("st, ctx", "return " + comp.condition_code(s.cond, inner)))
        cond += "(st, _c)"
    at = "True" if city < 0 else f"st.pawns[_p] == {city}"
    if s.others and HOOK in bound and "player" not in bound:
        comp.err("'for each other player' in a hook: a hook runs for no player, so no one "
                 "is left out; write 'for each player'", s)
    if s.others:  # every player but the one the text runs for
        at = "_p != ctx.player" if city < 0 else f"{at} and _p != ctx.player"
    ctx_cls = comp.const(Ctx)
    return (f"_items = []\nfor _p in range(st.players):\n    if {at}:\n"
            f"        _c = {ctx_cls}(_p, ctx.city, ctx.road)\n"
            f"        if {cond}:\n            _items.append(({body}, _c))\n"
            "st.push_many(_items)")


WORDS: Final = ArtWords()
DEFAULT[:] = [WORDS]  # the default game's: a Compiler made without words uses these
__all__ = ["EVENTS", "MULTIPLIER", "PLAYER_NAMES", "RESERVED", "WORDS", "ArtWords"]
