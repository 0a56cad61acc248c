"""The adapters' answers to a review: a pickled or copied OpenSpiel game plays; Batched
checks its parameters as the other adapters do, takes numpy's integers and pickles;
Gymnasium and PettingZoo take a 0-d integer array as an id; the text render shows only what
is public.

Needs the `ai` extra (CI installs it through `dev`)."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys

import numpy as np
import pyspiel
import pytest

import artproject.adapters.openspiel  # noqa: F401 (registers the games)

GAMES = [("python_art_of_war", {"players": 3}),
         ("python_art_project", {"players": 2, "seats": "players", "reward": "shaped"})]


def _play(game: pyspiel.Game, seed: int) -> list[int]:
    """A random game of `game` from `seed`: its history."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return list(state.history())


# ======================================================= a pickled OpenSpiel game plays
@pytest.mark.parametrize(("name", "params"), GAMES)
def test_a_pickled_or_copied_openspiel_game_plays_as_the_original(
        name: str, params: dict[str, object]) -> None:
    """pyspiel's own pickle rebuilt only the C++ game, without the kernel's: a copy's
    `new_initial_state` raised AttributeError. A copy is the game made anew from its name
    and parameters: the same game, the same games played."""
    game = pyspiel.load_game(name, params)
    for other in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game), copy.copy(game)):
        assert type(other) is type(game) and str(other) == str(game)
        assert other.get_type().reward_model == game.get_type().reward_model
        assert _play(other, 3) == _play(game, 3)


_WORKER = """
import pickle, sys
import numpy as np
game = pickle.loads(sys.stdin.buffer.read())
rng = np.random.default_rng(5)
state = game.new_initial_state()
while not state.is_terminal():
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))
print(list(state.history()))
"""


