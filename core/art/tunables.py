"""A mission's `[tune]` section: which of its numbers `artproject tune` may change, and how far.

    [tune.setup]
    agents_per_city = [1, 3]        # a rule parameter: its lowest and highest value
    [tune.difficulty]
    hard = [2, 3]                   # health per player at a difficulty
    [tune.track]
    threat = { first = [2, 4], last = [10, 14] }   # a ramp: the first and last space's
    ally_cost = { first = [4, 5], last = [1, 2] }  # value, the spaces between on a line
    [tune.threat_by_players]
    6 = [3, 8]                      # one entry of [rules] threat_by_players: a team size

Ranges are whole numbers, both ends included. The schema (`core/art/schema.py`: TuneSpec)
declares the section's shape like every other key; `check_tunables` reads it against the
rules when they load (an unknown name, a number that is not a whole-number parameter, a range
the schema would refuse for that parameter: file:line:col); `tunables()` reads it back from
the loaded rules as the dimensions of a search.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, Final, NamedTuple

import attrs

from .. import schema
from ..errors import closest
from ..schema import MAX_NUMBER
from .rules import Rules
from .schema import PARAMETERS, MissionSpec, RuleParams, TrackSpec, TuneSpec

TRACK_KEYS: Final = ("threat", "ally_cost")
TEAM: Final = "threat_by_players"  # [tune.threat_by_players]: entries of that rule list
TEAM_SIZES: Final = tuple(str(n) for n in range(1, 7))
# The sections of rule parameters a [tune] section may name, with their declarations.
_SECTIONS: Final = dict(zip(("components", "setup", "rules", "solo"), PARAMETERS,
                            strict=True))


class Tunable(NamedTuple):
    """One dimension of a search: a number's name, and its lowest and highest value."""

    name: str  # setup.agents_per_city, difficulty.hard, track.threat.first
    low: int
    high: int


Err = Callable[[str, tuple[Any, ...]], None]


def check_tunables(spec: TuneSpec | None, difficulties: Collection[str], err: Err,
                   lowest_threat: int | None = None) -> None:
    """The checks of meaning on a [tune] section the schema has structured (its shape and
    each range's order are the schema's): every name known, every number a whole-number
    parameter, every range within what the schema lets that parameter be; a team size's
    threat no lower than leaves the track's lowest space (`lowest_threat`, or a tuned
    ramp's lowest end) at 0."""
    if spec is None:
        return
    _check_team(spec, lowest_threat, err)
    for sec, cls in _SECTIONS.items():
        _check_params(sec, cls, getattr(spec, sec), err)
    for key, (low, high) in spec.difficulty.items():
        path = ("tune", "difficulty", key)
        if key not in difficulties:
            err(f"unknown difficulty {key!r}{closest(key, difficulties)}; expected one of: "
                + ", ".join(difficulties), path)
        else:
            _within(low, high, schema.declaration(attrs.fields(MissionSpec).difficulty),
                    path, err)
    track = {f.name: f for f in attrs.fields(TrackSpec)}
    for number in TRACK_KEYS:
        ramp = getattr(spec.track, number) if spec.track is not None else None
        for low, high in (ramp.first, ramp.last) if ramp is not None else ():
            _within(low, high, schema.declaration(track[number]), ("tune", "track", number),
                    err)


def _check_team(spec: TuneSpec, lowest: int | None, err: Err) -> None:
    """[tune.threat_by_players]: team sizes 1 to 6, each range leaving every space's threat
    at 0 or more (R15) on the mission's track or the lowest a tuned threat ramp can give."""
    ramp = spec.track.threat if spec.track is not None else None
    if ramp is not None:
        lowest = min(ramp.first[0], ramp.last[0])
    f = {f.name: f for f in attrs.fields(RuleParams)}[TEAM]
    for key, (low, high) in spec.threat_by_players.items():
        path = ("tune", TEAM, key)
        if key not in TEAM_SIZES:
            err(f"{key!r} is not a team size: expected a number of players from 1 to 6", path)
        elif lowest is not None and lowest + low < 0:
            err(f"the range's low end {low} would bring the track's lowest threat ({lowest}) "
                f"below 0 for {key} player{'s' * (key != '1')}; expected a low end of at "
                f"least {-lowest}", path)
        else:
            _within(low, high, schema.declaration(f), path, err)


def _check_params(sec: str, cls: type[Any], ranges: Mapping[str, tuple[int, int]],
                  err: Err) -> None:
    fields = {f.name: f for f in attrs.fields(cls)}
    for key, (low, high) in ranges.items():
        path = ("tune", sec, key)
        f = fields.get(key)
        if f is None:
            err(f"unknown rule parameter {key!r} in [{sec}]{closest(key, fields)}", path)
        elif f.type is not int:
            hint = f": name its entries in [tune.{TEAM}]" if key == TEAM else ""
            err(f"{sec}.{key} is {schema.describe(f.type, schema.declaration(f))}: only "
                f"whole-number parameters can be tuned{hint}", path)
        else:
            _within(low, high, schema.declaration(f), path, err)


