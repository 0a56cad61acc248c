"""`artproject serve`: a game server where each person plays from their own device
(docs/server.md). Imported only by the `serve` command: nothing here is on the engine's
import path. Needs the `web` extra (starlette, uvicorn, websockets).
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from ..core.errors import GameError

DEFAULT_DB: Final = "artproject-server.db"


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: any free one); GameError saying why not."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, _, _, _, addr = infos[0]
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(2048)
    except (OSError, UnicodeError) as err:
        raise GameError(f"cannot listen on {host}:{port}: "
                        f"{getattr(err, 'strerror', None) or err}") from None
    sock.setblocking(False)
    return sock


def make_server(lobby: Any, origins: Iterable[str] = ()) -> Any:
    """A uvicorn server of the app serving `lobby` (`.run(sockets=[...])` serves): no access
    log (nothing a request carries is logged), messages over PROTOCOL_LIMIT closed."""
    import uvicorn
    from uvicorn.config import WS_PROTOCOLS

    from .app import PROTOCOL_LIMIT, make_app

    sansio = "websockets-sansio"  # uvicorn 0.35's; the older implementation before it
    config = uvicorn.Config(make_app(lobby, frozenset(origins)), log_level="warning",
                            access_log=False,
                            ws=sansio if sansio in WS_PROTOCOLS else "websockets",
                            ws_max_size=PROTOCOL_LIMIT, lifespan="on", server_header=False,
                            timeout_keep_alive=30)
    return _server_class(uvicorn.Server)(config)


def _server_class(base: type) -> type:
    """uvicorn's server, but one started with SIGINT ignored (`nohup`, a script's `command
    &`) keeps ignoring it, as Python and the other commands do (docs/cli.md): uvicorn would
    take it over, stop on a Ctrl-C meant for others and exit 0; SIGTERM stops it still."""
    import contextlib
    import signal
    import threading
    from collections.abc import Iterator

    class Server(base):  # type: ignore[misc]
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            ignored = (threading.current_thread() is threading.main_thread()
                       and signal.getsignal(signal.SIGINT) is signal.SIG_IGN)
            with super().capture_signals():
                if ignored:  # (uvicorn restores the ignore as it leaves)
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
                yield

    return Server


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | Path = DEFAULT_DB,
          origins: Iterable[str] = (), notes: Iterable[tuple[str, str]] = ()) -> int:
    """Serve until interrupted (KeyboardInterrupt, after every connection is closed);
    `notes`: (what, path) lines printed with the server's address (--replay's page)."""
    try:
        import uvicorn  # noqa: F401 (its absence said in one line)
    except ImportError:
        from ..extras import needs

        raise GameError(needs("serve", "web")) from None
    from .lobby import Lobby
    from .store import Store

    # the port first: a server that cannot listen creates no database (nor touches one)
    sock = listen(host, port)
    try:
        store = Store(Path(db))
    except BaseException:
        sock.close()
        raise
    lobby = Lobby(store)
    try:
        lobby.load()
        bound = sock.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        print(f"artproject serve: http://{shown}:{bound} (games in {db})", flush=True)
        for what, path in notes:
            print(f"artproject serve: {what}: http://{shown}:{bound}{path}", flush=True)
        server = make_server(lobby, origins)
        server.run(sockets=[sock])
    finally:
        store.close()
        sock.close()
    if server.started is False:
        print("artproject serve: the server did not start", file=sys.stderr)
        return 1
    return 0
