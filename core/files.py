"""Reading and writing the project's files safely: caps on size and depth, atomic writes.

Every rule file, scenario and save comes in through `read_text` (a regular file, at most
`MAX_FILE_BYTES`, UTF-8) and `check_nesting` (at most `MAX_NESTING` levels of brackets), so
no input can exhaust memory or the parsers' recursion. Every file the project writes goes
out through `write_atomic`: a temporary file in the same folder, renamed into place, with
the permissions the umask gives a new file, and never over an existing file unless asked.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path

from .errors import ArtError, GameError, Location, RulesError

TYPE_CHECKING = False  # typing itself is not imported: a command's start is the shorter
if TYPE_CHECKING:
    from typing import Any, Final

MAX_FILE_BYTES: Final = 2 * 1024 * 1024  # a rule file, scenario or save; ours are < 40 KB
MAX_NESTING: Final = 24  # levels of tables and arrays inside each other; ours use 4

# A piece of TOML or JSON that may hold a bracket that is not one: strings and comments.
_TOML_PIECES: Final = re.compile(
    r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]',
    re.S)
_JSON_PIECES: Final = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')

MakeError = Callable[[str], ArtError]

# What was read and looked for while a cache entry was being made (core/cache.py's
# `watching`): each file's absolute path -> the sha256 of the bytes read, or "+" (looked for
# and there) or "-" (looked for and not there). Empty, as it nearly always is, it costs a
# test per read.
WATCHERS: list[dict[str, str]] = []


def sha256(data: bytes = b"") -> Any:
    """A SHA-256 hash of `data` (hashlib's kind of object). CPython's own module when it has
    it: hashlib loads OpenSSL, milliseconds of a command's start (core/cache.py hashes on
    every start)."""
    global _SHA256
    if _SHA256 is None:
        try:
            from _sha2 import sha256 as make  # type: ignore[import-not-found]  # 3.12 on
        except ImportError:
            try:
                from _sha256 import sha256 as make  # type: ignore[import-not-found]  # 3.11
            except ImportError:
                from hashlib import sha256 as make
        _SHA256 = make
    return _SHA256(data)


_SHA256: Any = None


def watched(path: str | Path, found: str) -> None:
    """Note for the watchers what was found at `path`: the sha256 of what was read, or
    "+" / "-" (looked for: there, not there)."""
    key = os.path.abspath(path)
    for w in WATCHERS:
        if len(found) > 1:
            w[key] = found
        else:
            w.setdefault(key, found)  # what was read says more than that it was there


# Where files may be read from while content a client sent is handled (core/sources.py's
# `shipped_only`): the folders of the shipped files, each resolved and ending in a
# separator; None (as nearly always): anywhere. Outside them a file is neither read nor
# looked for, so nothing tells whether it is there.
CONFINED: ContextVar[tuple[str, ...] | None] = ContextVar("artproject_confined", default=None)
OUTSIDE: Final = ("not one of the rule files shipped with artproject: a file sent to a "
                  "server may name only those, by their names")


def outside(path: str | Path) -> bool:
    """Whether `path` lies outside the folders files may be read from now (`CONFINED`); a
    name that cannot be resolved lies outside."""
    roots = CONFINED.get()
    if roots is None:
        return False
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return True
    return not (real + os.sep).startswith(roots)


def rules_error(label: str) -> MakeError:
    """Errors about a rule file, located at the file."""
    return lambda msg: RulesError(msg, Location(label))


def read_text(path: str | Path, label: str | None = None,
              error: MakeError | None = None) -> str:
    """The text of a regular file of at most MAX_FILE_BYTES; `error` makes the refusal."""
    label = label or shorten(str(path))
    fail = error or rules_error(label)
    if outside(path):
        raise fail(OUTSIDE)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise fail("no such file") from None
    except (OSError, ValueError) as err:
        raise fail(f"cannot read this file: {_reason(err)}") from None
    if not stat.S_ISREG(info.st_mode):
        raise fail(f"not a regular file ({_kind(info.st_mode)}): give a TOML or JSON file")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise fail(f"cannot read this file: {_reason(err)}") from None
    if len(data) > MAX_FILE_BYTES:
        raise fail(f"too large: more than {MAX_FILE_BYTES // (1024 * 1024)} MiB "
                   "(rule files, scenarios and saves are far smaller)")
    if WATCHERS:
        watched(path, sha256(data).hexdigest())
    try:
        # utf-8-sig: a byte-order mark at the start (Windows Notepad writes one) is no part
        # of the text, which reads, and is placed line and column, as the author sees it
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        at = err.start + (len(data) - len(err.object))  # (counted past a byte-order mark)
        line, column, text = _placed(data, at)
        what = f"not UTF-8 text (byte 0x{data[at]:02x}): is this a rule file?"
        if error is None:  # at the byte's line and column, as any other mistake in a file
            raise RulesError(what, Location(label, line, column, text)) from None
        raise fail(f"line {line}, column {column}: {what}") from None


def _placed(data: bytes, at: int) -> tuple[int, int, str]:
    """The 1-based line and column of byte `at` of a file's bytes, and its line (what is not
    UTF-8 in it read as the replacement character): where an editor shows the byte."""
    start = data.rfind(b"\n", 0, at) + 1
    end = data.find(b"\n", at)
    if start == 0 and data.startswith(b"\xef\xbb\xbf"):  # no part of the first line
        start = 3
    line = data[start:len(data) if end < 0 else end]
    before = data[start:at].decode("utf-8", "replace")
    text = line.rstrip(b"\r").decode("utf-8", "replace")
    return data.count(b"\n", 0, at) + 1, len(before) + 1, text


def _kind(mode: int) -> str:
    return "a folder" if stat.S_ISDIR(mode) else "a device, pipe or socket"


def not_regular(path: str | Path) -> str | None:
    """What is at `path` when it is there but is no regular file ("a folder", "a device,
    pipe or socket", "a link to nothing"); None for a regular file or nothing at all."""
    if outside(path):
        return None
    try:
        return None if stat.S_ISREG(mode := os.stat(path).st_mode) else _kind(mode)
    except (OSError, ValueError):
        return "a link to nothing" if exists(path) else None


def unreadable(path: str | Path) -> str | None:
    """Why no rule file can be read at `path`, as `read_text` would say it ("no such file",
    "not a regular file (a folder)", "cannot read this file: Permission denied"); None when
    a regular file that opens is there. For a file named
    by another, whose reference is then the place to blame."""
    if not exists(path):
        return "no such file"
    odd = not_regular(path)
    if odd is not None:
        return f"not a regular file ({odd})"
    try:  # a file there that cannot be opened (no permission) is told at its reference too
        with open(path, "rb"):
            return None
    except OSError as err:
        return f"cannot read this file: {_reason(err)}"


def shorten(name: str, most: int = 160) -> str:
    """A file name as messages show it: a very long one shortened in the middle."""
    return name if len(name) <= most else f"{name[:most // 2]}...{name[-most // 2:]}"


def _reason(err: BaseException) -> str:
    import errno

    if getattr(err, "errno", None) == errno.ENAMETOOLONG:
        return "the name is too long for this file system (255 bytes a name at most)"
    return getattr(err, "strerror", None) or str(err)


def nesting(text: str, json: bool = False) -> tuple[int, int]:
    """The deepest nesting of brackets in TOML (or JSON) text, and the offset where it is."""
    deepest = depth = at = 0
    for m in (_JSON_PIECES if json else _TOML_PIECES).finditer(text):
        piece = m.group(0)
        if piece in "[{":
            depth += 1
            if depth > deepest:
                deepest, at = depth, m.start()
        elif piece in "]}":
            depth = max(depth - 1, 0)
    return deepest, at


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of an offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def doc_depth(doc: Any) -> int:
    """How deeply tables and lists nest in a parsed document (without recursion)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(doc, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            deepest = max(deepest, d)
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            deepest = max(deepest, d)
            stack.extend((x, d + 1) for x in v)
    return deepest


# ---------------------------------------------------------------------- writing
def umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, text: str | bytes, replace: bool = False,
                 replacing: str = "--force") -> None:
    """Write `text` (or bytes: a plot) to `path` all at once: a reader sees the old file or
    the new, never half. `replacing`: what the caller's user gives to replace a file, as the
    refusal names it (the command line's `--force`, a library's parameter).

    A new file gets the permissions the umask allows (0666 & ~umask); a replaced file keeps
    its own. Without `replace`, an existing file is never touched: GameError. Whatever is
    there and is no regular file (a device, a pipe, a socket, a folder, a link to nothing)
    is never replaced, even with `replace`: renaming over /dev/null would destroy it.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    refuse_odd(path)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode) if replace and path.exists() else None
        import tempfile

        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name[:40]}.", suffix=".tmp")
    except (OSError, ValueError) as err:
        raise GameError(f"{shorten(str(path))}: cannot write: {_reason(err)}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8") if isinstance(text, str) else text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode if mode is not None else 0o666 & ~umask())
        if replace:
            os.replace(tmp, path)
        else:
            _claim(Path(tmp), path)
    except FileExistsError:
        Path(tmp).unlink(missing_ok=True)
        raise GameError(f"{shorten(str(path))} already exists; nothing was written "
                        f"({replacing} replaces it)") from None
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise GameError(f"{shorten(str(path))}: cannot write: {_reason(err)}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def refuse_odd(path: str | Path) -> None:
    """GameError when something is at `path` that is not a regular file: every writer asks
    this first, with or without --force (a writer replaces files, never devices)."""
    odd = not_regular(path)
    if odd is not None:
        raise GameError(f"{shorten(str(path))}: not a regular file ({odd}); nothing was "
                        "written (a file is replaced, never a device, pipe or folder)")


def _claim(tmp: Path, path: Path) -> None:
    """Move `tmp` to `path` only if nothing is there (FileExistsError otherwise)."""
    try:
        os.link(tmp, path)  # fails if the name exists: no check-then-write race
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: claim the name, then fill it
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        os.replace(tmp, path)
        return
    tmp.unlink()


def exists(path: str | Path) -> bool:
    """Whether anything is at `path` (a name too long or with a NUL is simply not there;
    nor is anything outside the folders files may be read from now: `CONFINED`)."""
    if outside(path):
        return False
    try:
        os.lstat(path)
    except (OSError, ValueError):
        if WATCHERS:
            watched(path, "-")
        return False
    if WATCHERS:
        watched(path, "+")
    return True


def fresh_name(path: str | Path) -> Path:
    """`path` if nothing is there, else NAME-2.EXT, NAME-3.EXT, ...: the first free one."""
    p = Path(path)
    n = 2
    while exists(p):
        p = Path(path).with_name(f"{Path(path).stem}-{n}{Path(path).suffix}")
        n += 1
    return p
