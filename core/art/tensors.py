"""The A.R.T. game's tensors: its observation and information state as numbers, in a fixed
layout per rules and player count (core/tensors.py; docs/ai.md lists it).

Counts are raw numbers (health tokens, agents, the round), the rest one-hot or 0/1 flags.
A viewer sees what info.py lets a player see: the public table, their own hand's faces, and
of the other hands only their sizes and backs (counted by back: the clue symbols printed
on it). The viewer TEAM is the whole team deciding as one: every hand's faces.

The information state adds to the observation what the past told that the table no longer
shows: the number of decisions taken. In this game everything a player saw earlier is
still on the table (played cards lie in the clue chains, discarded ones face up in the
discard pile, R9 and our ruling), so the observation carries the rest; the information
state's string (the kernel's, perfect recall) tells the order of events as well.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ..actions import CHANCE, TEAM
from ..tensors import (
    IS,
    ITEMS,
    LIST,
    LISTS,
    LIVE,
    ROWS,
    Lines,
    Row,
    RowLines,
    Segment,
    Source,
    field,
    inlined,
    numbers,
    one_hot,
)
from .registry import ALLY_PAWN, REG

if TYPE_CHECKING:
    from .state import State

PHASES: Final = ("setup", "mission", "movement", "exchange", "battle", "end", "over")
BACKS_KEY: Final = "tensor-backs"


def _card_index(st: State) -> dict[int, int]:
    """Each card id (the final card too) to its row in the card segments."""
    cache = st.rules.cache
    idx = cache.get("tensor-cards")
    if idx is None:
        ids = sorted({*st.rules.cards, st.rules.final_card})
        idx = cache["tensor-cards"] = {c: i for i, c in enumerate(ids)}
    assert isinstance(idx, dict)
    return idx


def _backs(st: State) -> tuple[dict[int, int], int]:
    """Each card id to its back's class (its distinct clue symbols, sorted), and how many
    classes the deck has."""
    cache = st.rules.cache
    got = cache.get(BACKS_KEY)
    if got is None:
        classes = sorted({tuple(sorted(set(c.clues))) for c in st.rules.cards.values()})
        index = {b: i for i, b in enumerate(classes)}
        by_card = {cid: index[tuple(sorted(set(c.clues)))]
                   for cid, c in st.rules.cards.items()}
        got = cache[BACKS_KEY] = (by_card, len(classes))
    assert isinstance(got, tuple)
    return got


def _pawn_count(st: State) -> int:
    return st.players + (1 if st.solo else 0)


def _dice_count(st: State) -> int:
    return st.players + st.tab.ally_dice + (1 if st.solo else 0)


# ---------------------------------------------------------------------- the writers
def _phase(st: State, v: int, out: list[float], at: int) -> None:
    if st.phase in PHASES:
        one_hot(out, at, PHASES.index(st.phase))


_KIND_ROW: dict[str, int] = {}  # each kind's row, filled at the first tensor


def _decision(st: State, v: int, out: list[float], at: int) -> None:
    if st.wait is not None and st.outcome is None:
        if len(_KIND_ROW) != len(REG.kinds):  # (every rule module's kinds declared)
            _fill_kind_rows()
        out[at + _KIND_ROW[st.wait.name]] = 1.0


def _fill_kind_rows() -> None:
    _KIND_ROW.clear()
    _KIND_ROW.update((name, i) for i, name in enumerate(REG.kinds))


def _pawns(st: State, v: int, out: list[float], at: int) -> None:
    c = len(st.rules.cities)
    for i, city in enumerate(st.pawns):
        one_hot(out, at + i * c, city)


def _track(st: State, v: int, out: list[float], at: int) -> None:
    syms = st.rules.symbols
    for i, s in enumerate(st.track):
        if s in syms:
            one_hot(out, at + i * len(syms), syms.index(s))


def _chains(st: State, v: int, out: list[float], at: int) -> None:
    idx = _card_index(st)
    for i, ch in enumerate(st.chains):
        for card in ch:
            out[at + i * len(idx) + idx[card]] = 1.0


def _discard(st: State, v: int, out: list[float], at: int) -> None:
    idx = _card_index(st)
    for card in st.discard:
        out[at + idx[card]] = 1.0


def _hands(st: State, v: int, out: list[float], at: int) -> None:
    """The viewer's own hand (TEAM: every hand), a row per player."""
    idx = _card_index(st)
    for p, hand in enumerate(st.hands):
        if v in (TEAM, p):
            for card in hand:
                out[at + p * len(idx) + idx[card]] = 1.0


