"""`artproject play`: a game at the terminal, new or loaded, played by the game's own session
(its tools' `run`: core/games.py `game_tools`)."""

from __future__ import annotations

import argparse
import sys

from .options import _check_seed, _game
from .simulate import _rules_ref


def _play(args: argparse.Namespace) -> int:
    from ..core.art.game import new_game
    from ..core.games import game_tools
    from ..core.saves import load_game

    game = _game(args)
    if args.load:
        st = load_game(args.load, trust=args.trust)
    else:
        import secrets

        seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
        _check_seed(seed, 0)
        rules = _rules_ref(args.mission, game_tools(game))
        st = new_game(rules, args.players, args.difficulty, seed, args.variant, game=game)
    return int(game_tools(st.game).run(st, sys.stdin, sys.stdout))
