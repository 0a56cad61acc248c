"""Which web origins may use the server: what the lobby's routes and the web client's both
ask (a module of its own, so that the web client need not import the server's routes)."""

from __future__ import annotations

from urllib.parse import urlsplit


def same_origin(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """Whether a request's Origin may use the server: none (not a browser page), the
    server's own (its Host), or one given with --origin."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc == host
