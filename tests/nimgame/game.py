"""How a game of Nim starts (`new_game`) and what its saves record."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from artproject.core.errors import GameError, SaveError
from artproject.core.games import check_start
from artproject.core.saves import rules_header, save_spec, saved_rules
from artproject.core.schema import param

from .rules import DEFAULT, NimRules, load_rules
from .state import Nim

_ART_DEFAULTS: Final = {"difficulty": "medium", "phase": "mission", "position": None}


def new_game(mission: str | Path | NimRules | None = None, players: int = 2, *,
             rules: str | Path | NimRules | None = None, seed: int = 0,
             variants: Iterable[str | Path] = (), log: bool = False,
             chance: str = "sample", game: str | None = None, **ignored: Any) -> Nim:
    if game is not None or ignored:
        check_start(Nim, game, ignored, _ART_DEFAULTS,
                    "rules, variants, players, seed, log and chance")
    if chance not in ("sample", "explicit"):
        raise GameError(f"chance must be 'sample' or 'explicit', not {chance!r}")
    ref = rules if rules is not None else mission if mission is not None else DEFAULT
    loaded = ref if isinstance(ref, NimRules) else load_rules(ref, variants)
    if not isinstance(players, int) or not (
            loaded.min_players <= players <= loaded.max_players):
        raise GameError(f"{loaded.name} is played by {loaded.played_by()}, not {players!r}")
    return Nim.new(loaded, players, seed, log=log, chance=chance)


@attrs.frozen(kw_only=True)
class _Began:
    rules: str = param("Nim's rules: a shipped name or a path", default=DEFAULT)
    variants: tuple[str, ...] = param("the variants", factory=tuple)
    players: int = param("the players", lo=2, hi=4)
    seed: int = param("the seed", lo=-(2**63), hi=2**64 - 1,
                      expects="a whole number (64 bits)")


SaveFile: Final = save_spec(_Began, "NimSaveFile")


def save_header(st: Nim, folder: Path | None) -> dict[str, Any]:
    return {**rules_header(st.rules, folder, "missions"), "players": st.players,
            "seed": st.seed}


def from_header(spec: Any, doc: Mapping[str, Any], name: str, folder: Path | None) -> Nim:
    rules = saved_rules(load_rules, spec.rules, spec.variants, folder, name)
    try:
        return new_game(rules=rules, players=spec.players, seed=spec.seed, chance=spec.chance)
    except GameError as err:
        raise SaveError(f"{name}: {err}") from None
