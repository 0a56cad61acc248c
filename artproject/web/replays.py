"""The replay viewer's side of the server: the files opened (kept in memory, by the digest of
their bytes, so the same file opened again has the same links) and each step as a view.

A step's view is the game after that many decisions as a seat saw it (the game's views
hook, built from its observation and information state) or, for a finished game, everything
(every hand, every event). The viewer never names a game.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

from .sources import Recording, SourceError, digest_of, from_store, open_bytes
from .views import ALL, decision_labels, everything_frame, seat_frame, seat_names, table

KEEP: Final = 32  # files and recordings kept open (the least recently used go first)


F = TypeVar("F", bound=Callable[..., Any])


def _locked(fn: F) -> F:
    """The method with the book's lock held."""
    @functools.wraps(fn)
    def run(self: Book, *args: Any) -> Any:
        with self.lock:
            return fn(self, *args)
    return cast(F, run)


class Book:
    """The files and recordings open in the viewer, by id (least recently used dropped)."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self.files: OrderedDict[str, tuple[bytes, str]] = OrderedDict()
        self.recordings: OrderedDict[str, Recording] = OrderedDict()
        self.stores: dict[str, list[dict[str, Any]]] = {}
        # the server answers in worker threads: one at a time here (a replay's frames, the
        # least-recently-used order)
        self.lock = threading.RLock()

    def _remember(self, table: OrderedDict[str, Any], key: str, value: Any) -> None:
        table[key] = value
        table.move_to_end(key)
        while len(table) > self.keep:
            old, _ = table.popitem(last=False)
            self.stores.pop(old, None)

    @_locked
    def open(self, data: bytes, name: str) -> dict[str, Any]:
        """Open a file: a recording's summary, or a store's list of games (SourceError)."""
        rid = digest_of(data)
        if rid in self.recordings:
            return self.summary(rid)
        got = open_bytes(data, name)
        if isinstance(got, list):
            self._remember(self.files, rid, (data, name))
            self.stores[rid] = got
            return {"id": rid, "kind": "store", "name": name, "games": got}
        self._remember(self.recordings, rid, got)
        return self.summary(rid)

    @_locked
    def recording(self, rid: str) -> Recording:
        """An open recording; a store's game (`DIGEST.N`) is played again when first asked."""
        rec = self.recordings.get(rid)
        if rec is not None:
            self.recordings.move_to_end(rid)
            return rec
        digest, _, index = rid.partition(".")
        if digest in self.files and index.isdigit():
            data, name = self.files[digest]
            rec = from_store(data, name, int(index))
            self._remember(self.recordings, rid, rec)
            return rec
        raise SourceError(f"replay {rid!r} is not open on this server (the server may have "
                          "restarted since): open its file again, and the same links work")

    @_locked
    def summary(self, rid: str) -> dict[str, Any]:
        """What the viewer shows of a recording before a step: title, steps, seats."""
        rec = self.recording(rid)
        over = rec.over()
        return {"id": rid, "kind": rec.kind, "title": rec.title, "steps": rec.steps,
                "game": rec.start.game, "seats": seat_names(rec.start),
                "views": [*seat_names(rec.start), *([ALL] if over else [])], "over": over}

    @_locked
    def step(self, rid: str, k: int, view: str) -> dict[str, Any]:
        """Step `k` of a recording as `view` (a seat's name, or `all` for a finished game)
        saw it, with the decision that led there."""
        rec = self.recording(rid)
        seats = seat_names(rec.start)
        if view != ALL and view not in seats:
            raise SourceError(f"no seat {view!r}: this game's seats are {', '.join(seats)}"
                              + (", or all" if rec.over() else ""))
        if view == ALL and not rec.over():
            raise SourceError("everything is shown only for a finished game: choose a seat "
                              f"({', '.join(seats)})")
        st = rec.at(k)
        before = rec.at(k - 1) if k > 0 else None
        frame = (everything_frame(st, before) if view == ALL
                 else seat_frame(st, seats.index(view), before))
        labels = decision_labels(rec.at(rec.steps), None if view == ALL
                                 else seats.index(view))
        return {**self.summary(rid), **frame, "step": k, "viewer": view, "decisions": labels,
                "led": labels[k - 1] if k > 0 else None, "table": table(st)}
