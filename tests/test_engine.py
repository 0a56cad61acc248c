"""The library API: setup, legal actions, illegal actions, clone, saves, replays, observation."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from artproject import (
    Action,
    GameError,
    IllegalActionError,
    MalformedActionError,
    SaveError,
    State,
    load_game,
    loads,
    new_game,
    save_game,
    shipped_missions,
)
from artproject.core.art.bots import cautious_policy
from artproject.core.art.clues import add_clue
from artproject.core.art.info import observation
from artproject.core.art.loader import scope_of
from artproject.core.art.rules import Card, Ctx
from artproject.core.invariants import check_invariants
from artproject.core.saves import dumps
from artproject.dsl.compiler import Compiler
from artproject.policies import random_policy
from artproject.simulate import play

DIFFICULTIES = ["easy", "medium", "hard", "impossible"]


def test_setup_follows_the_rulebook() -> None:
    g = new_game("japan", players=3, difficulty="medium", seed=1, )
    r = g.rules
    assert g.health == [3, 3, 3]
    assert all(c == r.start for c in g.pawns)
    assert g.van == [3, 3, 3]
    # the first decision is the boundary before the mission phase: no card is drawn yet
    assert g.wait == "boundary" and g.deck_size() == 73
    # R3: the final card lies on the last 12 cards: it is the 61st card drawn
    assert _final_card_position(g) == 61
    assert sum(g.agents) == 2 * len(r.cities)


@pytest.mark.parametrize(("difficulty", "health"), [("easy", 4), ("medium", 3), ("hard", 2),
                                                    ("impossible", 1)])
def test_health_by_difficulty(difficulty: str, health: int) -> None:
    assert new_game(players=2, difficulty=difficulty).health == [health, health]
    assert new_game(players=1, difficulty=difficulty).health == [2 * health]  # solo doubles


def test_the_threat_grows_with_the_team_as_the_rules_say(tmp_path: Path) -> None:
    """`rules.threat_by_players` (R15; our reconstruction, docs/missions.md): added to every
    track space's threat for that team size, so to the agents' strength in every battle, to
    the DSL's `threat` and to what the game shows."""
    v = tmp_path / "team.toml"
    v.write_text("[rules]\nthreat_by_players = [3, 0, 1, 2, 4, 5]\n", encoding="utf-8")
    printed = new_game("japan").rules.track[0].threat
    is_threat = Compiler(scope_of(new_game("japan").rules)).expr("threat == 5")
    assert is_threat is not None
    for players, extra in zip(range(1, 7), (3, 0, 1, 2, 4, 5), strict=True):
        g = new_game("japan", players=players, seed=1, variants=[v])
        assert g.threat() == printed + extra
        assert g.agent_strength(g.rules.start) == g.agents[g.rules.start] + printed + extra
        assert observation(g, 0)["threat"] == printed + extra
        assert is_threat(g, Ctx()) == (printed + extra == 5)
        shipped = new_game("japan", players=players, seed=1)
        assert shipped.threat() == printed + shipped.rules.p("rules.threat_by_players")[
            players - 1]


def test_solo_setup() -> None:
    g = new_game(players=1, seed=3)
    assert g.solo and len(g.pawns) == 2 and len(g.removed) == 15
    assert g.deck_size() == 58 and _final_card_position(g) == 46


def _final_card_position(g: State) -> int:
    c = g.clone()
    n = 0
    while (card := c.draw_card()) is not None:
        n += 1
        if card == g.rules.final_card:
            assert c.deck_size() == 12
            return n
    raise AssertionError("no final card")


def test_draws_cover_the_deck_evenly() -> None:
    """The lazy shuffle: each of the 72 cards is equally likely to be drawn first."""
    firsts = [new_game(players=2, seed=s).clone().draw_card() for s in range(7200)]
    counts = [firsts.count(c) for c in range(1, 73)]
    assert min(counts) > 50 and max(counts) < 160


def test_bad_game_requests() -> None:
    with pytest.raises(GameError, match="players must be 1 to 6"):
        new_game(players=7)
    with pytest.raises(GameError, match="did you mean 'medium'"):
        new_game(difficulty="medum")


