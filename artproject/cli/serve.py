"""`artproject serve`: the game server (docs/server.md), its dependencies loaded only here."""

from __future__ import annotations

import argparse
from pathlib import Path


def _serve(args: argparse.Namespace) -> int:
    from ..extras import require

    require("serve", "web", "starlette", "uvicorn", "websockets")  # (said as every extra is)
    from ..server import serve  # the server's dependencies: only for this command
    from ..web import configure

    # --watch: the mission file /watch shows; --replay: a file opened in the viewer
    opened = configure(watch=args.watch, replay=args.replay)
    notes = [(f"replay of {Path(args.replay).name}", opened)] if opened else []
    return serve(args.host, args.port, args.db, args.origin, notes)
