"""Kuhn poker's rules: its rule file's keys, declared once with the kernel's schema
(core/schema.py), and the file read, layered with its variants and checked into `KuhnRules`
(the kernel reads and places every error: core/sources.py). The rules are data
(missions/kuhn.toml); this module only says what its keys mean.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import attrs

from ..rulefiles import RuleFiles
from ..schema import Name, param, section
from ..sources import LoadedRules, Where

GAME: Final = "kuhn"
DEFAULT: Final = "kuhn"  # the shipped rules file (missions/kuhn.toml)
SEATS: Final = 9  # the notation's seats (p1..p9)
_GAME_KEY: Final = f'always "{GAME}": the game the file is for (tools dispatch on it)'


# ====================================================================== the file's keys
@section("rule parameter")
@attrs.frozen
class KuhnDeck:
    """The deck (K1)."""

    cards: tuple[Name, ...] = param("the cards, one of each, lowest first: the higher wins "
                                    "the showdown (K1, K3)", ruling="K1",
                                    expects="a list of card names")


@section("rule parameter")
@attrs.frozen
class KuhnBetting:
    """The chips (K1, K2)."""

    ante: int = param("chips each player puts in the pot before the deal (K1)", lo=1,
                      ruling="K1")
    bet: int = param("chips a bet, and a call, puts in (K2)", lo=1, ruling="K2")


@section("rule parameter")
@attrs.frozen
class KuhnPlayers:
    """How many play (K1)."""

    min: int = param("the fewest players", lo=2, hi=SEATS)
    max: int = param("the most players: fewer than the cards (K1)", lo=2, hi=SEATS)


@section()
@attrs.frozen
class KuhnSpec:
    """Kuhn poker's rules file, merged with its variants."""

    game: str = param(_GAME_KEY, choices=(GAME,))
    name: str = param("the rules' name (default: the file's name)", default="")
    title: str = param("the title shown to players", default="")
    about: str = param("one line about the file", default="")
    deck: KuhnDeck | None = param("the [deck] table, below", default=None)
    betting: KuhnBetting | None = param("the [betting] table, below", default=None)
    players: KuhnPlayers | None = param("the [players] table, below", default=None)


SECTIONS: Final[tuple[tuple[str, type[Any]], ...]] = (
    ("top", KuhnSpec), ("[deck]", KuhnDeck), ("[betting]", KuhnBetting),
    ("[players]", KuhnPlayers))


# ====================================================================== the rules
def _load_again(ref: str, variants: tuple[str, ...]) -> KuhnRules:
    return load_rules(ref, variants)


@attrs.frozen(eq=False)
class KuhnRules(LoadedRules):
    """Everything fixed for a game of Kuhn poker; pickles by reference to its files."""

    LOAD_AGAIN = _load_again

    name: str
    title: str
    source: str
    cards: tuple[str, ...]  # lowest first (K1)
    index: Mapping[str, int]  # a card's name -> its rank (0 the lowest)
    ante: int
    bet: int
    min_players: int
    max_players: int
    raw: Mapping[str, Any]  # the merged rules document, for tools
    ref: str = ""  # how it was asked for: a shipped name or a file path (saves record it)
    variants: tuple[str, ...] = ()
    warnings: tuple[Any, ...] = attrs.field(default=(), eq=False, repr=False)
    cache: dict[Any, Any] = attrs.field(init=False, factory=dict, eq=False, repr=False)

    def played_by(self) -> str:
        """How many play these rules, as a refusal says it: "2 players", "2 to 4 players"."""
        low, high = self.min_players, self.max_players
        return f"{low} players" if low == high else f"{low} to {high} players"


# ====================================================================== loading
def load_rules(ref: str | Path = DEFAULT, variants: Iterable[str | Path] = ()) -> KuhnRules:
    """Kuhn poker's rules (a shipped name or a file) with variants layered on; RulesError(s)
    naming file:line:col for every mistake (the kernel's `RuleFiles`, with `_build`)."""
    return FILES.load(ref, variants)


def shipped(folder: str = "") -> list[str]:
    """This game's files shipped in missions/ (or missions/variants/), by name."""
    return FILES.shipped(folder)


def _build(spec: KuhnSpec, doc: dict[str, Any], w: Where) -> KuhnRules | None:
    for key in ("deck", "betting", "players"):
        if getattr(spec, key) is None:
            w.err(f"missing [{key}]: Kuhn poker's rules file sets every parameter", (key,))
    if spec.deck is None or spec.betting is None or spec.players is None:
        return None
    cards, low, high = spec.deck.cards, spec.players.min, spec.players.max
    if len(set(cards)) != len(cards):
        w.err("the deck names a card twice: it holds one of each (K1)", ("deck", "cards"))
    if low > high:
        w.err(f"min {low} is above max {high}", ("players", "min"), ("players", "max"))
    if len(cards) <= high:
        w.err(f"{high} players need a deck of at least {high + 1} cards, not {len(cards)} "
              "(K1: one card each and one left out of sight)", ("deck", "cards"),
              ("players", "max"))
    if w.errors:
        return None
    return KuhnRules(name=spec.name or Path(w.top.file).stem, title=spec.title or "Kuhn poker",
                     source=w.top.file, cards=tuple(cards),
                     index=MappingProxyType({c: i for i, c in enumerate(cards)}),
                     ante=spec.betting.ante, bet=spec.betting.bet, min_players=low,
                     max_players=high, raw=doc)


FILES: Final[RuleFiles[KuhnRules]] = RuleFiles(game=GAME, title="Kuhn poker", spec=KuhnSpec,
                                               build=_build, package="missions")
