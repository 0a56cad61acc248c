"""`artproject render`: a board, a table of cards or a saved position drawn as SVG."""

from __future__ import annotations

import argparse
from pathlib import Path

from .options import _game

TYPE_CHECKING = False  # typing itself is not imported: the command starts the sooner
if TYPE_CHECKING:
    from typing import Any


def _render(args: argparse.Namespace) -> int:
    from ..core.art.loader import load_rules
    from ..core.errors import GameError
    from ..core.files import refuse_odd, write_atomic
    from ..core.saves import load_game
    from ..render import render

    st = None
    out = Path(args.output)
    refuse_odd(out)  # never a device (a FIFO would also hang _our_svg's read), even forced
    replace = args.force or _our_svg(out)
    game = _game(args)
    if args.save:
        st = load_game(args.save, trust=args.trust)
        rules = st.rules
    if (st.game if st is not None else game) != "art-project":
        return _render_war(args, st, out, replace)
    if st is None and args.mission:
        rules = load_rules(args.mission, args.variant)
    elif st is None:
        raise GameError("name a MISSION or give --save FILE")
    write_atomic(out, render(rules, st), replace=replace)
    print(f"wrote {out}: {rules.title}, {len(rules.cities)} cities"
          + (f", the position of round {st.round}" if st else ""))
    return 0


def _render_war(args: argparse.Namespace, st: Any, out: Path, replace: bool) -> int:
    from ..core.files import write_atomic
    from ..core.games import game_tools

    tools = game_tools(st.game if st is not None else _game(args))
    rules = st.rules if st is not None else tools.load_rules(
        args.mission or tools.DEFAULT_RULES, args.variant)
    write_atomic(out, tools.render(rules, st), replace=replace)
    print(f"wrote {out}: {rules.title}, "
          + (f"the table at turn {st.turn}" if st is not None else f"{len(rules.cards)} cards"))
    return 0


def _our_svg(path: Path) -> bool:
    """Whether `path` is an SVG that `render` drew (so drawing again may replace it)."""
    from ..render import SIGNATURE

    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except (OSError, ValueError):
        return False
    return head.startswith(b"<?xml") and SIGNATURE.encode() in head
