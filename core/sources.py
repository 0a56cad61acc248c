"""Rule files as documents, for any game: TOML read within limits, where each key's value
lies (for errors at file:line:col), and files layered on one another (a variant on a board
on the base rules) with every key remembered in the file that set it.

A game's loader reads its files with `read_toml`, merges its layers with `merge`, and
reports each problem through a `Where`, which places it in the file that set the key (of
several keys to blame, the one set last: where the file's author will look).
"""

from __future__ import annotations

import os
import pickle
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, Final, Self, TypeVar

import attrs

from ..dsl.text import Origin
from . import schema
from .errors import Location, RulesError, RulesErrors, RulesWarning
from .files import CONFINED, MAX_NESTING, doc_depth, line_col, nesting, read_text, shorten

T = TypeVar("T")
Path_ = tuple[Any, ...]


# ====================================================================== where keys are
class _Scan:
    """Where a source map's reading of its file stands, line after line: the table, the
    count of each array of tables, the array being read (its key, next item, bracket
    depth), and the quotes of a multi-line string that goes on past the line."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.table: tuple[Any, ...] = ()
        self.array: tuple[Any, ...] | None = None
        self.item = self.depth = 0
        self.open: str | None = None


class SourceMap:
    """Where each key's value starts in a TOML file, by document path; for error locations."""

    _HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-]+)\s*\]\]?")
    _KEY = re.compile(r"^(\s*)([A-Za-z0-9_\-]+(?:\s*\.\s*[A-Za-z0-9_\-]+)*)\s*=\s*")

    def __init__(self, file: str, text: str, real: Path | None = None) -> None:
        self.file = file
        self.real = real  # the file itself, to resolve paths written relative to it
        self.lines = text.splitlines()
        self.where: dict[tuple[Any, ...], tuple[int, int]] = {}
        scan = _Scan()
        for n, line in enumerate(self.lines, start=1):
            if scan.open is not None:  # inside a multi-line string: no key, header or item
                end = _ml_end(line, 0, scan.open)
                if end is not None:
                    scan.open = None
                    if scan.array is not None:
                        self._array_items(scan, n, line, end)
                continue
            m = self._HEADER.match(line)
            if m and not self._KEY.match(line):
                self._header(scan, n, m.group(1), m.group(2))
                continue
            m = self._KEY.match(line)
            if m and scan.array is None:
                self._key(scan, n, line, m)
            elif scan.array is not None:
                self._array_items(scan, n, line, 0)

    def _header(self, scan: _Scan, n: int, brackets: str, name: str) -> None:
        """A table's header, `[name]` or `[[name]]` (the next table of an array of them)."""
        parts = tuple(name.split("."))
        if brackets == "[[":
            scan.counts[name] = scan.counts.get(name, -1) + 1
            scan.table = (*parts, scan.counts[name])
        else:
            scan.table = parts
        # `[[a.b]]` makes the list `a.b` too: located at its first table's header
        self._implied(parts if brackets == "[[" else parts[:-1], n, 1)
        self.where[scan.table] = (n, 1)
        scan.array = None

    def _key(self, scan: _Scan, n: int, line: str, m: re.Match[str]) -> None:
        """A key and where its value begins; an array's items on the line, or a multi-line
        string that goes on past it."""
        *outer, last = (k.strip() for k in m.group(2).split("."))
        self._implied((*scan.table, *outer), n, len(m.group(1)) + 1)
        key = (*scan.table, *outer, last)
        self.where[key] = (n, m.end() + 1)
        value = line[m.end():]
        if value.startswith("["):
            scan.array, scan.item, scan.depth = key, 0, 0
            self._array_items(scan, n, line, m.end())
        elif value[:3] in _ML_END and _ml_end(line, m.end() + 3, value[:3]) is None:
            scan.open = value[:3]

    def _array_items(self, scan: _Scan, n: int, line: str, start: int) -> None:
        if scan.array is None:
            return
        scan.item, scan.depth, scan.open = self._items(n, line, start, scan.array, scan.item,
                                                       scan.depth)
        if not scan.depth:
            scan.array = None

    def _implied(self, parts: tuple[Any, ...], n: int, col: int) -> None:
        """The tables a header or a dotted key makes without naming them (`[a.b.c]` makes
        `a` and `a.b`; `x.y = 1`, `x`): located there, unless they are located already, so
        that an error in one names a line."""
        for i in range(1, len(parts) + 1):
            self.where.setdefault(parts[:i], (n, col))

    # an array's pieces: a multi-line string's opening quotes, a string, a bracket or brace,
    # a comment, or a bare value (a number, true, a date)
    _PIECE = re.compile(r'"""|\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|[][{}#]|'
                        r'[^\s,\][{}#"\'=]+')

    def _items(self, n: int, line: str, start: int, key: tuple[Any, ...], i: int,
               depth: int) -> tuple[int, int, str | None]:
        """Record where each item of an array begins on this line, from `start` (at or
        before its opening bracket) at bracket depth `depth`: (next index, depth after the
        line; 0 once the array is closed; the quotes of a multi-line string left open at
        the line's end, or None). Only the array's own items are recorded; what is inside
        a nested array or an inline table belongs to that item."""
        pos = start
        while m := self._PIECE.search(line, pos):
            tok, pos = m.group(0), m.end()
            if tok == "#":
                break
            if tok in ("]", "}"):
                depth -= 1
                if not depth:
                    return i, 0, None
                continue
            if depth == 1:
                self.where[(*key, i)] = (n, m.start() + 1)
                i += 1
            if tok in ("[", "{"):
                depth += 1
            elif tok in _ML_END:  # a multi-line string: its lines hold no item of ours
                end = _ml_end(line, pos, tok)
                if end is None:
                    return i, depth, tok
                pos = end
        return i, depth, None

    def at(self, line: int, col: int) -> Location:
        """The location of line:col, with its source line for the caret."""
        src = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return Location(self.file, line, col if src else 0, src)

    def locate(self, path: tuple[Any, ...]) -> Location:
        """The location of `path`, or of its nearest known ancestor."""
        p = path
        if p not in self.where and (*p, 0) in self.where:
            p = (*p, 0)  # an array of tables: its first table
        while p:
            if p in self.where:
                line, col = self.where[p]
                return Location(self.file, line, col, self.lines[line - 1])
            p = p[:-1]
        return Location(self.file)

    def origin(self, path: tuple[Any, ...], value: str) -> Origin:
        """Where the DSL text at `path` begins (inside its quotes), for the DSL's positions."""
        loc = self.locate(path)
        if loc.line and loc.column:
            src = self.lines[loc.line - 1]
            col = loc.column
            quote = src[col - 1: col + 2]
            if quote in ('"""', "'''"):
                # A newline right after the opening """ (or ''') is not part of the value.
                if src[col + 2:].strip() == "":
                    return Origin(self.file, loc.line + 1, 1, self.lines)
                return Origin(self.file, loc.line, col + 3, self.lines)
            if quote[:1] in ('"', "'"):
                return Origin(self.file, loc.line, col + 1, self.lines)
        return Origin(self.file, loc.line or 1, 1, self.lines)


