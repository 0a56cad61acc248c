"""What a player may know (the information rules).

The rulebook: during the mission phase players may describe their cards but "may not show
their face side. You may, however, show the back side with the clues printed on it." So a
hand's faces are its owner's alone and its backs (the clue symbols) everyone's. The deck's
order is unknown to all, and so are the solo mode's cards set aside. Everything else is on
the table: board, van, track, tokens, the clue chains (played cards, face known), battles.
Where the rulebook is silent, our ruling: the discard pile is face up (cards discarded from
hands at the end of the mission phase, or of the round in solo mode, are seen by all).

The state's table of fields (state.py) marks each field public, private or hidden; the
observation shows the public entries, the player's own hand, and of each other hand only
its size and its backs in a canonical order (sorted: never the order of card ids, which
would tell the cards apart). The information state (the kernel's, machine.py) adds the
history: every action, and each chance event as the player saw it (chance.py's views).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from ..actions import CHANCE
from ..fields import PUBLIC, SKIP

if TYPE_CHECKING:
    from .state import State


def backs(st: State, hand: list[int]) -> list[list[str]]:
    """The backs of a hand's cards (their clue symbols), in a canonical order."""
    sym = st.rules.symbols
    return sorted([sym[s] for s in st.tab.clues[c]] for c in hand)


def observation(st: State, player: int) -> dict[str, Any]:
    """What `player` may see: every public fact, their own hand, others' backs only."""
    out: dict[str, Any] = {"round": st.round, "phase": st.phase, "wait": st.wait_name()}
    for e in st.ENTRIES:
        if e.info == PUBLIC:
            v = e.write(st)
            if v is not SKIP:
                out[e.key] = v
    b = st.battle
    out.update({
        "threat": st.threat(), "ally_cost": st.ally_cost(), "deck": st.deck_size(),
        "set_aside": len(st.removed),
        "hand": list(st.hands[player]) if 0 <= player < st.players else [],
        "hand_sizes": {f"p{i + 1}": len(h) for i, h in enumerate(st.hands) if i != player},
        "hand_backs": {f"p{i + 1}": backs(st, h) for i, h in enumerate(st.hands)
                       if i != player},
        "battle": None if b is None else {
            "city": st.city_name(b.city), "leader": f"p{b.leader + 1}",
            "dice": dict(zip(b.labels, b.dice, strict=True)),
            "strength": st.strength(), "agents": st.agent_strength(b.city)},
        "outcome": st.outcome, "reason": st.reason,
        "legal": [str(a) for a in legal_for(st, player)],
    })
    return out


def legal_for(st: State, player: int) -> list[Any]:
    """The legal actions `player` may see: none at a chance node (its outcomes would list the
    deck), and no other player's private action (another's `play` names their cards)."""
    out = []
    for a in st.legal_actions():
        if a.player == CHANCE:
            return []
        if a.player != player and getattr(a.verb, "private", False):
            continue
        out.append(a)
    return out


def start_view(st: State, player: int) -> tuple[Any, ...]:
    """What `player` knows of the game's start: the rules, the team, the difficulty, and of
    a set position its public entries and the player's own hand (never the seed)."""
    start = st.start or {}
    pos = start.get("position", {})
    public = {e.key: pos[e.key] for e in st.ENTRIES if e.info == PUBLIC and e.key in pos}
    hands = pos.get("hands")
    own: Any = None
    if isinstance(hands, dict):
        own = hands.get(f"p{player + 1}")
    elif isinstance(hands, list) and 0 <= player < len(hands):
        own = hands[player]
    rules = st.rules
    return (rules.name, rules.variants, st.players, st.difficulty, start.get("phase"),
            json.dumps(public, sort_keys=True), json.dumps(own))


# ====================================================================== search and learning
def resample(st: State, players: Sequence[int], seed: int) -> State:
    """A copy `players` together cannot tell from `st` (a determinization): every card
    none of them can see drawn anew, uniformly among the deals that fit what they saw, and
    the generator reseeded from `seed` (the dice and draws to come).

    What they cannot see: the faces in the other players' hands (each keeps its back, the
    clue symbols everyone sees), the deck's cards and the cards set aside (R24). A card in
    another's hand takes a card of the same back from those unseen; the rest make the deck,
    the set-aside cards and any cards known to lie on top (scenarios). The trail (what each
    player saw drawn) follows the cards, so each player's information state fits the new
    deal; a determinization is for search, and is no game a replay of its history gives.
    """
    c = st.clone()
    c.reseed(seed)
    seen = set(players)
    hidden = [p for p in range(c.players) if p not in seen]
    by_back, _ = _back_classes(c)
    pool = [*c.deck, *c.removed, *c.deck_top]
    for p in hidden:
        pool += c.hands[p]
    _shuffle(c, pool)
    swap: dict[int, int] = {}
    for p in hidden:
        for i, card in enumerate(c.hands[p]):
            j = next(k for k, x in enumerate(pool) if by_back[x] == by_back[card])
            new = pool.pop(j)
            swap[card] = new
            c.hands[p][i] = new
        c.hands[p].sort()
    n_top, n_removed = len(c.deck_top), len(c.removed)
    c.deck_top[:] = pool[:n_top]
    c.removed[:] = pool[n_top:n_top + n_removed]
    c.deck[:] = sorted(pool[n_top + n_removed:])
    if swap:
        c.trail[:] = [(at, kind, who, swap.get(v, v) if who in hidden and isinstance(v, int)
                       and kind.name == "deal" else v) for at, kind, who, v in c.trail]
    c.legal_cache = None
    c.renew_chance()  # (at a chance node: what it may draw now)
    return c


