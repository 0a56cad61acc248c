"""Search and learning, in the kernel (no host library): numbered actions, tensors, seats,
determinizations, returns and the maximum length, the search bot. The adapters' own
conformance runs in test_adapters.py."""

from __future__ import annotations

import math
import random

import pytest

from artproject import CHANCE, TEAM, new_game
from artproject.core.actions import TERMINAL
from artproject.core.errors import GameError, IllegalActionError
from artproject.core.machine import Machine
from artproject.core.seats import Seated
from artproject.core.spaces import ActionSpace
from artproject.policies import make_policy, policy_spec
from artproject.search import Ismcts

GAMES = [("japan", 1), ("japan", 2), ("usa", 3), ("rio", 4), ("scandinavia", 6)]


def random_seat_game(seated: Seated, seed: int, steps: int = 400,
                     visit: object = None) -> Seated:
    """Random legal ids (a random verb first, so that every phase is reached; unlocks and
    health payments last, so the team lives longer), chance by its probabilities."""
    rng = random.Random(seed)
    n = 0
    while not seated.is_terminal() and n < steps:
        if callable(visit):
            visit(seated)
        cur = seated.current()
        if cur == CHANCE:
            ids, ps = zip(*seated.chance_outcomes(), strict=True)
            seated.apply(rng.choices(ids, ps)[0])
            continue
        legal = seated.legal()
        texts = {i: seated.action_text(i) for i in legal}
        verbs = sorted({t.split()[0] for t in texts.values()})
        calm = [v for v in verbs if v not in ("unlock", "hurt")] or verbs
        verb = rng.choice(calm)
        seated.apply(rng.choice([i for i in legal if texts[i].split()[0] == verb]))
        n += 1
    return seated


# ====================================================================== numbered actions
@pytest.mark.parametrize(("mission", "players"), GAMES)
def test_every_legal_action_seen_round_trips(mission: str, players: int) -> None:
    for seed in range(3):
        g = new_game(mission, players=players, seed=seed, chance="explicit")
        space = g.action_space()
        seen = 0

        def check(s: Seated, space: ActionSpace = space) -> None:
            nonlocal seen
            st = s.game
            for a in st.legal_actions():
                i = st.action_id(a)
                assert st.action_from_id(i, chance=a.player == CHANCE) == a
                assert 0 <= i < (space.chance.size if a.player == CHANCE else space.size)
                seen += 1
            assert st.legal_action_ids() == sorted(st.action_id(a) for a in st.legal_actions())

        random_seat_game(Seated(g, "players"), seed, visit=check)
        assert seen > 10


def test_numbering_is_stable_and_documented() -> None:
    g = new_game("japan", players=2, seed=1)
    again = new_game("japan", players=2, seed=99)
    assert g.num_distinct_actions() == again.num_distinct_actions() == 557
    assert g.max_chance_outcomes() == 79  # 72 cards, the final card, 6 faces
    table = g.action_space().decisions.table()
    assert table[0] == (0, 0, "done")
    assert [t for t in table if t[2] == "play PLAYER CARD"] == [(363, 508, "play PLAYER CARD")]
    assert g.action_id("play p2 17") == 363 + 73 + 17  # p2's row; the final card (0) first
    assert g.action_from_id(0) == g.registry.parse("done")
    # the space is made once per rules and player count
    assert g.action_space() is again.action_space()
    assert new_game("japan", players=3).num_distinct_actions() == 745


def test_bad_ids_and_actions_are_refused() -> None:
    g = new_game("japan", players=2, seed=1)
    for bad in (-1, 557, 10**9):
        with pytest.raises(GameError, match="out of range"):
            g.action_from_id(bad)
    with pytest.raises(GameError, match="out of range"):
        g.action_from_id(79, chance=True)
    with pytest.raises(GameError, match="not an action of this game"):
        g.action_id("play p4 17")  # no p4 in a game of two


