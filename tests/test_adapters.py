"""The adapters pass their host libraries' own conformance checks: OpenSpiel's random
simulation test (serialization, clones, chance, the game type's promises) and its ISMCTS
and MCTS bots, PettingZoo's api_test and seed_test, Gymnasium's check_env; random play
through each; bad ids and steps after the end refused with the host's own errors.

Needs the `ai` extra (CI installs it through `dev`)."""

from __future__ import annotations

import contextlib
import copy
import io
import pickle
import random
import re
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
from artproject.adapters.pettingzoo import env, raw_env

SETTINGS = [("team", 1), ("team", 2), ("players", 2), ("players", 3)]


def calm(ids: np.ndarray | list[int], text: object, rng: np.random.Generator) -> int:
    """A random id of a random verb, no unlock or health payment when another verb is
    legal: random games that last (uniform ids lose within a few rounds)."""
    words = {int(i): str(text(int(i))).split()[0] for i in ids}  # type: ignore[operator]
    verbs = sorted(set(words.values()) - {"unlock", "hurt"}) or sorted(set(words.values()))
    verb = verbs[int(rng.integers(len(verbs)))]
    return int(rng.choice([i for i, w in words.items() if w == verb]))


def _load(seats: str, players: int, **more: object) -> pyspiel.Game:
    return pyspiel.load_game("python_art_project", {"players": players, "seats": seats, **more})


# ====================================================================== OpenSpiel
@pytest.mark.parametrize(("seats", "players"), SETTINGS)
def test_openspiel_random_simulation(seats: str, players: int) -> None:
    game = _load(seats, players)
    pyspiel.random_sim_test(game, num_sims=8, serialize=True, verbose=False)
    assert game.num_players() == (1 if seats == "team" else players)
    assert game.get_type().utility == pyspiel.GameType.Utility.IDENTICAL
    assert str(game) == (f"python_art_project(difficulty=medium,mission=japan,players={players},"
                         f"seats={seats})")


def test_openspiel_long_random_games_and_their_strings() -> None:
    """Random play that lives longer (no unlocks that cost health), a few thousand steps,
    every legal id's string unique and every seat's strings and tensors sized."""
    game = _load("players", 2, mission="usa")
    rng = np.random.default_rng(1)
    steps = 0
    for _ in range(30):
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                ids, ps = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(int(rng.choice(ids, p=ps)))
                continue
            legal = st.legal_actions()
            texts = [st.action_to_string(a) for a in legal]
            assert len(set(texts)) == len(texts)
            if steps % 16 == 0:
                for p in range(game.num_players()):
                    assert len(st.observation_tensor(p)) == game.observation_tensor_size()
                    assert (len(st.information_state_tensor(p))
                            == game.information_state_tensor_size())
                    st.information_state_string(p)
            st.apply_action(calm(legal, st.action_to_string, rng))
            steps += 1
        assert st.returns() in ([1.0, 1.0], [-1.0, -1.0])
    assert steps > 1500


def test_openspiel_bad_input_is_a_spiel_error() -> None:
    game = _load("players", 2)
    st = game.new_initial_state()
    legal = st.legal_actions()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    before = str(st)
    for bad in (illegal, game.num_distinct_actions(), 10**6, -5):
        with pytest.raises(pyspiel.SpielError, match=r"not legal|out of range"):
            st.apply_action(bad)
    assert str(st) == before and st.history() == []
    with pytest.raises(pyspiel.SpielError, match="out of range"):
        st.action_to_string(0, 10**6)
    while not st.is_terminal():  # to the end: then every action is refused
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[0][0])
        else:
            st.apply_action(st.legal_actions()[-1])
    with pytest.raises(pyspiel.SpielError, match="over"):
        st.apply_action(0)
    with pytest.raises(pyspiel.SpielError, match=r"unknown mission|japn"):
        _load("team", 2, mission="japn")
    with pytest.raises(pyspiel.SpielError, match="seats must be one of"):
        _load("everyone", 2)


def test_openspiel_bots_play_it() -> None:
    game = _load("players", 2)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 12, random_state=rng),
            mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng)]
    for bot in bots:
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                ids, ps = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(int(rng.choice(ids, p=ps)))
            else:
                st.apply_action(bot.step(st))
        assert st.returns() in ([1.0, 1.0], [-1.0, -1.0])


def test_openspiel_resample_keeps_the_information_state() -> None:
    game = _load("players", 3)
    st = game.new_initial_state()
    rng = np.random.default_rng(2)
    for _ in range(40):
        if st.is_terminal():
            break
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[int(rng.integers(2))][0])
            continue
        p = st.current_player()
        r = st.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
        assert r.information_state_string(p) == st.information_state_string(p)
        assert r.legal_actions() == st.legal_actions()
        st.apply_action(st.legal_actions()[-1])