def _backs_seen(st: State, v: int, out: list[float], at: int) -> None:
    by_card, n = _backs(st)
    for p, hand in enumerate(st.hands):
        for card in hand:
            out[at + p * n + by_card[card]] += 1.0


def _battle(st: State, v: int, out: list[float], at: int) -> None:
    """The battle under way: city, leader, participants (one-hot), then its numbers."""
    b = st.battle
    if b is None:
        return
    c, n = len(st.rules.cities), st.players
    one_hot(out, at, b.city)
    one_hot(out, at + c, b.leader)
    for p in b.parts:
        one_hot(out, at + c + n, p)
    out[at + c + 2 * n] = float(st.strength())
    out[at + c + 2 * n + 1] = float(st.agent_strength(b.city))
    out[at + c + 2 * n + 2] = float(b.bonus)


def _dice(st: State, v: int, out: list[float], at: int) -> None:
    """Each die's result and whether it is picked for a reroll, by its label's place."""
    b = st.battle
    if b is None:
        return
    labels = _labels(st)
    d = len(labels)
    for i, lab in enumerate(b.labels):
        j = labels.index(lab) if lab in labels else -1
        if j >= 0:
            out[at + j] = float(b.dice[i]) if i < len(b.dice) else 0.0
            if i in b.picks:
                out[at + d + j] = 1.0


def _labels(st: State) -> list[str]:
    out = [f"p{p + 1}" for p in range(st.players)]
    out += [f"a{i + 1}" for i in range(st.tab.ally_dice)]
    return [*out, "ally"] if st.solo else out


def _flags(attr: str) -> Callable[[State, int, list[float], int], None]:
    """A 0/1 flag per index listed in the state's list `attr`."""
    def write(st: State, v: int, out: list[float], at: int) -> None:
        for i in getattr(st, attr):
            out[at + (st.players if i == ALLY_PAWN else i)] = 1.0
    return write


def _numbers(read: Callable[[State], Any]) -> Callable[[State, int, list[float], int], None]:
    """The numbers `read(state)` gives (one, or a list), as they are (core/tensors.py)."""
    return numbers(read)


def _decisions(st: State, v: int, out: list[float], at: int) -> None:
    out[at] = float(sum(1 for a in st.history if a.player != CHANCE))


# ------------------------------------------------- the writers as lines (core/tensors.py)
def _inline(st: State) -> dict[str, Lines]:
    """The loops of the writers above as lines of the adapters' one-call writer, with the
    rules' tables (card rows, backs, symbols) as constants, by segment name."""
    idx, (by_card, nb) = _card_index(st), _backs(st)
    n, c, k = st.players, len(st.rules.cities), len(idx)
    syms = st.rules.symbols
    sym = {x: syms.index(x) for x in syms}  # (the first place of each, as `_track`)
    phase = {x: i for i, x in enumerate(PHASES)}

    def phase_(at: int, p: str) -> tuple[list[str], dict[str, Any]]:
        return [f"x = {p}row.get(st.phase)", "if x is not None:",
                f"    out[{at} + x] = 1.0"], {f"{p}row": phase}

    def pawns(at: int, p: str) -> tuple[list[str], dict[str, Any]]:
        return ["for i, x in enumerate(st.pawns):", "    if x is not None and x >= 0:",
                f"        out[{at} + i * {c} + x] = 1.0"], {}

    def track(at: int, p: str) -> tuple[list[str], dict[str, Any]]:
        return ["for i, x in enumerate(st.track):", f"    x = {p}row.get(x)",
                "    if x is not None:", f"        out[{at} + i * {len(syms)} + x] = 1.0"], \
            {f"{p}row": sym}

    def chains(at: int, p: str) -> tuple[list[str], dict[str, Any]]:
        return ["for i, ch in enumerate(st.chains):", "    for x in ch:",
                f"        out[{at} + i * {k} + {p}idx[x]] = 1.0"], {f"{p}idx": idx}

    def discard(at: int, p: str) -> tuple[list[str], dict[str, Any]]:
        return ["for x in st.discard:", f"    out[{at} + {p}idx[x]] = 1.0"], {f"{p}idx": idx}

    def hands(at: int, p: str) -> tuple[list[str], dict[str, Any]]:
        return ["for i, h in enumerate(st.hands):", f"    if v == {TEAM} or v == i:",
                "        for x in h:", f"            out[{at} + i * {k} + {p}idx[x]] = 1.0"], \
            {f"{p}idx": idx}

    def backs(at: int, p: str) -> tuple[list[str], dict[str, Any]]:
        return ["for i, h in enumerate(st.hands):", "    for x in h:",
                f"        out[{at} + i * {nb} + {p}back[x]] += 1.0"], {f"{p}back": by_card}

    def flags(attr: str) -> Lines:
        def lines(at: int, p: str) -> tuple[list[str], dict[str, Any]]:
            return [f"for i in st.{attr}:",
                    f"    out[{at} + ({n} if i == {ALLY_PAWN} else i)] = 1.0"], {}
        return lines

    def decision(at: int, p: str) -> tuple[list[str], dict[str, Any]]:
        return ["w = st.wait", "if w is not None and st.outcome is None:",
                f"    if len({p}row) != len({p}kinds):  # (as `_decision`)",
                f"        {p}fill()", f"    out[{at} + {p}row[w.name]] = 1.0"], \
            {f"{p}row": _KIND_ROW, f"{p}kinds": REG.kinds, f"{p}fill": _fill_kind_rows}

    def sizes(at: int, p: str) -> tuple[list[str], dict[str, Any]]:
        return ["for i, h in enumerate(st.hands):", f"    out[{at} + i] = len(h)"], {}

    return {"phase": phase_, "decision": decision, "hand_sizes": sizes, "pawns": pawns,
            "track": track, "chains": chains, "discard": discard, "hands": hands,
            "hand_backs": backs, "fought": flags("fought"), "moved": flags("moved"),
            "must_leave": flags("must_leave")}


