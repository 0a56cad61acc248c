"""A cache on disk of work made from files (compiled rules, `check`'s verdicts), keyed by
the files' contents: safe to delete, never stale, written atomically.

An entry is found by its key (what was asked: the request, the folder it was asked from,
Python's version, the engine's own code by content and where it lies) and holds what it
was made from: every file read while it was made, by the sha256 of its bytes, and every
file looked for, there or not (core/files.py's `watched`). A hit reads and hashes each of
those files again; any difference, or an entry that cannot be read, is a miss, and the
entry is made afresh.

Where: `$XDG_CACHE_HOME/artproject`, else `~/.cache/artproject`. Off: `ARTPROJECT_CACHE=off`
(also 0, no, false). An entry that cannot be written is simply not kept. Entries are pickles
and marshalled code, so the folder is used only when it is this user's own and no one else
may write in it (it is made 0700); deleting it at any time costs one slower load.

Threads: rules may be loaded by several threads at once (a server's). `watching` notes only
its own thread's reads (and those of work given its context: contextvars, as asyncio does):
another thread's reads, of files this entry was not made from, would only make it a miss
more often, but a file read twice, changed in between, could be noted with the other
thread's hash, and the entry kept as made from bytes it never read. So core/files.py's
`WATCHERS` holds, while any block watches, one dispatcher that gives each read to the
watchers of the context it was made in; it is added and removed under a lock, never while
a block still watches (a list changed under a thread walking it may skip an entry).
"""

from __future__ import annotations

import marshal
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path

from . import files

TYPE_CHECKING = False  # typing itself is not imported: `check`'s start is the shorter
if TYPE_CHECKING:
    from typing import Any, Final

FORMAT: Final = 1  # the entries' layout; a change makes every old entry a miss
MAX_ENTRIES: Final = 512  # beyond this many, writing one removes the oldest
OFF: Final = ("off", "0", "no", "false")

_code: str | None = None  # the engine's code, by content (worked out once a process)


def folder() -> Path | None:
    """The cache's folder, or None when the cache is off."""
    if os.environ.get("ARTPROJECT_CACHE", "").strip().lower() in OFF:
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not base or not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "artproject"


def code_digest() -> str:
    """The sha256 of the engine's own code (every .py and .lark file of the package: the
    command line, the kernel and every game under it, the DSL): a changed engine never reads
    another's entries."""
    global _code
    if _code is None:
        here = Path(__file__).resolve().parent  # core/
        top = Path(sys.modules["artproject"].__file__ or "").resolve().parent
        dsl = here.parent / "dsl"
        h = files.sha256()
        for root in sorted({top, here, dsl}):
            for d, dirs, names in os.walk(root):  # (each folder once: installed, core/ and
                dirs[:] = sorted(x for x in dirs  # dsl/ are inside the package's folder)
                                 if x != "__pycache__" and Path(d) / x not in (here, dsl))
                for name in sorted(names):
                    if name.endswith((".py", ".lark")):
                        h.update(os.path.relpath(os.path.join(d, name), root).encode())
                        with open(os.path.join(d, name), "rb") as f:
                            h.update(files.sha256(f.read()).digest())
        _code = h.hexdigest()
    return _code


def _safe(where: Path) -> bool:
    """Whether the folder is this user's own and no one else may write in it (an entry is
    code: one planted by another user would run). A folder not made yet is made so."""
    try:
        info = os.stat(where)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return mine and not info.st_mode & 0o022


def _path(kind: str, request: Any) -> Path | None:
    where = folder()
    if where is None or not _safe(where):
        return None
    # the package's own place too: two copies of the same code (two checkouts) read their
    # own data folders, so a shipped file asked for by name is a different file in each
    key = repr((FORMAT, sys.version, code_digest(), sys.modules["artproject"].__file__,
                os.getcwd(), kind, request))
    return where / f"{kind}-{files.sha256(key.encode()).hexdigest()[:40]}"


def _fresh(deps: Any) -> bool:
    """Whether every file an entry was made from is as it was then."""
    for path, found in deps:
        if found == "-" or found == "+":
            if os.path.lexists(path) != (found == "+"):
                return False
            continue
        try:
            with open(path, "rb") as f:
                data = f.read(files.MAX_FILE_BYTES + 1)
        except OSError:
            return False
        if files.sha256(data).hexdigest() != found:
            return False
    return True


def lookup(kind: str, request: Any) -> bytes | None:
    """The payload kept for `request`, if its files are unchanged; None otherwise."""
    try:
        path = _path(kind, request)
        if path is None:
            return None
        with open(path, "rb") as f:
            fmt, deps, payload = marshal.load(f)
        if fmt != FORMAT or not isinstance(payload, bytes) or not _fresh(deps):
            return None
    except Exception:  # a missing, torn or foreign entry: a miss, whatever it held
        return None
    if files.WATCHERS:  # an entry used while another is made: its files are that one's too
        for path, found in deps:
            files.watched(path, found)
    return payload


# the watchers of this context's blocks, innermost last (each a dict: `watching`)
_MINE: ContextVar[tuple[dict[str, str], ...]] = ContextVar("artproject_watchers", default=())
_LOCK = threading.Lock()  # `_open` and the dispatcher's place in files.WATCHERS change under it
_open = 0  # blocks watching now, in every thread


class _Dispatch(dict[str, str]):
    """files.WATCHERS' one entry while any block watches: what core/files.py notes of a read
    goes to the watchers of the reading context only (holds nothing itself)."""

    def __setitem__(self, key: str, found: str) -> None:
        for w in _MINE.get():
            w[key] = found

    def setdefault(self, key: str, found: str = "") -> str:
        for w in _MINE.get():
            w.setdefault(key, found)
        return found


_DISPATCH: Final = _Dispatch()


@contextmanager
def watching() -> Iterator[dict[str, str]]:
    """Note every file read or looked for in the block, by this thread (path -> sha256, "+"
    or "-"): not another thread's reads (see the module's text)."""
    global _open
    seen: dict[str, str] = {}
    mark = _MINE.set((*_MINE.get(), seen))
    with _LOCK:
        _open += 1
        if _open == 1:
            files.WATCHERS.append(_DISPATCH)
    try:
        yield seen
    finally:
        _MINE.reset(mark)
        with _LOCK:
            _open -= 1
            if _open == 0:
                # by identity: `list.remove` compares by `==`, and any two empty dicts are equal
                files.WATCHERS[:] = [w for w in files.WATCHERS if w is not _DISPATCH]


def store(kind: str, request: Any, deps: dict[str, str], payload: bytes) -> None:
    """Keep `payload` for `request`, made from `deps`; quietly nothing if it cannot be."""
    tmp = None
    try:
        path = _path(kind, request)
        if path is None:
            return
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        data = marshal.dumps((FORMAT, tuple(sorted(deps.items())), payload))
        import tempfile

        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)  # a reader sees the old entry or the new, never half
        tmp = None
        _prune(path.parent)
    except Exception:  # a full disk, a read-only home: the cache is only a shortcut
        pass
    finally:
        if tmp is not None:
            with suppress(OSError):
                os.unlink(tmp)


def _prune(where: Path) -> None:
    """Keep the newest MAX_ENTRIES entries (old code's entries are never read again)."""
    with os.scandir(where) as it:
        entries = [e for e in it if e.is_file() and not e.name.startswith(".")]
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda e: e.stat().st_mtime_ns)
    for e in entries[:len(entries) - MAX_ENTRIES]:
        with suppress(OSError):
            os.unlink(e.path)
