"""A declared document structured past its mistakes, so that a checker tells them all.

`structure` (core/schema.py) gives nothing back when a document has a mistake, and a
checker that needs the structured document would stop at the first. `salvaged` gives every
mistake `structure` finds, and the document structured as if each were not there: a key no
declaration has is dropped (nothing declared changes with it); a wrong value is dropped from
its table, and where its key is required, or it is an item of a list (whose places errors
name, and must not shift), HELD (core/schema.py) stands in for it. What was dropped or held
is returned by its path: a checker judges only what reads none of them, so a broken value
is never judged by what it would have given (no cascade of errors), while every part that
does not read it is checked as usual.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Final, TypeVar

from cattrs.errors import ClassValidationError, IterableValidationError

from .schema import CONVERTER, HELD, Path_, Wrong, classified

T = TypeVar("T")
_ROUNDS: Final = 4  # a wrong value dropped, then held where it is required: two suffice


def salvaged(doc: Any, cls: type[T],
             ) -> tuple[T | None, list[tuple[Path_, str]], list[Path_]]:
    """`doc` as a `cls`; every problem `structure` finds (key path, message); and the paths
    of the values dropped or held to structure the rest (None: there was no rest to
    structure, the document itself is of the wrong shape)."""
    obj, found = _structured(doc, cls)
    told = [(path, msg) for path, msg, _ in found]
    if obj is not None or not isinstance(doc, dict):
        return obj, told, []
    work, gone = copy.deepcopy(doc), list[Path_]()
    for _ in range(_ROUNDS):
        for path, msg, extra in found:
            if not _mend(work, path, msg.startswith("missing"), extra, gone):
                return None, told, gone
        obj, found = _structured(work, cls)
        if obj is not None:
            return obj, told, gone
    return None, told, gone


def _structured(doc: Any, cls: type[T],
                ) -> tuple[T | None, list[tuple[Path_, str, str | None]]]:
    try:
        return CONVERTER.structure(doc, cls), []
    except (ClassValidationError, IterableValidationError, Wrong) as exc:
        return None, list(classified(exc))


def _mend(doc: Any, path: Path_, missing: bool, extra: str | None,
          gone: list[Path_]) -> bool:
    """The value at `path` dropped (a key no declaration has; a wrong value in a table) or
    held (a required key's; a list's item); False where the path leads to no such place.
    A key no declaration has sets aside the declared key it is nearest to (`extra`), if
    any: its value was meant for that one (`strat = true` for `start`), so what reads that
    key waits too, instead of judging its default."""
    holder = _at(doc, path[:-1]) if path else None
    key = path[-1] if path else None
    if isinstance(holder, dict) and (key in holder or missing):
        if extra is None:
            gone.append(path)
        elif extra:
            gone.append((*path[:-1], extra))
        if missing:
            holder[key] = HELD
        else:
            del holder[key]
        return True
    if isinstance(holder, list) and isinstance(key, int) and 0 <= key < len(holder):
        gone.append(path)
        holder[key] = HELD
        return True
    return False


def gone_from(dropped: Sequence[Path_], *paths: Path_) -> bool:
    """Whether any of `paths` reads a dropped or held value (one path lies within the
    other)."""
    return any(d[:len(p)] == p or p[:len(d)] == d for d in dropped for p in paths)


def _at(doc: Any, path: Path_) -> Any:
    for step in path:
        if (isinstance(doc, dict) and step in doc) or (
                isinstance(doc, list) and isinstance(step, int) and 0 <= step < len(doc)):
            doc = doc[step]
        else:
            return None
    return doc
