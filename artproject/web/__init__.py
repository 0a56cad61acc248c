"""The browser client of `artproject serve` (docs/web.md): the lobby, a game of either game
played by clicks, the replay viewer and the mission watcher, as plain HTML, CSS and
JavaScript modules shipped in this package (no build step, nothing from the internet).

`artproject serve` includes `routes()`; `configure(watch=FILE)` (the `--watch` option) sets
the mission file the watcher shows before the server starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

_SETTINGS: dict[str, Any] = {"watch": None, "book": None}


def configure(watch: str | Path | None = None, replay: str | Path | None = None,
              ) -> str | None:
    """What the next `routes()` serves: the mission file `--watch` names (None: none), and
    the file `--replay` names, opened now (SourceError naming it if it cannot be): the
    address of its replay (a store's: the list of its games)."""
    _SETTINGS["watch"] = watch
    _SETTINGS["book"] = None
    if replay is None:
        return None
    from .replays import Book
    from .sources import read_file

    book = Book()
    data, name = read_file(replay)
    got = book.open(data, name, local=True)
    _SETTINGS["book"] = book
    if got["kind"] == "store":
        return f"/replay/{got['id']}"
    view = "all" if got["over"] else got["seats"][0]
    return f"/replay/{got['id']}/0?view={view}"


def routes(lobby: Any = None, origins: frozenset[str] = frozenset()) -> list[Any]:
    """The web client's Starlette routes: its pages, static files, the replay viewer's and
    the watcher's API (imported only when a server asks: Starlette is the `web` extra's);
    with the server's `lobby`, its games' replays too; `origins`: the web origins allowed
    besides the server's own (`--origin`)."""
    from .app import routes as make

    return make(watch=_SETTINGS["watch"], book=_SETTINGS["book"], lobby=lobby,
                origins=origins)


__all__ = ["configure", "routes"]