def _back_classes(st: State) -> tuple[dict[int, tuple[int, ...]], int]:
    rules = st.rules
    got = rules.cache.get("backs-by-card")
    if got is None:
        by_card = {cid: tuple(sorted(set(card.clues))) for cid, card in rules.cards.items()}
        got = rules.cache["backs-by-card"] = (by_card, len(set(by_card.values())))
    assert isinstance(got, tuple)
    return got


def _shuffle(st: State, cards: list[int]) -> None:
    """Shuffle in place with the state's own generator (Fisher-Yates)."""
    for i in range(len(cards) - 1, 0, -1):
        j = st.next() % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]


# Weights of the shaped score: artworks on the track count most, then the team's health,
# then the resources in the van (docs/ai.md).
SHAPE_TRACK: Final = 0.6
SHAPE_HEALTH: Final = 0.25
SHAPE_VAN: Final = 0.15


def shaped_score(st: State) -> list[float]:
    """The team's shaped score for every player: +1 won, -1 lost, and in between
    0.9 * (2 * s - 1), where s = 0.6 * (artworks on the track / track spaces) + 0.25 *
    (health / the team's starting health, at most 1) + 0.15 * (resources in the van / the
    van's room)."""
    if st.outcome is not None:
        return st.returns()
    track, start, van = _denominators(st)
    return [_score(len(st.track), sum(st.health), sum(st.van), track, start, van)] * st.players


def _denominators(st: State) -> tuple[int, int, int]:
    """The track's spaces, the team's starting health, the van's room (each at least 1),
    kept by the rules for the game's difficulty, solo mode and player count."""
    key = ("shaped-score", st.difficulty, st.solo, st.players)
    got = st.rules.cache.get(key)
    if got is None:
        r, t = st.rules, st.tab
        start = r.difficulties[st.difficulty] * (2 if st.solo else 1) * st.players
        got = st.rules.cache[key] = (max(1, len(r.track)), max(1, start),
                                     max(1, len(r.resources) * t.res_cap))
    kept: tuple[int, int, int] = got
    return kept


def _score(on_track: int, health_sum: int, in_van: int, track: int, start: int,
           van: int) -> float:
    """`shaped_score`'s number in play (its text's formula, in this order of operations)."""
    health = health_sum / start  # (at most 1: `min` is a call with keywords to parse)
    s = (SHAPE_TRACK * on_track / track
         + SHAPE_HEALTH * (health if health < 1.0 else 1.0)
         + SHAPE_VAN * in_van / van)
    return 0.9 * (2.0 * s - 1.0)


SCORES_KEPT: Final = 1 << 16  # the most numbers `shaped_scorer` keeps for one game


def shaped_scorer(st: State) -> Callable[[State], list[float]]:
    """`shaped_score` for the states of `st`'s game (its rules, difficulty, solo mode and
    player count) as one flat function, made once for them: its number read from a table
    of `_score`'s by artworks on the track, health (any above the start counts as the
    start: at most 1) and resources in the van, the health and the van summed by constant
    index (the same floats, tests/test_adapters_packed.py compares them); health or van of
    another length, or counts past the table (never in play): `shaped_score`. A game whose
    table would hold more than SCORES_KEPT numbers: `shaped_score` itself."""
    key = ("shaped-scorer", st.difficulty, st.solo, st.players)
    got = st.rules.cache.get(key)
    if got is None:
        got = st.rules.cache[key] = _scorer_of(st)
    made: Callable[[State], list[float]] = got
    return made


def _scorer_of(st: State) -> Callable[[State], list[float]]:
    """`shaped_scorer`'s function for `st`'s game (whole numbers summed in any order are
    the same number: the sums are `sum`'s)."""
    track, start, van = _denominators(st)
    if (track + 1) * (start + 1) * (van + 1) > SCORES_KEPT:
        return shaped_score
    table = [[[_score(t, h, v, track, start, van) for v in range(van + 1)]
              for h in range(start + 1)] for t in range(track + 1)]
    hs = [f"h{p}" for p in range(len(st.health))]
    vs = [f"v{i}" for i in range(len(st.van))]
    lines = [
        "if st.outcome is not None:",
        "    return st.returns()",
        "try:  # (as many as the game began with, within the table: always, in play)",
        f"    {''.join(f'{h}, ' for h in hs)}= st.health",
        f"    {''.join(f'{v}, ' for v in vs)}= st.van",
        f"    h = {' + '.join(hs) or '0'}",
        f"    x = table[len(st.track)][h if h < {start} else {start}]"
        f"[{' + '.join(vs) or '0'}]",
        "except (ValueError, IndexError):",
        "    return shaped(st)",
        f"return [x] * {st.players}",
    ]
    space: dict[str, Any] = {"shaped": shaped_score, "table": table}
    code = "def score(st):\n" + "".join(f"    {line}\n" for line in lines)
    exec(compile(code, "<The A.R.T. Project's shaped score>", "exec"),
         space)  # (made above from numbers)
    made: Callable[[State], list[float]] = space["score"]
    return made
