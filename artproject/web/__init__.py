"""The browser client of `artproject serve` (docs/web.md): the lobby, a game of either game
played by clicks, the replay viewer and the mission watcher, as plain HTML, CSS and
JavaScript modules shipped in this package (no build step, nothing from the internet).

`artproject serve` includes `routes()`; `configure(watch=FILE)` (the `--watch` option) sets
the mission file the watcher shows before the server starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

_SETTINGS: dict[str, Any] = {"watch": None}


def configure(watch: str | Path | None = None) -> None:
    """What the next `routes()` serves: the mission file `--watch` names (None: none)."""
    _SETTINGS["watch"] = watch


def routes() -> list[Any]:
    """The web client's Starlette routes: its pages, static files, the replay viewer's and
    the watcher's API (imported only when a server asks: Starlette is the `web` extra's)."""
    from .app import routes as make

    return make(watch=_SETTINGS["watch"])


__all__ = ["configure", "routes"]