def test_an_id_of_the_wrong_type_is_refused_as_such_and_numpys_are_taken() -> None:
    """`action_from_id`: numpy's integers are ids (a learner's array hands them over); a
    bool, a float or text is refused with a message saying the type is wrong, not that a
    number is out of range."""
    np = pytest.importorskip("numpy")
    g = new_game("japan", players=2, seed=1)
    assert g.action_from_id(np.int64(0)) == g.action_from_id(0)
    assert g.action_from_id(np.uint8(1), chance=True) == g.action_from_id(1, chance=True)
    with pytest.raises(GameError, match=r"action id 557: out of range \(0 to 556\)"):
        g.action_from_id(np.int64(557))
    for bad in (True, 0.0, "0", None, np.float64(1.0)):
        with pytest.raises(GameError, match="action id must be a whole number, not"):
            g.action_from_id(bad)
    with pytest.raises(GameError, match="chance outcome id must be a whole number"):
        g.action_from_id(1.0, chance=True)
    assert len(g.observation_tensor(np.int64(1))) == len(g.observation_tensor(1))


def test_seated_refuses_an_id_or_a_seat_of_the_wrong_kind_changing_nothing() -> None:
    """`Seated.apply` with an id that is no whole number (a float, text, None, a bool),
    at a decision or a chance node, raises IllegalActionError naming it and changes
    nothing (no decision counted); numpy's integers are ids, taken as ints (a delegation
    to one is recorded as the int's). A seat out of range asked for its tensor,
    observation or information state is a GameError naming it."""
    np = pytest.importorskip("numpy")
    s = Seated(new_game("japan", players=2, seed=1, chance="explicit"), "players")

    def state() -> tuple[object, ...]:
        return (s.current(), s.legal(), len(s.game.history), s.steps, s.decisions, s.turn,
                s.marks)

    chance = decision = False
    while not (chance and decision):
        before = state()
        for bad in (0.0, float(s.legal()[0]), "done", None, True, [0]):
            with pytest.raises(IllegalActionError, match="action must be a whole number, not "):
                s.apply(bad)
            assert state() == before
        chance, decision = chance or s.current() == CHANCE, decision or s.current() >= 0
        s.apply(np.int64(s.legal()[0]))
    while s.game.wait != "plan":  # to a delegation, taken by numpy's id
        s.apply(np.int64(s.legal()[0] if s.current() == CHANCE else s.game.action_id("done")))
    s.apply(np.int64(s.num_distinct_actions() - 1))  # turn p2
    assert s.turn == 1 and type(s.turn) is int and all(type(n) is int for m in s.marks
                                                       for n in m)
    for seat in (5, -1, 2, 1.0, "p1", None):
        for ask, args in ((s.tensor, (seat, "observation")), (s.observation, (seat,)),
                          (s.information_state, (seat,)), (s.observation_string, (seat,))):
            with pytest.raises(GameError, match=(f"seat {seat!r}: not a seat of this game"
                                                 if type(seat) is int else
                                                 "seat must be a whole number, not ")):
                ask(*args)
    assert s.tensor(np.int64(1), "observation") == s.tensor(1, "observation")
    assert s.observation_string(np.int64(0)) == s.observation_string(0)
    team = Seated(new_game("japan", players=2, seed=1), "team")
    with pytest.raises(GameError, match="not a seat of this game"):
        team.tensor(1, "observation")


def test_a_verb_without_declared_values_is_refused() -> None:
    from artproject.core.registry import Registry, Slot

    class Toy(Machine):
        game = "toy-no-values"
        registry = Registry("toy-no-values")
        __slots__ = ()

    Toy.registry.verb("pick", Slot("thing", lambda w, t: w), help="", apply=None)
    toy = Toy.__new__(Toy)
    with pytest.raises(GameError, match="not declared"):
        ActionSpace(toy)


