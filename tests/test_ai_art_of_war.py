"""Art of War for search and learning: its numbered actions, tensors, a seat per player,
returns and shaped score, determinizations (core/aow/ai.py); the three adapters' own
conformance checks on it; its search bot. The first game's are in test_ai.py and
test_adapters.py.

Needs the `ai` extra (CI installs it through `dev`)."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import ismcts, mcts
from pettingzoo.test import api_test, seed_test

import artproject.adapters.gymnasium as gym_adapter
import artproject.adapters.openspiel  # noqa: F401 (registers the games)
from artproject import CHANCE, new_game
from artproject.adapters.pettingzoo import env, raw_env
from artproject.core.aow.bots import POLICIES
from artproject.core.aow.simulate import play_one, policy_names
from artproject.core.aow.state import War
from artproject.core.errors import GameError, IllegalActionError
from artproject.core.seats import Seated
from artproject.policies import make_policy
from artproject.search import Ismcts

GAME = "art-of-war"


def war(players: int, seed: int = 1, chance: str = "explicit") -> War:
    st = new_game(GAME, players=players, seed=seed, chance=chance)
    assert isinstance(st, War)
    return st


def random_play(seated: Seated, seed: int, visit: object = None) -> int:
    """A whole game of random ids (chance by its probabilities); the seat decisions taken."""
    rng = random.Random(seed)
    n = 0
    while not seated.is_terminal():
        if seated.current() == CHANCE:
            ids, ps = zip(*seated.chance_outcomes(), strict=True)
            seated.apply(rng.choices(ids, ps)[0])
            continue
        if callable(visit):
            visit(seated)
        seated.apply(rng.choice(seated.legal()))
        n += 1
    return n


# ====================================================================== the kernel's part
@pytest.mark.parametrize("players", [2, 4, 7])
def test_every_action_seen_round_trips_and_tensors_keep_their_size(players: int) -> None:
    st = war(players)
    seated = Seated(st, "players")
    space = st.action_space()
    sizes = {k: st.tensor_layout(k).size for k in ("observation", "information_state")}
    seen: set[int] = set()

    def visit(s: Seated) -> None:
        for a in st.legal_actions():
            i = st.action_id(a)
            assert st.action_from_id(i) == a and st.action_id(str(a)) == i
            seen.add(i)
        seat = s.current()
        assert all(a.player == seat for a in st.legal_actions())  # W4-W9: theirs alone
        for kind, size in sizes.items():
            t = st.information_state_tensor(seat) if kind != "observation" else \
                st.observation_tensor(seat)
            assert len(t) == size and all(-1 <= x <= 2000 for x in t)

    for seed in range(3):
        st = war(players, seed)
        seated = Seated(st, "players")
        random_play(seated, seed, visit)
        assert st.outcome is not None
    assert len(seen) > 40 and max(seen) < space.size


def test_the_numbering_is_documented() -> None:
    st = war(2)
    table = st.action_space().decisions.table()
    assert table[0] == (0, 49, "discard PLAYER CARD")  # 25 kinds of card, 2 players
    assert (st.num_distinct_actions(), st.max_chance_outcomes()) == (360, 25)
    assert st.action_id("challenge p1 p2") == st.action_space().decisions.id(
        st.registry.parse("challenge p1 p2"))
    with pytest.raises(GameError, match="out of range"):
        st.action_from_id(360)
    with pytest.raises(GameError, match="not an action of this game"):
        st.action_id("bet p1 49")  # more tokens than the box holds (W1)


def test_a_players_tensor_shows_only_their_hand() -> None:
    st = war(3, chance="sample")
    layout = st.tensor_layout("observation")
    for p in range(3):
        hand = layout.split(st.observation_tensor(p))["hand"]
        assert sum(hand) == len(st.hands[p]) == 6
        for k in st.hands[p]:
            assert hand[k] >= 1
    assert layout.split(st.observation_tensor(-1))["hand"] == [0.0] * len(st.rules.cards)


def test_a_seats_view_is_unchanged_when_others_hidden_cards_are_resampled() -> None:
    """W19: resampling what a player cannot see (others' hands and face-down cards, the
    deck) changes none of their observation, information state, tensors or legal ids."""
    checked = 0
    for seed in range(3):
        st = war(3, seed)
        seated = Seated(st, "players")

        def visit(s: Seated) -> None:
            nonlocal checked
            st, me = s.game, s.current()
            r = st.resample([me], random.getrandbits(40))
            assert r.observation(me) == st.observation(me)
            assert r.information_state(me) == st.information_state(me)
            assert r.observation_tensor(me) == st.observation_tensor(me)
            assert r.information_state_tensor(me) == st.information_state_tensor(me)
            assert r.legal_actions() == st.legal_actions()
            assert (sum(r.deck) + sum(map(len, r.hands))
                    == sum(st.deck) + sum(map(len, st.hands)))
            checked += 1

        random_play(seated, seed, visit)
    assert checked > 50


def test_resampling_changes_what_is_hidden() -> None:
    st = war(4, 3, chance="sample")
    moved = {tuple(map(tuple, st.resample([0], s).hands[1:])) for s in range(20)}
    assert len(moved) > 10
    assert all(st.resample([0], s).hands[0] == st.hands[0] for s in range(5))


def test_returns_shaped_score_and_the_maximum_length() -> None:
    st = war(3, chance="sample")
    assert st.shaped_score() == pytest.approx([0.0] * 3)  # equal shares at the start
    st.tokens[0] += 6
    assert st.shaped_score()[0] == pytest.approx(0.9 * (3 * (0.5 * 12 / 24 + 0.5 / 3) - 1) / 2)
    st = war(3)
    assert st.max_game_length() == 1000 * 40  # W18's turn limit
    seated = Seated(st, "players")
    random_play(seated, 5)
    r = seated.returns()
    assert sorted(r) in ([-1.0, -1.0, 1.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [-1.0, -1.0, 0.0])
    assert seated.shaped() == r
    cut = Seated(war(2), "players", max_decisions=10)
    random_play(cut, 1)
    assert cut.truncated() and cut.returns() == [0.0, 0.0]  # drawn among the living (W18)
    with pytest.raises(IllegalActionError, match="maximum length"):
        cut.apply(0)


def test_only_a_seat_per_player() -> None:
    with pytest.raises(GameError, match="seats must be one of players"):
        Seated(war(2), "team")


# ====================================================================== OpenSpiel
@pytest.mark.parametrize("players", [2, 3, 5])
def test_openspiel_random_simulation(players: int) -> None:
    game = pyspiel.load_game("python_art_of_war", {"players": players})
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    assert game.num_players() == players
    utility = pyspiel.GameType.Utility
    # zero-sum between two (a win +1 and -1, a draw 0 and 0); one winner and draws from three
    assert game.get_type().utility == (utility.ZERO_SUM if players == 2 else utility.GENERAL_SUM)
    assert game.get_type().min_num_players == 2 and game.get_type().max_num_players == 7
    assert str(game) == f"python_art_of_war(players={players},rules=art-of-war,seats=players)"


def test_openspiel_bots_play_it_and_bad_input() -> None:
    game = pyspiel.load_game("python_art_of_war", {"players": 2})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng),
            mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=rng)]
    st = game.new_initial_state()
    while not st.is_terminal():
        if st.is_chance_node():
            ids, ps = zip(*st.chance_outcomes(), strict=True)
            st.apply_action(int(rng.choice(ids, p=ps)))
            continue
        p = st.current_player()
        r = st.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert r.information_state_string(p) == st.information_state_string(p)
        st.apply_action(bots[p].step(st))
    assert sorted(st.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    with pytest.raises(pyspiel.SpielError, match="over"):
        st.apply_action(0)
    fresh = game.new_initial_state()
    while fresh.is_chance_node():
        fresh.apply_action(fresh.chance_outcomes()[0][0])
    for bad in (game.num_distinct_actions(), -1, 0):  # 0: a discard, not legal at a turn
        with pytest.raises(pyspiel.SpielError, match=r"not legal|out of range|kInvalid"):
            fresh.apply_action(bad)
    with pytest.raises(pyspiel.SpielError, match="seats must be one of players"):
        pyspiel.load_game("python_art_of_war", {"seats": "team"})
    with pytest.raises(pyspiel.SpielError, match=r"(?i)unknown parameter 'difficulty'"):
        pyspiel.load_game("python_art_of_war", {"difficulty": "hard"})


# ====================================================================== PettingZoo
def test_pettingzoo_api_seed_tests_and_random_steps() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(game=GAME, players=3), num_cycles=300, verbose_progress=False)
        seed_test(lambda: env(game=GAME, players=4), num_cycles=300)
    e = raw_env(game=GAME, players=4)
    rng = np.random.default_rng(1)
    steps = 0
    for seed in range(60):
        if steps >= 2000:
            break
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            assert e.observation_space(agent).contains(obs)
            mask = obs["action_mask"]
            with pytest.raises(ValueError, match="not legal"):
                e.step(int(np.flatnonzero(mask == 0)[0]))
            e.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
    assert steps >= 2000


# ====================================================================== Gymnasium
def test_gymnasium_check_env_and_a_seat_against_the_heuristic() -> None:
    assert gym_adapter.env_id(GAME) == "artproject/ArtOfWar-v0"
    e = gymnasium.make("artproject/ArtOfWar-v0", players=3, seat=2, others="heuristic")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(e.unwrapped, skip_render_check=True)
    rng = np.random.default_rng(2)
    ends = 0
    obs, _ = e.reset(seed=4)
    for _ in range(2000):
        assert e.unwrapped.seated.current() in (2, -4)  # this seat's turn, or over
        obs, reward, term, trunc, _ = e.step(int(rng.choice(np.flatnonzero(
            obs["action_mask"]))))
        if term or trunc:
            assert reward in (1.0, 0.0, -1.0)
            ends += 1
            obs, _ = e.reset()
    assert ends >= 10
    with pytest.raises(ValueError, match="unknown policy"):
        gym_adapter.KernelEnv(game=GAME, others="heurstic")


# ====================================================================== the search bot
def test_the_search_bot_plays_art_of_war_and_is_seeded() -> None:
    def game(seed: int) -> tuple[str, int]:
        return play_one(war(2).rules, 2, seed, "ismcts:budget=8,depth=40,heuristic")[1:4:2]

    one = game(2)
    assert game(2) == one
    bot = make_policy("ismcts:budget=8,depth=40", 1, POLICIES)
    assert isinstance(bot.policy, Ismcts)  # (a GamePolicy: its game's bot)
    assert policy_names("ismcts:budget=8,depth=40,heuristic") == [
        "ismcts:budget=8,depth=40", "heuristic"]
    with pytest.raises(GameError, match="not an option"):
        policy_names("ismcts:budgt=8")


# ====================================================================== metadata, solving
def test_the_game_type_and_its_metadata() -> None:
    """Zero-sum at two (OpenSpiel's exploitability tools take it), general-sum from three;
    2-7 players; the maximum length the cut (W18's turn limit times 40 seat decisions,
    never doubled: nothing is delegated); the game pickles for worker processes; Gymnasium
    knows the episode's most steps."""
    import pickle

    two = pyspiel.load_game("python_art_of_war", {"players": 2})
    assert two.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert two.utility_sum() == 0.0
    assert two.max_game_length() == 1000 * 40
    again = pickle.loads(pickle.dumps(two))
    assert str(again) == str(two) and again.num_distinct_actions() == two.num_distinct_actions()
    st = two.new_initial_state()
    st.apply_action(st.chance_outcomes()[0][0])
    assert pickle.loads(pickle.dumps(st)).history() == st.history()
    with pytest.raises(pyspiel.SpielError, match=r"2-7|players"):
        pyspiel.load_game("python_art_of_war", {"players": 1})
    assert gymnasium.spec("artproject/ArtOfWar-v0").max_episode_steps == 40_000
    assert gymnasium.spec("artproject/ArtProject-v0").max_episode_steps == 2000


def test_a_two_player_game_always_sums_to_zero() -> None:
    """Every way a two-player game ends (a winner, both dead at once, the turn limit, the
    adapters' cut) sums to zero: the duel's whole tree, and random games. The duel's tree
    is as docs/ai.md says: 2,946 nodes, 513 information states, its longest history 11
    decisions (16 actions, its chance outcomes counted)."""
    ends = set()
    nodes, infos, deepest = 0, set(), (0, 0)

    def walk(s: Seated) -> None:
        nonlocal nodes, deepest
        nodes += 1
        if s.is_terminal():
            assert sum(s.returns()) == 0.0
            ends.add(tuple(s.returns()))
            deepest = max(deepest[0], s.steps), max(deepest[1], len(s.game.history))
            return
        if s.current() >= 0:
            infos.add((s.current(), s.information_state_string(s.current())))
        for i in s.legal():
            c = s.clone()
            c.apply(i)
            walk(c)

    walk(Seated(new_game(GAME, players=2, variants=["duel"], chance="explicit"), "players"))
    assert ends == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    assert (nodes, len(infos), deepest) == (2946, 513, (11, 16))
    for seed in range(30):
        s = Seated(war(2, seed), "players", max_decisions=60)
        random_play(s, seed)
        assert sum(s.returns()) == 0.0


def test_the_duel_is_solved_by_cfr() -> None:
    """The duel variant (data only: missions/variants/duel.toml and its five-card deck)
    is small enough for OpenSpiel's CFR+ and exploitability: it falls iteration by
    iteration (bench/solve.py runs it below 0.01; docs/ai.md)."""
    game = pyspiel.load_game("python_art_of_war", {"variants": "duel"})
    assert game.num_players() == 2 and game.max_game_length() == 3 * 40
    solver = pyspiel.CFRPlusSolver(game)
    curve = []
    for _ in range(2):
        solver.evaluate_and_update_policy()
        curve.append(pyspiel.exploitability(game, solver.average_policy()))
    assert curve[0] > curve[1] and curve[1] < 0.3, curve  # 0.626, then 0.233
    with pytest.raises(pyspiel.SpielError, match="unknown variant 'duell'"):
        pyspiel.load_game("python_art_of_war", {"variants": "duell"})
