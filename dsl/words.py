"""A game's words in the effect DSL: the vocabulary each game declares once.

The grammar (effects.lark) and the compiler (compiler.py) are the same for every game; what
a name, a function or a statement means is the game's. A game declares its `Words`: its
plain quantities (`names`), its functions (`calls`), its call statements (`statements`,
such as `steal(1)`), its events, its players' names, the helpers the generated code may
call (`env`) and the typed facade that code may touch (`facade`, a Protocol: a test reads
every function the compiler makes and checks it reads no other name of a state). The
statements with words of their own (`gain 2 fuel`, `for each other player do ...`) are
compiled by the game's `statement`; names the game reads from its rules (a board's cities,
a deck's cards) by its `ref`.

The A.R.T. Project's words are core/art/words.py; Art of War's core/aow/words.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import ast as a

if TYPE_CHECKING:
    from .compiler import Compiler

# A function or call statement: the kinds each argument may have, the kind of the result
# ("" for a statement), and Python over the facade with {0}, {1}... for the arguments' code.
Sig = tuple[tuple[tuple[str, ...], ...], str, str]
Code = tuple[str, str]  # Python source of an expression, and its kind (int, bool, str, ...)
UNKNOWN: Code = ("None", "?")
# The default game's words, for a Compiler made without any: that game gives them when its
# words are imported (core/art/words.py), so the DSL imports no game.
DEFAULT: list[Words] = []


class Words:
    """A game's vocabulary (see the module's text): class attributes and a few methods a game
    overrides; the defaults know nothing beyond the declared tables."""

    game: str = ""
    names: Mapping[str, Code] = {}  # a plain name: (kind, Python) -- note the order
    calls: Mapping[str, Sig] = {}
    statements: Mapping[str, Sig] = {}
    events: Mapping[str, str] = {}  # a hook's event and when it happens
    hidden: frozenset[str] = frozenset()  # names and `f()` only checks may read
    players: tuple[str, ...] = ()  # p1, p2, ...: a player's index in the notation
    env: Mapping[str, Any] = {}  # helpers the generated code calls (in its globals)
    facade: Any = None  # the Protocol naming what compiled code may touch on a state
    rules: str = "the game's rules"  # what a rule text is, in errors ("a mission's rules")

    def bound_by(self, event: str) -> frozenset[str]:
        """The names a hook on `event` binds (its context)."""
        return frozenset()

    def ref(self, comp: Compiler, e: a.Ref, bound: frozenset[str]) -> Code:
        """A name (or dotted name) in an expression: the game's own, else the common ones."""
        return comp.plain_ref(e, bound)

    def known(self, comp: Compiler, bound: frozenset[str]) -> list[str]:
        """Every name an expression may use here (for 'did you mean')."""
        return [*self.names, *bound, *self.players]

    def call(self, comp: Compiler, e: a.Call, bound: frozenset[str]) -> Code:
        """A function call in an expression (a game may add forms of its own)."""
        found = comp.call_args(e, bound)
        if found is None:
            return UNKNOWN
        codes, sig = found
        return sig[2].format(*codes), sig[1]

    def hook(self, event: str, cond: Any, ops: tuple[Any, ...], text: str) -> Any:
        """A compiled hook as the game keeps it (its event, condition, steps and text)."""
        return (event, cond, ops, text)

    def statement(self, comp: Compiler, s: a.Stmt, bound: frozenset[str]) -> str:
        """Python for a statement with words of its own (gain, pay, lose, place, win,
        defeat, for each); a game refuses those it does not have."""
        comp.err(f"{_stmt_word(s)} is not a statement of {self.game or 'this game'}", s)
        return "pass"


def _stmt_word(s: a.Stmt) -> str:
    word = {a.Gain: "'gain'", a.Pay: "'pay'", a.Lose: "'lose'", a.Place: "'place'",
            a.ForEach: "'for each'"}.get(type(s))
    if word is None and isinstance(s, a.EndGame):
        word = "'win'" if s.won else "'defeat'"
    return word or type(s).__name__
