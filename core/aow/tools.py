"""What the tools ask of Art of War (its state's `TOOLS`, found by core/games.py
`game_tools`): the rules they load, its bots, and its parts of `simulate`, `verify`, `play`,
`check` and `render`, gathered from this folder's modules under the names every game gives
(docs/architecture.md, "Adding a game")."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from ..errors import RulesError
from .bots import POLICIES
from .loader import DEFAULT as DEFAULT_RULES
from .loader import check_card_file, load_rules
from .play import run
from .render import render_war as render
from .simulate import play_one, policy_names, report_csv, report_text, rules_digest, summary
from .verify import counterexample_scenario, verify

HELD: Final = (
    "  checked after every decision: cards and tokens conserved (W1), hands within the "
    "limit once a turn is settled (W4), bets (W5, W7), the dead hold nothing (W17), the end "
    "(W18); per game: determinism, save and load, clone",)


def players(rules: Any) -> tuple[int, int]:
    """The fewest and most players the rules allow (W1)."""
    return int(rules.p("components.min_players")), int(rules.p("components.max_players"))


def war_kind(doc: Mapping[str, Any], path: Path | None = None) -> str:
    """What a file of Art of War is: scenario, cards, rules or variant (a file naming its
    cards is rules, unless it lies in a `variants` folder: a variant with a deck of its own)."""
    from ..schema import params_of
    from .scenarios import ScenarioFile
    from .schema import WarSpec

    if (frozenset(params_of(ScenarioFile)) - frozenset(params_of(WarSpec))) & doc.keys():
        return "scenario"
    if "card" in doc:
        return "cards"
    if path is not None and path.parent.name == "variants":
        return "variant"
    return "rules" if "cards" in doc else "variant"


def check_file(path: Path, doc: Mapping[str, Any],
               ) -> tuple[list[RulesError], list[RulesError], str]:
    """Every error and warning in a file of Art of War, and what it is (`art-of-war:KIND`:
    a scenario, its cards, its rules or a variant of them)."""
    kind = f"art-of-war:{war_kind(doc, path)}"
    if kind.endswith(":scenario"):
        from ..scenario import run_scenario

        run_scenario(path)
        return [], [], kind
    if kind.endswith(":cards"):
        return check_card_file(path), [], kind
    rules = load_rules(path) if kind.endswith(":rules") else load_rules(DEFAULT_RULES, [path])
    return [], list(rules.warnings), kind


__all__ = ["DEFAULT_RULES", "HELD", "POLICIES", "check_file",
           "counterexample_scenario", "load_rules", "play_one", "players", "policy_names",
           "render",
           "report_csv", "report_text", "rules_digest", "run", "summary", "verify"]
