"""How a hand of Kuhn poker starts (`new_game`) and what its saves record of that; the
kernel's saves.py writes and replays the rest."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from ..errors import GameError, SaveError
from ..games import check_start
from ..saves import rules_header, save_spec, saved_rules
from ..schema import param
from .rules import DEFAULT, KuhnRules, load_rules
from .state import Kuhn

# The first game's options, as new_game passes them on when they are left at their defaults.
_ART_DEFAULTS: Final = {"difficulty": "medium", "phase": "mission", "position": None}


def new_game(mission: str | Path | KuhnRules | None = None, players: int = 2, *,
             rules: str | Path | KuhnRules | None = None, seed: int = 0,
             variants: Iterable[str | Path] = (), deal: Sequence[str] = (),
             log: bool = False, chance: str = "sample", game: str | None = None,
             **ignored: Any) -> Kuhn:
    """A new hand: `rules` (or the first argument) a rules file or shipped name
    (`kuhn`), `variants` layered on; `deal` the cards dealt first, p1's first;
    chance="explicit" stops at every card dealt."""
    if game is not None or ignored:
        check_start(Kuhn, game, ignored, _ART_DEFAULTS,
                    "rules, variants, players, seed, deal, log and chance")
    if chance not in ("sample", "explicit"):
        raise GameError(f"chance must be 'sample' or 'explicit', not {chance!r}")
    ref = rules if rules is not None else mission if mission is not None else DEFAULT
    loaded = ref if isinstance(ref, KuhnRules) else load_rules(ref, variants)
    if not isinstance(players, int) or not (
            loaded.min_players <= players <= loaded.max_players):
        raise GameError(f"{loaded.name} is played by {loaded.played_by()}, not {players!r}")
    return Kuhn.new(loaded, players, seed, log=log, chance=chance,
                    deal=stacked(loaded, deal, players))


def stacked(rules: KuhnRules, deal: Sequence[str], players: int) -> list[int]:
    """The cards named to be dealt first, by rank; GameError for an unknown or repeated card."""
    out = []
    for name in deal:
        if name not in rules.index:
            raise GameError(f"no card {name!r} in the deck; cards: " + ", ".join(rules.cards))
        out.append(rules.index[name])
    if len(set(out)) != len(out) or len(out) > players:
        raise GameError(f"deal {list(deal)}: at most one card a player, each card once (K1)")
    return out


# ====================================================================== saves
@attrs.frozen(kw_only=True)
class _Began:
    """How a saved hand began: its keys in a save, among the kernel's (`saves.save_spec`)."""

    rules: str = param("Kuhn poker's rules: a shipped name, or its file's path relative to "
                       "the save", default=DEFAULT)
    variants: tuple[str, ...] = param("the variants, named the same way", factory=tuple)
    players: int = param("the players (K1)", lo=2, hi=9)
    seed: int = param("the seed of the deal", lo=-(2**63), hi=2**64 - 1,
                      expects="a whole number (64 bits)")
    deal: tuple[str, ...] = param("the cards dealt first, p1's first (a scenario's)",
                                  factory=tuple)


SaveFile: Final = save_spec(_Began, "KuhnSaveFile")


def save_header(st: Kuhn, folder: Path | None) -> dict[str, Any]:
    """What a save records of how the hand began (its rules named as `rules_header` names
    them, and the cards dealt first)."""
    return {**rules_header(st.rules, folder, "missions"), "players": st.players, "seed": st.seed,
            "deal": [st.rules.cards[k] for k in st._start]}


def from_header(spec: Any, doc: Mapping[str, Any], name: str, folder: Path | None) -> Kuhn:
    """The hand a save began as, not yet played."""
    rules = saved_rules(load_rules, spec.rules, spec.variants, folder, name)
    try:
        return new_game(rules=rules, players=spec.players, seed=spec.seed, deal=spec.deal,
                        chance=spec.chance)
    except GameError as err:
        raise SaveError(f"{name}: {err}") from None