# The rest of a multi-line string from inside its opening quotes, up to its closing quotes
# (of which it may end with two more: `""""a"""""` is `"a""`), on one line
_ML_END: Final = {'"""': re.compile(r'(?:[^"\\]|\\.|\\$|"{1,2}(?!"))*"{3,5}'),
                  "'''": re.compile(r"(?:[^']|'{1,2}(?!'))*'{3,5}")}


def _ml_end(line: str, pos: int, quotes: str) -> int | None:
    """Where on `line` the multi-line string opened by `quotes` ends, reading from `pos`
    (just after its closing quotes), or None: it goes on past the line."""
    m = _ML_END[quotes].match(line, pos)
    return m.end() if m else None


_GAME_LINE = re.compile(r'^game\s*=\s*["\']([^"\']*)["\']', re.M)


def game_of(path: str | Path) -> str | None:
    """The `game = "..."` a TOML file declares among its top-level keys, read without
    parsing the file (None: none, a file of the default game). Tools and loaders dispatch on
    it: the shipped files of every game lie side by side in the same data folders."""
    try:
        text = read_text(path)
    except RulesError:
        return None
    m = _GAME_LINE.search(text.split("\n[", 1)[0])  # top-level keys precede the tables
    return m.group(1) if m else None


def package_dir(name: str) -> Path:
    """The folder of the project's data package `name` (where every game's shipped rule
    files lie). Installed, the data folders are packages beside core/; in a checkout, too."""
    from importlib import resources

    return Path(str(resources.files(f"artproject.{name}")))


def is_name(ref: str | Path) -> bool:
    """A shipped rule file's name, not a path (my.toml, ./name)."""
    return isinstance(ref, str) and "/" not in ref and "\\" not in ref and not ref.endswith(
        ".toml")


# ====================================================================== content sent to a server
@contextmanager
def shipped_only(packages: Iterable[str]) -> Iterator[None]:
    """Within: content a client sent (a file uploaded to the server's replay viewer) is
    handled, and it may name rule files only by their shipped names (`shipped_ref`), never
    by a path on the server: nothing outside the data packages `packages` (where every
    game's shipped files lie) is read, or looked for (core/files.py's `CONFINED`), so no
    reply can tell a file's content or whether it is there. The command line, opening the
    user's own files, is not confined."""
    roots = tuple(os.path.join(os.path.realpath(package_dir(p)), "") for p in packages)
    before = CONFINED.set(roots)
    try:
        yield
    finally:
        CONFINED.reset(before)


