"""The A.R.T. Project, the kernel's first game: its rules one module per part of the round.

    setup       set-up, the solo mode, a board's own set-up placements (R2, R3, R23-R25)
    round       the round's phases and boundaries, the next round
    allies      ally dice at the phase boundaries (R17)
    mission     the mission phase: draws, planning, playing a card's sections (R6, R8)
    clues       the clue chain, triples and uncovered artworks (R9, R10)
    movement    moves (R11, R13, R22, R23)
    collection  collecting artworks onto the track, winning (R12, R19)
    battle      battles, rerolls, boosts, conceding (R14-R16)
    exchange    clue cards handed between players (R21)
    end         lost cities, round-end hooks, the final round (R18, R20, R27)
    effects     the golden rule and the other effects every part uses (R1, R2, R4, R5, R7)
    chance      the deck's draws and the dice, drawn or explicit
    state       the state's table of fields and the readings every rule shares
    position    positions (scenario files, saves from a set position)
    info        what each player may see and know
    invariants  the game's invariants
    game        starting a game, and what its saves record of that
    scenarios   scenario files: the game's keys, its facts, pay_health
    loader      rule files to Rules: the layers, loaded once
    build       the merged document to Rules: a builder per section
    cardfile    the card files
    schema      every key of the rule files, declared once (docs/reference.md)
    meaning     checks of meaning: boards that cannot be played or won, odd ones
    rules, tables, registry, pickling, facade: the rules' data, their tables, the verbs'
                words, pickling, and what compiled rule text may touch
    frozen      compiled rules to bytes and back, for the cache on disk (core/cache.py)
"""

from __future__ import annotations

from ..games import register_game
from .game import new_game
from .position import apply_position, position_of
from .registry import ALLY_PAWN, REG
from .rules import Rules
from .state import State

register_game(State)

__all__ = ["ALLY_PAWN", "REG", "Rules", "State", "apply_position", "new_game", "position_of"]