def _within(low: int, high: int, p: schema.Param, path: tuple[Any, ...], err: Err) -> None:
    least = int(p.lo) if p.lo is not None else -MAX_NUMBER
    most = int(p.hi) if p.hi is not None else MAX_NUMBER
    if low < least or high > most:
        err(f"the range [{low}, {high}] is outside what the rules accept ({least} to {most})",
            path)


def tunables(rules: Rules) -> list[Tunable]:
    """The dimensions a loaded mission declares (checked when it loaded), in the order its
    file names them."""
    raw = rules.raw.get("tune")
    spec, _ = schema.structure(raw, TuneSpec) if raw is not None else (None, [])
    if spec is None or not isinstance(raw, dict):
        return []
    out: list[Tunable] = []
    for sec in raw:
        if sec != "track":
            out += [Tunable(f"{sec}.{k}", *r) for k, r in getattr(spec, sec).items()]
            continue
        for key in raw[sec]:
            ramp = getattr(spec.track, key)
            out += [Tunable(f"track.{key}.first", *ramp.first),
                    Tunable(f"track.{key}.last", *ramp.last)]
    return out


def current(rules: Rules, name: str) -> int:
    """A tunable number's value in these rules (a ramp's end: its first or last space)."""
    parts = name.split(".")
    if parts[0] == TEAM:
        return declared_team(rules)[int(parts[1]) - 1]
    if parts[0] == "track":
        space = rules.track[0] if parts[2] == "first" else rules.track[-1]
        return int(getattr(space, parts[1]))
    if parts[0] == "difficulty":
        return int(rules.difficulties[parts[1]])
    return int(rules.params[name])


def declared_team(rules: Rules) -> list[int]:
    """`[rules] threat_by_players` as the files set it: without the house rule team-threat's
    numbers, which the loader adds to the list the team faces when the rule is on."""
    team = [int(x) for x in rules.params[f"rules.{TEAM}"]]
    if rules.params["rules.team_threat"]:
        house = rules.params["rules.team_threat_by_players"]
        team = [a - int(b) for a, b in zip(team, house, strict=True)]
    return team


def ramp(first: int, last: int, spaces: int) -> list[int]:
    """Values from first to last over the spaces, on a line, rounded (tools/tune_tracks.py)."""
    if spaces == 1:
        return [first]
    return [round(first + (last - first) * i / (spaces - 1)) for i in range(spaces)]


def variant_text(rules: Rules, values: Mapping[str, int], about: str) -> str:
    """A variant file that sets these values on the rules (a track ramp whose ends are not
    the track's own rewrites the whole track on a line between them, keeping each space's
    symbol and whatever is not tuned, with a `# ` comment line saying each column's spaces
    before and after; a ramp on the track's own ends keeps the track as it is, straight or
    not; a team size's threat, the whole `[rules] threat_by_players` list, keeping the
    entries not tuned)."""
    import json

    lines = [f"about = {json.dumps(about)}", ""]
    sections: dict[str, list[str]] = {}
    team = declared_team(rules)
    tuned_team = False
    for name, v in values.items():
        sec, _, key = name.partition(".")
        if sec == TEAM:
            team[int(key) - 1], tuned_team = int(v), True
        elif sec != "track":
            sections.setdefault(sec, []).append(f"{key} = {int(v)}")
    if tuned_team:
        sections.setdefault("rules", []).append(f"{TEAM} = {team}")
    for sec, items in sections.items():
        lines += [f"[{sec}]", *items, ""]
    return "\n".join(lines + _track_lines(rules, values))


def _track_lines(rules: Rules, values: Mapping[str, int]) -> list[str]:
    """The whole [[track]] list, when a ramp's ends are not the track's own (a list replaces
    the mission's), after a comment naming the spaces each ramp changes."""
    lines: list[str] = []
    cols: dict[str, list[int]] = {}
    for key in TRACK_KEYS:
        own = (current(rules, f"track.{key}.first"), current(rules, f"track.{key}.last"))
        ends = (int(values.get(f"track.{key}.first", own[0])),
                int(values.get(f"track.{key}.last", own[1])))
        if ends != own:  # (the track's own ends: its own spaces, which need not be a line)
            cols[key] = ramp(*ends, len(rules.track))
            was = " ".join(str(getattr(space, key)) for space in rules.track)
            lines.append(f"# track {key}: {was} -> {' '.join(map(str, cols[key]))} "
                         "(a line between the ends)")
    if cols:
        lines.append("")
        for i, space in enumerate(rules.track):
            lines.append("[[track]]")
            for key in TRACK_KEYS:
                lines.append(f"{key} = {cols[key][i] if key in cols else getattr(space, key)}")
            if space.symbol is not None:
                lines.append(f'symbol = "{space.symbol}"')
            lines.append("")
    return lines