# ====================================================================== PettingZoo
@pytest.mark.parametrize("seats", ["team", "players"])
def test_pettingzoo_api_and_seed_tests(seats: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on Dict observations, as for chess
        api_test(env(players=2, seats=seats), num_cycles=300, verbose_progress=False)
        seed_test(lambda: env(players=3, seats=seats), num_cycles=300)


def test_pettingzoo_random_steps_and_bad_input() -> None:
    e = raw_env(mission="usa", players=3, seats="players")
    rng = np.random.default_rng(4)
    steps = 0
    for game in range(20):
        e.reset(seed=game)
        for agent in e.agent_iter():
            obs, _, term, trunc, info = e.last()
            if term or trunc:
                with pytest.raises(ValueError, match="dead"):
                    e.step(0)  # PettingZoo's own refusal: a dead agent's action is None
                e.step(None)
                continue
            mask = obs["action_mask"]
            assert e.observation_space(agent).contains(obs)
            assert -1 <= info["shaped"] <= 1
            illegal = int(np.flatnonzero(mask == 0)[0])
            with pytest.raises(ValueError, match="not legal"):
                e.step(illegal)
            with pytest.raises(ValueError, match="not an action id"):
                e.step(len(mask))
            e.step(calm(np.flatnonzero(mask), e.seated.action_text, rng))
            steps += 1
    assert steps > 1000


def test_pettingzoo_wrapped_env_ends_on_an_illegal_id() -> None:
    e = env(players=2, seats="players")
    e.reset(seed=1)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[e.agent_selection] == -1 or -1 in e.rewards.values()
    with pytest.raises(AssertionError):
        e2 = env(players=2)
        e2.reset(seed=1)
        e2.step(10**6)


# ====================================================================== Gymnasium
def test_gymnasium_check_env_and_registration() -> None:
    assert gym_adapter.env_id("art-project") == "artproject/ArtProject-v0"
    e = gymnasium.make("artproject/ArtProject-v0", players=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(e.unwrapped, skip_render_check=True)
    e.close()


def test_gymnasium_random_steps_and_bad_input() -> None:
    e = gym_adapter.KernelEnv(mission="rio", players=2, illegal="raise")
    rng = np.random.default_rng(5)
    steps, ends = 0, 0
    obs, info = e.reset(seed=3)
    while steps < 1500:
        mask = obs["action_mask"]
        assert (mask == e.action_masks()).all() and (mask == info["action_mask"]).all()
        if steps % 50 == 0:
            illegal = int(np.flatnonzero(mask == 0)[0])
            with pytest.raises(gymnasium.error.InvalidAction, match="not legal"):
                e.step(illegal)
            with pytest.raises(gymnasium.error.InvalidAction, match="not an action id"):
                e.step(-1)
        obs, reward, term, trunc, info = e.step(calm(np.flatnonzero(mask),
                                                     e.unwrapped.seated.action_text, rng))
        steps += 1
        if term or trunc:
            assert reward in (1.0, -1.0)
            with pytest.raises(gymnasium.error.ResetNeeded):
                e.step(0)
            ends += 1
            obs, info = e.reset()
    assert ends > 10


def test_gymnasium_illegal_id_ends_the_episode_as_lost() -> None:
    e = gym_adapter.KernelEnv(players=2)
    obs, _ = e.reset(seed=1)
    before = [str(a) for a in e.seated.game.history]
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        _, reward, term, trunc, info = e.step(illegal)
    assert (reward, term, trunc) == (-1.0, True, False) and "not legal" in info["illegal"]
    assert any("episode ends as lost" in str(w.message) for w in seen)
    assert [str(a) for a in e.seated.game.history] == before  # no move was made
    with pytest.raises(gymnasium.error.ResetNeeded):
        e.step(0)
    with pytest.raises(ValueError, match="illegal must be"):
        gym_adapter.KernelEnv(illegal="ignore")


def test_gymnasium_seat_of_a_team_of_players() -> None:
    """One player's seat, the others played by the heuristic (hand-overs included)."""
    e = gym_adapter.KernelEnv(players=3, seats="players", seat=1, others="heuristic")
    obs, _ = e.reset(seed=2)
    done = False
    while not done:
        assert e.seated.current() == 1
        obs, _, term, trunc, _ = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done = term or trunc
    with pytest.raises(ValueError, match="seat must be from 0 to 2"):
        gym_adapter.KernelEnv(players=3, seats="players", seat=5)
    with pytest.raises(ValueError, match="unknown policy"):
        gym_adapter.KernelEnv(players=3, seats="players", others="heurstic")
    with pytest.raises(ValueError, match="unknown parameter 'mision'"):
        gym_adapter.KernelEnv(mision="japan")


def test_gymnasium_a_hand_over_to_another_seat_is_answered_among_its_own_actions() -> None:
    """The issue's crash: p1's seat hands the planning to p2 (`turn p2`); the heuristic
    playing p2's seat answered with one of p1's cards (it chose for the whole team) and the
    step raised IllegalActionError. p2's seat now chooses among p2's own actions."""
    e = gymnasium.make("artproject/ArtProject-v0", seats="players", seat=0)
    e.reset(seed=9)
    s = e.unwrapped.seated

    def take(text: str) -> None:
        (i,) = [i for i in s.legal(0) if s.action_text(i) == text]
        e.step(i)

    take("done")
    assert s.game.wait == "plan"
    take("turn p2")
    played = [str(a) for a in s.game.history if str(a).startswith(("play", "draw"))]
    assert played and played[0].split()[1] == "p2"  # p2's seat took its own turn


def test_gymnasium_random_agents_in_every_seat_finish_their_episodes() -> None:
    """Random agents in every seat of a team of players, the others random or the
    heuristic: every episode ends (about one in ten crashed on a hand-over; a game the
    others ended before the agent's first decision left reset() at the end)."""
    for seat in range(3):
        for others in ("heuristic", "random"):
            e = gym_adapter.KernelEnv(players=3, mission="usa", seats="players", seat=seat,
                                      others=others)
            for seed in range(6):
                obs, _ = e.reset(seed=seed)
                e.action_space.seed(seed)
                assert obs["action_mask"].any()
                while True:
                    obs, _, term, trunc, _ = e.step(e.action_space.sample())
                    if term or trunc:
                        break


def test_gymnasium_spaces_and_environments_pickle_and_copy() -> None:
    """The issue: the action space held the environment's bound `action_masks` and the
    environment a closure and buffers of memoryviews, so neither pickled (nor could
    Gymnasium's AsyncVectorEnv send the spaces to its workers). A space comes back equal,
    without the environment (it samples among every id); the environment (wrapped or not,
    pickled or deep-copied) comes back made anew from its arguments, as EzPickle makes
    Gymnasium's own, and plays as the original from the same seed."""
    made = gymnasium.make("artproject/ArtOfWar-v0", players=3, seats="players", seat=1,
                          others="random", reward="shaped", max_decisions=300)
    obs, _ = made.reset(seed=4)
    legal = set(np.flatnonzero(obs["action_mask"]).tolist())
    for space in (pickle.loads(pickle.dumps(made.action_space)),
                  copy.deepcopy(made.action_space)):
        assert isinstance(space, gym_adapter.LegalDiscrete) and space == made.action_space
        space.seed(0)
        drawn = {int(space.sample()) for _ in range(200)}
        assert drawn - legal and drawn <= set(range(int(space.n)))  # every id: no env
    assert all(int(made.action_space.sample()) in legal for _ in range(50))  # (still its)
    assert pickle.loads(pickle.dumps(made.observation_space)) == made.observation_space
    for other in (pickle.loads(pickle.dumps(made)), pickle.loads(pickle.dumps(made.unwrapped)),
                  copy.deepcopy(made.unwrapped)):
        raw = other.unwrapped
        assert raw is not made.unwrapped and (raw.game, raw.seat, raw.others_name) == (
            "art-of-war", 1, "random")
        assert (raw.seated.num_seats(), raw.shaped, raw.max_decisions) == (3, True, 300)
        with pytest.raises(gymnasium.error.ResetNeeded):  # (made anew: not reset)
            raw.step(0)
        theirs, _ = other.reset(seed=4)
        ours, _ = made.reset(seed=4)
        for _ in range(5):
            assert all((theirs[k] == ours[k]).all() for k in ours)
            i = int(np.flatnonzero(ours["action_mask"])[0])
            theirs, *_ = other.step(i)
            ours, *_ = made.step(i)


@pytest.mark.parametrize("game", ["art-of-war", "art-project"])
def test_gymnasium_async_vector_env(game: str) -> None:
    """The issue: `make_vec(..., vectorization_mode="async")` failed pickling the action
    space it sends its workers. Two workers: a reset, a few steps of legal ids, closed."""
    vec = gymnasium.make_vec(gym_adapter.env_id(game), num_envs=2,
                             vectorization_mode="async")
    try:
        obs, _ = vec.reset(seed=1)
        for _ in range(3):
            masks = obs["action_mask"]
            assert masks.shape == (2, vec.single_action_space.n)
            obs, reward, *_ = vec.step(np.array(
                [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in masks]))
            assert reward.shape == (2,)
    finally:
        vec.close()


def test_pettingzoo_environments_pickle_and_copy() -> None:
    """raw_env and env() pickle and deep-copy as PettingZoo's own (EzPickle: made anew
    from their arguments), and play as the original from the same seed."""
    for made in (raw_env(game="art-of-war", players=3, reward="shaped"),
                 env(game="art-project", players=2, seats="players")):
        made.reset(seed=2)
        for other in (pickle.loads(pickle.dumps(made)), copy.deepcopy(made)):
            assert other.unwrapped is not made.unwrapped
            assert other.possible_agents == made.possible_agents
            for e in (other, made):
                e.reset(seed=2)
            for _ in range(5):
                ours, theirs = made.last()[0], other.last()[0]
                assert all((theirs[k] == ours[k]).all() for k in ours)
                i = int(np.flatnonzero(ours["action_mask"])[0])
                made.step(i)
                other.step(i)


def test_human_mode_prints_at_reset_and_after_each_step() -> None:
    """Gymnasium's and PettingZoo's contract for "human": the game shown at `reset` and
    after every `step` without `render()` being asked (the text "ansi" returns, printed);
    `render()` prints it again and returns None."""
    def printed(call: object) -> tuple[object, str]:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            got = call()  # type: ignore[operator]
        return got, out.getvalue()

    shown = gym_adapter.KernelEnv(game="art-of-war", players=2, render_mode="human")
    told = gym_adapter.KernelEnv(game="art-of-war", players=2, render_mode="ansi")
    (obs, _), out = printed(lambda: shown.reset(seed=1))
    told.reset(seed=1)
    assert out == f"{told.render()}\n"
    for _ in range(4):
        i = int(np.flatnonzero(obs["action_mask"])[0])
        (obs, *_), out = printed(lambda: shown.step(i))  # noqa: B023 (called at once)
        told.step(i)
        assert out == f"{told.render()}\n"
    assert printed(shown.render) == (None, f"{told.render()}\n")

    p_shown = raw_env(game="art-of-war", players=2, render_mode="human")
    p_told = raw_env(game="art-of-war", players=2, render_mode="ansi")
    _, out = printed(lambda: p_shown.reset(seed=1))
    p_told.reset(seed=1)
    assert out == f"{p_told.render()}\n"
    for _ in range(4):
        i = int(np.flatnonzero(p_shown.last()[0]["action_mask"])[0])
        _, out = printed(lambda: p_shown.step(i))  # noqa: B023 (called at once)
        p_told.step(i)
        assert out == f"{p_told.render()}\n"
    assert printed(p_shown.render) == (None, f"{p_told.render()}\n")
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        check_env(gymnasium.make("artproject/ArtOfWar-v0", render_mode="human").unwrapped)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"max_decisions": "x"}, "max_decisions must be a whole number, not str 'x'"),
    ({"max_decisions": 2.5}, "max_decisions must be a whole number, not float 2.5"),
    ({"max_decisions": True}, "max_decisions must be a whole number, not bool True"),
    ({"max_decisions": 0}, "max_decisions must be at least 1, not 0"),
    ({"max_decisions": -3}, "max_decisions must be at least 1, not -3"),
    ({"players": True}, "parameter 'players' must be a whole number, not bool True"),
    ({"players": 3.0}, "parameter 'players' must be a whole number, not float 3.0"),
    ({"players": "3"}, "parameter 'players' must be a whole number, not str '3'"),
    ({"seats": 2}, "seats must be one of players for the art-of-war game, not 2"),
    ({"seats": "team"}, "seats must be one of players for the art-of-war game, not 'team'"),
    ({"reward": 1}, "parameter 'reward' must be one of terminal, shaped, not 1"),
    ({"variants": ["duel"]}, "parameter 'variants' must be text"),
    ({"render_mode": 1}, "render_mode must be None or one of"),
    ({"render_mode": "screen"}, "render_mode must be None or one of"),
    ({"rules": 3}, "parameter 'rules' must be a name, a file or rules loaded, not 3"),
    ({"game": 3}, "game must be a game's name, not 3"),
])
@pytest.mark.parametrize("adapter", ["gymnasium", "pettingzoo"])
def test_bad_parameters_are_clear_errors(adapter: str, kwargs: dict[str, object],
                                         match: str) -> None:
    """The issue: a parameter of the wrong kind met a bare TypeError deep inside (or was
    taken: a bool as a number); each is a ValueError naming it and what was expected."""
    make = gym_adapter.KernelEnv if adapter == "gymnasium" else raw_env
    with pytest.raises(ValueError, match=re.escape(match)):
        make(**{"game": "art-of-war", **kwargs})