@contextmanager
def readable(folder: Path) -> Iterator[None]:
    """Within `shipped_only`, `folder` may be read too: the server's own temporary copy of
    what a client sent (outside it, nothing changes)."""
    roots = CONFINED.get()
    if roots is None:
        yield
        return
    before = CONFINED.set((*roots, os.path.join(os.path.realpath(folder), "")))
    try:
        yield
    finally:
        CONFINED.reset(before)


def confined() -> bool:
    """Whether rule files may now be named only by their shipped names (`shipped_only`)."""
    return CONFINED.get() is not None


def shipped_ref(ref: Any, key: str = "") -> Any:
    """`ref` as given; within `shipped_only`, RulesError unless it is a shipped file's name
    (a name, not a path: no folder, no .toml)."""
    if not confined() or (isinstance(ref, str) and is_name(ref)):
        return ref
    shown = shorten(str(ref), 60)
    raise RulesError(f"{key + ' = ' if key else ''}{shown!r}: a file sent to this server may "
                     "name only the rule files shipped with artproject, by their names, never "
                     "a file on the server")


def scenario_ref(ref: str, scenario: Path, key: str, toml_only: bool = False) -> str:
    """A rule file a scenario names under `key`: a shipped one by its name, any other by a
    path read relative to the scenario's folder (never the current directory), or by its
    whole path; within `shipped_only`, a shipped one's name only (`shipped_ref`). A path is
    what the key's loader takes for one: any reference `is_name` refuses (a folder in it,
    or .toml), or with `toml_only` only a NAME.toml (a loader that reads any other as a
    shipped name, folders and all)."""
    shipped_ref(ref, key)
    path = Path(ref).suffix == ".toml" if toml_only else not is_name(ref)
    return str(scenario.parent / ref) if path and not Path(ref).is_absolute() else ref


def shipped_label(path: Path, packages: tuple[str, ...]) -> str:
    """`path` as errors show it: a shipped file by its place in the project (PKG/NAME.toml,
    for each data package in `packages`), any other shortened."""
    try:
        rp = path.resolve()
        for pkg in packages:
            base = package_dir(pkg).resolve()
            if rp.is_relative_to(base):
                return f"{pkg}/{rp.relative_to(base)}"
    except (OSError, ValueError, RuntimeError):
        pass
    return shorten(str(path))


class LoadedRules:
    """A game's rules as loaded from their files (a base of its frozen, attrs-made rules
    class). They pickle by reference: loaded again from the same files (compiled functions
    and mapping proxies do not pickle, and need not: the files are the rules), by the class's
    LOAD_AGAIN (a module-level function) from what its loader kept in cache["loaded"]; a
    copy is the same rules (frozen)."""

    __slots__ = ()
    name: str
    cache: dict[Any, Any]
    LOAD_AGAIN: ClassVar[Callable[..., Any]]

    def __reduce__(self) -> tuple[Any, ...]:
        loaded = self.cache.get("loaded")
        if loaded is None:
            raise pickle.PicklingError(
                f"rules {self.name!r} were not loaded by load_rules (made or changed in code), "
                "so a pickle cannot name them")
        return (type(self).LOAD_AGAIN, loaded)

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


