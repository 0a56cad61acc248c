"""`artproject play`: a game at the terminal, new or loaded, played by the game's own session
(its tools' `run`: core/games.py `game_tools`)."""

from __future__ import annotations

import argparse
import sys

from .options import _check_seed, _game, _save_of
from .simulate import _rules_ref


def _play(args: argparse.Namespace) -> int:
    from ..core.games import game_tools, new_game
    from ..core.saves import load_game

    game = _game(args)
    if args.load:
        st = _save_of(args, game, args.load, load_game(args.load, trust=args.trust))
    else:
        import secrets

        seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
        _check_seed(seed, 0)
        rules = _rules_ref(args.mission, game_tools(game))
        st = new_game(game, mission=rules, players=args.players, difficulty=args.difficulty,
                      seed=seed, variants=tuple(args.variant))  # (the game's own start)
    return int(game_tools(st.game).run(st, sys.stdin, sys.stdout))