def test_the_adapters_own_bad_parameters_are_clear_errors() -> None:
    """Gymnasium's seat, others and illegal; The A.R.T. Project's own options."""
    cases = [(gym_adapter.KernelEnv, {"seat": "1"}, "seat must be a whole number, not str '1'"),
             (gym_adapter.KernelEnv, {"seat": True}, "seat must be a whole number, not bool True"),
             (gym_adapter.KernelEnv, {"seat": 1.0}, "seat must be a whole number, not float 1.0"),
             (gym_adapter.KernelEnv, {"seat": -1}, "seat must be from 0 to 1, not -1"),
             (gym_adapter.KernelEnv, {"others": 3}, "others must be the name of a policy"),
             (gym_adapter.KernelEnv, {"illegal": 3}, "illegal must be 'lose' or 'raise'"),
             (raw_env, {"game": "art-project", "mission": 3},
              "parameter 'mission' must be a name, a file or rules loaded, not 3"),
             (raw_env, {"game": "art-project", "difficulty": 3},
              "parameter 'difficulty' must be text, not 3")]
    for make, kwargs, match in cases:
        with pytest.raises(ValueError, match=re.escape(match)):
            make(**{"game": "art-of-war", "seats": "players", **kwargs})


def test_numpy_integers_are_whole_numbers() -> None:
    """The issue: `players=np.int64(3)` was refused as "not a whole number"; numpy's
    integers are taken as the ints they are, everywhere a whole number is asked."""
    p = raw_env(game="art-of-war", players=np.int64(3), max_decisions=np.int32(50))
    assert p.possible_agents == ["player_0", "player_1", "player_2"]
    g = gym_adapter.KernelEnv(game="art-of-war", players=np.int16(3), seat=np.int64(2))
    assert type(g.seat) is int and g.seat == 2 and g.seated.num_seats() == 3
    obs, _ = g.reset(seed=1)
    assert obs["action_mask"].any()


