"""The adapters' answers to bad input, one rule for each in every adapter: a reset's seed,
an action id, an agent, a call before `reset()`, and None for a parameter's default.

Needs the `ai` extra (CI installs it through `dev`)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import artproject.adapters.gymnasium  # (registers the environments: env_id)
from artproject.adapters.pettingzoo import raw_env

BAD_SEEDS = [-1, -(2**40), 1.5, "1", True, np.int64(-2), np.float64(1.0)]


# ====================================================================== a reset's seed
@pytest.mark.parametrize("game", ["art-of-war", "art-project", "kuhn"])
@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_a_reset_seed_is_a_whole_number_from_0_in_pettingzoo_and_gymnasium(
        game: str, seed: Any) -> None:
    """As Gymnasium's own `np_random` asks (a negative seed refused); a ValueError naming
    `seed`, not numpy's error from deep inside; in Gymnasium also its own error."""
    e = raw_env(game=game)
    with pytest.raises(ValueError, match="seed must be"):
        e.reset(seed=seed)
    g = gymnasium.make(artproject.adapters.gymnasium.env_id(game))
    with pytest.raises(ValueError, match="seed must be") as got:
        g.reset(seed=seed)
    assert isinstance(got.value, gymnasium.error.Error)


def test_numpys_integer_seeds_as_the_int() -> None:
    a, b = raw_env(game="art-of-war"), raw_env(game="art-of-war")
    a.reset(seed=5)
    b.reset(seed=np.int64(5))
    assert (a.observe(a.agent_selection)["observation"]
            == b.observe(b.agent_selection)["observation"]).all()
    env_id = artproject.adapters.gymnasium.env_id("art-of-war")
    obs, _ = gymnasium.make(env_id).reset(seed=5)
    same, _ = gymnasium.make(env_id).reset(seed=np.uint32(5))
    assert (obs["observation"] == same["observation"]).all()


# ====================================================================== an action id
@pytest.mark.parametrize("game", ["art-of-war", "kuhn"])
@pytest.mark.parametrize("flag", [True, False, np.True_], ids=repr)
def test_a_bool_is_no_action_id(game: str, flag: Any) -> None:
    """As `Seated.apply` refuses it and numpy's bool is refused: not taken as id 1 or 0,
    in PettingZoo (raw_env: ValueError; its action space does not contain it) and
    Gymnasium (InvalidAction), nothing changed."""
    e = raw_env(game=game)
    e.reset(seed=1)
    agent, before = e.agent_selection, e.seated.game.history[:]
    with pytest.raises(ValueError, match="not an action id"):
        e.step(flag)
    assert e.seated.game.history == before and e.agent_selection == agent
    assert not e.action_space(agent).contains(flag)
    g = gymnasium.make(artproject.adapters.gymnasium.env_id(game)).unwrapped
    g.reset(seed=1)
    before = g.seated.game.history[:]
    with pytest.raises(gymnasium.error.InvalidAction, match="not an action id"):
        g.step(flag)
    assert g.seated.game.history == before
    assert not g.action_space.contains(flag)


# ====================================================================== unknown agents, no reset
def test_pettingzoo_names_an_unknown_agent_and_a_missing_reset() -> None:
    """An agent the environment lacks is a KeyError saying which agents it has (not the
    bare name); a step or `last()` before the first reset says to call reset() (still an
    AttributeError, as PettingZoo's raw environments raise), as does a pickled one's."""
    import pickle

    e = raw_env(game="art-of-war", players=2)
    for call in (e.step, lambda _: e.last()):
        with pytest.raises(AttributeError, match=r"call reset\(\) before"):
            call(0)
    with pytest.raises(AttributeError, match=r"call reset\(\) before step"):
        pickle.loads(pickle.dumps(e)).step(0)
    e.reset(seed=1)
    for ask in (e.observe, e.action_space, e.observation_space):
        with pytest.raises(KeyError) as got:
            ask("player_9")
        assert str(got.value) == "unknown agent 'player_9'; agents: player_0, player_1"


