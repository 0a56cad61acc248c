"""`artproject new`: a new mission file that inherits a shipped one."""

from __future__ import annotations

import argparse
from pathlib import Path


def _new(args: argparse.Namespace) -> int:
    from ..core.art.loader import load_rules, shipped_missions
    from ..core.errors import GameError
    from ..core.files import exists, shorten, write_atomic
    from ..newmission import mission_text, valid_name

    if not valid_name(args.name):
        raise GameError(f"{args.name!r} is not a mission name: use lowercase letters, digits, "
                        "- and _")
    if args.base not in shipped_missions():
        from ..core.errors import closest

        raise GameError(f"unknown mission {args.base!r}{closest(args.base, shipped_missions())}"
                        "; shipped missions: " + ", ".join(shipped_missions()))
    out = Path(f"{args.name}.toml")
    if len(out.name.encode()) > 255:  # most file systems' limit on a name
        raise GameError(f"{shorten(str(out))}: the name is too long for a file (255 bytes at "
                        "most); choose a shorter mission name")
    if exists(out):
        raise GameError(f"{shorten(str(out))} already exists; nothing was written")
    base = load_rules(args.base)
    write_atomic(out, mission_text(args.name, args.base, base.title))
    print(f"wrote {out}: a mission that extends {args.base}; next: artproject check {out}")
    return 0