# ====================================================================== both games, every adapter
BOTH = [("art-project", {"players": 2, "seats": "players"}), ("art-project", {"players": 3}),
        ("art-of-war", {"players": 2}), ("art-of-war", {"players": 4})]


@pytest.mark.parametrize(("game", "options"), BOTH)
def test_pettingzoo_state_render_api_and_seed_tests(game: str, options: dict[str, object],
                                                    ) -> None:
    """PettingZoo's own checks, both games: api and seed tests, the turn-based state tests
    (`state()` and `state_space`: a turn-based game has no parallel form) and render_test
    ("human" prints and returns None, "ansi" returns text, "rgb_array" a picture)."""
    from pettingzoo.test import render_test
    from pettingzoo.test.state_test import test_state, test_state_space

    def make(render_mode: str | None = None) -> object:
        return env(game=game, render_mode=render_mode, **options)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(make(), num_cycles=200, verbose_progress=False)
        seed_test(make, num_cycles=200)
        e = make()
        test_state_space(e)
        test_state(e, num_cycles=100)
        render_test(make)
    e = make()
    e.reset(seed=1)
    state = e.state()
    assert e.state_space.contains(state) and state.shape == e.state_space.shape
    n = e.unwrapped.seated.num_seats()
    assert state.size == n * e.observation_space(e.possible_agents[0])["observation"].shape[0]


