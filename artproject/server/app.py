"""The server's routes: the lobby's JSON endpoints and the play WebSocket (docs/server.md).

Starlette: a list of routes and a few small endpoints; what they know of a game they ask the
lobby (lobby.py), and what a connection is told it is told by `frames.frame`. Every bad
request or message is answered with a JSON error naming what was wrong, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..core.hooks import NOBODY
from ..web.views import table as table_of
from .live import Conn, Live, P, Refused
from .lobby import Lobby
from .origins import same_origin

MESSAGE_LIMIT: Final = 4096  # bytes in a message or a lobby body
PROTOCOL_LIMIT: Final = 16384  # a WebSocket message over this is closed by the protocol (1009)
RATE: Final = 20.0  # messages a second a connection may send...
BURST: Final = 40.0  # ...in bursts of this many
FLOOD: Final = 100  # messages refused in a row before the connection is closed
HELLO_WAIT: Final = 10.0  # seconds to say hello
ID_LIMIT: Final = 64
TYPES: Final = ("hello", "move", "sync", "ping")
NOT_UNICODE: Final = ("text must be Unicode that UTF-8 encodes: a lone surrogate (\\ud800 to "
                      "\\udfff, unpaired) is not")


class Bucket:
    """A token bucket: RATE messages a second, BURST at once."""

    def __init__(self) -> None:
        self.tokens, self.at, self.refused = BURST, time.monotonic(), 0

    def take(self) -> bool:
        t = time.monotonic()
        self.tokens = min(BURST, self.tokens + (t - self.at) * RATE)
        self.at = t
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.refused = 0
            return True
        self.refused += 1
        return False


def make_app(lobby: Lobby, origins: frozenset[str] = frozenset()) -> Starlette:
    """The ASGI application serving `lobby`."""

    def refuse(code: str, message: str, status: int) -> JSONResponse:
        return JSONResponse({"error": code, "message": message}, status)

    async def body_of(request: Request) -> dict[str, Any]:
        if not same_origin(request.headers.get("origin"), request.headers.get("host"),
                           origins):
            raise Refused("origin", "a page of another origin may not use this server", 403)
        kind = request.headers.get("content-type", "").split(";")[0].strip()
        if kind != "application/json":
            raise Refused("bad-message", "send JSON (Content-Type: application/json)", 415)
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > MESSAGE_LIMIT:
                raise Refused("too-large", f"a body is at most {MESSAGE_LIMIT} bytes", 413)
        try:
            body = json.loads(data or b"{}")
        except (ValueError, RecursionError):
            raise Refused("bad-json", "the body is not JSON") from None
        if not isinstance(body, dict):
            raise Refused("bad-json", "the body must be a JSON object")
        if not _unicode(body):
            raise Refused("bad-message", NOT_UNICODE)
        return body

    def endpoint(fn: Callable[[Request], Awaitable[Response]]) -> Callable[
            [Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            try:
                return await fn(request)
            except Refused as err:
                return refuse(err.code, err.message, err.status)
        return run

    @endpoint
    async def catalog(request: Request) -> Response:
        return JSONResponse(Lobby.catalog())

    @endpoint
    async def games(request: Request) -> Response:
        every = request.query_params.get("all") in ("1", "true", "yes")
        out = [g.summary() for g in lobby.games.values()
               if every or (g.open_seats() and g.state.outcome is None)]
        return JSONResponse({"games": out})

    @endpoint
    async def create(request: Request) -> Response:
        live = await lobby.create(await body_of(request))
        return JSONResponse(live.summary(), 201)

    @endpoint
    async def one(request: Request) -> Response:
        return JSONResponse(lobby.get(request.path_params["gid"]).summary())

    @endpoint
    async def table(request: Request) -> Response:
        return JSONResponse(table_of(lobby.get(request.path_params["gid"]).state))

    @endpoint
    async def join(request: Request) -> Response:
        body = await body_of(request)
        live = lobby.get(request.path_params["gid"])
        seat, token = await lobby.join(live, body)
        return JSONResponse({"game": live.id, "seat": P[seat.index], "token": token,
                             "ws": f"/ws/games/{live.id}"})

    @endpoint
    async def leave(request: Request) -> Response:
        body = await body_of(request)
        live = lobby.get(request.path_params["gid"])
        seat = await lobby.leave(live, body.get("token"))
        return JSONResponse({"left": P[seat.index]})

    async def play(ws: WebSocket) -> None:
        if not same_origin(ws.headers.get("origin"), ws.headers.get("host"), origins):
            await ws.close(4403)  # before the handshake is accepted: answered HTTP 403
            return
        live = lobby.games.get(ws.path_params["gid"])
        await ws.accept()
        if live is None:
            await ws.send_text(json.dumps({"type": "error", "code": "no-such-game",
                                           "message": "no such game"}))
            await ws.close(4404)
            return
        await Session(lobby, live, ws).run()

    routes: list[BaseRoute] = [
        Route("/api/catalog", catalog),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{gid}", one),
        Route("/api/games/{gid}/table", table),
        Route("/api/games/{gid}/join", join, methods=["POST"]),
        Route("/api/games/{gid}/leave", leave, methods=["POST"]),
        WebSocketRoute("/ws/games/{gid}", play),
        *_web_routes(lobby, origins),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        lobby.start_bots()
        yield
        await lobby.stop()

    async def not_found(request: Request, exc: Exception) -> Response:
        return refuse("not-found", "no such endpoint", 404)

    async def failed(request: Request, exc: Exception) -> Response:
        return refuse("internal", "the server failed on this request", 500)

    return Starlette(routes=routes, lifespan=lifespan,
                     exception_handlers={404: not_found, 405: not_found, 500: failed})


def _web_routes(lobby: Lobby, origins: frozenset[str]) -> list[BaseRoute]:
    """The browser client's routes (artproject.web.routes(lobby, origins)), when it is
    installed: its replay viewer shows the lobby's games too, and lets the pages of the
    origins `--origin` allows open files and watch, as the lobby's routes let them play."""
    try:
        from .. import web  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return []
    routes = getattr(web, "routes", None)
    return list(routes(lobby, origins)) if callable(routes) else []


