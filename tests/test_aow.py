"""Art of War on the kernel: the API a player or a bot uses (returns, legal numeric bets,
hidden information, W19), bad actions refused with the state untouched, and random games
walked with the invariants checked after every step (W1, W4, W5, W7, W17, W18).

The rules themselves are the scenario files tests/scenarios/aow-*.toml.
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from artproject import IllegalActionError, MalformedActionError, new_game
from artproject.aow.policies import POLICIES
from artproject.core.invariants import check_invariants, check_step


def _war(players: int = 3, seed: int = 1, **position: Any) -> Any:
    return new_game("art-of-war", players=players, seed=seed, position=position or None)


def _play(g: Any, seed: int, policy: str = "random") -> int:
    choose = POLICIES[policy](seed)
    steps = 0
    while not g.is_over():
        g.apply(choose(g))
        steps += 1
        assert steps < 20_000
    return steps


# ---------------------------------------------------------------------- the API
def test_a_new_game_is_the_seeds_set_up() -> None:
    g = new_game("art-of-war", players=4, seed=1)
    obs = g.observation(0)
    assert obs["tokens"] == {"p1": 6, "p2": 6, "p3": 6, "p4": 6}  # W1
    assert obs["hand_sizes"] == {"p1": 6, "p2": 6, "p3": 6, "p4": 6}
    assert (obs["centre"], obs["deck"], obs["out"]) == (6, 59 - 24, 48 - 30)
    assert not {"massacre", "fortune_teller"} & set(obs["hand"])  # W1: left out of the deal
    assert g.current_player() == 0 and g.returns() == [0.0] * 4
    assert [str(a) for a in g.legal_actions()] == [
        "draw p1", "take p1", "challenge p1 p2", "challenge p1 p3", "challenge p1 p4"]


@pytest.mark.parametrize("players", [2, 4, 7])
def test_every_seat_gets_a_return_and_a_place(players: int) -> None:
    for seed in range(3):
        g = new_game("art-of-war", players=players, seed=seed)
        _play(g, seed)
        r = g.returns()
        standing = g.standing()
        if g.outcome == "draw":  # W18: drawn among those who died at once, or the living
            assert set(r) <= {0.0, -1.0} and 0.0 in r and g.winner() == -1
        else:
            assert r.count(1.0) == 1 and r.count(-1.0) == players - 1
            assert standing[g.winner()]["place"] == 1 and standing[g.winner()]["won"]
        dead = [s for s in standing if s["cause"]]
        assert all(s["cause"] in ("cards", "tokens") and s["turn"] for s in dead)
        # the dead rank after the living, the last to die first (W17, W18)
        alive = [s["place"] for s in standing if not s["cause"]]
        assert all(d["place"] > max(alive, default=0) for d in dead) or not alive


def test_bets_and_raises_are_numeric_choices_within_the_limits() -> None:
    g = _war(tokens=[5, 9, 6])
    g.apply("challenge p1 p2")
    assert [str(a) for a in g.legal_actions()] == [f"bet p1 {n}" for n in range(1, 6)]  # W5
    g.apply("bet p1 3")
    g.apply(g.legal_actions()[0])  # the face-down card
    raises = [str(a) for a in g.legal_actions() if a.verb == "raise"]
    assert raises == ["raise p2 1", "raise p2 2", "raise p2 3"]  # W7: at most double
    g.apply("raise p2 2")
    g.apply(g.legal_actions()[0])
    assert sorted(str(a) for a in g.legal_actions()) == ["fold p1", "match p1"]


# ---------------------------------------------------------------------- bad actions
@pytest.mark.parametrize(("script", "bad", "reason"), [
    ([], "bet p1 2", "p1 is deciding turn"),
    (["challenge p1 p2"], "bet p1 7", "at most what the bettor holds (p1 holds 6) (W5)"),
    (["challenge p1 p2", "bet p1 2", "play p1 king"], "raise p2 3", "at most double (W7)"),
    (["challenge p1 p2"], "bet p2 1", "it is p1's decision"),
    (["challenge p1 p2", "bet p1 6", "play p1 king", "raise p2 1", "play p2 chef"], "match p1",
     "p1 holds 0 of the 1 the raise asks: fold (W7)"),
    ([], "take p3", "p3 is dead and takes no more part in the game (W17)"),
    ([], "challenge p1 p3", "p3 is dead (W17)"),
    ([], "challenge p1 p1", "another player"),
])
def test_an_illegal_action_says_why_and_changes_nothing(script: list[str], bad: str,
                                                        reason: str) -> None:
    g = _war(hands={"p1": ["king", "farmer"], "p2": ["chef", "monk"], "p3": []},
             tokens=[6, 12, 0], dead=["p3"])
    for a in script:
        g.apply(a)
    before = json.dumps(g.fingerprint(), sort_keys=True, default=str)
    with pytest.raises(IllegalActionError) as err:
        g.apply(bad)
    assert reason in str(err.value) and "\n" not in str(err.value)
    assert json.dumps(g.fingerprint(), sort_keys=True, default=str) == before


@pytest.mark.parametrize(("bad", "reason"), [
    ("bet p1 lots", "bet"), ("play p1 kng", "did you mean 'king'"),
    ("challenge p1 p9", "'p9' is not a player"), ("fly p1", "unknown verb 'fly'")])
def test_a_malformed_action_is_refused_by_name(bad: str, reason: str) -> None:
    g = _war()
    with pytest.raises((MalformedActionError, IllegalActionError)) as err:
        g.apply(bad)
    assert reason in str(err.value)


# ---------------------------------------------------------------------- hidden information
def _two(hand_b: list[str], hand_b2: list[str]) -> tuple[Any, Any]:
    """Two games alike but for p2's hand."""
    base = {"hands": {"p1": ["king", "farmer"], "p2": hand_b, "p3": ["chef"]},
            "tokens": [6, 6, 6], "deck_top": ["monk", "queen"]}
    other = {**base, "hands": {**base["hands"], "p2": hand_b2}}
    return _war(**base), _war(**other)


