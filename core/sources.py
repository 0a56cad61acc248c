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
from typing import Any, ClassVar, Self, TypeVar

import attrs

from ..dsl.text import Origin
from . import schema
from .errors import Location, RulesError, RulesErrors, RulesWarning
from .files import CONFINED, MAX_NESTING, doc_depth, line_col, nesting, read_text, shorten
from .sourcemap import SourceMap as SourceMap  # its home before; loaders import it here

T = TypeVar("T")
Path_ = tuple[Any, ...]


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
    for each data package in `packages`) where that names it from the current folder (a
    checkout's root) or the files are a server's (never named whole), else by its whole
    path, which a user's own folder resolves too; any other shortened."""
    try:
        rp = path.resolve()
        for pkg in packages:
            base = package_dir(pkg).resolve()
            if rp.is_relative_to(base):
                short = f"{pkg}/{rp.relative_to(base)}"
                return short if confined() or Path(short).resolve() == rp else str(rp)
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