def test_action_notation_round_trips() -> None:
    for text in ["done", "unlock", "hurt p2", "draw p1 fuel", "play p3 17", "move ally kyoto",
                 "fight p1 tokyo", "join p2", "reroll 5", "pick a1", "boost p2", "give p1",
                 "triple films", "collect kyoto", "lose fuel", "discard 3", "place kyoto"]:
        a = Action.parse(text)
        assert str(a) == text and Action.parse(str(a)) == a
        assert eval(repr(a)) == a  # a repr is valid Python


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty action"),
    ("mvoe p1 kyoto", "unknown verb 'mvoe' (did you mean 'move'?)"),
    ("move p1", "expected 'move PAWN CITY'"),
    ("play p9 3", "'p9' is not a player"),
    ("play p1 x", "'x' is not a card number"),
])
def test_malformed_actions(text: str, message: str) -> None:
    with pytest.raises(MalformedActionError) as err:
        Action.parse(text)
    assert message in str(err.value)


def test_illegal_action_leaves_state_untouched() -> None:
    g = new_game(players=2, seed=4)
    before = g.fingerprint()
    with pytest.raises(IllegalActionError, match="not now"):
        g.apply("move p1 sendai")
    with pytest.raises(IllegalActionError, match="unknown city 'kyotto'"):
        g.apply("move p1 kyotto")
    assert g.fingerprint() == before


