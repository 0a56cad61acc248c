"""`artproject play`: a game at the terminal, new or loaded, played by the game's own session
(its tools' `run`: core/games.py `game_tools`)."""

from __future__ import annotations

import argparse
import sys

from .options import _check_seed, _game, _save_alone, _save_of, _trust_needs
from .simulate import _rules_ref


def _play(args: argparse.Namespace) -> int:
    from ..core.games import game_tools, new_game
    from ..core.saves import load_game

    _trust_needs("--load", args)
    game = _game(args)
    if args.load:
        _save_alone("--load", args.load, _given(args))
        st = _save_of(args, game, args.load, load_game(args.load, trust=args.trust))
    else:
        import secrets

        seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
        _check_seed(seed, 0)
        _flags_of(game, args)
        rules = _rules_ref(args.mission, game_tools(game))
        st = new_game(game, mission=rules, players=2 if args.players is None else args.players,
                      difficulty=args.difficulty or "medium", seed=seed,
                      variants=tuple(args.variant))  # (the game's own start)
    return int(game_tools(st.game).run(st, sys.stdin, sys.stdout))


def _given(args: argparse.Namespace) -> list[str]:
    """The options of a new game the user gave (each None or empty when not given)."""
    return [f"--{name}" for name in ("mission", "players", "difficulty", "seed", "variant")
            if getattr(args, name) not in (None, [])]


def _flags_of(game: str, args: argparse.Namespace) -> None:
    """A new game's flags that are another game's (`--difficulty` of a game with none):
    GameError naming this command's flags, the game's own and whose the other is (not the
    library's argument names, which `new_game` would give)."""
    from ..core.errors import GameError
    from ..core.games import game_class, game_names, game_tools

    if args.difficulty is None or hasattr(game_tools(game), "difficulties"):
        return
    whose = " and ".join(game_class(g).TITLE for g in game_names()
                         if hasattr(game_tools(g), "difficulties"))
    raise GameError(f"--difficulty is {whose}'s: {game_class(game).TITLE} has none; "
                    "it takes --players, --seed, --variant and --mission (its rules), or "
                    "--load FILE")
