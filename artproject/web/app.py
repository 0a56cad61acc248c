"""The web client's routes: the pages (one HTML shell, its scripts and styles, shipped in the
package: no build step, nothing from the internet), the replay viewer's API and the mission
watcher's (`serve --watch FILE`).

`routes(...)` is what `artproject serve`'s application includes; `app(...)` is a whole
application of these routes alone (tests, a viewer without the lobby).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.errors import ArtError
from ..server.origins import same_origin
from .replays import KEEP, Book
from .sources import MAX_BYTES, Recording, SourceError, from_game
from .views import ALL, PUBLIC, seat_names
from .watch import Watcher

STATIC: Final = Path(__file__).parent / "static"
PAGES: Final = ("/", "/replay", "/replay/{rid}", "/replay/{rid}/{step}", "/watch",
                "/play/{gid}")
LOG = logging.getLogger("artproject.web")


def _error(status: int, message: str, request: Request | None = None) -> JSONResponse:
    """A JSON error the page shows; the server logs one line."""
    where = f"{request.method} {request.url.path}: " if request is not None else ""
    LOG.warning("%s%s", where, message.splitlines()[0] if message else "")
    return JSONResponse({"error": message}, status_code=status)


GAME: Final = "game-"  # a replay's id for a game of the server's own (`game-ID`)
TOKEN_HEADER: Final = "x-seat-token"  # a seat's token, for its view of an unfinished game


class Web:
    """The web client's state on the server: the replays open, the file watched, and the
    server's lobby (its games replayed from what it holds), when there is one."""

    def __init__(self, book: Book | None = None, watch: str | Path | None = None,
                 lobby: Any = None, origins: frozenset[str] = frozenset()) -> None:
        self.book = book or Book()
        self.origins = origins  # the web origins allowed besides the server's own (--origin)
        self.watcher = Watcher(Path(watch)) if watch is not None else None
        self.lobby = lobby
        self.played: OrderedDict[str, tuple[int, Recording]] = OrderedDict()  # by game

    async def page(self, request: Request) -> Response:
        """Every page is the same shell; its script reads the address and draws the page."""
        return FileResponse(STATIC / "index.html", media_type="text/html",
                            headers={"Cache-Control": "no-cache"})

    async def open_replay(self, request: Request) -> Response:
        if not same_origin(request.headers.get("origin"), request.headers.get("host"),
                           self.origins):
            return _error(403, "a page of another origin may not open files here", request)
        name = upload_name(request.query_params.get("name"))
        size = int(request.headers.get("content-length") or 0)
        if size > MAX_BYTES:
            return _error(413, f"{name}: {size:,} bytes; the viewer opens files of at most "
                               f"{MAX_BYTES:,}", request)
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BYTES:
                return _error(413, f"{name}: more than {MAX_BYTES:,} bytes", request)
        if not data:
            return _error(400, f"{name}: an empty file is not a save, transcript, scenario "
                               "or results store", request)
        return await self._answer(request, self.book.open, bytes(data), name)

    async def replay(self, request: Request) -> Response:
        rid = request.path_params["rid"]
        if rid.startswith(GAME):
            try:
                rec, views = await self._played(request, rid)
            except SourceError as err:
                return _error(404, str(err), request)
            return await self._answer(request, self.book.summary_of, rid, rec, views)
        return await self._answer(request, self.book.summary, rid)

    async def replay_step(self, request: Request) -> Response:
        text = request.path_params["step"]
        if not text.isdigit():
            return _error(404, f"there is no step {text[:40]!r}: a step is a number, from 0",
                          request)
        rid = request.path_params["rid"]
        view = request.query_params.get("view", "p1")[:20]
        if rid.startswith(GAME):
            try:
                rec, views = await self._played(request, rid)
            except SourceError as err:
                return _error(404, str(err), request)
            if view not in views and view in seat_names(rec.start):
                return _error(403, f"{view}'s view of a game not yet over is for the browser "
                              f"that holds {view}'s seat; anyone may choose "
                              + ", ".join(views), request)
            names = self._names(rid)
            return await self._answer(request, lambda *a: {**self.book.step_of(*a),
                                                           "names": names},
                                      rid, rec, int(text), view, views)
        return await self._answer(request, self.book.step, rid, int(text), view)

    async def _played(self, request: Request, rid: str) -> tuple[Recording, list[str]]:
        """A game of this server's (`game-ID`), as played so far, and the views the asker
        may choose: the public view; a seat's for its token's holder (every seat's once the
        game is over); everything once it is over. Read on the server's loop (the game as
        it is between two moves), recorded again only when a move was made since."""
        gid = rid[len(GAME):]
        live = self.lobby.games.get(gid) if self.lobby is not None else None
        if live is None:
            raise SourceError(f"there is no game {gid[:40]!r} on this server")
        st = live.state
        n = len(st.history)
        cached = self.played.get(gid)
        if cached is None or cached[0] != n:
            title = f"{st.TITLE}{' “' + live.name + '”' if live.name else ''} (game {gid})"
            cached = self.played[gid] = n, from_game(st.clone(), title, "server")
            while len(self.played) > KEEP:
                self.played.popitem(last=False)
        self.played.move_to_end(gid)
        seats = seat_names(st)
        over = st.outcome is not None
        held = self.lobby.seat_of_token(live, request.headers.get(TOKEN_HEADER))
        mine = seats if over else [seats[held.index]] if held is not None else []
        return cached[1], [*mine, PUBLIC, *([ALL] if over else [])]

    def _names(self, rid: str) -> dict[str, str]:
        """The names the persons of a game of this server's gave, by seat (none for a bot's
        seat or a person who gave none): public, as the lobby lists them."""
        live = self.lobby.games.get(rid[len(GAME):]) if self.lobby is not None else None
        if live is None:
            return {}
        return {s.summary()["seat"]: s.name for s in live.seats if s.kind == "person" and s.name}

    async def _answer(self, request: Request, fn: Any, *args: Any) -> Response:
        """fn(*args) as JSON, in a worker thread (a replay may take a moment); a file or
        address the viewer cannot use is a JSON error naming what was wrong."""
        try:
            return JSONResponse(await asyncio.to_thread(fn, *args))
        except SourceError as err:
            status = 404 if "there is no" in str(err) or "not open" in str(err) else 400
            return _error(status, str(err), request)
        except ArtError as err:
            return _error(400, str(err), request)
        except Exception as err:  # a bug: one line in the log, a message in the page (not
            # the error's text, which may name the server's files: the log has it)
            LOG.error("%s %s: the server failed: %s: %s", request.method, request.url.path,
                      type(err).__name__, (str(err).splitlines() or [""])[0])
            return JSONResponse({"error": f"the server failed ({type(err).__name__}): a "
                                 "bug, which the server's log tells more of"}, status_code=500)

    async def watch(self, request: Request) -> Response:
        if self.watcher is None:
            return _error(404, "this server watches no file: start it with "
                               "`artproject serve --watch FILE`", request)
        return await self._answer(request, self.watcher.read)

    async def watch_socket(self, ws: WebSocket) -> None:
        """Tells the page each time the watched file changes (it then reads /api/watch)."""
        if not same_origin(ws.headers.get("origin"), ws.headers.get("host"), self.origins):
            await ws.close(code=1008, reason="cross-site request refused")
            return
        await ws.accept()
        if self.watcher is None:
            await ws.close(code=1000, reason="no file watched")
            return
        try:
            async for version in self.watcher.changes():
                await ws.send_json({"version": version})
        except (WebSocketDisconnect, RuntimeError, OSError):
            return

    def routes(self) -> list[BaseRoute]:
        pages: list[BaseRoute] = [Route(p, self.page) for p in PAGES]
        return [
            *pages,
            Route("/api/replays", self.open_replay, methods=["POST"]),
            Route("/api/replays/{rid}", self.replay),
            Route("/api/replays/{rid}/{step}", self.replay_step),
            Route("/api/watch", self.watch),
            WebSocketRoute("/api/watch/socket", self.watch_socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]


def upload_name(raw: str | None) -> str:
    """The name a file sent to the viewer is shown by (`?name=`, the file's name in the
    browser): its last part after any folder, without control characters, at most 200
    characters; "upload" when that leaves no name ('', '.', '..')."""
    text = "".join(ch for ch in raw or "" if ch.isprintable())
    name = text.replace("\\", "/").rsplit("/", 1)[-1].strip()[:200]
    return name if name not in ("", ".", "..") else "upload"


def routes(watch: str | Path | None = None, book: Book | None = None,
           lobby: Any = None, origins: frozenset[str] = frozenset()) -> list[BaseRoute]:
    """The web client's routes, for `artproject serve`'s application to include (`lobby`:
    its games, which the replay viewer then shows as `game-ID`; `origins`: the web origins
    its `--origin` allows besides its own, as the lobby's routes allow them)."""
    return Web(book, watch, lobby, origins).routes()


def app(watch: str | Path | None = None) -> Starlette:
    """An application of the web client's routes alone."""
    return Starlette(routes=routes(watch))