def test_the_text_tells_what_is_pending_the_legal_actions_and_the_last_events() -> None:
    """"ansi" returns the game as text (PettingZoo's names the seat to act, Gymnasium's
    lists its agent's seat's actions) and "human" prints the same; at the end, no seat and
    no legal action, and the last eight events as the whole table saw them (the game's
    `seen_events` for a spectator: tests/test_adapters_review.py)."""
    from artproject.core.actions import NOBODY

    p = raw_env(game="art-of-war", players=2, render_mode="ansi")
    p.reset(seed=1)
    start = ("Art of War: turn{}; legal: draw p1, take p1, challenge p1 p2\nhistory: "
             + " | ".join(p.seated.game.seen_events(NOBODY)[0][-8:]))
    assert p.render() == start.format(" (seat 0)")
    g = gym_adapter.KernelEnv(game="art-of-war", players=2, render_mode="ansi")
    g.reset(seed=1)
    assert g.render() == start.format("")
    for _ in p.agent_iter():
        obs, _, over, cut, _ = p.last()
        p.step(None if over or cut else int(np.flatnonzero(obs["action_mask"])[0]))
    pending, history = str(p.render()).split("\n")
    assert pending == "Art of War: over; legal: "
    assert history == "history: " + " | ".join(p.seated.game.seen_events(NOBODY)[0][-8:])
    shown = raw_env(game="art-of-war", players=2, render_mode="human")
    shown.reset(seed=1)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert shown.render() is None
    assert out.getvalue() == start.format(" (seat 0)") + "\n"


@pytest.mark.parametrize(("game", "options"), BOTH)
def test_shaped_rewards_sum_to_the_return_in_every_adapter(game: str,
                                                           options: dict[str, object]) -> None:
    """reward="shaped": a reward every step (the change in the shaped score, from 0), and
    over a game they sum to the return, in PettingZoo, Gymnasium and OpenSpiel; the default
    stays the return at the end."""
    rng = np.random.default_rng(2)
    e = raw_env(game=game, reward="shaped", **options)
    for seed in range(4):
        e.reset(seed=seed)
        total = dict.fromkeys(e.possible_agents, 0.0)
        moving = 0
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            total[agent] += reward
            moving += reward != 0.0
            if term or trunc:
                e.step(None)
            else:
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        returns = e.unwrapped.seated.returns()
        assert [round(total[a], 9) for a in e.possible_agents] == returns
        assert moving > len(e.possible_agents)  # not only at the end
    g = gym_adapter.KernelEnv(game=game, reward="shaped", **options)
    for seed in range(4):
        obs, _ = g.reset(seed=seed)
        got = 0.0
        while True:
            obs, reward, term, trunc, _ = g.step(int(rng.choice(np.flatnonzero(
                obs["action_mask"]))))
            got += reward
            if term or trunc:
                break
        assert round(got, 9) == g.seated.returns()[0]
    name = "python_" + game.replace("-", "_")
    params = {k: v for k, v in options.items()}
    shaped = pyspiel.load_game(name, {**params, "reward": "shaped"})
    assert shaped.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    pyspiel.random_sim_test(shaped, num_sims=3, serialize=True, verbose=False)
    plain = pyspiel.load_game(name, params)
    assert plain.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    with pytest.raises(ValueError, match="reward"):
        raw_env(game=game, reward="dense", **options)


