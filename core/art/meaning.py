"""Checks of meaning: rules whose every value has the right type, but which cannot work.

The schema (schema.py) checks each value alone; these checks read values together.
A board that cannot be played or cannot be won by any team is an error. A board that is
merely odd (one team size cannot set up, a city no road reaches, a symbol too rare to
uncover) is a warning: `artproject check` prints it and exits 0. docs/missions.md lists
every check with its verdict.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ...dsl.compiler import MULTIPLIER
from ..errors import RulesError
from .rules import Rules
from .schema import MissionSpec
from .tunables import declared_team, tunables
from .words import RESERVED

# A finding's message, where it is, and other keys that share the blame (the one set last
# is shown: a variant's change rather than base's value it broke).
Report = Callable[..., None]
TEAM_SIZES = range(1, 7)


# ====================================================================== names
def names(spec: MissionSpec, err: Report, gone: Callable[..., bool] = lambda *_: False,
          ) -> None:
    """Names the DSL can read unambiguously: no keyword, no clash between kinds, no twin
    (the resources not judged while `gone` says they were dropped as wrong)."""
    symbols = set(spec.symbols)
    for i, s in enumerate(spec.symbols):
        _word(s, "an artwork symbol", err, ("symbols", i))
        if spec.symbols.index(s) != i:
            err(f"artwork symbol {s!r} is listed twice", ("symbols", i))
    if spec.components is not None and not gone(("components", "resources")):
        res = spec.components.resources
        if not res:
            err("no resources: 'resources' must list them", ("components", "resources"))
        for i, r in enumerate(res):
            _word(r, "a resource", err, ("components", "resources", i))
            if res.index(r) != i:
                err(f"resource {r!r} is listed twice", ("components", "resources", i))
            elif r in symbols:
                err(f"resource {r!r} is also an artwork symbol: the DSL could not tell them "
                    "apart", ("components", "resources", i))
    for i, c in enumerate(spec.city):
        _word(c.name, "a city", err, ("city", i, "name"))
        if c.name in symbols:
            err(f"city {c.name!r} has the name of an artwork symbol: `place 1 agent in "
                f"{c.name}` could mean either", ("city", i, "name"))
    for i, road in enumerate(spec.road):
        if "heading" in road:
            err("'heading' is worked out from the map; a road cannot set it", ("road", i,
                                                                                "heading"))


def _word(name: str, kind: str, err: Report, path: tuple[Any, ...]) -> None:
    if name in RESERVED or MULTIPLIER.match(name):
        err(f"{name!r} cannot be the name of {kind}: the DSL reads it as a word of its own "
            "(hq, p1, every, threat, ...); choose another", path)


# ====================================================================== meaning
def check(rules: Rules, err: Report, warn: Report) -> None:
    """Every check of meaning on built rules; `err` for the unplayable, `warn` for the odd."""
    _caps(rules, err, warn)
    _lost_at_once(rules, err, warn)
    _health(rules, err, warn)
    _deck(rules, err, warn)
    _track(rules, err, warn)
    _reach(rules, err, warn)


def _caps(rules: Rules, err: Report, warn: Report) -> None:
    """Set-up within the components (R1, R2)."""
    p = rules.p
    cap = p("components.resource_tokens")
    for r, n in zip(rules.resources, rules.setup_van, strict=True):
        if n > cap:
            err(f"{n} {r} in the van at set-up, but the game has {cap} {r} tokens (R1)",
                ("setup", "van", r), ("components", "resource_tokens"))
    tokens, placed = p("components.agent_tokens"), sum(rules.setup_agents)
    if placed > tokens:
        err(f"set-up places {placed} agents, but the game has {tokens} agent tokens (R2): "
            "every game would be lost before it starts", ("setup", "agents_per_city"),
            ("components", "agent_tokens"), ("city",))
    else:
        each = p("setup.player_agents")
        short = [n for n in TEAM_SIZES if placed + n * each > tokens]
        if short and short[0] == 1:
            err(f"set-up places {placed} agents and each player {each} more, but the game "
                f"has {tokens} agent tokens (R2)", ("setup", "player_agents"),
                ("components", "agent_tokens"))
        elif short:
            warn(f"with {short[0]} or more players the set-up needs more than the {tokens} "
                 "agent tokens (R2): those games are lost before they start",
                 ("setup", "player_agents"), ("components", "agent_tokens"))
    if len(rules.setup_artworks) > p("components.artwork_tokens"):
        err(f"{len(rules.setup_artworks)} artworks at set-up, but the game has "
            f"{p('components.artwork_tokens')} artwork tokens (R2)", ("city",))
    if p("rules.lost_city_at") > tokens:
        warn(f"no city can hold {p('rules.lost_city_at')} agents (the game has {tokens}): "
             "cities never fall", ("rules", "lost_city_at"), ("components", "agent_tokens"))


def _lost_at_once(rules: Rules, err: Report, warn: Report) -> None:
    """Cities whose set-up agents already make them lost (R18): each falls at the end of
    round 1 unless the team clears it in battle first, and the game is lost when more fall
    than there are lost-city markers (R2). A team of n clears at most n cities in round 1
    (one battle a city, R14, its pawns each in one city), and wins then only by filling
    the track (R19) with the artworks its pawns can collect; a board where every team size
    certainly loses in round 1 is an error, one where some may is a warning."""
    at, markers = rules.p("rules.lost_city_at"), rules.p("components.lost_city_markers")
    falling = sum(1 for n in rules.setup_agents if n >= at)
    if falling <= markers:
        return
    lost = [n for n in TEAM_SIZES if falling - n > markers and not _won_in_round_one(rules, n)]
    blame = (("rules", "lost_city_at"), ("setup", "agents_per_city"),
             ("components", "lost_city_markers"), ("city",))
    said = (f"set-up places {at} or more agents (lost_city_at = {at}) in each of {falling} "
            "cities: they fall at the end of round 1 (R18) unless the team clears them in "
            f"battle, but the game has {markers} lost-city marker{'s' * (markers != 1)} (R2)")
    if len(lost) == len(TEAM_SIZES):
        err(f"{said}: a team of n players clears at most n of them in round 1 (R14), so "
            "every game would be lost in round 1", *blame)
    else:
        teams = (f"; teams of {lost[0]} to {lost[-1]} players lose every game in round 1, "
                 "clearing at most one a player (R14)") if lost else ""
        warn(f"{said}: a team that does not clear {falling - markers} of them in round 1 "
             f"loses{teams}", *blame)


def _won_in_round_one(rules: Rules, n: int) -> bool:
    """Whether a team of n might fill the track in round 1 (R19): each pawn collects at most
    one artwork (two where it may carry one, R23), from those at set-up and those the
    round's clue cards uncover (R10); or a hook or city effect may win the game."""
    each = 2 if rules.p("rules.carry_artworks") else 1
    play = rules.p("solo.play_per_round") if n == 1 and rules.p("solo.enabled") else \
        rules.p("rules.play_per_round")
    found = len(rules.setup_artworks) + n * play // rules.p("rules.clues_per_artwork")
    texts = [*(("hook", t) for t in rules.raw.get("hooks", ())),
             *(("effect", c["on_collect"]) for c in rules.raw.get("city", ())
               if c.get("on_collect"))]
    return min(n * each, found) >= len(rules.track) or any(_may_win(*t) for t in texts)


