"""The words of a scenario's checks, in every game: besides a game's own words, who decides
now (`deciding`: a player, the team, chance or nobody) and what a player sees, read only
from the game's `observation` and `information_state` (`view`, `shows`, `knows`); a game
adds words of its own for checks (`CheckWords`, from its `scenario_checker`).
`fact_compiler` compiles a scenario's facts with them (docs/scenarios.md); the runner is
scenario.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

import attrs

from ..dsl import ast as dsl
from ..dsl.words import UNKNOWN, Code, Words
from .actions import CHANCE, TEAM, TERMINAL
from .errors import RulesErrors, closest
from .machine import Machine

if TYPE_CHECKING:
    from ..dsl.compiler import Compiler

Fact = tuple[Callable[..., Any], Any, Any, str]  # a fact, its two sides (if a comparison)


# ====================================================================== the checks' words
# Who a `player` value names besides p1, p2...: the players together (a decision of the
# whole team), chance (a chance node), nobody (the game is over; a drawn game's winner).
SEATS: Final = {"team": TEAM, "chance": CHANCE, "nobody": TERMINAL}


def seat_name(value: Any) -> Any:
    """A `player` value as a check shows it: p2, team, chance, nobody."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value >= 0:
            return f"p{value + 1}"
        return next((k for k, x in SEATS.items() if x == value), value)
    return value


@attrs.frozen
class CheckWords:
    """A game's words for scenario checks only, beside the words of its rules: names (name
    -> (kind, Python reading `st`)), functions (name -> the DSL's `Sig`) and the helpers
    their Python calls (docs/scenarios.md)."""

    names: Mapping[str, tuple[str, str]] = attrs.Factory(dict)
    calls: Mapping[str, Any] = attrs.Factory(dict)
    env: Mapping[str, Any] = attrs.Factory(dict)


def _at(value: Any, path: str) -> Any:
    """The part of a view at a dotted path (`a.p2.x`; a list by its index), "" if none."""
    for part in path.split("."):
        if isinstance(value, dict):
            value = value.get(part)
        elif isinstance(value, list | tuple) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return ""
    return "" if value is None else value


def _view(st: Machine, player: int, path: str) -> Any:
    """What `player`'s observation shows at `path` (only what the game lets them see)."""
    return _at(st.observation(player), path)


def _shows(st: Machine, player: int, path: str, x: Any) -> bool:
    """Whether `player`'s view at `path` holds `x`: a list with it, a table with it as a
    key, or that value itself."""
    v = _view(st, player, path)
    if isinstance(v, list | tuple):
        return x in v
    if isinstance(v, dict):
        return str(x) in v
    return bool(v == x)


def _knows(st: Machine, player: int, text: str) -> bool:
    """Whether `player`'s information state holds `text`: an action or chance event as
    they saw it (another's secret as the game shows it to them)."""
    return text in (str(x) for x in st.information_state(player)[3])


# the kernel's words in every game's checks: who decides now, and what a player sees
_NAMES: Final = {"deciding": ("player", "st.current_player()"),
                 **{k: ("player", str(v)) for k, v in SEATS.items()}}
_ANY: Final = ("int", "str", "bool", "player")
_SEES: Final = {"view": ((("player",), ("str",)), "?", "_scn_view(st, {0}, {1})"),
                "shows": ((("player",), ("str",), _ANY), "bool",
                          "_scn_shows(st, {0}, {1}, {2})"),
                "knows": ((("player",), ("str",)), "bool", "_scn_knows(st, {0}, {1})")}
_ENV: Final = {"_scn_view": _view, "_scn_shows": _shows, "_scn_knows": _knows,
               "_scn_seat": seat_name}


def _view_keys(st: Machine) -> tuple[str, ...] | None:
    """The entries of a player's view (to check a path's first part), None if unknown."""
    try:
        return tuple(st.observation(0))
    except Exception:  # a game not ready to show itself before it starts: no check
        return None


