"""`artproject verify --game art-of-war`: games of Art of War driven by choices Hypothesis
makes, every invariant (core/aow/invariants.py) checked after every decision: the cards and
tokens conserved (W1), hands within the limit once a turn is settled (W4), bets within W5
and W7, the dead holding nothing (W17), every game ending (W18); and per game the same seed
and actions giving the same game, save and load, a clone. A failure is shrunk to a short
game and written as a scenario file that replays it. The search is the first game's
(artproject/verify.py); only the game it plays differs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Final

from ...verify import Example, Outcome, Report, play_checked, scenario_text, search
from .bots import POLICIES
from .rules import WarRules
from .state import War

MAX_STEPS: Final = 20_000  # W18's turn limit ends a game long before (a few per turn)


def play_example(rules: WarRules, ex: Example, deep: bool = True) -> Outcome:
    """One game, checked after every decision; stop at the first violation (the first
    game's driver: a pick of 0, and every one after the example's, is the random bot's)."""

    def start() -> Any:
        return War.new(rules, ex.players, ex.seed, log=True)

    return play_checked(start, ex, POLICIES["random"](ex.seed), MAX_STEPS, " (W18)",
                        _nothing, bool(rules.ref), deep)


def _nothing(st: Any) -> None:
    """Art of War has no properties of its own to check beside the invariants."""


def verify(rules: WarRules, examples: int = 100, seed: int = 0,
           players: Sequence[int] = (2, 3, 4, 5, 6, 7),
           progress: Callable[[int, int, int], None] | None = None) -> Report:
    """Search for a game that breaks an invariant; shrink the first found (the first game's
    search: Art of War has no difficulty, "-", nor properties)."""
    return search(partial(play_example, rules), rules.name, examples, seed, players, ("-",),
                  (), progress)


def counterexample_scenario(rules: WarRules, ref: str, variants: Sequence[str], ex: Example,
                            failure: Outcome) -> str:
    """A scenario file (TOML text) that replays the counterexample, invariants checked."""
    v = failure.violation
    doc: dict[str, Any] = {
        "about": f"Counterexample found by artproject verify: {v}",
        "cites": ["artproject verify"], "game": "art-of-war", "rules": ref,
        "variants": list(variants), "players": ex.players, "seed": ex.seed,
        "invariants": True}
    return scenario_text(doc, failure)
