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
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Final, TypeVar, cast

from ..core.hooks import NOBODY
from ..core.sources import shipped_only
from .sources import Recording, SourceError, digest_of, from_store, open_bytes
from .views import (
    ALL,
    PUBLIC,
    decision_labels,
    everything_frame,
    public_frame,
    seat_frame,
    seat_names,
    table,
)

KEEP: Final = 32  # files and recordings kept open (the least recently used go first)
# the bytes the files kept open may hold, a store's listed games counted at about what each
# takes in memory (a list of 100,000 measured 96 MB): the least recently used go first, so
# that files sent to the server (up to 32 MiB each) cannot hold its memory (the newest stays)
KEPT_BYTES: Final = 256 * 2**20
LISTED_BYTES: Final = 1000
SHIPPED: Final = ("missions", "cards")  # the data packages of every game's shipped files


F = TypeVar("F", bound=Callable[..., Any])


def _locked(fn: F) -> F:
    """The method with the book's lock held."""
    @functools.wraps(fn)
    def run(self: Book, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            return fn(self, *args, **kwargs)
    return cast(F, run)


def _trusted(local: bool) -> AbstractContextManager[None]:
    """Where a file's rule files may be: anywhere for the server's own command line's
    (`local`), else only among the shipped ones (`shipped_only`)."""
    return nullcontext() if local else shipped_only(SHIPPED)


class Book:
    """The files and recordings open in the viewer, by id (least recently used dropped)."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self.files: OrderedDict[str, tuple[bytes, str, bool]] = OrderedDict()  # (local?)
        self.recordings: OrderedDict[str, Recording] = OrderedDict()
        self.stores: dict[str, list[dict[str, Any]]] = {}
        # the server answers in worker threads: one at a time here (a replay's frames, the
        # least-recently-used order)
        self.lock = threading.RLock()

    def _remember(self, table: OrderedDict[str, Any], key: str, value: Any) -> None:
        table[key] = value
        table.move_to_end(key)
        while len(table) > self.keep or (table is self.files and len(table) > 1
                                          and self._kept_bytes() > KEPT_BYTES):
            old, _ = table.popitem(last=False)
            self.stores.pop(old, None)

    def _kept_bytes(self) -> int:
        """What the files kept open take, about: their bytes and their stores' lists."""
        return sum(len(data) + LISTED_BYTES * len(self.stores.get(rid, ()))
                   for rid, (data, _, _) in self.files.items())

    @_locked
    def open(self, data: bytes, name: str, local: bool = False) -> dict[str, Any]:
        """Open a file: a recording's summary, or a store's list of games (SourceError).

        A file sent to the server may name only shipped rule files, by name
        (`shipped_only`); one the server's own command line names (`local`: `serve
        --replay`) may name any, as the command line's tools read them."""
        rid = digest_of(data)
        if rid in self.recordings:
            return self.summary(rid)
        local = local or (rid in self.files and self.files[rid][2])
        with _trusted(local):
            got = open_bytes(data, name)
        if isinstance(got, list):
            self.stores[rid] = got  # (before the file: its list counts in what is kept)
            self._remember(self.files, rid, (data, name, local))
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
            data, name, local = self.files[digest]
            with _trusted(local):
                rec = from_store(data, name, int(index))
            self._remember(self.recordings, rid, rec)
            return rec
        raise SourceError(f"replay {rid!r} is not open on this server (the server may have "
                          "restarted since): open its file again, and the same links work")

    @_locked
    def summary(self, rid: str) -> dict[str, Any]:
        """What the viewer shows of a recording before a step: title, steps, seats (of a
        store opened: the list of its games)."""
        if rid in self.stores:
            return {"id": rid, "kind": "store", "name": self.files[rid][1],
                    "games": self.stores[rid]}
        return self.summary_of(rid, self.recording(rid))

    @_locked
    def summary_of(self, rid: str, rec: Recording, views: list[str] | None = None,
                   ) -> dict[str, Any]:
        """A recording's summary; `views`: those it may be seen as (default: every seat's,
        the public view, and everything for a finished game)."""
        over = rec.over()
        if views is None:
            views = [*seat_names(rec.start), PUBLIC, *([ALL] if over else [])]
        return {"id": rid, "kind": rec.kind, "title": rec.title, "steps": rec.steps,
                "game": rec.start.game, "seats": seat_names(rec.start), "views": views,
                "over": over}

    @_locked
    def step(self, rid: str, k: int, view: str) -> dict[str, Any]:
        """Step `k` of a recording as `view` (a seat's name, `public`, or `all` for a
        finished game) saw it, with the decision that led there."""
        return self.step_of(rid, self.recording(rid), k, view)

    @_locked
    def step_of(self, rid: str, rec: Recording, k: int, view: str,
                views: list[str] | None = None) -> dict[str, Any]:
        """Step `k` of `rec` as `view` saw it, if `view` is one of `views` (summary_of's)."""
        summary = self.summary_of(rid, rec, views)
        seats = seat_names(rec.start)
        if view == ALL and not rec.over():
            raise SourceError("everything is shown only for a finished game: choose "
                              + ", ".join(summary["views"]))
        if view not in summary["views"]:
            known = view in seats
            raise SourceError((f"{view} is not yours to see: " if known else
                               f"no view {view!r}: ") + "choose "
                              + ", ".join(summary["views"]))
        st = rec.at(k)
        before = rec.at(k - 1) if k > 0 else None
        if view == ALL:
            frame, whose = everything_frame(st, before), None
        elif view == PUBLIC:
            frame, whose = public_frame(st, before), NOBODY
        else:
            frame, whose = seat_frame(st, seats.index(view), before), seats.index(view)
        labels = decision_labels(rec.at(rec.steps), whose)
        return {**summary, **frame, "step": k, "viewer": view, "decisions": labels,
                "led": labels[k - 1] if k > 0 else None, "table": table(st)}
