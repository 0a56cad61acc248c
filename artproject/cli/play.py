"""`artproject play`: a game at the terminal, new or loaded."""

from __future__ import annotations

import argparse
import sys

from ..missions import DEFAULT
from .options import _check_seed, _game


def _play(args: argparse.Namespace) -> int:
    from ..core.art.game import new_game
    from ..core.saves import load_game
    from ..play import run

    game = _game(args)
    if args.load:
        st = load_game(args.load, trust=args.trust)
    else:
        import secrets

        seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
        _check_seed(seed, 0)
        if game != "art-project":
            from ..core.games import game_tools

            rules = game_tools(game).DEFAULT_RULES if args.mission == DEFAULT else args.mission
            st = new_game(rules, args.players, seed=seed, variants=args.variant, game=game)
        else:
            st = new_game(args.mission, args.players, args.difficulty, seed, args.variant)
    if st.game != "art-project":  # hot-seat: a hand shown only to its owner (the game's)
        from ..core.games import game_tools

        return int(game_tools(st.game).run(st, sys.stdin, sys.stdout))
    return run(st, sys.stdin, sys.stdout)