# ====================================================================== tensors
@pytest.mark.parametrize(("mission", "players"), GAMES)
def test_tensors_have_a_fixed_layout(mission: str, players: int) -> None:
    g = new_game(mission, players=players, seed=2, chance="explicit")
    obs, info = g.tensor_layout("observation"), g.tensor_layout("information_state")
    assert info.size == obs.size + 1
    offsets = [r[1] for r in obs.rows()]
    assert offsets == sorted(offsets) and offsets[0] == 0
    assert len({r[0] for r in obs.rows()}) == len(obs.rows())

    def check(s: Seated) -> None:
        for p in (*range(players), TEAM):
            t = s.game.observation_tensor(p)
            assert len(t) == obs.size and all(math.isfinite(x) for x in t)
            assert min(t) >= -1 and max(t) <= 2000
            assert len(s.game.information_state_tensor(p)) == info.size

    random_seat_game(Seated(g, "players"), 2, steps=60, visit=check)


def test_a_tensor_shows_only_the_viewers_hand() -> None:
    g = new_game("japan", players=3, seed=4)
    hands = g.tensor_layout()
    row = next(r for r in hands.rows() if r[0] == "hands")
    cards = row[2][1]
    for p in range(3):
        part = hands.split(g.observation_tensor(p))["hands"]
        for q in range(3):
            mine = part[q * cards:(q + 1) * cards]
            assert (sum(mine) == len(g.hands[q])) if q == p else not any(mine)
    team = hands.split(g.observation_tensor(TEAM))["hands"]
    assert sum(team) == sum(len(h) for h in g.hands)


# ====================================================================== seats
def test_no_seat_sees_another_players_cards() -> None:
    """The team's decisions list `play p2 17`; with a seat per player, the joint seat hands
    the decision over instead, and only p2's seat lists p2's cards."""
    for seed in range(4):
        g = new_game("japan", players=3, seed=seed, chance="explicit")
        handed = 0

        def check(s: Seated) -> None:
            nonlocal handed
            cur = s.current()
            if cur < 0:
                return
            for i in s.legal():
                text = s.action_text(i)
                words = text.split()
                if words[0] in ("play", "draw"):
                    assert words[1] == f"p{cur + 1}", (cur, text)
                if words[0] == "turn":
                    handed += 1
            for other in range(3):
                if other != cur:
                    assert s.legal(other) == []
            view = s.observation(cur)
            assert all(v.get("hand") == s.game.hands[p] for v, p in
                       zip(view["views"], s.players_of(cur), strict=True))

        random_seat_game(Seated(g, "players"), seed, visit=check)
        assert handed


def test_a_hand_over_goes_to_that_seat() -> None:
    g = new_game("japan", players=2, seed=1, chance="explicit")
    s = Seated(g, "players")
    while s.game.wait != "plan":
        if s.current() == CHANCE:
            s.apply(s.legal()[0])
        else:
            s.apply(s.game.action_id("done"))
    assert s.current() == 0
    turn = g.num_distinct_actions() + 1
    assert s.action_text(turn) == "turn p2"
    assert turn in s.legal()
    s.apply(turn)
    assert s.current() == 1
    assert all(s.action_text(i).split()[1] == "p2" for i in s.legal())
    with pytest.raises(IllegalActionError, match="not legal"):
        s.apply(turn)
    info = s.information_state_string(1)
    assert "((1, 1),)" in info  # the hand-over (after one decision, to p2) is on the table


