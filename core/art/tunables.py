"""A mission's `[tune]` section: which of its numbers `artproject tune` may change, and how far.

    [tune.setup]
    agents_per_city = [1, 3]        # a rule parameter: its lowest and highest value
    [tune.difficulty]
    hard = [2, 3]                   # health per player at a difficulty
    [tune.track]
    threat = { first = [2, 4], last = [10, 14] }   # a ramp: the first and last space's
    ally_cost = { first = [4, 5], last = [1, 2] }  # value, the spaces between on a line

Ranges are whole numbers, both ends included. The loader checks the section with the rest of
the file (an unknown name, an empty range, a range the rules would refuse: file:line:col);
`tunables()` reads it back from the loaded rules as the dimensions of a search.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, NamedTuple

from ..errors import closest
from .rules import Rules

MAX_NUMBER: Final = 10_000  # as the loader: a larger number in a rule file is refused
TRACK_KEYS: Final = ("threat", "ally_cost")
# rule parameters whose value must be at least 1 for a game to be played at all
_AT_LEAST_ONE: Final = frozenset({
    "components.die_faces", "rules.clues_per_artwork", "rules.lost_city_at",
    "rules.draw_per_round", "rules.play_per_round",
})


class Tunable(NamedTuple):
    """One dimension of a search: a number's name, and its lowest and highest value."""

    name: str  # setup.agents_per_city, difficulty.hard, track.threat.first
    low: int
    high: int


Err = Callable[[str, tuple[Any, ...]], None]


def check_tunables(section: Any, params: Mapping[str, Any], difficulties: Mapping[str, int],
                   err: Err) -> list[Tunable]:
    """The `[tune]` section's dimensions; each mistake reported through `err(message, path)`."""
    if section is None:
        return []
    out: list[Tunable] = []
    if not isinstance(section, dict):
        err("[tune] is a table of sections ([tune.setup], [tune.track] ...)", ("tune",))
        return out
    sections = sorted({k.split(".")[0] for k in params} | {"difficulty", "track"})
    for sec, table in section.items():
        path: tuple[Any, ...] = ("tune", sec)
        if sec not in sections:
            err(f"unknown section {sec!r} in [tune]{closest(sec, sections)}; expected one of: "
                + ", ".join(sections), path)
            continue
        if not isinstance(table, dict):
            err(f"[tune.{sec}] is a table: name = [low, high]", path)
            continue
        for key, value in table.items():
            out += _one(sec, key, value, params, difficulties, err)
    return out


def _one(sec: str, key: str, value: Any, params: Mapping[str, Any],
         difficulties: Mapping[str, int], err: Err) -> list[Tunable]:
    path = ("tune", sec, key)
    name = f"{sec}.{key}"
    if sec == "track":
        return _track(key, value, err)
    if sec == "difficulty":
        if key not in difficulties:
            err(f"unknown difficulty {key!r}{closest(key, difficulties)}; expected one of: "
                + ", ".join(difficulties), path)
            return []
        r = _range(value, 1, path, err)
        return [Tunable(name, *r)] if r is not None else []
    if name not in params:
        known = [k.split(".", 1)[1] for k in params if k.startswith(sec + ".")]
        err(f"unknown rule parameter {key!r} in [{sec}]{closest(key, known)}", path)
        return []
    current = params[name]
    if not isinstance(current, int) or isinstance(current, bool):
        err(f"{name} is not a number (it is {type(current).__name__} {current!r}): only "
            "whole-number parameters can be tuned", path)
        return []
    r = _range(value, 1 if name in _AT_LEAST_ONE else 0, path, err)
    return [Tunable(name, *r)] if r is not None else []


def _track(key: str, value: Any, err: Err) -> list[Tunable]:
    path = ("tune", "track", key)
    if key not in TRACK_KEYS:
        err(f"unknown track number {key!r}{closest(key, TRACK_KEYS)}; expected one of: "
            + ", ".join(TRACK_KEYS), path)
        return []
    if not isinstance(value, dict) or set(value) != {"first", "last"}:
        err("a track ramp is { first = [low, high], last = [low, high] }: the first and "
            "last space's values", path)
        return []
    out = []
    for end in ("first", "last"):
        r = _range(value[end], 0, path, err)
        if r is not None:
            out.append(Tunable(f"track.{key}.{end}", *r))
    return out


def _range(value: Any, least: int, path: tuple[Any, ...], err: Err) -> tuple[int, int] | None:
    ok = (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value))
    if not ok:
        err(f"expected a range [low, high] of two whole numbers, not {value!r}", path)
        return None
    low, high = value
    if low > high:
        err(f"an empty range: its low end {low} is above its high end {high}", path)
        return None
    if low < least or high > MAX_NUMBER:
        err(f"the range [{low}, {high}] is outside what the rules accept ({least} to "
            f"{MAX_NUMBER})", path)
        return None
    return low, high


def tunables(rules: Rules) -> list[Tunable]:
    """The dimensions a loaded mission declares (checked when it loaded)."""
    def ignore(message: str, path: tuple[Any, ...]) -> None:
        pass

    return check_tunables(rules.raw.get("tune"), rules.params, rules.difficulties, ignore)


def current(rules: Rules, name: str) -> int:
    """A tunable number's value in these rules (a ramp's end: its first or last space)."""
    parts = name.split(".")
    if parts[0] == "track":
        space = rules.track[0] if parts[2] == "first" else rules.track[-1]
        return int(getattr(space, parts[1]))
    if parts[0] == "difficulty":
        return int(rules.difficulties[parts[1]])
    return int(rules.params[name])


def ramp(first: int, last: int, spaces: int) -> list[int]:
    """Values from first to last over the spaces, on a line, rounded (tools/tune_tracks.py)."""
    if spaces == 1:
        return [first]
    return [round(first + (last - first) * i / (spaces - 1)) for i in range(spaces)]


def variant_text(rules: Rules, values: Mapping[str, int], about: str) -> str:
    """A variant file that sets these values on the rules (a track ramp rewrites the whole
    track, keeping each space's symbol and whatever is not tuned)."""
    import json

    lines = [f"about = {json.dumps(about)}", ""]
    sections: dict[str, list[str]] = {}
    for name, v in values.items():
        sec, _, key = name.partition(".")
        if sec != "track":
            sections.setdefault(sec, []).append(f"{key} = {int(v)}")
    for sec, items in sections.items():
        lines += [f"[{sec}]", *items, ""]
    return "\n".join(lines + _track_lines(rules, values))


def _track_lines(rules: Rules, values: Mapping[str, int]) -> list[str]:
    """The whole [[track]] list, when a ramp is tuned (a list replaces the mission's)."""
    lines: list[str] = []
    n = len(rules.track)
    cols: dict[str, list[int]] = {}
    for key in TRACK_KEYS:
        f, last = values.get(f"track.{key}.first"), values.get(f"track.{key}.last")
        if f is not None or last is not None:
            cols[key] = ramp(f if f is not None else current(rules, f"track.{key}.first"),
                             last if last is not None else current(rules, f"track.{key}.last"),
                             n)
    if cols:
        for i, space in enumerate(rules.track):
            lines.append("[[track]]")
            for key in TRACK_KEYS:
                lines.append(f"{key} = {cols[key][i] if key in cols else getattr(space, key)}")
            if space.symbol is not None:
                lines.append(f'symbol = "{space.symbol}"')
            lines.append("")
    return lines