@pytest.mark.parametrize("reward", ["terminal", "shaped"])
@pytest.mark.parametrize(("game", "options"), BOTH)
def test_openspiel_rl_environment_rewards_sum_to_the_returns(game: str,
                                                             options: dict[str, object],
                                                             reward: str) -> None:
    """OpenSpiel's own RL environment (which reads `rewards()` after each decision and the
    chance outcomes that follow it, never at the initial state): an episode's rewards sum
    to `returns()`. The initial state's rewards and returns are 0 (the first decision pays
    the shaped score's change from 0, as PettingZoo's and Gymnasium's first step), and at
    every state, chance nodes included, the rewards read so far plus `rewards()` are
    `returns()`."""
    from open_spiel.python import rl_environment

    name = "python_" + game.replace("-", "_")
    spiel = pyspiel.load_game(name, {**options, "reward": reward})
    first = spiel.new_initial_state()
    assert first.rewards() == first.returns() == [0.0] * spiel.num_players()
    for seed in range(4):
        env = rl_environment.Environment(spiel, seed=seed)
        rng = np.random.default_rng(seed)
        ts = env.reset()
        total = np.zeros(spiel.num_players())
        while not ts.last():
            p = ts.observations["current_player"]
            ts = env.step([int(rng.choice(ts.observations["legal_actions"][p]))])
            total += ts.rewards
        assert total.round(9).tolist() == env.get_state.returns()
    rng = np.random.default_rng(7)
    for _ in range(3):  # by hand: rewards read at each decision, checked at every state
        st, paid = spiel.new_initial_state(), np.zeros(spiel.num_players())
        while True:
            assert (paid + st.rewards()).round(9).tolist() == np.round(st.returns(), 9).tolist()
            if st.is_terminal():
                break
            if st.is_chance_node():
                ids, ps = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(int(rng.choice(ids, p=ps)))
                continue
            paid += st.rewards()
            st.apply_action(int(rng.choice(st.legal_actions())))
        assert (paid + st.rewards()).round(9).tolist() == st.returns()


@pytest.mark.parametrize(("game", "options"), BOTH)
def test_public_and_all_players_observers(game: str, options: dict[str, object]) -> None:
    """OpenSpiel's observer API: the public observer (private_info NONE) is the same for
    every player and unchanged when every hidden card is dealt anew; the all-players
    observer (ALL_PLAYERS) is every seat's view, private facts included; perfect recall
    gives the information state. The public tensor never shows a hand."""
    from open_spiel.python.observation import make_observation

    kinds = pyspiel.PrivateInfoType
    game_ = pyspiel.load_game("python_" + game.replace("-", "_"), options)

    def observer(private: object, recall: bool = False) -> object:
        return make_observation(game_, pyspiel.IIGObservationType(
            public_info=True, perfect_recall=recall, private_info=private))

    public, public_recall = observer(kinds.NONE), observer(kinds.NONE, True)
    everyone, one = observer(kinds.ALL_PLAYERS), observer(kinds.SINGLE_PLAYER)
    rng = np.random.default_rng(3)
    st = game_.new_initial_state()
    checked = 0
    while not st.is_terminal() and checked < 40:
        if st.is_chance_node():
            ids, ps = zip(*st.chance_outcomes(), strict=True)
            st.apply_action(int(rng.choice(ids, p=ps)))
            continue
        seats = st.seated.num_seats()
        seen = {public.string_from(st, p) for p in range(seats)}
        assert len(seen) == 1
        public.set_from(st, 0)
        hidden = st.clone()
        hidden.seated.game = st.seated.game.resample([], int(rng.integers(1 << 30)))
        assert public.string_from(hidden, 0) == public.string_from(st, 0)
        assert public_recall.string_from(hidden, 0) == public_recall.string_from(st, 0)
        again = public.tensor.copy()
        public.set_from(hidden, 0)
        assert (public.tensor == again).all()
        assert not public.dict["hand" if game == "art-of-war" else "hands"].any()
        everyone.set_from(st, 0)
        for p in range(seats):
            one.set_from(st, p)
            size = one.tensor.size
            assert (everyone.tensor[p * size:(p + 1) * size] == one.tensor).all()
        st.apply_action(int(rng.choice(st.legal_actions())))
        checked += 1
    assert checked
    with pytest.raises(ValueError, match="public_info"):
        make_observation(game_, pyspiel.IIGObservationType(
            public_info=False, perfect_recall=False, private_info=kinds.SINGLE_PLAYER))


@pytest.mark.parametrize(("game", "options"), [*BOTH, ("art-project", {"players": 2})])
def test_an_observer_refuses_a_player_out_of_range_as_the_state_does(
        game: str, options: dict[str, object]) -> None:
    """Every observer's `set_from` and `string_from` refuse a player who is not one of the
    game's with `pyspiel.SpielError` (as the state's `observation_tensor` does), leaving
    its tensor as it was; numpy's integers are players."""
    from open_spiel.python.observation import make_observation

    kinds = pyspiel.PrivateInfoType
    spiel = pyspiel.load_game("python_" + game.replace("-", "_"), options)
    st = spiel.new_initial_state()
    n = spiel.num_players()
    for private in (kinds.SINGLE_PLAYER, kinds.NONE, kinds.ALL_PLAYERS):
        for recall in (False, True):
            obs = make_observation(spiel, pyspiel.IIGObservationType(
                public_info=True, perfect_recall=recall, private_info=private))
            obs.set_from(st, n - 1)
            kept = obs.tensor.copy()
            for bad in (n, 5, -1, -2, 1.0, "p1", None, True):
                with pytest.raises(pyspiel.SpielError, match="not a player of this game"):
                    obs.set_from(st, bad)
                with pytest.raises(pyspiel.SpielError, match="not a player of this game"):
                    obs.string_from(st, bad)
                assert (obs.tensor == kept).all()
            obs.set_from(st, np.int64(n - 1))
            assert (obs.tensor == kept).all()
            assert obs.string_from(st, np.int64(0)) == obs.string_from(st, 0)


