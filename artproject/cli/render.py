"""`artproject render`: a board, a table of cards or a saved position drawn as SVG."""

from __future__ import annotations

import argparse
from pathlib import Path

from .options import _game, _save_alone, _save_of, _trust_needs

TYPE_CHECKING = False  # typing itself is not imported: the command starts the sooner
if TYPE_CHECKING:
    from typing import Any


def _render(args: argparse.Namespace) -> int:
    """render, any game's: its rules (named, or the game's own) or a saved position, drawn by
    the game (its tools' `render`), and a line saying what was drawn."""
    from ..core.errors import GameError
    from ..core.files import refuse_odd, shorten, write_atomic
    from ..core.games import game_tools
    from ..core.saves import load_game

    st = None
    out = Path(args.output)
    refuse_odd(out)  # never a device (a FIFO would also hang _our_svg's read), even forced
    if out.suffix.lower() != ".svg":  # SVG text in a .png is no picture: refused, not written
        raise GameError(f"-o {shorten(str(out))}: render draws SVG; give a file ending in "
                        ".svg (then convert it if you want another format: `cairosvg "
                        "board.svg -o board.png`); nothing was written")
    replace = args.force or _our_svg(out)
    game = _game(args)
    _trust_needs("--save", args)
    if args.save:
        given = [f"MISSION ({args.mission})"] if args.mission else []
        _save_alone("--save", args.save, given + (["--variant"] if args.variant else []))
        st = _save_of(args, game, args.save, load_game(args.save, trust=args.trust))
    elif not args.mission and args.game is None:  # (--game NAME alone: its own rules)
        raise GameError("name a MISSION or give --save FILE")
    tools = game_tools(st.game if st is not None else game)
    rules = st.rules if st is not None else tools.load_rules(
        args.mission or tools.DEFAULT_RULES, args.variant)
    write_atomic(out, tools.render(rules, st), replace=replace)
    print(f"wrote {out}: {rules.title}, {_drawn(tools, rules, st)}")
    return 0


def _drawn(tools: Any, rules: Any, st: Any) -> str:
    """What was drawn, in the game's words (its tools' `drawn`), else in any game's: its
    rules, or a saved game after so many decisions (the kernel's history)."""
    own = getattr(tools, "drawn", None)
    if own is not None:
        return str(own(rules, st))
    if st is None:
        return "its rules"
    n = len(getattr(st, "history", ()))
    return f"the game after {n} decision{'' if n == 1 else 's'}"


def _our_svg(path: Path) -> bool:
    """Whether `path` is an SVG that `render` drew (so drawing again may replace it)."""
    from ..render import SIGNATURE

    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except (OSError, ValueError):
        return False
    return head.startswith(b"<?xml") and SIGNATURE.encode() in head
