"""Set-up (rulebook 'Setup', R2, R3, R23-R25): the board, van, health, pawns and deck; the
solo mode's cards set aside; the final card's place; a board's own agent placements, which
the players make as decisions before round 1.

Set-up is the same for every seed until the first random draw: when the first decision
comes before any (the usual case), a game is a copy of a template built once per rules,
team size and difficulty, with its seed set.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from itertools import compress
from typing import TYPE_CHECKING, Final

from ..actions import Action
from ..errors import GameError, closest
from ..fields import make_copier
from ..machine import rng_state
from ..registry import PLAYER, named_player
from .chance import SET_ASIDE, pick, take
from .effects import end_game, place_agents
from .registry import CITY, REG, city_check
from .rules import Ctx, Rules
from .tables import tables

if TYPE_CHECKING:
    from .state import State


def new(cls: type[State], rules: Rules, players: int, difficulty: str, seed: int,
        start: bool = True, log: bool = False, chance: str = "sample") -> State:
    """Set up a game (rulebook 'Setup', R3); with start=True, run to the first decision.

    log=True records the events as they happen; otherwise `events()` works them out when
    asked, by replaying the game (a game set up by hand must record them). chance="explicit"
    stops at every draw and roll (see chance.py); "sample" draws them at once.
    """
    explicit = False if chance == "sample" else _chance_mode(chance)
    if not start:
        return build(cls, rules, players, difficulty, seed, False, log, explicit)
    copiers = rules.cache.get(("new", players, difficulty))
    if copiers is None:
        copiers = _templates(cls, rules, players, difficulty)
    copier = copiers[1 if log else 0]
    if copier is None:
        return build(cls, rules, players, difficulty, seed, True, log, explicit)
    s = copier(seed, rng_state(seed))  # the template's copy with that seed: that seed's game
    if explicit:
        s.explicit = True
    return s


def _chance_mode(chance: str) -> bool:
    if chance not in ("sample", "explicit"):
        raise GameError(f"unknown chance mode {chance!r}{closest(chance, ('sample', 'explicit'))}"
                        "; expected sample or explicit")
    return chance == "explicit"


def _templates(cls: type[State], rules: Rules, players: int, difficulty: str,
               ) -> tuple[Copier | None, Copier | None]:
    """Copiers (fields.make_copier) of the game at its first decision that every seed shares,
    not recording its events and recording them, taking the seed and the generator's state
    (made once and kept in `rules.cache`; the templates they copy are never handed out: a
    change to one would change every later game), or Nones when set-up draws at random and
    so depends on the seed. (Mid-game, a new seed would make a game its own history does not
    replay: see `reseed`.)"""
    loud = build(cls, rules, players, difficulty, 0, True, True, False)
    copiers: tuple[Copier | None, Copier | None] = (None, None)
    if loud.rng == rng_state(0):  # no random draw yet: the same for every seed
        quiet = loud.clone()
        quiet.logging, quiet.log = False, []
        for t in (quiet, loud):  # the first decision's legal actions, kept for every copy
            t.legal_actions()
        copiers = (make_copier(cls, cls.FIELDS, quiet, _SEEDED),
                   make_copier(cls, cls.FIELDS, loud, _SEEDED))
    rules.cache[("new", players, difficulty)] = copiers
    return copiers


_SEEDED: Final = ("seed", "rng")  # what a template's copy takes: the seed, the generator
Copier = Callable[[int, int], "State"]


def build(cls: type[State], rules: Rules, players: int, difficulty: str, seed: int,
          start: bool, log: bool, explicit: bool = False) -> State:
    """Set a game up step by step (see `new`)."""
    if not 1 <= players <= 6:
        raise GameError(f"players must be 1 to 6, not {players}")
    if difficulty not in rules.difficulties:
        hint = closest(difficulty, rules.difficulties)
        raise GameError(f"unknown difficulty {difficulty!r}{hint}; expected one of: "
                        + ", ".join(rules.difficulties))
    s = cls.__new__(cls)
    s.init_machine(rules, seed, log, explicit)
    s.players, s.difficulty = players, difficulty
    s.tab = tables(rules)
    s.solo = players == 1 and bool(rules.p("solo.enabled"))
    _board(s, rules, players, difficulty)
    # The deck is shuffled lazily: each draw takes a card at random from those left, which is
    # the same as shuffling once, without paying for the shuffle at setup.
    s.deck, s.deck_top, s.removed = list(rules.deck), [], []
    s.above = _above(s)
    if s.solo:
        _set_aside(s, int(rules.p("solo.removed_cards")))
    s.discard, s.hands = [], [[] for _ in range(players)]
    chains = 1 if rules.p("rules.clue_chains") == "team" else players
    s.chains = [[] for _ in range(chains)]
    s.plays_left, s.fought, s.moved, s.must_leave = [0] * players, [], [], []
    s.final_round = False
    s.battle = None
    s.forced_dice = []
    if s.reserve("agent") < 0:
        end_game(s, False, "not enough agent tokens for setup (R2)")
    if start:
        s.start_round()
    return s


def _board(s: State, rules: Rules, players: int, difficulty: str) -> None:
    """The board, van, health, pawns and agents as set-up places them."""
    n = len(rules.cities)
    health = rules.difficulties[difficulty]
    if s.solo:
        health *= int(rules.p("solo.health_factor"))
    s.round, s.phase = 1, "setup"
    s.van = list(rules.setup_van)
    s.health = [health] * players
    s.pawns = [rules.start] * (players + (1 if s.solo else 0))
    s.carried = [0] * len(s.pawns)
    s.deploy_left = [int(rules.p("setup.player_agents"))] * players
    s.agents = list(rules.setup_agents)
    s.hq = 0
    s.artworks = [0] * n
    for c in rules.setup_artworks:
        s.artworks[c] = 1
    s.lost = [0] * n
    s.track, s.allies = [], 0


def _above(s: State) -> int:
    """Cards of the deck above the final card (R3: it lies on the last 12)."""
    below = int(s.rules.p("setup.final_card_from_bottom")) - 1
    return max(len(s.deck) - below, 0)


def _set_aside(s: State, n: int) -> None:
    """The solo mode's cards out of the game (R24): drawn at once, or (explicit chance) as
    chance nodes before the first round."""
    if not s.explicit:
        for _ in range(n):
            card = pick(s)
            s.removed.append(card)
            s.trail.append((0, SET_ASIDE, -1, card))
        s.above = _above(s)
        return
    for _ in range(n):
        s.push(_set_one_aside)


def _set_one_aside(s: State) -> None:
    s.chance(SET_ASIDE, _aside)


def _aside(s: State, card: int) -> None:
    take(s, card)
    s.removed.append(card)
    s.record(SET_ASIDE, -1, card)
    s.above = _above(s)


# ====================================================================== set-up placements
def op_deploy(st: State, ctx: Ctx) -> None:
    st.phase = "setup"
    if any(st.deploy_left):
        st.pause(DEPLOY)


def _legal_deploy(st: State) -> list[Action]:
    deploys, lost = st.tab.deploys, st.lost
    out: list[Action] = []
    for p, left in enumerate(st.deploy_left):
        if left:
            out += compress(deploys[p], map(operator.not_, lost))  # not onto lost cities
    return out


def _apply_deploy(st: State, a: Action) -> None:
    st.deploy_left[a.player] -= 1
    more = any(st.deploy_left)
    place_agents(st, (st.rules.city_index[str(a.arg)],), 1, Ctx(a.player))
    if more:
        st.pause(DEPLOY)


V_DEPLOY: Final = REG.verb("deploy", PLAYER, CITY, apply=_apply_deploy, check=city_check,
                           owner=named_player,  # the player's own decision (seats.py)
                           help="a player places one of their setup agents in a city (R23)")
DEPLOY: Final = REG.kind("deploy", _legal_deploy, (V_DEPLOY,),
                         "set-up: each player places their own agents (R23, R25)")
