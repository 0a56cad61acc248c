"""Art of War, the kernel's second game: a competitive card game for 2-7 players, its rules
one module per part (docs/art-of-war.md; the rulings W1-W19 in docs/rulings.md).

    setup       set-up: the deal without the Massacres and the Fortune Teller (W1)
    turn        the turn, the deaths at its end and the end of the game (W3, W4, W17, W18)
    fight       challenges: a duel (W5-W7), a Massacre's (W14), a Fortune Teller's (W15)
    settle      the reveal and the settlement in its set order (W8-W12, W16)
    cards       cards between deck, hands, table and discard; discards by choice (W9)
    chance      the deck's draws, drawn or explicit; what each player sees of them
    state       the state's table of fields, its readings and effects
    position    positions (scenario files, saves from a set position)
    info        what each player may see and know (W19)
    invariants  the game's invariants (W1, W4, W5, W7, W17, W18)
    game        starting a game, what its saves record of that, pickling
    scenarios   scenario files: the game's keys and facts
    loader      rule files to WarRules: the rules, variants and card file, compiled once
    schema      every key of its rule files, declared once (docs/reference.md)
    words       its words in the effect DSL; facade: what compiled card text may touch
    rules, registry: the rules' data; the verbs' words
    views       what a seat, a spectator and the terminal's screen show (W19)
    bots        its bots: the heuristic (with its odds and judge), the first heuristic
    tools       what the tools ask of it (its TOOLS): verify, hot-seat play, check, its
                files' reference; simulate's results and table (simulate), the SVG (render)
"""

from __future__ import annotations

from ..games import register_game
from .game import new_game
from .loader import load_rules
from .registry import GAME, REG
from .rules import WarRules
from .state import War

register_game(War)

__all__ = ["GAME", "REG", "War", "WarRules", "load_rules", "new_game"]