def test_gymnasium_says_to_reset_a_pickled_environment_it_never_began() -> None:
    import pickle

    from artproject.adapters.gymnasium import KernelEnv

    env = pickle.loads(pickle.dumps(KernelEnv(game="kuhn")))
    with pytest.raises(gymnasium.error.ResetNeeded, match=r"call reset\(\) first") as got:
        env.step(0)
    assert "is over" not in str(got.value)
    env.reset(seed=1)
    while True:
        *_, terminated, truncated, _ = env.step(int(env.action_masks().argmax()))
        if terminated or truncated:
            break
    with pytest.raises(gymnasium.error.ResetNeeded, match="the game is over"):
        env.step(0)


# ====================================================================== the end
@pytest.mark.parametrize("reward", ["terminal", "shaped"])
def test_gymnasium_s_shaped_score_after_an_illegal_id_is_the_return(reward: str) -> None:
    """An illegal id ends the episode as lost: the return -1, which the shaped score is at
    any end (docs/ai.md), so `info["shaped"]` is -1 too."""
    from artproject.adapters.gymnasium import KernelEnv

    env = KernelEnv(game="art-of-war", players=2, reward=reward)
    obs, _ = env.reset(seed=3)
    total = 0.0
    for _ in range(3):
        obs, r, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        total += r
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.warns(UserWarning, match="the episode ends as lost"):
        _, r, terminated, _, info = env.step(illegal)
    assert terminated and info["shaped"] == -1.0 and total + r == -1.0


def test_an_action_after_the_end_says_once_that_the_game_is_over() -> None:
    import pyspiel

    import artproject.adapters.openspiel  # noqa: F401 (registers the games)

    game = pyspiel.load_game("python_art_of_war", {"players": 2})
    st = game.new_initial_state()
    rng = np.random.default_rng(1)
    while not st.is_terminal():
        ids = [i for i, _ in st.chance_outcomes()] if st.is_chance_node() \
            else st.legal_actions()
        st.apply_action(int(rng.choice(ids)))
    with pytest.raises(pyspiel.SpielError) as got:
        st.apply_action(0)
    assert str(got.value).count("the game is over") == 1, str(got.value)
    from artproject import new_game
    from artproject.core.errors import IllegalActionError
    from artproject.core.seats import Seated

    cut = Seated(new_game("kuhn", seed=1, chance="explicit"), "players", max_decisions=1)
    while not cut.is_terminal():
        cut.apply(cut.chance_outcomes()[0][0] if cut.current() < 0 else cut.legal()[0])
    with pytest.raises(IllegalActionError, match=r"^action 0: the game is over \(cut at"):
        cut.apply(0)


# ====================================================================== None: the default
@pytest.mark.parametrize("game", ["art-of-war", "kuhn"])
def test_none_is_the_default_of_variants_and_reward_in_every_adapter(game: str) -> None:
    """As Batched takes it (docs/ai.md): `variants=None` no variant, `reward=None` the
    returns at the end; the same game as without them. OpenSpiel's own `load_game` refuses
    an unset parameter in C++ before the game is asked: its game class takes None."""
    import pyspiel

    from artproject.adapters import openspiel
    from artproject.adapters.batched import Batched
    from artproject.adapters.gymnasium import KernelEnv

    none = {"variants": None, "reward": None}
    a, b = raw_env(game=game, **none), raw_env(game=game)
    a.reset(seed=2)
    b.reset(seed=2)
    assert not a.shaped and str(a.seated.game.position()) == str(b.seated.game.position())
    g, h = KernelEnv(game=game, **none), KernelEnv(game=game)
    assert (g.reset(seed=2)[0]["observation"] == h.reset(seed=2)[0]["observation"]).all()
    assert not g.shaped
    cls = getattr(openspiel, f"KernelGame_{game.replace('-', '_')}")
    assert str(cls(none)) == str(pyspiel.load_game(openspiel.short_name(game)))
    assert Batched(2, game=game, **none).reset()[0].shape == Batched(2, game=game).reset()[0].shape