class Session:
    """One play connection: hello, then moves, each answered; frames sent by a task of its
    own, in order."""

    def __init__(self, lobby: Lobby, live: Live, ws: WebSocket) -> None:
        self.lobby, self.live, self.ws = lobby, live, ws
        self.conn: Conn | None = None
        self.bucket = Bucket()

    async def send(self, msg: dict[str, Any]) -> None:
        if self.conn is not None:
            self.conn.put(msg)
        else:
            await self.ws.send_text(json.dumps(msg))

    async def error(self, code: str, message: str, cid: Any = None) -> None:
        msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if isinstance(cid, str) and len(cid) <= ID_LIMIT:
            msg["id"] = cid
        await self.send(msg)

    async def run(self) -> None:
        writer: asyncio.Task[None] | None = None
        try:
            try:
                first = await asyncio.wait_for(self.receive(), HELLO_WAIT)
            except TimeoutError:
                await self.error("hello-first", f"say hello within {HELLO_WAIT:.0f} seconds")
                await self.ws.close(4400)
                return
            if first is None or not await self.hello(first):
                return
            assert self.conn is not None
            writer = asyncio.get_running_loop().create_task(self.write(self.conn))
            while not self.conn.closed:
                text = await self.receive()
                if text is None or not await self.message(text):
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass  # the client went away
        finally:
            self.leave()
            if writer is not None:
                if self.conn is not None:
                    self.conn.close(self.conn.close_code)
                await writer

    async def receive(self) -> str | None:
        """The next message's text (a binary frame's: none that reads as JSON); None when
        the client has gone."""
        got = await self.ws.receive()
        if got["type"] == "websocket.disconnect":
            return None
        text = got.get("text")
        return text if isinstance(text, str) else "(a binary frame)"

    async def hello(self, text: str) -> bool:
        msg = _read(text)
        if isinstance(msg, dict) and not _unicode(msg):
            await self.error("bad-message", NOT_UNICODE)
            await self.ws.close(4400)
            return False
        if not isinstance(msg, dict) or msg.get("type") != "hello":
            await self.error("hello-first", "the first message must be {\"type\": \"hello\", "
                             "\"token\": ...} or {\"type\": \"hello\", \"spectate\": true}")
            await self.ws.close(4400)
            return False
        live = self.live
        if msg.get("spectate") is True and "token" not in msg:
            self.conn = Conn(NOBODY)
            live.spectators.add(self.conn)
        else:
            seat = self.lobby.seat_of_token(live, msg.get("token"))
            if seat is None:
                await self.error("bad-token", "that token holds no seat of this game")
                await self.ws.close(4401)
                return False
            self.conn = Conn(seat.index, seat.holder)
            seat.conns.add(self.conn)  # (before the welcome: it counts this connection)
            self.conn.put(self.lobby.welcome(live, self.conn))  # the answer to hello: first
            self.lobby.seats_changed(live, but=self.conn)  # (the others: one more connected)
            return True
        self.conn.put(self.lobby.welcome(live, self.conn))
        return True

    def leave(self) -> None:
        c, live = self.conn, self.live
        if c is None:
            return
        live.spectators.discard(c)
        if c.seat != NOBODY:
            live.seats[c.seat].conns.discard(c)
            if not self.lobby.stopping:
                self.lobby.seats_changed(live)

    async def write(self, conn: Conn) -> None:
        """Send the connection's frames in order; close it when told to."""
        try:
            while True:
                msg = await conn.queue.get()
                if msg is None:
                    break
                await self.ws.send_text(json.dumps(msg, separators=(",", ":")))
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        if self.ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
                await self.ws.close(conn.close_code)

    async def message(self, text: str) -> bool:
        """Answer one message; False when the connection is to be closed."""
        if not self.bucket.take():
            if self.bucket.refused > FLOOD:
                await self.error("rate-limited", "too many messages: closing")
                assert self.conn is not None
                self.conn.close(4429)
                return False
            if self.bucket.refused == 1:
                await self.error("rate-limited", f"at most {RATE:.0f} messages a second "
                                 f"(bursts of {BURST:.0f}); this one was dropped")
            return True
        if _too_large(text):
            await self.error("too-large", f"a message is at most {MESSAGE_LIMIT} bytes")
            return True
        msg = _read(text)
        if not isinstance(msg, dict):
            await self.error("bad-json", "a message must be a JSON object with a \"type\"")
            return True
        if not _unicode(msg):  # answered without its id: that may be the text at fault
            await self.error("bad-message", NOT_UNICODE)
            return True
        kind = msg.get("type")
        if kind == "move":
            await self.move(msg)
        elif kind == "ping":
            await self.send({"type": "pong"})
        elif kind == "sync":
            assert self.conn is not None
            self.conn.put(self.lobby.welcome(self.live, self.conn))
        elif kind == "hello":
            await self.error("hello-first", "hello was already said: closing")
            assert self.conn is not None
            self.conn.close(4400)
            return False
        else:
            shown = kind[:40] if isinstance(kind, str) else json.dumps(kind)[:40]
            await self.error("unknown-type", f"unknown message type {shown!r}; types: "
                             + ", ".join(TYPES))
        return True

    async def move(self, msg: dict[str, Any]) -> None:
        cid, action, version = msg.get("id"), msg.get("action"), msg.get("version")
        if not isinstance(cid, str) or not 1 <= len(cid) <= ID_LIMIT:
            await self.error("bad-message", f"a move needs an \"id\": text of 1 to {ID_LIMIT} "
                             "characters, unique to the move")
            return
        if not isinstance(action, str) or not action.strip():
            await self.error("bad-message", "a move needs an \"action\": the action's text, "
                             "such as \"done\"", cid)
            return
        if version is not None and (type(version) is not int or version < 0):
            await self.error("bad-message", "\"version\", when given, is a whole number", cid)
            return
        conn = self.conn
        assert conn is not None

        def ack(n: int) -> None:  # stored: the ack goes before anyone hears of the move
            conn.put({"type": "ack", "id": cid, "version": n, "duplicate": False})
        try:
            n, again = await self.lobby.move(self.live, conn.seat, action, cid, version, ack,
                                             conn.holder)
        except Refused as err:
            await self.error(err.code, err.message, cid)
            return
        if again:
            await self.send({"type": "ack", "id": cid, "version": n, "duplicate": True})


def _too_large(text: str) -> bool:
    """Whether a message is over MESSAGE_LIMIT bytes as it came (UTF-8: a character may
    take up to four; encoded only when it may be)."""
    return len(text) > MESSAGE_LIMIT // 4 and len(text.encode("utf-8", "surrogatepass")) > (
        MESSAGE_LIMIT)


def _unicode(msg: Any) -> bool:
    """Whether every text of a read message (its keys too) is one UTF-8 encodes: JSON's
    escapes may name a lone surrogate (`\\ud800`), which no UTF-8 encodes and so no name,
    move id or token may hold (the database could not store it)."""
    try:
        json.dumps(msg, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):
        return False
    return True


def _read(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None