def _may_win(start: str, text: object) -> bool:
    """Whether a rule text holds a `win` statement (read as the DSL parses it: not a word
    `win` in a defeat's message or a comment); a text that does not parse is told by its
    own check."""
    from ...dsl.ast import EndGame, statements
    from ...dsl.parser import parse

    try:
        tree = parse(str(text), start)
    except RulesError:
        return False
    return any(isinstance(st, EndGame) and st.won for st in statements(tree))


def _health(rules: Rules, err: Report, warn: Report) -> None:
    """Every team size and difficulty takes its health from the health tokens (R2)."""
    tokens = rules.p("components.health_tokens")
    solo = rules.p("solo.enabled")
    factor = rules.p("solo.health_factor")
    for name, each in rules.difficulties.items():
        need = {n: each * (factor if n == 1 and solo else n) for n in TEAM_SIZES}
        short = [n for n in TEAM_SIZES if need[n] > tokens]
        if len(short) == len(TEAM_SIZES):
            err(f"{name}: every team needs more than the {tokens} health tokens at set-up",
                ("difficulty", name), ("components", "health_tokens"))
        elif short:
            teams = ", ".join(map(str, short))
            warn(f"{name}: teams of {teams} need more than the {tokens} health tokens at "
                 "set-up (R2)", ("difficulty", name), ("components", "health_tokens"))