# ---------------------------------------------------------------------- the layouts
def observation_segments(st: State) -> tuple[Segment, ...]:
    """The observation's segments for this game's rules and player count."""
    r, t = st.rules, st.tab
    n, c, k, s = st.players, len(r.cities), len(_card_index(st)), len(r.symbols)
    pw, backs = _pawn_count(st), _backs(st)[1]
    # the bounds of the counts, from the components (R1, R2) and the printed track
    agents, health = r.params["components.agent_tokens"], r.params["components.health_tokens"]
    threat = max(t.threat_at) + t.team_threat[n]
    dice = _dice_count(st) * t.die_faces
    fight = max(c, agents + threat, dice + t.res_cap * t.die_faces)
    return (
        Segment("phase", (len(PHASES),), "the phase: " + ", ".join(PHASES), _phase),
        Segment("decision", (len(REG.kinds),), "the decision pending, by kind (docs/ai.md)",
                _decision),
        Segment("round", (1,), "the round", field("round"), st.max_game_length()),
        Segment("van", (len(r.resources),), "resources in the van: " + ", ".join(r.resources),
                field("van"), t.res_cap),
        Segment("health", (n,), "each player's health", field("health"), health),
        Segment("pawns", (pw, c), "each pawn's city (the solo ally pawn last)", _pawns),
        Segment("agents", (c,), "agents in each city", field("agents"), agents),
        Segment("hq", (1,), "agents in headquarters", field("hq"), agents),
        Segment("artworks", (c,), "cities holding an artwork", field("artworks")),
        Segment("lost", (c,), "lost cities", field("lost")),
        Segment("track", (len(r.track), s), "the symbol of each artwork on the track", _track),
        Segment("threat", (1,), "the threat (R15)", _numbers(lambda st: st.threat()), threat),
        Segment("ally_cost", (1,), "radio to unlock the next ally die (R17)",
                _numbers(lambda st: st.ally_cost()), max(t.ally_cost_at)),
        Segment("allies", (1,), "ally dice unlocked", field("allies"),
                max(1, t.ally_dice)),
        Segment("chains", (len(st.chains), k), "the cards in each clue chain", _chains),
        Segment("discard", (k,), "the cards in the discard pile (face up)", _discard),
        Segment("hands", (n, k), "the viewer's own hand (the team: every hand)", _hands),
        Segment("hand_sizes", (n,), "each hand's size",
                _numbers(lambda st: [len(h) for h in st.hands]), k),
        Segment("hand_backs", (n, backs), "each hand's cards by back (clue symbols)",
                _backs_seen, k),
        Segment("deck", (1,), "cards left in the deck", _numbers(lambda st: st.deck_size()), k),
        Segment("above", (1,), "cards above the final card (-1: drawn, R3)",
                field("above"), k, -1.0),
        Segment("final_round", (1,), "the final card has been drawn (R20)",
                _numbers(lambda st: int(st.final_round))),
        Segment("set_aside", (1,), "cards set aside (solo, R24)",
                _numbers(lambda st: len(st.removed)), k),
        Segment("carried", (pw,), "pawns carrying an artwork (R23)",
                field("carried")),
        Segment("plays_left", (n,), "cards each player has still to play",
                field("plays_left"), k),
        Segment("fought", (c,), "cities fought in this round", _flags("fought")),
        Segment("moved", (pw,), "pawns moved this round", _flags("moved")),
        Segment("must_leave", (pw,), "pawns that must leave a lost city",
                _flags("must_leave")),
        Segment("deploy_left", (n,), "set-up agents each player has still to place (R23)",
                field("deploy_left"), agents),
        Segment("battle", (c + 2 * n + 3,), "the battle: city, leader, participants "
                "(one-hot), strength, the agents' strength, weapon bonus", _battle, fight),
        Segment("dice", (2, _dice_count(st)), "each die's result, then 1 if picked for a "
                "reroll: p1..pN, a1..aK (ally dice), ally (solo)", _dice, t.die_faces),
    )


