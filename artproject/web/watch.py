"""`artproject serve --watch FILE`: a rule file's board, drawn again each time the file is
saved; an error in it shown as `check` prints it (file:line:col, the line, a caret).

The file is checked by the same code as `artproject check` (artproject/checking.py); a clean
file is set up as a game by the game it declares (core/sources.py `game_of`; none: the
default game), through its tools' `watch_game` (core/games.py `game_tools`), so the board
shows as it is set up. A game whose tools give no `watch_game` is checked, not drawn.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

from ..core.errors import ArtError

LOG = logging.getLogger("artproject.web")
POLL: Final = 0.25  # seconds between looks at the file (a save shows within this)


class Watcher:
    """One watched file: what it shows now, and when it changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.version = 0
        self.stamp = self._stamp()
        self.shown: tuple[Any, dict[str, Any]] | None = None  # (stamp, what it showed)

    def _stamp(self) -> tuple[int, int, int] | None:
        try:
            s = os.stat(self.path)
        except OSError:
            return None
        return (s.st_mtime_ns, s.st_size, s.st_ino)

    def poll(self) -> bool:
        """Whether the file changed since the last look (a new version then)."""
        now = self._stamp()
        if now == self.stamp:
            return False
        self.stamp = now
        self.version += 1
        return True

    async def changes(self) -> AsyncIterator[int]:
        """Each new version of the file, as it is saved (forever)."""
        while True:
            await asyncio.sleep(POLL)
            if self.poll():
                yield self.version

    def read(self) -> dict[str, Any]:
        """The file now: its board, or its errors as `check` prints them."""

        self.poll()
        if self.shown is not None and self.shown[0] == (self.stamp, self.version):
            return self.shown[1]  # unchanged since it was last read: checked once
        out = self._read()
        self.shown = ((self.stamp, self.version), out)
        return out

    def _read(self) -> dict[str, Any]:
        from ..checking import checked

        out: dict[str, Any] = {"file": str(self.path), "version": self.version,
                               "errors": [], "warnings": [], "kind": "unread"}
        if self._stamp() is None:
            out["errors"] = [f"{self.path}: cannot read: no such file (yet): save it and "
                             "this page shows it"]
            return out
        try:
            found, odd, kind = checked(self.path)
            errors, warnings = [str(e) for e in found], [str(w) for w in odd]
        except ArtError as err:
            errors, warnings, kind = [str(err)], [], "unread"
        except (OSError, UnicodeDecodeError) as err:
            out["errors"] = [f"{self.path}: cannot read: {err}"]
            return out
        out.update(kind=kind, errors=errors, warnings=warnings)
        if errors:  # the page shows them all; the server's log, one line
            LOG.warning("%s", errors[0].splitlines()[0] + (
                f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""))
        if not errors:
            out.update(self._board(kind))
        return out

    def _board(self, kind: str) -> dict[str, Any]:
        """A clean file's game as its game sets it up (its tools' `watch_game`), or a note
        why nothing is drawn."""
        from ..core.games import DEFAULT, game_tools
        from ..core.sources import game_of
        from .views import spectator_frame, table

        game = game_of(self.path) or DEFAULT
        try:
            setup = getattr(game_tools(game), "watch_game", None)
            if setup is None:
                return {"note": f"a {kind} file: it checks clean; the watcher draws no "
                                f"board of the {game} game's files"}
            st = setup(self.path, kind)
        except ArtError as err:
            return {"errors": [str(err)]}
        if isinstance(st, str):
            return {"note": st}
        return {"table": table(st), **spectator_frame(st)}