def _deck(rules: Rules, err: Report, warn: Report) -> None:
    """The final card lies within the deck (R3), in solo mode too (R24)."""
    n = len(rules.deck)
    below = rules.p("setup.final_card_from_bottom") - 1
    if below >= n:
        err(f"the final card would lie under {below} cards, but the deck has {n}: it would "
            "be drawn first and every game would end in round 1 (R3)",
            ("setup", "final_card_from_bottom"), ("cards",))
    if not rules.p("solo.enabled"):
        return
    removed = rules.p("solo.removed_cards")
    if removed >= n:
        err(f"solo mode removes {removed} cards from a deck of {n}", ("solo", "removed_cards"),
            ("cards",))
    elif below < n and n - removed - below <= 0:
        warn(f"solo mode removes {removed} of {n} cards: the final card would be drawn "
             "first and every solo game would end in round 1", ("solo", "removed_cards"),
             ("cards",))


def _track(rules: Rules, err: Report, warn: Report) -> None:
    """The track fits the artwork tokens and its threat does not fall."""
    artworks = rules.p("components.artwork_tokens")
    if len(rules.track) > artworks:
        err(f"the track has {len(rules.track)} spaces, but the game has {artworks} artwork "
            "tokens (components.artwork_tokens, R2): it can never be filled", ("track",),
            ("components", "artwork_tokens"))
    for i in range(1, len(rules.track)):
        if rules.track[i].threat < rules.track[i - 1].threat:
            warn("the threat falls along the track (each space's threat is usually at least "
                 "the last one's)", ("track", i, "threat"))
    _team_threat(rules, err)


def _team_threat(rules: Rules, err: Report) -> None:
    """`rules.threat_by_players` and, with the house rule team-threat on, the board's
    `team_threat_by_players`: six numbers each, a team size's sum leaving every space's
    threat at 0 or more (R15 reads the printed space; the numbers are a house rule's,
    docs/missions.md)."""
    keys = ("threat_by_players", "team_threat_by_players")
    for key in keys:
        if len(rules.p(f"rules.{key}")) != len(TEAM_SIZES):
            err(f"expected {len(TEAM_SIZES)} whole numbers, the threat added for 1, 2, 3, 4, 5 "
                f"and 6 players, not {len(rules.p(f'rules.{key}'))}", ("rules", key))
            return
    # the list the team faces (the loader adds the house rule's numbers when it is on)
    extra = rules.p("rules.threat_by_players")
    blame = [("rules", "threat_by_players")]
    if rules.p("rules.team_threat"):
        blame = [("rules", "team_threat_by_players"), ("rules", "team_threat"), *blame]
    low = min(s.threat for s in rules.track)
    for n, add in zip(TEAM_SIZES, extra, strict=True):
        if low + add < 0:
            err(f"{add} for {n} player{'s' * (n > 1)} would bring the track's lowest threat "
                f"({low}) below 0", *blame, ("track",))
            return
    _tuned_threat(rules, low, err)


