"""The web client's routes: the pages (one HTML shell, its scripts and styles, shipped in the
package: no build step, nothing from the internet), the replay viewer's API and the mission
watcher's (`serve --watch FILE`).

`routes(...)` is what `artproject serve`'s application includes; `app(...)` is a whole
application of these routes alone (tests, a viewer without the lobby).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.errors import ArtError
from .replays import Book
from .sources import MAX_BYTES, SourceError
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


class Web:
    """The web client's state on the server: the replays open, the file watched."""

    def __init__(self, book: Book | None = None, watch: str | Path | None = None) -> None:
        self.book = book or Book()
        self.watcher = Watcher(Path(watch)) if watch is not None else None

    async def page(self, request: Request) -> Response:
        """Every page is the same shell; its script reads the address and draws the page."""
        return FileResponse(STATIC / "index.html", media_type="text/html",
                            headers={"Cache-Control": "no-cache"})

    async def open_replay(self, request: Request) -> Response:
        if not same_origin(request.headers.get("origin"), request.headers.get("host")):
            return _error(403, "a page of another origin may not open files here", request)
        name = request.query_params.get("name", "upload")[:200]
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
        return await self._answer(request, self.book.summary, request.path_params["rid"])

    async def replay_step(self, request: Request) -> Response:
        text = request.path_params["step"]
        if not text.isdigit():
            return _error(404, f"there is no step {text[:40]!r}: a step is a number, from 0",
                          request)
        view = request.query_params.get("view", "p1")[:20]
        return await self._answer(request, self.book.step, request.path_params["rid"],
                                  int(text), view)

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
        except Exception as err:  # a bug: one line in the log, a message in the page
            return _error(500, f"the server failed: {type(err).__name__}: {err}", request)

    async def watch(self, request: Request) -> Response:
        if self.watcher is None:
            return _error(404, "this server watches no file: start it with "
                               "`artproject serve --watch FILE`", request)
        return await self._answer(request, self.watcher.read)

    async def watch_socket(self, ws: WebSocket) -> None:
        """Tells the page each time the watched file changes (it then reads /api/watch)."""
        if not same_origin(ws.headers.get("origin"), ws.headers.get("host")):
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


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a WebSocket's Origin is the page's own server (no Origin: not a browser)."""
    if origin is None:
        return True
    return host is not None and origin.split("://", 1)[-1].rstrip("/") == host


def routes(watch: str | Path | None = None, book: Book | None = None) -> list[BaseRoute]:
    """The web client's routes, for `artproject serve`'s application to include."""
    return Web(book, watch).routes()


def app(watch: str | Path | None = None) -> Starlette:
    """An application of the web client's routes alone."""
    return Starlette(routes=routes(watch))