def path_text(path: Iterable[Any]) -> str:
    """`step[3].expect[0]` from ('step', 3, 'expect', 0)."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def read_toml(path: Path, label: str | None = None) -> tuple[dict[str, Any], SourceMap]:
    """Parse a TOML file; a syntax error says file:line:col with a caret.

    Only a regular file of at most `MAX_FILE_BYTES`, nested at most `MAX_NESTING` deep.
    """
    label = label or str(path)
    text = read_text(path, label)
    smap = SourceMap(label, text, path)
    deepest, at = nesting(text)
    if deepest > MAX_NESTING:
        line, col = line_col(text, at)
        raise RulesError(f"nested too deeply: more than {MAX_NESTING} levels of arrays and "
                         "tables", smap.at(line, col))
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        msg = str(err)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        where = Location(label)
        if m:
            where = smap.at(int(m.group(1)), int(m.group(2)))
            msg = msg[: m.start()].strip()
        raise RulesError(f"not valid TOML: {msg}", where) from None
    except (ValueError, RecursionError) as err:  # a number of thousands of digits, say
        raise RulesError(f"not valid TOML: {str(err)[:120]}", Location(label)) from None
    if doc_depth(doc) > MAX_NESTING:  # dotted keys nest without brackets: a.b.c.d = 1
        raise RulesError(f"nested too deeply: more than {MAX_NESTING} levels of tables",
                         Location(label))
    return doc, smap


# ====================================================================== layers
@attrs.define
class Layer:
    """One file of a layered document: its text parsed, where its keys are, the file."""

    doc: dict[str, Any]
    smap: SourceMap
    path: Path


def merge(into: dict[str, Any], doc: Mapping[str, Any], prefix: tuple[Any, ...],
          owner: dict[tuple[Any, ...], Any], smap: SourceMap,
          accumulate: tuple[str, ...] = ()) -> None:
    """Merge `doc` into `into`: tables key by key, anything else replaced, except the
    top-level lists named in `accumulate`, which add to the parent's; `owner` notes the
    source map of each key set."""
    for key, value in doc.items():
        path = (*prefix, key)
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            merge(into[key], value, path, owner, smap, accumulate)
        elif key in accumulate and not prefix and isinstance(value, list) and isinstance(
                into.get(key), list):
            base = len(into[key])
            into[key] = into[key] + value  # a later layer adds to these, never drops
            for i in range(len(value)):
                owner[(key, base + i)] = _Shifted(smap, (key, i))
        else:
            into[key] = value
            owner[path] = smap


def real_path(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a loop of links: read_toml says so
        return path


class _Shifted:
    """A source map seen through an index shift (a list added after the parent's)."""

    def __init__(self, smap: SourceMap, path: tuple[Any, ...]) -> None:
        self.smap, self.path = smap, path
        self.file, self.real = smap.file, smap.real

    def locate(self, path: tuple[Any, ...]) -> Location:
        return self.smap.locate(self.path + path[2:])

    def origin(self, path: tuple[Any, ...], value: str) -> Origin:
        return self.smap.origin(self.path + path[2:], value)


def _owner(owner: Mapping[tuple[Any, ...], Any], path: tuple[Any, ...], default: Any) -> Any:
    p = path
    while p:
        if p in owner:
            return owner[p]
        p = p[:-1]
    return default


class Where:
    """Where each key of the merged document came from, to report in that key's own file."""

    def __init__(self, owner: Mapping[tuple[Any, ...], Any], top: SourceMap,
                 errors: list[RulesError], order: list[str] | None = None) -> None:
        self.owner, self.top, self.errors = owner, top, errors
        self.warnings: list[RulesError] = []
        self.order = order or []  # the files, base first

    def latest(self, paths: tuple[tuple[Any, ...], ...]) -> tuple[Any, ...]:
        """Of several keys that together cause a problem, the one set last (by a later
        layer before an earlier one): where its author will look."""
        def rank(path: tuple[Any, ...]) -> int:
            f = self.map(path).file
            return self.order.index(f) if f in self.order else -1
        return max(paths, key=rank)

    def map(self, path: tuple[Any, ...]) -> Any:
        return _owner(self.owner, path, self.top)

    def origin(self, path: tuple[Any, ...], text: str) -> Origin:
        return self.map(path).origin(path, text)  # type: ignore[no-any-return]

    def err(self, msg: str, path: tuple[Any, ...], *also: tuple[Any, ...]) -> None:
        """An error at `path` (or at one of `also`, whichever was set last)."""
        path = self.latest((path, *also))
        self.errors.append(RulesError(msg, self.map(path).locate(path), self.text(path)))

    def warn(self, msg: str, path: tuple[Any, ...], *also: tuple[Any, ...]) -> None:
        """A warning: odd, but playable (`check` prints it and exits 0)."""
        path = self.latest((path, *also))
        self.warnings.append(RulesWarning(msg, self.map(path).locate(path), self.text(path)))

    def text(self, path: tuple[Any, ...]) -> str:
        """`path` as its own file writes it: an item a later layer added to a list (a
        variant's second hook) by its place in that file, not in the merged list."""
        smap = self.map(path)
        return path_text(smap.path + path[2:] if isinstance(smap, _Shifted) else path)

    def shape(self, doc: Any, cls: type[T]) -> T | None:
        """`doc` structured as the declared `cls` (core/schema.py), each problem reported."""
        spec, found = schema.structure(doc, cls)
        for path, msg in found:
            self.err(msg, path)
        return spec

    def raise_errors(self) -> None:
        """Raise what was found, in file order: one RulesError, or RulesErrors."""
        errors = self.errors
        if errors:
            errors.sort(key=lambda e: (e.where.file, e.where.line, e.where.column) if e.where
                        else ("", 0, 0))
            raise RulesErrors(errors) if len(errors) > 1 else errors[0]


def layered(layers: Iterable[Layer], accumulate: tuple[str, ...] = (),
            ) -> tuple[dict[str, Any], Where]:
    """The layers (the lowest first) merged into one document, and its `Where`."""
    merged: dict[str, Any] = {}
    owner: dict[tuple[Any, ...], Any] = {}
    files = []
    top: SourceMap | None = None
    for layer in layers:
        merge(merged, layer.doc, (), owner, layer.smap, accumulate)
        files.append(layer.smap.file)
        top = layer.smap
    assert top is not None, "no layers"
    return merged, Where(owner, top, [], files)