def test_a_pickled_openspiel_game_plays_in_a_fresh_process() -> None:
    """A worker process that never imported the adapter unpickles the game (its pickle
    names the adapter's module, which registers the games) and plays it as here."""
    game = pyspiel.load_game(*GAMES[0])
    done = subprocess.run([sys.executable, "-c", _WORKER], input=pickle.dumps(game),
                          capture_output=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().strip() == str(_play(game, 5))


# ===================================================== Batched's parameters and pickles
def test_batched_takes_numpys_integers_as_the_other_adapters() -> None:
    """A player count of numpy's reached the game's `create` unconverted: "Art of War is
    for 2 to 7 players, not np.int64(3)". The same games as with an int."""
    from artproject.adapters.batched import Batched, BatchedWar

    for made, plain in [(BatchedWar(4, players=np.int64(3), seed=0), BatchedWar(4, players=3)),
                        (Batched(3, game="art-project", players=np.int32(2), seed=0),
                         Batched(3, game="art-project", players=2))]:
        assert made.players == plain.players
        assert all(a.tobytes() == b.tobytes()
                   for a, b in zip(made.reset(), plain.reset(), strict=True))


BAD = [("art-of-war", {"mission": "mars"}), ("art-of-war", {"difficulty": None}),
       ("art-of-war", {"log": True}), ("art-of-war", {"variants": "dule"}),
       ("art-of-war", {"rules": "nope"}), ("art-of-war", {"players": "3"}),
       ("art-project", {"difficulty": None}), ("art-project", {"mission": "mars"}),
       ("art-project", {"variants": "no-such-variant"}), ("art-project", {"players": 2.0})]


@pytest.mark.parametrize(("game", "bad"), BAD)
def test_batched_refuses_what_the_other_adapters_refuse_with_their_words(
        game: str, bad: dict[str, object]) -> None:
    """Batched checked its parameters more loosely: `mission` for Art of War and a None
    option were taken, an unknown variant or mission was a RulesError. Now it checks them
    with the adapters' own code: a GameError with the words PettingZoo's ValueError has."""
    from artproject.adapters.batched import Batched
    from artproject.adapters.pettingzoo import raw_env
    from artproject.core.errors import GameError

    with pytest.raises(ValueError) as single:
        raw_env(game=game, **bad)
    with pytest.raises(GameError) as batched:
        Batched(2, game=game, **bad)
    assert type(batched.value) is GameError
    assert str(batched.value) == str(single.value)


def test_batched_pickles_made_anew_from_its_arguments() -> None:
    """A batch did not pickle (its writers are made functions); a pickle or deep copy is
    the batch made anew from its constructor's arguments (as PettingZoo's and Gymnasium's
    environments, EzPickle), to be reset: the same games."""
    from artproject.adapters.batched import Batched, BatchedWar

    for made in (BatchedWar(3, players=np.int64(2), seed=7, variants="duel"),
                 Batched(2, game="art-project", seats="team", reward="shaped", seed=4)):
        first = made.reset()
        made.step([int(np.flatnonzero(m)[0]) for m in first[1]])
        for other in (pickle.loads(pickle.dumps(made)), copy.deepcopy(made)):
            assert type(other) is type(made) and other.games == []
            assert (other.n, other.seed, other.seats, other.reward) == (
                made.n, made.seed, made.seats, made.reward)
            assert all(a.tobytes() == b.tobytes()
                       for a, b in zip(other.reset(), first, strict=True))


# ========================================================== a 0-d integer array as an id
def _first_legal(obs: dict[str, np.ndarray]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


def test_a_zero_d_integer_array_is_an_id_gymnasium_and_pettingzoo_take() -> None:
    """Gymnasium's Discrete `contains` a 0-d integer array (`np.array(300)`), which
    KernelEnv.step refused as "not an action id" and raw_env.step with a ValueError: both
    take it as its int does (the same step); a float's, a bool's or another shape's array
    is still refused."""
    import gymnasium

    import artproject.adapters.gymnasium  # noqa: F401 (registers the environments)
    from artproject.adapters.pettingzoo import env, raw_env

    for game in ("art-of-war", "art-project"):
        made = gymnasium.make(gym_id(game)).unwrapped
        plain = gymnasium.make(gym_id(game)).unwrapped
        obs, _ = made.reset(seed=3)
        plain.reset(seed=3)
        for _ in range(6):
            i = _first_legal(obs)
            assert made.action_space.contains(np.array(i))
            got = made.step(np.array(i, dtype=np.int32))
            want = plain.step(i)
            assert got[0]["observation"].tobytes() == want[0]["observation"].tobytes()
            assert got[1:4] == want[1:4]
            obs = got[0]
            if got[2] or got[3]:
                break
        for bad in _not_ids(i):
            made.reset(seed=3)
            with pytest.raises(gymnasium.error.InvalidAction, match="not an action id"):
                made.step(bad)
        for make in (raw_env, env):
            e, again = make(game=game), make(game=game)
            e.reset(seed=3)
            again.reset(seed=3)
            for _ in range(6):
                i = _first_legal(e.observe(e.agent_selection))
                e.step(np.array(i))
                again.step(i)
                assert e.agent_selection == again.agent_selection
                assert e.observe(e.agent_selection)["observation"].tobytes() == \
                    again.observe(again.agent_selection)["observation"].tobytes()
        e = raw_env(game=game)
        e.reset(seed=3)
        i = _first_legal(e.observe(e.agent_selection))
        for bad in _not_ids(i):
            with pytest.raises(ValueError, match="not an action id"):
                e.step(bad)


def _not_ids(i: int) -> list[object]:
    """What is no id, near id `i`: a float's, a bool's, a 1-d array, an array out of range."""
    return [np.array(float(i)), np.array(True), np.array([i]), np.array(10**6), float(i)]


def gym_id(game: str) -> str:
    from artproject.adapters.gymnasium import env_id

    return env_id(game)


# ===================================================== the text render shows what is public

def _card_names() -> list[str]:
    from artproject.adapters._common import start

    return [c.name for c in start("art-of-war", {}).game.rules.cards]


def _face_down_hidden(game: object) -> bool:
    """Whether a card lies face down on the table, not yet revealed."""
    f = game.fight  # type: ignore[attr-defined]
    return f is not None and not f.revealed and any(k >= 0 for k in f.card)


def _events(text: object) -> str:
    """A text render's events (its last line; the line before lists the seat's own
    legal actions, its own cards among them)."""
    assert isinstance(text, str)
    return text.split("\nhistory: ", 1)[1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_text_render_never_names_a_card_laid_face_down(players: int) -> None:
    """The text render ("ansi", and "human" prints the same) showed the history verbatim,
    so "play p1 heroine" while p2 had to answer it, though the picture and the
    observation strings hide it. Its events are the public ones now: a card laid face
    down is told as laid ("play p1") and named once it is shown ("p1 shows heroine"). Over
    seeded random games through PettingZoo and Gymnasium, no render's events name a card
    laid."""
    import re

    import gymnasium

    import artproject.adapters.gymnasium  # noqa: F401 (registers the environments)
    from artproject.adapters.pettingzoo import raw_env

    laid = re.compile(r"\bplay p\d (" + "|".join(map(re.escape, _card_names())) + r")\b")
    hidden = shown = 0
    for seed in range(8):
        e = raw_env(game="art-of-war", players=players, render_mode="ansi")
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in e.agent_iter(400):
            obs, _, done, cut, _ = e.last()
            text = _events(e.render())
            assert not laid.search(text), text
            hidden += _face_down_hidden(e.seated.game) and re.search(r"play p\d\b", text) \
                is not None
            shown += " shows " in text
            e.step(None if done or cut else int(rng.choice(np.flatnonzero(
                obs["action_mask"]))))
        g = gymnasium.make(gym_id("art-of-war"), players=players, others="random",
                           render_mode="ansi").unwrapped
        obs, _ = g.reset(seed=seed)
        for _ in range(200):
            text = _events(g.render())
            assert not laid.search(text), text
            obs, _, done, cut, _ = g.step(int(rng.choice(np.flatnonzero(
                obs["action_mask"]))))
            if done or cut:
                break
    assert hidden > 10 and shown > 10  # (the moments the test is about, met)


@pytest.mark.parametrize(("game", "options"), [
    ("art-of-war", {"players": 3}), ("art-project", {"players": 2, "seats": "players"})])
def test_the_text_render_is_the_same_for_states_a_seat_cannot_tell_apart(
        game: str, options: dict[str, object]) -> None:
    """The text render for a seat (its own legal actions, the public events) is the same
    in every determinization of the seat's (what it cannot see drawn anew: another's
    hand, a card laid face down), one mechanism for every game: the game's own public
    events. The picture ("rgb_array") is as it was: the game's own drawing."""
    from artproject.adapters._common import start
    from artproject.adapters._render import picture, rendered

    differed = 0
    for seed in range(4):
        s = start(game, options, seed=seed, chance="sample")
        rng = np.random.default_rng(seed)
        for _ in range(120):
            if s.is_terminal():
                break
            seat = s.current()
            text = rendered(s, "ansi", seat)
            for k in range(2):
                other = s.resample(seat, seed * 100 + k)
                assert rendered(other, "ansi", seat) == text
                differed += other.observation_string(PUBLIC_SEAT) == s.observation_string(
                    PUBLIC_SEAT) and str(other.game.history) != str(s.game.history)
            s.apply(int(rng.choice(s.legal(seat))))
    if game == "art-of-war":
        assert differed > 0  # (hidden cards that the old text showed: met)
        frame = rendered(s, "rgb_array", 0)
        assert isinstance(frame, np.ndarray)
        assert frame.tobytes() == picture(s.game).tobytes()


PUBLIC_SEAT = -2  # core/actions.py PUBLIC: the public observer's view


# ============================================== docs/ai.md's ISMCTS example repeats
def test_the_docs_ismcts_example_repeats_a_seeded_run(capsys: pytest.CaptureFixture[str],
                                                     ) -> None:
    """docs/ai.md's ISMCTSBot example gave another game each run, its RandomState seeded:
    OpenSpiel's bot asks `resample_from_infostate` without a sampler, so each
    determinization was drawn from an unseeded one. With the seeded generator handed to
    it (`set_resampler`), two runs play the same game."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "ai.md").read_text(
        encoding="utf-8")
    code = next(c for c in re.findall(r"^```python\n(.*?)^```$", text, re.S | re.M)
                if "ISMCTSBot" in c)
    assert "set_resampler" in code
    runs = []
    for _ in range(2):
        exec(compile(code, "docs/ai.md", "exec"), {})
        runs.append(capsys.readouterr().out)
    assert runs[0] == runs[1] and runs[0].strip()
