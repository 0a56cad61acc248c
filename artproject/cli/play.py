"""`artproject play`: a game at the terminal, new or loaded, played by the game's own session
(its tools' `run`: core/games.py `game_tools`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

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
    bots = _bots(args.bots, st)
    tools = game_tools(st.game)
    if bots:
        return int(tools.run(st, sys.stdin, sys.stdout, bots=bots))
    return int(tools.run(st, sys.stdin, sys.stdout))


def _bots(text: str | None, st: Any) -> dict[int, str]:
    """`--bots p2,p3=random` read: each seat's policy (a bare seat: the game's heuristic);
    GameError for a game whose decisions are not each one seat's, a seat not of this game
    or named twice, or a policy unknown to the game (as `simulate --policy` says it). A
    policy's own options follow it after commas (p2=ismcts:budget=8,depth=40,p3)."""
    from ..core.actions import read_player
    from ..core.errors import GameError
    from ..core.games import game_class, game_tools
    from ..policies import check_policy, policies_of

    if text is None:
        return {}
    title = game_class(st.game).TITLE
    if not getattr(game_tools(st.game), "PLAY_BOTS", False):
        raise GameError(f"--bots: {title}'s decisions are the team's, not each one seat's, "
                        "so play seats no bot in it (artproject serve does: a seat bot:NAME)")
    out: dict[int, str] = {}
    last = -1
    for item in filter(None, (w.strip() for w in text.split(","))):
        seat, eq, spec = item.partition("=")
        if eq and not _seat_word(seat) and last >= 0:  # an option of the last policy's
            out[last] += "," + item
            continue
        last = read_player(seat, f"--bots {text}", st.num_players())
        if last in out:
            raise GameError(f"--bots {text}: p{last + 1} is named twice")
        out[last] = spec if eq else "heuristic"
    if not out:
        raise GameError("--bots takes seats: p2, or p2=NAME (a policy), comma-separated")
    known = policies_of(st.game)
    for spec in out.values():
        try:
            check_policy(spec, known)
        except GameError as err:
            raise GameError(f"--bots {text}: {err}") from None
    return out


def _seat_word(word: str) -> bool:
    return len(word) >= 2 and word[0].lower() == "p" and word[1:].isdigit()


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
