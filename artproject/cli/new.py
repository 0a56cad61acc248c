"""`artproject new`: a new rules file that inherits a shipped one, written by the game (its
tools' `new_rules`: The A.R.T. Project's, a mission)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .options import _game


def _new(args: argparse.Namespace) -> int:
    from ..core.errors import GameError
    from ..core.files import exists, shorten, write_atomic
    from ..core.games import game_class, game_tools

    game = _game(args)
    tools = game_tools(game)
    if not hasattr(tools, "new_rules"):
        raise GameError(f"{game_class(game).TITLE} has no template for new rules")
    # (GameError: a name that is none, or a base that is not shipped)
    text = tools.new_rules(args.name, args.base)
    out = Path(f"{args.name}.toml")
    if len(out.name.encode()) > 255:  # most file systems' limit on a name
        raise GameError(f"{shorten(str(out))}: the name is too long for a file (255 bytes at "
                        "most); choose a shorter mission name")
    if exists(out):
        raise GameError(f"{shorten(str(out))} already exists; nothing was written")
    write_atomic(out, text)
    print(f"wrote {out}: a mission that extends {args.base}; next: artproject check {out}")
    return 0