def _rows(st: State) -> dict[str, RowLines]:
    """The hands' segments a row (a hand, `h`) at a time (core/tensors.py `ROWS`)."""
    idx, (by_card, nb) = _card_index(st), _backs(st)
    k = len(idx)

    def hands(at: int, r: int, p: str) -> Row:  # (the viewer's own, or the team's)
        return Row(["for x in h:", f"    out[{at + r * k} + {p}idx[x]] = 1.0"],
                   {f"{p}idx": idx}, guard=f"v == {TEAM} or v == {r}")

    def sizes(at: int, r: int, p: str) -> Row:
        return Row([f"out[{at + r}] = len(h)"], {}, covers=True)

    def backs(at: int, r: int, p: str) -> Row:
        return Row(["for x in h:", f"    out[{at + r * nb} + {p}back[x]] += 1.0"],
                   {f"{p}back": by_card})

    return {"hands": hands, "hand_sizes": sizes, "hand_backs": backs}


# What the segments are functions of, with the rules and the viewer (core/tensors.py
# `Source`): an adapter rewrites a seat's segment when it changed. Those that change in a
# few steps of a hundred share one comparison (RARE); the other plain numbers are compared
# by their own value (the van and health too, which change at about every other write: set
# every time, `EVERY`, they cost 175 instructions a write more).
RARE: Final = Source("[st.round, st.hq, st.artworks, st.lost, st.track, st.final_round, "
                     "st.removed, st.carried, st.must_leave, st.deploy_left]", ITEMS)
SOURCES: Final = {
    **dict.fromkeys(("round", "hq", "artworks", "lost", "track", "threat", "ally_cost",
                     "final_round", "set_aside", "carried", "must_leave", "deploy_left"),
                    RARE),  # (the threat and ally cost: read off the track's length)
    **dict.fromkeys(("deck", "above"), Source("(len(st.deck), len(st.deck_top), st.above)")),
    **dict.fromkeys(("hands", "hand_sizes", "hand_backs"), Source("st.hands", ROWS)),
    **dict.fromkeys(("battle", "dice"), Source("st.battle", LIVE)),
    "phase": Source("st.phase", IS),
    "decision": Source("st.wait if st.outcome is None else None", IS),
    "pawns": Source("st.pawns", LIST), "chains": Source("st.chains", LISTS),
    "discard": Source("st.discard", LIST), "fought": Source("st.fought", LIST),
    "moved": Source("st.moved", LIST)}


def _with_lines(st: State, segs: tuple[Segment, ...]) -> tuple[Segment, ...]:
    """The segments, those with a loop given their lines too (`_inline`, `_rows`), and
    their sources (`SOURCES`)."""
    lines, rows = _inline(st), _rows(st)
    return tuple(s._replace(write=inlined(s.write, lines[s.name], rows.get(s.name))
                            if s.name in lines else s.write, source=SOURCES.get(s.name))
                 for s in segs)


def information_state_segments(st: State) -> tuple[Segment, ...]:
    """The observation's segments, then the decisions taken so far."""
    return (*observation_segments(st),
            Segment("decisions", (1,), "decisions taken so far", _decisions,
                    st.max_game_length()))


def segments(st: State, kind: str) -> tuple[Segment, ...]:
    segs = observation_segments(st) if kind == "observation" else \
        information_state_segments(st)
    return _with_lines(st, segs)