def _tuned_threat(rules: Rules, low: int, err: Report) -> None:
    """What `tune` may try leaves every space's threat at 0 or more for every team size
    (R15), as the rules above ask of the track played, so that no trial is refused: the
    lowest end of a tuned threat ramp with each team size's number (`[rules]
    threat_by_players`, and the house rule team-threat's when it is on), and a tuned team
    size's low end with the house rule's number (its low end alone against the track:
    tunables.py, with the rest of the [tune] section)."""
    dims = {d.name: d for d in tunables(rules)}
    first, last = dims.get("track.threat.first"), dims.get("track.threat.last")
    lowest = min(first.low, last.low) if first and last else low
    faced = [int(x) for x in rules.p("rules.threat_by_players")]
    house = [a - b for a, b in zip(faced, declared_team(rules), strict=True)]
    with_house = " with team_threat_by_players (team-threat)" if any(house) else ""
    for n in TEAM_SIZES:
        entry, players = dims.get(f"threat_by_players.{n}"), f"{n} player{'s' * (n > 1)}"
        if entry is not None and lowest + entry.low >= 0 > lowest + entry.low + house[n - 1]:
            err(f"the range's low end {entry.low} and the house rule team-threat's "
                f"{house[n - 1]} for {players} would bring the track's lowest threat "
                f"({lowest}) below 0: `tune` would try a board that is refused; expected a "
                f"low end of at least {-lowest - house[n - 1]}", ("tune", "threat_by_players",
                                                                   str(n)))
            return
        if entry is None and first and lowest + faced[n - 1] < 0:
            err(f"the ramp's lowest end {lowest} would bring the threat below 0 for "
                f"{players}, whose threat_by_players{with_house} adds {faced[n - 1]}: `tune` "
                f"would try a track that is refused; expected the ramp's low ends to be at "
                f"least {-min(faced)}", ("tune", "track", "threat"))
            return


def reachable(rules: Rules) -> set[int]:
    """The cities a pawn can reach from the start (every city when moves go anywhere)."""
    if rules.p("rules.movement") == "anywhere":
        return set(range(len(rules.cities)))
    seen, todo = {rules.start}, [rules.start]
    while todo:
        c = todo.pop()
        for r in rules.neighbours[c]:
            if r.dst not in seen:
                seen.add(r.dst)
                todo.append(r.dst)
    return seen


def _reach(rules: Rules, err: Report, warn: Report) -> None:
    """Every artwork the track needs can be uncovered (R10) and collected (R12)."""
    need = rules.p("rules.clues_per_artwork")
    bearing: Counter[int] = Counter(s for card in rules.cards.values() for s in card.clues)
    near = reachable(rules)
    _far(rules, near, warn)
    rare = {s for i, s in enumerate(rules.symbols) if bearing[i] < need}
    unreached = {s for s in rules.symbols
                 if not any(c in near for c in rules.by_symbol.get(s, ()))}
    _ordered_track(rules, rare, unreached, need, err)
    if not set(rules.symbols) - rare - unreached:
        why = (f"no symbol is on {need} cards (rules.clues_per_artwork, R10)" if
               rare == set(rules.symbols) else "no city the pawns can reach bears a symbol "
               f"that {need} cards bear")
        deck = (("cards",),) if rare == set(rules.symbols) else ()  # (the deck bears them)
        err(f"no artwork can ever reach the track: {why}", ("track",),
            ("rules", "clues_per_artwork"), ("road",), ("city",), *deck)
        return
    for i, s in enumerate(rules.symbols):
        if s in rare and rules.by_symbol.get(s):
            warn(f"fewer than {need} cards bear {s!r}: its artwork can never be uncovered "
                 "(R10)", ("symbols", i), ("cards",))


def _far(rules: Rules, near: set[int], warn: Report) -> None:
    far = [city.name for c, city in enumerate(rules.cities) if c not in near]
    if far:
        warn(f"no road leads from the start to {', '.join(far)}: no artwork there can be "
             "collected nor any agent fought", ("road",))


def _ordered_track(rules: Rules, rare: set[str], unreached: set[str], need: int,
                   err: Report) -> None:
    """A track that demands its artworks in order needs each one it names."""
    for i, space in enumerate(rules.track):
        if space.symbol in rare:
            err(f"the track demands a {space.symbol} artwork here, but fewer than {need} cards "
                f"bear {space.symbol!r}: it can never be uncovered (R10)", ("track", i, "symbol"),
                ("cards",))
        elif space.symbol in unreached:
            err(f"the track demands a {space.symbol} artwork here, but no city the pawns can "
                f"reach bears {space.symbol!r}", ("track", i, "symbol"))
