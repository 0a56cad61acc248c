"""The project's own error types: every failure a user can cause is one of these."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

__all__ = [
    "ArtError",
    "GameError",
    "IllegalActionError",
    "Location",
    "MalformedActionError",
    "RulesError",
    "RulesErrors",
    "RulesWarning",
    "SaveError",
    "SaveWarning",
    "closest",
]


class Location:
    """Where a piece of rule text came from: file, 1-based line and column, and the line."""

    __slots__ = ("column", "file", "key", "line", "name", "source_line")

    def __init__(self, file: str, line: int = 0, column: int = 0, source_line: str = "",
                 key: Location | None = None, name: str = "") -> None:
        self.file = file
        self.line = line
        self.column = column
        self.source_line = source_line
        self.key = key  # a value's: where its key is written, if it has one (`name`'s)
        self.name = name  # a key's: the key written there

    def __repr__(self) -> str:
        return f"Location({self.file!r}, {self.line}, {self.column})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Location) and (self.file, self.line, self.column) == (
            other.file,
            other.line,
            other.column,
        )

    def __hash__(self) -> int:
        return hash((self.file, self.line, self.column))

    def prefix(self) -> str:
        """`file:line:col` (or less, when line or column is unknown)."""
        if self.line and self.column:
            return f"{self.file}:{self.line}:{self.column}"
        if self.line:
            return f"{self.file}:{self.line}"
        return self.file


class ArtError(Exception):
    """Base of every error this project raises on purpose."""


class RulesError(ArtError):
    """A rule file, a scenario or a rule text is wrong; says where and what was expected."""

    def __init__(self, message: str, where: Location | None = None, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.where = _blamed(message, where)
        self.path = path  # a path inside a TOML document, e.g. step[3].expect[0]

    def __str__(self) -> str:
        head = self.message
        if self.where is not None:
            loc = self.where.prefix()
            if self.path:
                loc += f": {self.path}"
            head = f"{loc}: {self.message}"
            if self.where.source_line and self.where.column:
                caret = _pad(self.where.source_line[:self.where.column - 1]) + "^"
                return f"{head}\n    {self.where.source_line}\n    {caret}"
        elif self.path:
            head = f"{self.path}: {self.message}"
        return head


def _blamed(message: str, where: Location | None) -> Location | None:
    """Where an error stands: at its value, but at the key itself where the error calls the
    key unknown (`unknown parameter 'sizee'`): the author is to fix the key."""
    key = where.key if where is not None else None
    if key is not None and message.startswith("unknown ") and not message.startswith(
            "unknown value ") and f" {key.name!r}" in message.split(";")[0]:
        return key
    return where


def _pad(before: str) -> str:
    """The blank that puts a caret under the character after `before` as a terminal shows
    the line: a tab kept as a tab, a wide (East Asian) character two cells, a combining
    mark none, anything else one."""
    out = []
    for ch in before:
        if ch == "\t":
            out.append("\t")
        elif unicodedata.combining(ch):
            continue
        else:
            out.append("  " if unicodedata.east_asian_width(ch) in ("W", "F") else " ")
    return "".join(out)


class RulesWarning(RulesError):
    """Something odd in a rule file that does not stop a game: `check` prints it, exit 0."""

    def __str__(self) -> str:
        return super().__str__().replace(self.message, f"warning: {self.message}", 1)


class RulesErrors(RulesError):
    """Several rule errors found in one pass (`check` reports all of them)."""

    def __init__(self, errors: list[RulesError]) -> None:
        super().__init__(f"{len(errors)} errors")
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


class GameError(ArtError):
    """A request a game cannot honour in its current position."""


class MalformedActionError(GameError):
    """Text that is not an action in the notation."""


class IllegalActionError(GameError):
    """A well-formed action that the rules do not allow now; the state is untouched."""


class SaveError(ArtError):
    """A save file that is corrupt, foreign, or from an incompatible version."""


class SaveWarning(UserWarning):
    """A save loaded on trust although its digest is missing or wrong."""


def closest(name: str, known: Iterable[str]) -> str:
    """A ` (did you mean 'x'?)` hint for a misspelt name, or ''."""
    match = nearest(name, known)
    return f" (did you mean {match!r}?)" if match else ""


def nearest(name: str, known: Iterable[str]) -> str:
    """The known name a misspelt `name` is nearest to, or '' (`closest`'s hint)."""
    import difflib  # here, not at the top: a command starts without it

    match = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return match[0] if match else ""
