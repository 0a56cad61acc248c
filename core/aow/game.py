"""How a game of Art of War starts (`new_game`) and what its saves record of that (the
kernel's saves.py writes and replays the rest); how a pickle names the compiled card texts
on its work stack.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs

from ..errors import ArtError, RulesError, SaveError
from ..games import check_start
from ..saves import rules_header, save_spec, saved_rules
from ..schema import param, section
from .loader import DEFAULT, load_rules, shipped
from .pickling import op_from, op_ref
from .position import apply_position
from .rules import WarRules
from .setup import begin
from .state import War

__all__ = ["SaveFile", "from_header", "new_game", "op_from", "op_ref", "save_header"]

if TYPE_CHECKING:
    Position = dict[str, Any]
else:  # the position's schema, made from the state's table of fields
    Position = War.POSITION_SPEC


# The first game's options, as new_game passes them on when they are left at their defaults.
_ART_DEFAULTS: Final = {"difficulty": "medium", "phase": "mission"}


def new_game(mission: str | Path | WarRules | None = None, players: int = 2, *,
             rules: str | Path | WarRules | None = None, seed: int = 0,
             variants: Iterable[str | Path] = (), position: Mapping[str, Any] | None = None,
             log: bool = False, chance: str = "sample", game: str | None = None,
             **ignored: Any) -> War:
    """A new game of Art of War: 2-7 players (W1), a seed; `rules` (or the first argument)
    a rules file or shipped name (`art-of-war`), `variants` layered on it; `position` a set
    position (docs/art-of-war.md); chance="explicit" stops at every card drawn."""
    if game is not None or (ignored and ignored != _ART_DEFAULTS):  # (the first game's
        check_start(War, game, ignored, _ART_DEFAULTS,  # `new_game` passes those on)
                    "rules, variants, players, seed, position, log and chance")
    ref = rules if rules is not None else mission if mission is not None else DEFAULT
    loaded = shipped(ref) if ref.__class__ is str and variants == () else None
    if loaded is None:
        loaded = ref if isinstance(ref, WarRules) else load_rules(ref, variants)
    if position is None:
        return War.new(loaded, players, seed, log=log, chance=chance)
    st = War.new(loaded, players, seed, start=False, log=log, chance=chance)
    apply_position(st, position)
    st.start = {"position": dict(position)}
    begin(st)
    return st


# ====================================================================== saves
@section()
@attrs.frozen
class WarStart:
    """How a game from a set position began: [start]."""

    position: Position | None = param("the position set before play (docs/art-of-war.md)",
                                      default=None, expects="a table ([position] below)")


@attrs.frozen(kw_only=True)
class _Began:
    """How a saved game began: its keys in a save, among the kernel's (`saves.save_spec`)."""

    rules: str = param("Art of War's rules: a shipped name, or its file's path relative to "
                       "the save", default=DEFAULT)
    variants: tuple[str, ...] = param("the variants, named the same way", factory=tuple)
    players: int = param("the players (W1)", lo=2, hi=7)
    seed: int = param("the seed of the game's draws", lo=-(2**63), hi=2**64 - 1,
                      expects="a whole number (64 bits)")
    start: WarStart | None = param("[start]: the set position the game began from",
                                   default=None)


SaveFile: Final = save_spec(_Began, "WarSaveFile")


def save_header(st: War, folder: Path | None) -> dict[str, Any]:
    """What a save records of how the game began (its rules named as `rules_header` names
    them)."""
    return {**rules_header(st.rules, folder, "missions"), "players": st.players, "seed": st.seed}


def from_header(spec: Any, doc: Mapping[str, Any], name: str, folder: Path | None) -> War:
    """The game a save began as, not yet played."""
    rules = saved_rules(load_rules, spec.rules, spec.variants, folder, name)
    try:
        position = doc["start"].get("position", {}) if spec.start is not None else None
        return new_game(rules=rules, players=spec.players, seed=spec.seed, position=position,
                        chance=spec.chance)
    except RulesError as err:
        raise SaveError(f"{name}: start.{err.path or 'position'}: {err.message}") from None
    except ArtError as err:
        raise SaveError(f"{name}: {err}") from None
