"""The test Nim's rules: its rule file's keys and the loader (after core/kuhn/rules.py);
its rule files are this folder's nim.toml and variants/."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

import attrs

from artproject.core.rulefiles import RuleFiles
from artproject.core.schema import param, section
from artproject.core.sources import LoadedRules, Where

GAME: Final = "test-nim"
DEFAULT: Final = "nim"
SEATS: Final = 4
HERE: Final = Path(__file__).parent


@section("rule parameter")
@attrs.frozen
class NimHeaps:
    """The heaps (N1)."""

    sizes: tuple[int, ...] = param("each heap's counters at the start (N1)", ruling="N1",
                                   expects="a list of whole numbers")


@section("rule parameter")
@attrs.frozen
class NimMoves:
    """A move (N2, N3)."""

    max_take: int = param("the most counters a move takes (0: any) (N2)", lo=0, ruling="N2")
    misere: bool = param("whoever takes the last counter loses (N3)", ruling="N3")
    coin: bool = param("a coin decides who moves first (N1)", ruling="N1")


@section("rule parameter")
@attrs.frozen
class NimPlayers:
    """How many play."""

    min: int = param("the fewest players", lo=2, hi=SEATS)
    max: int = param("the most players", lo=2, hi=SEATS)


@section()
@attrs.frozen
class NimSpec:
    """Nim's rules file."""

    game: str = param("always test-nim", choices=(GAME,))
    name: str = param("the rules' name", default="")
    title: str = param("the title", default="")
    about: str = param("one line", default="")
    heaps: NimHeaps | None = param("the [heaps] table", default=None)
    moves: NimMoves | None = param("the [moves] table", default=None)
    players: NimPlayers | None = param("the [players] table", default=None)


SECTIONS: Final[tuple[tuple[str, type[Any]], ...]] = (
    ("top", NimSpec), ("[heaps]", NimHeaps), ("[moves]", NimMoves), ("[players]", NimPlayers))


def _load_again(ref: str, variants: tuple[str, ...]) -> NimRules:
    return load_rules(ref, variants)


@attrs.frozen(eq=False)
class NimRules(LoadedRules):
    """Everything fixed for a game of Nim."""

    LOAD_AGAIN = _load_again

    name: str
    title: str
    source: str
    heaps: tuple[int, ...]
    max_take: int
    misere: bool
    coin: bool
    min_players: int
    max_players: int
    raw: Any
    ref: str = ""
    variants: tuple[str, ...] = ()
    warnings: tuple[Any, ...] = attrs.field(default=(), eq=False, repr=False)
    cache: dict[Any, Any] = attrs.field(init=False, factory=dict, eq=False, repr=False)

    def played_by(self) -> str:
        low, high = self.min_players, self.max_players
        return f"{low} players" if low == high else f"{low} to {high} players"

    def takes(self) -> int:
        """The most one move may take."""
        return self.max_take or max(self.heaps)


def load_rules(ref: str | Path = DEFAULT, variants: Iterable[str | Path] = ()) -> NimRules:
    return FILES.load(ref, variants)


def shipped(folder: str = "") -> list[str]:
    return FILES.shipped(folder)


def _build(spec: NimSpec, doc: dict[str, Any], w: Where) -> NimRules | None:
    for key in ("heaps", "moves", "players"):
        if getattr(spec, key) is None:
            w.err(f"missing [{key}]", (key,))
    if spec.heaps is None or spec.moves is None or spec.players is None:
        return None
    if not spec.heaps.sizes or any(h < 1 for h in spec.heaps.sizes):
        w.err("every heap holds at least one counter, and there is one (N1)",
              ("heaps", "sizes"))
    if spec.players.min > spec.players.max:
        w.err("min is above max", ("players", "min"), ("players", "max"))
    if w.errors:
        return None
    return NimRules(name=spec.name or Path(w.top.file).stem, title=spec.title or "Nim",
                    source=w.top.file, heaps=tuple(spec.heaps.sizes),
                    max_take=spec.moves.max_take, misere=spec.moves.misere,
                    coin=spec.moves.coin, min_players=spec.players.min,
                    max_players=spec.players.max, raw=doc)


# its shipped files are this folder's, not the data package's
FILES: Final[RuleFiles[NimRules]] = RuleFiles(game=GAME, title="Nim", spec=NimSpec,
                                              build=_build, package="missions", folder=HERE)