@pytest.mark.parametrize(("game", "options"), [
    ("art-project", {"players": 2, "seats": "players", "mission": "usa"}),
    ("art-project", {"players": 1, "mission": "rio"}),
    ("art-of-war", {"players": 2}), ("art-of-war", {"players": 7})])
def test_every_number_lies_within_the_declared_bounds(game: str,
                                                      options: dict[str, object]) -> None:
    """The observation spaces' bounds (each segment's, from the components) hold: random
    games in both tensor kinds, every seat, nothing clipped."""
    e = raw_env(game=game, **options)
    rng = np.random.default_rng(5)
    s = e.unwrapped.seated
    for kind in ("observation", "information_state"):
        low, high = (np.asarray(b) for b in s.layout(kind).bounds())
        assert (low < high).all()
    for seed in range(12):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            assert e.observation_space(agent).contains(obs)
            s = e.unwrapped.seated
            for seat in range(s.num_seats()):
                low, high = (np.asarray(b) for b in s.layout("information_state").bounds())
                t = np.asarray(s.tensor(seat, "information_state"))
                assert ((low <= t) & (t <= high)).all(), s.layout("information_state").split(
                    list(t > high))
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


SEATINGS_OF_BOTH = [("art-project", {"players": 1, "seats": "team"}),
                    ("art-project", {"players": 2, "seats": "team"}),
                    ("art-project", {"players": 2, "seats": "players"}),
                    ("art-project", {"players": 3, "seats": "players"}),
                    ("art-of-war", {"players": 2}), ("art-of-war", {"players": 3}),
                    ("art-of-war", {"players": 4})]


@pytest.mark.parametrize(("game", "options"), SEATINGS_OF_BOTH)
def test_fast_tensors_and_masks_equal_the_ones_made_from_scratch(game: str,
                                                                 options: dict[str, object],
                                                                 ) -> None:
    """The adapters pack a seat's numbers into float32 with `struct` and keep one mask per
    set of legal ids (_common.py, for speed): over many random steps, every seat asked at
    random moments, each kind's array is the same, to the byte, as numpy's conversion of
    the seat's numbers from scratch, and the mask marks exactly the seat's legal ids."""
    from artproject.adapters._common import mask, tensor

    rng = np.random.default_rng(7)
    e = raw_env(game=game, **options)
    checked, episode = 0, 0
    while checked < 1500:
        e.reset(seed=episode)
        episode += 1
        s = e.seated
        for _agent in e.agent_iter(max_iter=400):
            for seat in range(s.num_seats()):
                for kind in ("observation", "information_state"):
                    if rng.random() < 0.5:
                        continue
                    scratch = np.asarray(s.tensor(seat, kind, raw=True), dtype=np.float32)
                    got = tensor(s, seat, kind)
                    assert got.dtype == np.float32 and got.tobytes() == scratch.tobytes()
                    checked += 1
                ids = s.legal(seat) if s.current() >= 0 else []
                assert np.flatnonzero(mask(s, seat)).tolist() == ids
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else
                   int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_packing_converts_as_numpy_does() -> None:
    """`as_float32` gives numpy's float32 conversion to the byte for floats that round,
    ints, flags and negatives, and its arrays are read-only (the adapters hand out copies)."""
    from artproject.adapters._common import as_float32

    numbers = [0.0, 1, True, False, -3, 0.1, 1 / 3, 2.0**24 + 1, 123456789, -0.0, 1e-40]
    got = as_float32(numbers)
    assert got.tobytes() == np.asarray(numbers, dtype=np.float32).tobytes()
    assert not got.flags.writeable


# ====================================================================== OpenSpiel's chance nodes
SPIELED = [("python_art_of_war", {"players": 2}), ("python_art_of_war", {"players": 3}),
           ("python_art_project", {"players": 2, "seats": "players"}),
           ("python_art_project", {"players": 3, "seats": "team"})]


def _scratch_outcomes(st: pyspiel.State) -> list[tuple[int, float]]:
    """A chance node's (id, probability) by id, from the game's own outcomes afresh."""
    s = st.seated
    space = s.space.chance
    return sorted((space.id(a), p) for a, p in s.game.chance_outcomes())