def test_a_hand_is_seen_by_its_owner_only() -> None:
    a, b = _two(["hermit", "general"], ["hermit", "sisters"])
    for g in (a, b):
        g.apply("take p1")
    assert a.information_state(0) == b.information_state(0)
    assert a.observation(2) == b.observation(2)
    assert a.information_state(1) != b.information_state(1)
    assert a.observation(1)["hand"] != b.observation(1)["hand"]
    assert a.observation(0)["hand_sizes"] == {"p1": 2, "p2": 2, "p3": 1}  # W19: public


def test_a_face_down_card_is_hidden_until_revealed_then_discarded_face_up() -> None:
    a, b = _two(["hermit", "general"], ["hermit", "general"])
    for g, card in ((a, "hermit"), (b, "general")):
        for act in ("challenge p1 p2", "bet p1 1", "play p1 farmer", "accept p2"):
            g.apply(act)
        g.apply(f"play p2 {card}")
    # revealed: p3 sees both cards now, and the two games apart
    assert a.observation(2)["table"]["cards"] == {"p1": "farmer", "p2": "hermit"}
    assert a.information_state(2) != b.information_state(2)
    c, d = _two(["hermit", "general"], ["hermit", "general"])
    for g, card in ((c, "hermit"), (d, "general")):
        for act in ("challenge p1 p2", "bet p1 1", "play p1 farmer", "raise p2 1"):
            g.apply(act)
        g.apply(f"play p2 {card}")
    # laid face down after a raise: hidden from p1 and p3 until the reveal (W19)
    assert c.information_state(0) == d.information_state(0)
    assert c.information_state(2) == d.information_state(2)
    assert c.observation(0)["table"]["cards"] == {"p1": "farmer", "p2": "?"}
    assert c.observation(1)["table"]["cards"] == {"p1": "?", "p2": "hermit"}
    assert c.information_state(1) != d.information_state(1)
    for g in (c, d):
        g.apply("fold p1")
    # a fold discards both cards face up: now everyone knows which it was (W7, W19)
    assert c.observation(2)["discard"] != d.observation(2)["discard"]
    assert c.information_state(0) != d.information_state(0)


def test_another_players_draw_is_hidden() -> None:
    a = _war(deck_top=["monk"])
    b = _war(deck_top=["queen"])
    for g in (a, b):
        g.apply("take p1")
        g.apply("draw p2")
    assert a.information_state(0) == b.information_state(0)
    assert a.information_state(2) == b.information_state(2)
    assert a.information_state(1) != b.information_state(1)
    hash(a.information_state(0))


# ---------------------------------------------------------------------- random games
def test_the_heuristic_beats_random_seats() -> None:
    wins = {"heuristic": 0, "random": 0}
    for seed in range(40):
        g = new_game("art-of-war", players=2, seed=seed)
        seats = ["heuristic", "random"] if seed % 2 else ["random", "heuristic"]
        choose = [POLICIES[s](seed) for s in seats]
        while not g.is_over():
            g.apply(choose[g.current_player()](g))
        if g.winner() >= 0:
            wins[seats[g.winner()]] += 1
    assert wins["heuristic"] >= 2 * wins["random"], wins


@settings(max_examples=10, stateful_step_count=60, deadline=None)
class WarMachine(RuleBasedStateMachine):
    """Random legal actions at every player count, the invariants checked after each step:
    59 cards and 48 tokens conserved, hands within 8 once a turn is settled, the dead hold
    nothing, bets within W5/W7, the end (W18)."""

    @initialize(players=st.integers(2, 7), seed=st.integers(0, 2**32),
                house=st.booleans())
    def start(self, players: int, seed: int, house: bool) -> None:
        variants = ["refused-card-hand"] if house else []
        self.game = new_game("art-of-war", players=players, seed=seed, variants=variants)

    @rule(pick=st.integers(0, 10_000))
    def act(self, pick: int) -> None:
        legal = self.game.legal_actions()
        if not legal:
            return
        before = self.game.clone()
        self.game.apply(legal[pick % len(legal)])
        check_step(before, legal[pick % len(legal)], self.game)

    @rule()
    def copies_and_replays_match(self) -> None:
        g = self.game
        assert pickle.loads(pickle.dumps(g)).fingerprint() == g.fingerprint()
        h = new_game("art-of-war", players=g.players, seed=g.seed, variants=g.rules.variants)
        for a in g.history:
            h.apply(a)
        assert h.fingerprint() == g.fingerprint()

    @invariant()
    def invariants_hold(self) -> None:
        if hasattr(self, "game"):
            check_invariants(self.game)


TestWarMachine = WarMachine.TestCase


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 7), st.integers(0, 2**32))
def test_every_game_ends(players: int, seed: int) -> None:
    g = new_game("art-of-war", players=players, seed=seed)
    _play(g, seed)
    assert g.reason and g.turn <= g.rules.p("rules.turn_limit")