def test_a_seat_s_action_is_refused_when_another_seat_is_to_act() -> None:
    """`apply(i, seat=...)`: the seat taking the id must be the one to act; another seat's,
    or a seat's at a chance node, is refused with IllegalActionError, changing nothing (the
    seat to act, its ids, the game's history); the seat to act's own id is taken."""
    g = new_game("japan", players=2, seed=1, chance="explicit")
    s = Seated(g, "players")
    chance_refused = False
    while s.game.wait != "plan":
        if s.current() == CHANCE:
            with pytest.raises(IllegalActionError, match="not legal for seat 0"):
                s.apply(s.legal()[0], seat=0)
            chance_refused = True
            s.apply(s.legal()[0])
        else:
            s.apply(s.game.action_id("done"), seat=s.current())
    assert chance_refused
    turn = g.num_distinct_actions() + 1  # (turn p2: the joint seat's, seat 0's)
    before = (s.current(), s.legal(), len(s.game.history), s.steps)
    with pytest.raises(IllegalActionError, match=r"not legal for seat 1 now; legal: \[\]"):
        s.apply(turn, seat=1)
    assert (s.current(), s.legal(), len(s.game.history), s.steps) == before
    s.apply(turn, seat=0)
    assert s.current() == 1
    with pytest.raises(IllegalActionError, match="not legal for seat 0"):
        s.apply(s.legal()[0], seat=0)
    s.apply(s.legal()[0], seat=1)


def test_team_seat_takes_every_decision() -> None:
    g = new_game("japan", players=3, seed=3, chance="explicit")
    s = Seated(g, "team")
    assert s.num_seats() == 1 and s.num_distinct_actions() == g.num_distinct_actions()
    random_seat_game(s, 3, steps=80,
                     visit=lambda s: s.current() in (0, CHANCE) and len(s.legal()) ==
                     len(s.game.legal_actions()))
    with pytest.raises(GameError, match="seats must be one of"):
        Seated(g, "everyone")


def test_returns_shaped_score_and_the_maximum_length() -> None:
    g = new_game("japan", players=2, seed=5, chance="explicit")
    s = Seated(g, "players", max_decisions=12)
    assert s.max_game_length() == 12  # seat decisions, delegations among them
    assert s.returns() == [0.0, 0.0]
    assert all(-1 < x < 1 for x in s.shaped())
    random_seat_game(s, 5)
    assert s.is_terminal() and s.current() == TERMINAL
    if s.truncated():
        assert s.returns() == [-1.0, -1.0] and s.steps == 12  # cut: the team lost
    with pytest.raises(IllegalActionError, match=r"over|cut"):
        s.apply(0)
    full = random_seat_game(Seated(new_game("japan", players=2, seed=6, chance="explicit"),
                                   "team"), 6)
    assert full.returns() in ([1.0], [-1.0]) and full.shaped() == full.returns()


# ====================================================================== information
@pytest.mark.parametrize(("mission", "players"), [("japan", 2), ("usa", 3), ("japan", 1)])
def test_a_seats_view_is_unchanged_when_others_hidden_cards_are_resampled(
        mission: str, players: int) -> None:
    """The information check: resample what a seat cannot see (the others' hands, the deck)
    and its observation, information state, tensors and legal ids stay the same, while the
    hidden cards do change."""
    changed = 0

    def check(s: Seated) -> None:
        nonlocal changed
        for seat in range(s.num_seats()):
            for k in range(2):
                r = s.resample(seat, 1000 * k + len(s.game.history))
                assert r.observation_string(seat) == s.observation_string(seat)
                assert r.information_state_string(seat) == s.information_state_string(seat)
                for kind in ("observation", "information_state"):
                    assert r.tensor(seat, kind) == s.tensor(seat, kind)
                assert r.legal(seat) == s.legal(seat)
                mine = s.players_of(seat)
                assert [r.game.hands[p] for p in mine] == [s.game.hands[p] for p in mine]
                changed += r.game.hands != s.game.hands
                cards = sorted([*r.game.deck, *r.game.removed, *(c for h in r.game.hands
                                                                  for c in h)])
                assert cards == sorted([*s.game.deck, *s.game.removed,
                                        *(c for h in s.game.hands for c in h)])

    for seed in range(2):
        g = new_game(mission, players=players, seed=seed, chance="explicit")
        random_seat_game(Seated(g, "players"), seed, steps=50, visit=check)
    assert changed or players == 1