class CheckedWords(Words):
    """A game's `words` for its scenario checks: the kernel's check words and the game's own
    (`own`) added, a game's own winning over the kernel's and a name its rules know keeping
    its meaning there; a player beyond the game's count refused."""

    def __init__(self, words: Words, st: Machine, own: CheckWords) -> None:
        self.base = words
        self.game, self.statements, self.events = words.game, words.statements, words.events
        self.hidden, self.players = words.hidden, words.players
        self.facade, self.rules = words.facade, words.rules
        self.extra = {**_NAMES, **own.names}
        self.names = {**words.names, **self.extra}
        self.calls = {**words.calls, **_SEES, **own.calls}
        self.env = {**words.env, **_ENV, **own.env}
        self.count, self.entries = st.num_players(), _view_keys(st)

    def ref(self, comp: Compiler, e: dsl.Ref, bound: frozenset[str]) -> Code:
        head = e.parts[0]
        if len(e.parts) == 1 and head not in bound:
            if head in self.players and self.players.index(head) >= self.count:
                comp.err(f"no player {head!r} in a {self.count}-player game", e)
                return UNKNOWN
            if head in self.extra and head not in self.base.known(comp, bound):
                return self.extra[head][1], self.extra[head][0]
        return self.base.ref(comp, e, bound)

    def known(self, comp: Compiler, bound: frozenset[str]) -> list[str]:
        return [*self.base.known(comp, bound), *self.extra]

    def call(self, comp: Compiler, e: dsl.Call, bound: frozenset[str]) -> Code:
        if e.name not in _SEES or e.name in self.base.calls:
            return self.base.call(comp, e, bound)
        found = comp.call_args(e, bound)
        if found is None:
            return UNKNOWN
        codes, sig = found
        path = e.args[1] if e.name != "knows" else None
        head = path.value.split(".")[0] if isinstance(path, dsl.Str) else None
        if head is not None and self.entries is not None and head not in self.entries:
            comp.err(f"a player's view has no {head!r}" + closest(head, self.entries)
                     + "; it has: " + ", ".join(self.entries), path)
        if e.name == "shows" and comp.expr_code(e.args[2], bound)[1] == "player":
            codes[2] = f"_scn_seat({codes[2]})"  # a view names a player p2
        return sig[2].format(*codes), sig[1]

    def statement(self, comp: Compiler, s: dsl.Stmt, bound: frozenset[str]) -> str:
        return self.base.statement(comp, s, bound)


def fact_compiler(scope: Any, words: Any, st: Machine,
                  own: CheckWords | None = None) -> Callable[[str, Any], Fact]:
    """compile(text, origin) -> (fact, left, right, left text): a scenario's facts (DSL
    expressions) compiled in a game's `scope` with its `words` and its check words (`own`)
    for `st` (a game's `scenario_checker`); a comparison's two sides too, for the runner to
    show what each side was (a player by name)."""
    from ..dsl.compiler import Compiler
    from ..dsl.printer import expr as show_expr

    comp = Compiler(scope, CheckedWords(words, st, own or CheckWords()))

    def side(node: Any) -> Callable[..., Any]:
        fn = comp.expr_node(node)
        if comp.expr_code(node, frozenset())[1] != "player":
            return fn
        return lambda st, ctx: seat_name(fn(st, ctx))

    def compile_fact(text: str, origin: Any) -> Fact:
        tree = comp.parse(text, "expr", origin)
        fn = comp.expr_node(tree, condition=True) if tree is not None else None
        if comp.errors or fn is None:  # this text's mistakes, each; none left for the next
            found, comp.errors[:] = list(comp.errors), []
            raise found[0] if len(found) == 1 else RulesErrors(found)
        left = right = None
        left_text = ""
        if isinstance(tree, dsl.Binary) and tree.op in ("==", "!=", "<", "<=", ">", ">="):
            left, right = side(tree.left), side(tree.right)
            left_text = show_expr(tree.left)
        return fn, left, right, left_text
    return compile_fact