@pytest.mark.parametrize(("name", "options"), SPIELED)
def test_openspiel_chance_outcomes_are_the_games_own_and_only_they_apply(
        name: str, options: dict[str, object]) -> None:
    """A chance node's outcomes and ids (worked out once a node, their ids and actions kept
    by the outcomes' values) are the game's own, made afresh, at every node of random play;
    an id that is not an outcome now is refused with the same SpielError before the
    outcomes are asked for and after (when they are kept), and changes nothing; each id
    the node lists applies the very outcome the game names."""
    game = pyspiel.load_game(name, options)
    size = game.max_chance_outcomes()
    rng = np.random.default_rng(5)
    nodes = 0
    while nodes < 40:
        st = game.new_initial_state()
        while not st.is_terminal():
            if not st.is_chance_node():
                st.apply_action(int(rng.choice(st.legal_actions())))
                continue
            before = str(st)
            fresh = st.clone()  # (nothing asked there yet)
            bad = [i for i in (-5, size, 10**6, *range(size)) if
                   i not in dict(_scratch_outcomes(st))][:4]
            for state in (fresh, st):  # refused before the outcomes are kept, then after
                for i in bad:
                    with pytest.raises(pyspiel.SpielError, match="not an outcome now"):
                        state.apply_action(i)
                outs = state.chance_outcomes()
                assert outs == _scratch_outcomes(state)
                assert abs(sum(p for _, p in outs) - 1) < 1e-9
                assert state.legal_actions() == [i for i, _ in outs]
                assert state.seated.legal() == [i for i, _ in outs]
            assert str(st) == before and str(fresh) == before
            i = outs[int(rng.integers(len(outs)))][0]
            named = st.seated.space.chance.action(i)
            st.apply_action(i)
            assert st.seated.game.history[-1] == named
            nodes += 1


@pytest.mark.parametrize(("name", "options"), SPIELED)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_openspiel_clones_and_resamples_at_a_chance_node_keep_their_own_outcomes(
        name: str, options: dict[str, object], seed: int) -> None:
    """A clone taken at a chance node whose outcomes were asked for lists and applies the
    same outcomes, and what it applies leaves the original's alone; a resample there (what
    a seat cannot see drawn anew: the cards left may differ) lists its own game's outcomes,
    not the ones kept for the node it was taken from, and applies only those."""
    game = pyspiel.load_game(name, options)
    rng = np.random.default_rng(11)
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)  # (seeded: the same draws)
    checked = 0
    st = game.new_initial_state()
    while checked < 30:
        if st.is_terminal():
            st = game.new_initial_state()
        if not st.is_chance_node():
            st.apply_action(int(rng.choice(st.legal_actions())))
            continue
        outs = st.chance_outcomes()
        copy = st.clone()
        assert copy.chance_outcomes() == outs
        copy.apply_action(outs[-1][0])
        assert st.chance_outcomes() == outs == _scratch_outcomes(st)
        for seat in range(game.num_players()):
            other = st.resample_from_infostate(seat, sampler)
            assert other.is_chance_node()
            mine = _scratch_outcomes(other)
            assert other.chance_outcomes() == mine
            ids = {i for i, _ in mine}
            foreign = [i for i, _ in outs if i not in ids]
            for i in foreign[:2]:
                with pytest.raises(pyspiel.SpielError, match="not an outcome now"):
                    other.apply_action(i)
            other.apply_action(mine[0][0])
        assert st.chance_outcomes() == outs
        st.apply_action(outs[int(rng.integers(len(outs)))][0])
        checked += 1


@pytest.mark.parametrize(("name", "options"), SPIELED)
def test_openspiel_tensors_asked_across_states_are_each_states_own(
        name: str, options: dict[str, object]) -> None:
    """The observer writes a state's tensor from the seat's buffer, and the game's first
    state's (which OpenSpiel makes to size every tensor) from the copy kept with it: asked
    in turn of a played state, a new one, a clone moved on and the played one again, every
    seat's tensors are the seat's numbers made from scratch."""
    game = pyspiel.load_game(name, options)
    rng = np.random.default_rng(13)
    st = game.new_initial_state()
    first = game.new_initial_state()
    for _ in range(60):
        if st.is_terminal():
            st = game.new_initial_state()
        if st.is_chance_node():
            ids, ps = zip(*st.chance_outcomes(), strict=True)
            st.apply_action(int(rng.choice(ids, p=ps)))
            continue
        moved = st.clone()
        moved.apply_action(int(rng.choice(moved.legal_actions())))
        for state in (st, first, moved, st):
            for p in range(game.num_players()):
                for kind, got in (("observation", state.observation_tensor(p)),
                                  ("information_state", state.information_state_tensor(p))):
                    scratch = np.asarray(state.seated.tensor(p, kind, raw=True), np.float32)
                    assert np.asarray(got, np.float32).tobytes() == scratch.tobytes()
        st.apply_action(int(rng.choice(st.legal_actions())))


@pytest.mark.parametrize(("game", "players"), [("art-of-war", 3), ("art-project", 2),
                                               ("kuhn", 2)])
def test_a_determinization_at_a_chance_node_draws_what_its_deal_holds(game: str,
                                                                      players: int) -> None:
    """A resample taken at a chance node deals anew what chance draws from: its legal
    outcomes are the ones its `chance_outcomes()` lists (the pause's options named again,
    `Machine.renew_chance`), not those of the game it was taken from; each applies."""
    from artproject.core.games import game_class

    rng, checked = random.Random(5), 0
    for seed in range(40):
        g = game_class(game).create(seed=seed, players=players, chance="explicit")
        while g.outcome is None and checked < 120:
            if g.is_chance_node():
                for p in range(players):
                    other = g.resample([p], rng.randrange(2**31))
                    outs = [a for a, _ in other.chance_outcomes()]
                    assert sorted(other.legal_actions()) == sorted(outs)
                    other.apply(rng.choice(outs))
                    checked += 1
            g.apply(rng.choice(g.legal_actions()))
    assert checked >= 60
