"""Kuhn poker, the kernel's third game and its worked example (docs/architecture.md,
"Adding a game"): one card each from a deck of three, one round of betting (Kuhn, 1950).
Its rules are data, missions/kuhn.toml (K1-K4 there); the Python is what the kernel
needs to play them:

    rules      the rule file's keys (declared once) and its loader: KuhnRules
    betting    the decisions, declared once: the deal (chance), check/bet, call/fold, the
               showdown
    state      the state's table of fields and the hooks it gives the kernel
    views      what each player may see (observation), the rules' picture, the screen
    game       starting a hand (new_game), what its saves record
    scenarios  scenario files: the game's keys and the words of their facts
    bots       its policies for the tools (random, a simple heuristic)
    tools      what the tools ask of it: load, simulate, verify, play, check
"""

from __future__ import annotations

from ..games import register_game
from .betting import REG
from .game import new_game
from .rules import GAME, KuhnRules, load_rules
from .state import Kuhn

register_game(Kuhn)

__all__ = ["GAME", "REG", "Kuhn", "KuhnRules", "load_rules", "new_game"]