def _twins(game: Machine, seat: int, seed: int, steps: int = 300,
           ) -> list[tuple[Seated, Seated]]:
    """A game played at random to its first planning (the hands dealt), and a copy the seat
    cannot tell from it (a determinization), played on with the same random ids while both
    allow them: the pairs the seat saw, step by step."""
    rng = random.Random(seed)
    s = Seated(game, "players")
    while not s.is_terminal() and s.game.wait != "plan":
        s.apply(rng.choice(s.legal()))
    t = s.resample(seat, seed)
    out = []
    for _ in range(steps):
        if s.is_terminal() or t.is_terminal():
            break
        out.append((s.clone(), t.clone()))
        common = sorted(set(s.legal()) & set(t.legal()))
        if not common:
            break
        i = rng.choice(common)
        s.apply(i)
        t.apply(i)
    return out


@pytest.mark.parametrize(("mission", "players"), [("japan", 2), ("usa", 3)])
def test_a_discard_that_shows_a_card_tells_states_apart(mission: str, players: int) -> None:
    """Another player's unplayed cards go face up to the discard pile at the end of the
    mission phase: no action or chance event says which, yet the seat sees them. Two states
    that differ only there (the same history; the other's hand dealt otherwise, unseen until
    then) have different information-state tensors, so their strings differ too (they did
    not: OpenSpiel's tabular methods and ISMCTS merged them)."""
    revealed = 0
    for seed in range(4):
        g = new_game(mission, players=players, seed=seed, chance="explicit")
        for s, t in _twins(g, 1, seed):
            same = s.information_state_string(1) == t.information_state_string(1)
            tensors = s.tensor(1, "information_state") == t.tensor(1, "information_state")
            assert tensors or not same, (seed, s.game.history[-3:])
            if [str(a) for a in s.game.history] == [str(a) for a in t.game.history] and (
                    s.game.discard != t.game.discard):
                revealed += 1
                assert not same
    assert revealed  # the pairs reached the discard that tells them apart


def test_a_resampled_game_plays_on() -> None:
    g = new_game("japan", players=3, seed=8)
    for _ in range(3):
        g.apply(g.legal_actions()[-1])
    r = g.resample([0], 77)
    assert r.hands[0] == g.hands[0] and r.players == 3
    h = make_policy("heuristic", 1)
    while not r.is_over():
        r.apply(h(r))
    assert r.returns() in ([1.0] * 3, [-1.0] * 3)


# ====================================================================== the search bot
def test_policy_specs() -> None:
    assert policy_spec("ismcts:budget=8,margin=0.5") == ("ismcts", {"budget": 8,
                                                                     "margin": 0.5})
    assert policy_spec("heuristic") == ("heuristic", {})
    with pytest.raises(GameError, match=r"not an option.*budget"):
        policy_spec("ismcts:bugdet=8")
    with pytest.raises(GameError, match="takes no options"):
        policy_spec("heuristic:budget=8")
    with pytest.raises(GameError, match=r"unknown policy 'ismct'.*ismcts"):
        policy_spec("ismct")
    with pytest.raises(GameError, match="budget must be a whole number from 1"):
        make_policy("ismcts:budget=0", 1)


def test_the_search_bot_plays_a_game_and_is_seeded() -> None:
    def game(seed: int) -> tuple[list[str], Ismcts]:
        st = new_game("japan", players=2, difficulty="easy", seed=seed)
        bot = make_policy("ismcts:budget=6,depth=30", seed)
        assert isinstance(bot.policy, Ismcts)  # (a GamePolicy: its game's bot)
        for _ in range(60):
            if st.is_over():
                break
            st.apply(bot(st))
        return [str(a) for a in st.history], bot.policy

    one, bot = game(3)
    assert game(3)[0] == one
    assert bot.searched > 0 and bot.simulations >= bot.searched