def test_legal_actions_are_stable_and_all_apply() -> None:
    g = new_game(players=3, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        if g.is_over():
            break
        legal = g.legal_actions()
        assert legal == g.legal_actions() and len(set(legal)) == len(legal)
        for a in legal:
            g.clone().apply(a)  # every listed action is accepted
        g.apply(rng.choice(legal))


def test_clone_is_independent() -> None:
    g = new_game(players=2, seed=6)
    policy = cautious_policy(6)
    for _ in range(30):
        g.apply(policy(g))
    c = g.clone()
    before = g.fingerprint()
    assert c.fingerprint() == before
    a = c.legal_actions()[0]
    c.apply(a)
    assert g.fingerprint() == before and len(g.history) == len(c.history) - 1  # untouched
    g.apply(a)
    assert c.fingerprint() == g.fingerprint()


def test_same_seed_same_game() -> None:
    def run(seed: int) -> list[str]:
        g = new_game(players=4, difficulty="easy", seed=seed)
        play(g, cautious_policy(seed))
        return g.events()

    assert run(11) == run(11)
    assert run(11) != run(12)


@pytest.mark.parametrize("fmt", ["json", "toml"])
def test_save_and_load_mid_game(tmp_path: Path, fmt: str) -> None:
    g = new_game(players=3, difficulty="easy", seed=7)
    policy = cautious_policy(7)
    for _ in range(25):
        g.apply(policy(g))
    path = tmp_path / f"game.{fmt}"
    save_game(g, path)
    h = load_game(path)
    assert h.fingerprint() == g.fingerprint() and h.events() == g.events()
    # the loaded game continues identically
    p1, p2 = cautious_policy(99), cautious_policy(99)
    for _ in range(10):
        if g.is_over():
            break
        g.apply(p1(g))
        h.apply(p2(h))
    assert h.fingerprint() == g.fingerprint()


def test_save_is_small() -> None:
    g = new_game(players=2, seed=8)
    play(g, cautious_policy(8))
    assert len(dumps(g).encode()) < 20_000


@pytest.mark.parametrize(("text", "message"), [
    ("not a save", "not a save file"),
    ('{"format": "chess"}', "not an artproject save"),
    ('{"format": "artproject-save", "version": 99}', "version 99"),
    ('{"format": "artproject-save", "version": 2, "mission": "japan"}', "variants: missing"),
    ('{"format": "artproject-save", "version": 1, "mission": "japan"}', "older generator"),
])
def test_corrupt_saves(text: str, message: str) -> None:
    with pytest.raises(SaveError, match=message):
        loads(text)


def test_a_save_cut_short_is_told_so() -> None:
    text = dumps(new_game(players=2, seed=8))
    with pytest.raises(SaveError, match=r"the file ends there: cut short\?"):
        loads(text[: len(text) // 2])
    with pytest.raises(SaveError) as told:  # (a fault inside the file: no such guess)
        loads('{"format": "artproject-save",, "version": 3}')
    assert "cut short" not in str(told.value)


def test_tampered_save_is_refused() -> None:
    g = new_game(players=2, seed=9)
    for _ in range(5):
        g.apply(g.legal_actions()[-1])
    doc = json.loads(dumps(g))
    doc["seed"] = 10
    with pytest.raises(SaveError):
        loads(json.dumps(doc))
    doc = json.loads(dumps(g))
    doc["actions"][-1] = "fight p1 kyoto"
    with pytest.raises(SaveError, match="does not replay"):
        loads(json.dumps(doc))


def test_save_from_a_set_position_round_trips() -> None:
    g = new_game(players=2, seed=1, phase="battle",
                 position={"pawns": ["kyoto", "kyoto"], "dice": [6, 6]})
    g.apply("fight p1 kyoto")
    h = loads(dumps(g, "toml"))
    assert h.fingerprint() == g.fingerprint()


def test_observation_hides_other_hands() -> None:
    g = new_game(players=3, seed=10)
    g.apply("done")
    obs = g.observation(0)
    assert obs["hand"] == g.hands[0]
    assert set(obs["hand_backs"]) == {"p2", "p3"}
    for backs in obs["hand_backs"].values():
        for clues in backs:
            assert all(isinstance(s, str) for s in clues)
    assert all(not a.startswith(("play p2", "play p3")) for a in obs["legal"])
    assert any(a.startswith("play p1") for a in obs["legal"])


# ---------------------------------------------------------------------- whole games
MISSIONS = shipped_missions()


@pytest.mark.parametrize("mission", MISSIONS)
@pytest.mark.parametrize("players", [1, 2, 4, 6])
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_whole_games_keep_the_invariants(mission: str, players: int, difficulty: str) -> None:
    for seed in range(2):
        for make in (random_policy, cautious_policy):
            g = new_game(mission, players=players, difficulty=difficulty, seed=seed)
            choose = make(seed)
            steps = 0
            while not g.is_over():
                g.apply(choose(g))
                check_invariants(g)
                steps += 1
                assert steps < 5000
            assert g.reason


@settings(stateful_step_count=80)  # examples: the profile (ci 60, nightly 2000)
class GameMachine(RuleBasedStateMachine):
    """Random legal actions over every player count and difficulty, with checks each step."""

    @initialize(mission=st.sampled_from(MISSIONS), players=st.integers(1, 6),
                difficulty=st.sampled_from(DIFFICULTIES), seed=st.integers(0, 2**32))
    def start(self, mission: str, players: int, difficulty: str, seed: int) -> None:
        self.game: State = new_game(mission, players=players, difficulty=difficulty, seed=seed)
        self.threat = self.game.threat()
        self.track = list(self.game.track)

    @rule(pick=st.integers(0, 10_000))
    def act(self, pick: int) -> None:
        legal = self.game.legal_actions()
        if not legal:
            return
        self.game.apply(legal[pick % len(legal)])

    @rule()
    def replay_matches(self) -> None:
        g = self.game
        h = new_game(g.rules.name, players=g.players, difficulty=g.difficulty, seed=g.seed)
        for a in g.history:
            h.apply(a)
        assert h.fingerprint() == g.fingerprint()

    @invariant()
    def invariants_hold(self) -> None:
        if hasattr(self, "game"):
            check_invariants(self.game)
            # the track fills in order and the threat never falls
            assert self.game.track[: len(self.track)] == self.track
            assert self.game.threat() >= self.threat
            self.threat, self.track = self.game.threat(), list(self.game.track)


TestGameMachine = GameMachine.TestCase


@given(st.sampled_from(MISSIONS), st.integers(0, 2**32))
def test_random_games_end(mission: str, seed: int) -> None:
    g = new_game(mission, players=2, seed=seed)
    assert play(g, random_policy(seed)) < 5000


def test_core_names_no_mission() -> None:
    """Core is mechanism: a board's name, city or district never appears in core/."""
    core = Path(__file__).resolve().parent.parent / "core"
    names = set(MISSIONS)
    for m in MISSIONS:
        names.update(c.name for c in new_game(m, players=2).rules.cities)
    names -= {"base"}
    for f in core.rglob("*.py"):
        words = set(re.findall(r"[a-z_]+", f.read_text().lower()))
        assert not names & words, (f.name, sorted(names & words))


@pytest.mark.parametrize("mission", MISSIONS)
def test_cached_legal_actions_match_a_fresh_computation(mission: str) -> None:
    """The legal-action cache never serves a stale list (the speed work's reference check)."""
    for seed in range(3):
        g = new_game(mission, players=3, difficulty="easy", seed=seed)
        choose = cautious_policy(seed)
        while not g.is_over():
            assert g.legal_actions() == g.compute_legal()
            g.apply(choose(g))
            c = g.clone()
            assert c.legal_actions() == c.compute_legal() == g.compute_legal()


def _reference_legal(g: State) -> list[Action] | None:
    """The decisions that have fast paths (action tables), worked out plainly from the rules
    as the rulebook states them; None for the others."""
    r, w, n = g.rules, g.wait, g.players
    if w == "boundary":  # R17; R5: the payer of each missing radio is asked afterwards
        if g.allies >= r.params["components.ally_dice"]:
            return [Action("done")]
        return [Action("unlock"), Action("done")]
    if w in ("plan", "play"):  # R6, R8
        out = [Action("play", p, c) for p in range(n) if g.plays_left[p]
               for c in sorted(g.hands[p])]
        if w == "plan" and g.deck_size():
            kinds = [k for i, k in enumerate(r.resources) if g.van[i] > 0] or ["health"]
            out += [Action("draw", p, k) for p in range(n) for k in kinds]
        return out
    if w == "move":  # R11, R13, R23
        out = []
        for i, c in enumerate(g.pawns):
            who = -2 if i == n else i
            if r.params["rules.movement"] == "anywhere":
                dests = [d for d in range(len(r.cities)) if d != c and not g.lost[d]]
            else:
                dests = [road.dst for road in r.neighbours[c] if not g.lost[road.dst]]
            out += [Action("move", who, r.cities[d].name) for d in dests]
            if r.params["rules.carry_artworks"] and g.artworks[c] and not g.carried[i]:
                out += [Action("carry", who, r.cities[d].name) for d in dests]
        if not any(g.lost[g.pawns[i]] for i in g.must_leave):
            out.append(Action("done"))
        return out
    return None


@pytest.mark.parametrize("mission", MISSIONS)
def test_action_tables_match_the_rules_worked_out_plainly(mission: str) -> None:
    """Legal actions from the precomputed tables are those the rules give, on every board,
    for every team size (the solo ally pawn included), with and without lost cities."""
    seen = set()
    for players in (1, 2, 4, 6):
        for seed in range(3):
            g = new_game(mission, players=players, difficulty="easy", seed=seed)
            choose = (random_policy if seed else cautious_policy)(seed)
            while not g.is_over():
                want = _reference_legal(g)
                if want is not None:
                    assert g.legal_actions() == want, (g.wait, g.history[-3:])
                    seen.add(g.wait)
                t = g.rules.track[min(len(g.track), len(g.rules.track) - 1)]
                extra = g.rules.p("rules.threat_by_players")[players - 1]
                assert (g.threat(), g.ally_cost()) == (t.threat + extra, t.ally_cost)
                g.apply(choose(g))
    assert {"boundary", "plan", "play", "move"} <= seen


def _plain_card_play(card: Card) -> Callable[[State, int], bool]:
    """A card's sections run plainly from its data (R8), as the mission phase ran them before
    each card's play was generated (core/art/cardplay.py): the reference for that code."""
    def play(st: State, p: int) -> bool:
        st.discard.append(card.id)  # in play: should the game end mid-card, it lies discarded
        for kind, n in card.cost:
            st.pay(p, kind, n)
            if st.outcome is not None:
                return False
        for symbol, n in card.agents:
            st.place_agents(st.rules.by_symbol[symbol], n, Ctx(p))
            if st.outcome is not None:
                return False
        q = st.queue
        mark = len(q)
        st.gain_all(list(card.gain), Ctx(p))
        if len(q) != mark:  # the clue once the gains' queued work has run
            q.insert(mark, (add_clue, (p, card.id)))
            return False
        st.add_clue(p, card.id)
        return len(q) == mark and st.wait is None
    return play


def _to_play(g: State) -> int:
    return next(p for p, left in enumerate(g.plays_left) if left)


def _unusual(g: State, how: str, card: int) -> State:
    """A copy of g where the first player still to play holds `card` (taken from wherever it
    lies), and where a card's play may leave its usual path: the van empty (costs paid in
    health, R4), every player at their last health (the game ends mid-card, R7), the agents'
    reserve nearly spent (R2), every other city lost (agents go to headquarters, R18)."""
    g = g.clone()
    p = _to_play(g)
    if card not in g.hands[p]:
        for where in (g.deck, g.discard, *g.hands, *g.chains):
            if card in where:
                where.remove(card)
        g.hands[p] = sorted([*g.hands[p], card])
    if how == "empty van":
        g.van[:] = [0] * len(g.van)
    elif how == "last health":
        g.health[:] = [1] * len(g.health)
    elif how == "few agents":
        g.hq = max(0, g.reserve("agent") - 1 + g.hq)
    elif how == "lost cities":
        for c in range(0, len(g.lost), 2):
            g.lost[c], g.agents[c] = 1, 0
    g.legal_cache = None  # edited by hand: listed afresh
    return g


@pytest.mark.parametrize("mission", MISSIONS)
def test_generated_card_plays_are_the_cards_run_plainly(mission: str) -> None:
    """Every card played at plan and play decisions of games on each board and team size,
    events recorded or not, as it is and with the van empty, the players at their last
    health, the agents nearly gone or cities lost: the generated play and the card's
    sections run plainly from its data leave the same game (state, work stack, events)."""
    rules = new_game(mission).rules
    plain = {i: _plain_card_play(c) for i, c in rules.cards.items()}
    cards = [i for i in rules.cards if i != rules.final_card]
    for players, log in ((1, True), (6, False), (3, True)):
        g = new_game(mission, players=players, seed=players, log=log)
        choose, seen = cautious_policy(players), 0
        while not g.is_over() and seen < 2:
            if g.wait in ("plan", "play"):
                seen += 1
                for how in ("", "empty van", "last health", "few agents", "lost cities"):
                    for card in cards:
                        start = _unusual(g, how, card)
                        a = start.tab.plays[_to_play(start)][card]
                        fast, slow = start.clone(), start.clone()
                        fast.apply(a)
                        tab, generated = slow.tab, slow.tab.card_play
                        tab.card_play = plain
                        try:
                            slow.apply(a)
                        finally:
                            tab.card_play = generated
                        assert fast.fingerprint() == slow.fingerprint(), (how, a)
                        assert fast.queue == slow.queue and fast.log == slow.log, (how, a)
            g.apply(choose(g))
        assert seen == 2


def _play_alike(a: State, b: State, policy: Callable[[int], Callable[[State], Action]],
                seed: int, steps: int) -> None:
    """Up to `steps` decisions in two games, each chosen by its own copy of one policy."""
    choose_a, choose_b = policy(seed), policy(seed)
    for _ in range(steps):
        if b.is_over():
            break
        a.apply(choose_a(a))
        b.apply(choose_b(b))


@pytest.mark.parametrize("mission", MISSIONS)
def test_set_up_from_the_template_matches_a_fresh_set_up(mission: str) -> None:
    """A new game copied from the per-rules template is the game set up step by step, and
    plays on identically (the speed work's reference check for set-up)."""
    rules = new_game(mission).rules
    for players in range(1, 7):
        for difficulty in DIFFICULTIES:
            seed = 100 * players + len(difficulty)
            fast = State.new(rules, players, difficulty, seed, log=True)
            slow = State._build(rules, players, difficulty, seed, True, True)
            assert fast.fingerprint() == slow.fingerprint() and fast.log == slow.log
            kept = new_game(mission, players, difficulty, seed, log=True)
            assert kept.fingerprint() == slow.fingerprint() and kept.log == slow.log
            _play_alike(fast, slow, random_policy, seed, 30)
            assert fast.fingerprint() == slow.fingerprint() and fast.events() == slow.events()


def test_a_mission_started_by_name_twice_has_the_loaders_rules(tmp_path: Path) -> None:
    """new_game's short way for a mission by name (game.py: no other game's name, no variant,
    position or phase) gives the rules the loader keeps; another game's name starts that game
    and a file path is read again each time."""
    from artproject.core.art.loader import load_rules

    first, again = new_game("japan", 2, "medium", 1), new_game("japan", 3, "easy", 2)
    assert first.rules is again.rules is load_rules("japan")
    assert new_game("art-of-war", players=4, seed=1).game == "art-of-war"
    path = tmp_path / "m.toml"
    path.write_text('extends = "japan"\nname = "One"\n')
    new_game(str(path))
    path.write_text('extends = "japan"\nname = "Two"\n')
    assert new_game(str(path)).rules.name == "Two"  # a file is read again


def test_games_from_one_template_share_no_list() -> None:
    """The template's copier (fields.make_copier) gives each game lists of its own, as clone
    does: a game played on changes neither the template nor another game set up from it."""
    from artproject.core.fields import COPY, LIST, LISTS

    first = new_game("japan", 3, "hard", 1)
    before = new_game("japan", 3, "hard", 2).fingerprint()
    mutable = [f.name for f in State.FIELDS if f.copy in (LIST, LISTS, COPY)]
    again = new_game("japan", 3, "hard", 1)
    for name in mutable:
        a, b = getattr(first, name), getattr(again, name)
        assert a == b and (a is None or a is not b), name
        if isinstance(a, list) and a and isinstance(a[0], list):
            assert all(x is not y for x, y in zip(a, b, strict=True)), name
    play(first, random_policy(1))
    assert new_game("japan", 3, "hard", 2).fingerprint() == before
    assert again.fingerprint() == new_game("japan", 3, "hard", 1).fingerprint()


@pytest.mark.parametrize("mission", MISSIONS)
def test_unrecorded_events_are_told_by_replay(mission: str) -> None:
    """A game that does not record its events tells the same ones by replaying itself."""
    for seed in range(2):
        quiet = new_game(mission, players=3, difficulty="easy", seed=seed)
        loud = new_game(mission, players=3, difficulty="easy", seed=seed, log=True)
        assert not quiet.logging and not quiet.log and loud.logging
        _play_alike(quiet, loud, cautious_policy, seed, 40)
        assert not quiet.log
        assert quiet.events() == loud.events() and len(loud.events()) > 10
        assert quiet.clone().events() == loud.events()


def test_unrecorded_events_from_a_set_position() -> None:
    position = {"pawns": {"p1": "kyoto", "p2": "kyoto"}, "agents": {"kyoto": 2}}
    quiet = new_game(players=2, seed=1, phase="battle", position=position)
    loud = new_game(players=2, seed=1, phase="battle", position=position, log=True)
    for g in (quiet, loud):
        g.apply("fight p1 kyoto")
    assert quiet.events() == loud.events() and any("battle" in e for e in loud.events())


def test_a_game_changed_by_hand_must_record_its_events() -> None:
    g = new_game(players=2, seed=3)
    g.van[0] = 5  # outside the rules: a replay from the seed cannot tell this game's events
    with pytest.raises(GameError, match="log=True"):
        g.events()


def test_dice_are_fair_and_seeds_independent() -> None:
    """The generator (an LCG scrambled per seed): every face equally likely, and the first
    roll of consecutive seeds no more alike than chance."""
    firsts = [new_game(players=2, seed=s).clone().roll() for s in range(6000)]
    counts = [firsts.count(f) for f in range(1, 7)]
    assert min(counts) > 900 and max(counts) < 1100
    same = sum(a == b for a, b in pairwise(firsts))
    assert 850 < same < 1150  # about 1 in 6 of neighbours alike
    g = new_game(players=2, seed=42)
    rolls = [g.roll() for _ in range(6000)]
    assert min(rolls.count(f) for f in range(1, 7)) > 900


def test_core_names_no_resource() -> None:
    """Resource kinds are data: core reads the ones that ally dice and boosts cost from rules."""
    core = Path(__file__).resolve().parent.parent / "core"
    for f in core.rglob("*.py"):
        text = f.read_text()
        for kind in ('"fuel"', '"radio"', '"weapon"'):
            assert kind not in text, (f.name, kind)


def test_a_team_health_cost_asks_who_pays(tmp_path: Path) -> None:
    """R5: a cost with no acting player (a round hook's `pay 1 health`) is paid by a player
    the team names, never by whichever player comes last."""
    p = tmp_path / "toll.toml"
    p.write_text('extends = "japan"\nhooks = ["on round_start: pay 1 health"]\n')
    g = new_game(str(p), players=3, difficulty="medium", seed=1, log=True)
    assert g.wait == "hurt" and [str(a) for a in g.legal_actions()] == ["hurt p1", "hurt p2",
                                                                        "hurt p3"]
    g.apply("hurt p2")
    assert g.health == [3, 2, 3] and g.wait == "boundary"
