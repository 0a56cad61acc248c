"""The battle phase (rulebook phase C): at most one battle per city (R14), the agents'
strength (R15), and while losing: rerolls for clue cards, boosts, or conceding (R16).
Winning clears the city's agents and collects its artwork at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import TEAM, Action
from ..errors import GameError
from ..machine import LCG_A, LCG_C, MASK
from ..registry import PLAYER, named_player
from .chance import DIE, roll, rolled
from .collection import can_collect, collect
from .effects import emit, lose_health, pay
from .exchange import exchange_step
from .registry import A_DONE, CARD, CITY, DONE, REG, P, act, city_check
from .registry import DIE as DIE_SLOT
from .rules import Ctx

if TYPE_CHECKING:
    from .state import State


class Battle:
    """A battle under way (R14-R16): its city, leader and participants, the dice rolled (each
    with its label and the player who owns it), weapon bonuses and a reroll being picked."""

    __slots__ = ("bonus", "city", "dice", "labels", "leader", "owner", "parts", "picks",
                 "reroll", "reroller")

    def __init__(self, city: int, leader: int) -> None:
        self.city, self.leader, self.parts = city, leader, [leader] if leader >= 0 else []
        self.dice: list[int] = []
        self.labels: list[str] = []
        self.owner: list[int] = []
        self.bonus = 0
        self.picks: list[int] = []  # the dice picked for a reroll
        self.reroll = 0  # how many dice the reroll's card lets the team pick (R16)
        self.reroller = -1  # whose clue card pays the reroll, when each has a chain (R21)

    def copy(self) -> Battle:
        c = Battle.__new__(Battle)
        c.city, c.leader, c.parts = self.city, self.leader, self.parts.copy()
        c.dice, c.picks = self.dice.copy(), self.picks.copy()
        c.labels, c.owner, c.bonus = self.labels.copy(), self.owner.copy(), self.bonus
        c.reroll, c.reroller = self.reroll, self.reroller
        return c


NO_BATTLE: Final = Battle(-1, -1)  # what a fingerprint shows when no battle is under way
_EXCHANGE: Final = (exchange_step, ())  # R21, after the battles (`clue_exchange`)


def fighting(st: State) -> Battle:
    """The battle under way (a battle's steps call this; outside one it is an error)."""
    b = st.battle
    if b is None:
        raise GameError("no battle is under way")
    return b


def op_battle(st: State, ctx: Ctx) -> None:
    st.phase = "battle"
    st.fought = []
    st.queue.append(_EXCHANGE)
    st.wait = BATTLE  # (all `pause(BATTLE)` does: nothing queued after it)


# ====================================================================== the dice
def roll_battle(st: State) -> None:
    """The leader rolls their die and every ally die; each other participant their own (R14)."""
    b = st.battle
    assert b is not None
    lead, n = b.leader, st.allies
    t = st.tab
    try:
        labels: list[str] = t.battle_labels[lead][n].copy()
    except IndexError:  # more ally dice than the rules' (a set position): labelled alike
        labels = [P[lead], *(f"a{i + 1}" for i in range(n))]
    owner: list[int] = [lead] * (n + 1)
    if st.solo and st.pawns[st.players] == b.city:
        labels.append("ally")  # the ally pawn's die, rolled by the solo player (R24)
        owner.append(lead)
    for p in b.parts:
        if p != lead:
            labels.append(P[p])
            owner.append(p)
    b.labels, b.owner = labels, owner
    if st.explicit:
        b.dice = [0] * len(labels)
        st.push(_rolled_all)
        for i in reversed(range(len(labels))):
            st.push(_roll_die, i)
        return
    if st.forced_dice:
        b.dice = dice = [roll(st) for _ in labels]
        trail, at = st.trail, len(st.history)
        for d in dice:
            trail.append((at, DIE, -1, d))
    else:  # each die as `roll` draws it, and into the trail (written out: hot)
        z, faces, trail, at = st.rng, t.die_faces, st.trail, len(st.history)
        b.dice = dice = []
        for _ in labels:
            z = (z * LCG_A + LCG_C) & MASK
            d = 1 + (z >> 32) % faces
            dice.append(d)
            trail.append((at, DIE, -1, d))
        st.rng = z
    if st.logging:
        _rolled_all(st)
    else:
        battle_check(st)


def _roll_die(st: State, i: int) -> None:
    st.chance(DIE, _set_die, (i,))


def _set_die(st: State, face: int, i: int) -> None:
    rolled(st, face)
    fighting(st).dice[i] = face


def _rolled_all(st: State) -> None:
    if st.logging:
        b = fighting(st)
        st.note("rolled", " ".join(f"{lab}={d}" for lab, d in zip(b.labels, b.dice,
                                                                   strict=True)))
    battle_check(st)


def _reroll_picks(st: State) -> None:
    """R16: the picked dice are rerolled all at once."""
    b = fighting(st)
    if not st.explicit:
        trail, at = st.trail, len(st.history)
        for i in b.picks:
            b.dice[i] = d = roll(st)
            trail.append((at, DIE, -1, d))
        _rerolled(st)
        return
    st.push(_rerolled)
    for i in reversed(b.picks):
        st.push(_roll_die, i)


def _rerolled(st: State) -> None:
    b = fighting(st)
    if st.logging:
        st.note("rerolled", " ".join(f"{b.labels[i]}={b.dice[i]}" for i in b.picks))
    b.picks, b.reroll, b.reroller = [], 0, -1
    battle_check(st)


def battle_check(st: State) -> None:
    """Won when the team's strength reaches the agents' (R15); losing otherwise (R16)."""
    b = st.battle
    assert b is not None
    c = b.city
    # the team's strength (dice and boosts) against the agents' (R15), written out: hot
    t = st.tab
    if sum(b.dice) + b.bonus >= (st.agents[c] + t.threat_at[len(st.track)]
                                 + t.team_threat[st.players] + st.hq):
        if st.logging:
            st.note("battle_won", st.city_name(c), st.strength(), st.agent_strength(c))
        st.agents[c] = 0
        st.battle = None
        st.fought.append(c)
        q = st.queue
        mark = len(q)
        if "battle_won" in st.tab.hooks:
            emit(st, "battle_won", st.tab.city_ctx[c])
        if (st.artworks[c] or any(st.carried)) and can_collect(st, c):
            q.append((collect, (c,)))  # collected at once (R15)
        if len(q) == mark and st.wait is None:  # the next battle at once (`pause`, written out)
            st.wait = BATTLE
        else:
            st.pause(BATTLE, after=mark)
    else:
        st.wait = LOSING


# ====================================================================== decisions
def _legal_battle(st: State) -> list[Action]:
    out = []
    fights, agents, fought, lost, pawns = st.tab.fights, st.agents, st.fought, st.lost, st.pawns
    for p in range(st.players):
        c = pawns[p]
        if agents[c] and c not in fought and not lost[c]:
            out.append(fights[p][c])
    out.append(A_DONE)
    return out


def _legal_muster(st: State) -> list[Action]:
    b = st.battle
    assert b is not None
    joins, pawns, c, parts = st.tab.joins, st.pawns, b.city, b.parts
    out = []
    for p in range(st.players):  # (a loop: a comprehension costs a function's call more)
        if pawns[p] == c and p not in parts:
            out.append(joins[p])
    out.append(A_ROLL)
    return out


def _legal_losing(st: State) -> list[Action]:
    b = st.battle
    assert b is not None
    t = st.tab
    rerolls = t.rerolls
    chains = st.chains
    if len(chains) == 1:
        out = [rerolls[c] for c in chains[0]]
    else:  # R21: each player rerolls with their own cards
        out = [rerolls[c] for p in b.parts for c in chains[p]]
    boosts = t.boosts
    out += [boosts[p] for p in b.parts]
    out.append(A_CONCEDE)
    return out


def _rerollable(st: State) -> list[int]:
    """The dice a reroll may pick: every die, or with per-player chains and
    `reroll_own_dice` (R21) only the dice the card's owner rolls."""
    b = fighting(st)
    r = b.reroller if st.tab.reroll_own_dice else -1
    return [i for i in range(len(b.labels)) if r < 0 or b.owner[i] == r]


def _legal_pick(st: State) -> list[Action]:
    b = fighting(st)
    out = [act(PICK, TEAM, b.labels[i]) for i in _rerollable(st) if i not in b.picks]
    if b.picks:
        out.append(A_ROLL)
    return out


def _muster_or_roll(st: State) -> None:
    b = st.battle
    assert b is not None
    # another player in the city may join (the participants are players in the city)
    if (st.pawns[:st.players] if st.solo else st.pawns).count(b.city) > len(b.parts):
        st.wait = MUSTER
    else:
        roll_battle(st)


def _apply_fight(st: State, a: Action) -> None:
    st.battle = b = Battle(st.rules.city_index[a.arg], a.player)  # type: ignore[index]
    if st.logging:
        st.note("battle", st.city_name(b.city), f"p{a.player + 1}")
    _muster_or_roll(st)


def _apply_join(st: State, a: Action) -> None:
    b = st.battle
    assert b is not None  # (a join is listed only in a battle: see `fighting`)
    b.parts.append(a.player)
    _muster_or_roll(st)


def _apply_roll(st: State, a: Action) -> None:
    b = st.battle
    assert b is not None  # (a roll is listed only in a battle: see `fighting`)
    if b.picks:
        _reroll_picks(st)
    else:
        roll_battle(st)


def _apply_reroll(st: State, a: Action) -> None:
    card = int(a.arg or 0)
    b = fighting(st)
    for owner, ch in enumerate(st.chains):
        if card in ch:
            ch.remove(card)
            b.reroller = owner if len(st.chains) > 1 else -1
    st.discard.append(card)
    b.reroll = len(st.tab.clues[card])
    if st.logging:
        st.note("reroll_card", card)
    st.pause(PICK_KIND)


def _apply_pick(st: State, a: Action) -> None:
    b = fighting(st)
    b.picks.append(b.labels.index(str(a.arg)))
    if len(b.picks) >= b.reroll or len(b.picks) == len(_rerollable(st)):
        _reroll_picks(st)
    else:
        st.pause(PICK_KIND)


def _apply_boost(st: State, a: Action) -> None:
    t = st.tab
    pay(st, a.player, t.boost_res, 1)
    if st.outcome is None:
        b = st.battle
        assert b is not None  # (a boost is listed only in a battle: see `fighting`)
        b.bonus += t.weapon_bonus
        if st.logging:
            st.note("boost", f"p{a.player + 1}")
        battle_check(st)


def _apply_concede(st: State, a: Action) -> None:
    b = fighting(st)
    c, leader = b.city, b.leader
    st.fought.append(c)
    st.battle = None
    if st.logging:
        st.note("battle_lost", st.city_name(c))
    mark = len(st.queue)
    emit(st, "battle_lost", Ctx(leader, c))
    lose_health(st, leader, int(st.rules.p("rules.concede_health")), "conceded")
    st.pause(BATTLE, after=mark)


FIGHT: Final = REG.verb("fight", PLAYER, CITY, apply=_apply_fight, check=city_check,
                        help="start a battle in a city, led by that player (R14)")
JOIN: Final = REG.verb("join", PLAYER, apply=_apply_join,
                       help="a player in the battle's city joins it")
ROLL: Final = REG.verb("roll", apply=_apply_roll,
                       help="roll the battle dice (or the picked dice of a reroll)")
REROLL: Final = REG.verb("reroll", CARD, apply=_apply_reroll,
                         help="discard a clue card to reroll dice (R16)")
PICK: Final = REG.verb("pick", DIE_SLOT, apply=_apply_pick, help="choose a die to reroll")
BOOST: Final = REG.verb("boost", PLAYER, apply=_apply_boost, pays=True, golden=True,
                        owner=named_player,  # the player's own decision (seats.py)
                        help="a participant spends a weapon (or health) for +2 strength (R16)")
CONCEDE: Final = REG.verb("concede", apply=_apply_concede,
                          help="give up the battle; its leader loses 1 health (R16)")
A_ROLL: Final = act(ROLL)
A_CONCEDE: Final = act(CONCEDE)
BATTLE: Final = REG.kind("battle", _legal_battle, (FIGHT, DONE),
                         "battles: one per city a round, optional; then done (R14)")
MUSTER: Final = REG.kind("muster", _legal_muster, (JOIN, ROLL),
                         "who else in the city joins the battle, then roll (R14)")
LOSING: Final = REG.kind("losing", _legal_losing, (REROLL, BOOST, CONCEDE),
                         "the battle is being lost: reroll, boost or concede (R16)")
PICK_KIND: Final = REG.kind("pick", _legal_pick, (PICK, ROLL),
                            "the dice a reroll's clue card rerolls, then roll (R16)")
