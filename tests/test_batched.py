"""The batched environment (artproject/adapters/batched.py): every row is the single-game
adapters' view of its game (observation, mask, seat), rewards and ends are the game's, ended
games reset at once with the next seed, and a bad id changes nothing; Art of War's rows
written by its own writer (core/aow/batched.py), any other game's from its own tensor."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from artproject.adapters._common import mask, start, tensor
from artproject.adapters.batched import Batched, BatchedWar
from artproject.core.errors import GameError, IllegalActionError
from artproject.core.seats import PLAYER_SEATS, Seated


def _single(players: int, seed: int) -> object:
    return start("art-of-war", {"players": players}, seed=seed, chance="sample")


@pytest.mark.parametrize("players", [2, 3, 5])
def test_rows_are_the_single_games_views_through_resets(players: int) -> None:
    n, seed = 6, 40
    env = BatchedWar(n, players=players, seed=seed)
    obs, masks, seats = env.reset()
    singles = [_single(players, seed + i) for i in range(n)]
    next_seed = [seed + i + n for i in range(n)]
    rng = np.random.default_rng(players)
    ended = 0
    for _ in range(120):
        for i, s in enumerate(singles):
            seat = s.current()
            assert seats[i] == seat
            assert np.array_equal(obs[i], tensor(s, seat)), i
            assert np.array_equal(masks[i], mask(s, seat)), i
            assert sorted(np.flatnonzero(masks[i]).tolist()) == s.legal(seat)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, masks, seats, rewards, dones = env.step(actions)
        for i, s in enumerate(singles):
            s.apply(int(actions[i]))
            if s.is_terminal():
                assert dones[i]
                assert rewards[i].tolist() == s.returns()
                assert env.last_returns[i].tolist() == s.returns()
                singles[i] = _single(players, next_seed[i])
                next_seed[i] += n
                ended += 1
            else:
                assert not dones[i] and not rewards[i].any()
    assert ended >= 3 and env.episodes == ended


def test_a_bad_id_is_refused_and_changes_nothing() -> None:
    env = BatchedWar(4, players=2, seed=1)
    obs, masks, _ = env.reset()
    before = [g.fingerprint() for g in env.games]
    actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    bad = actions.copy()
    bad[2] = int(np.flatnonzero(masks[2] == 0)[0])
    with pytest.raises(IllegalActionError, match="game 2"):
        env.step(bad)
    bad[2] = env.num_actions
    with pytest.raises(IllegalActionError, match="game 2"):
        env.step(bad)
    with pytest.raises(GameError, match="one action a game"):
        env.step(actions[:3])
    with pytest.raises(GameError, match=r"shape \(4,\), not \(2, 2\)"):  # (4 ids, but
        env.step(actions.reshape(2, 2))  # not one a game: never read as if they were)
    with pytest.raises(IllegalActionError, match="whole numbers"):
        env.step(actions + 0.5)
    assert [g.fingerprint() for g in env.games] == before
    obs2, _, _, _, _ = env.step(actions.reshape(4, 1))  # (a column, as a policy gives it)
    assert obs2.shape == obs.shape == (4, env.obs_size)


@pytest.mark.parametrize("game", ["art-of-war", "art-project"])
def test_a_step_before_the_first_reset_says_so(game: str) -> None:
    with pytest.raises(GameError, match=r"call reset\(\)"):
        Batched(2, game=game).step([0, 0])


def test_reset_with_a_seed_deals_the_same_games() -> None:
    a, b = BatchedWar(3, players=4, seed=5), BatchedWar(3, players=4, seed=0)
    oa, ma, sa = a.reset()
    ob, mb, sb = b.reset(seed=5)
    assert np.array_equal(oa, ob) and np.array_equal(ma, mb) and np.array_equal(sa, sb)
    with pytest.raises(GameError):
        BatchedWar(0)


def test_the_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/ai.md's batched example (its `py` block: Art of War's and The A.R.T. Project's)
    runs and prints what it says."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "ai.md").read_text()
    (code,) = re.findall(r"^```py\n(.*?)^```$", text, re.S | re.M)
    exec(compile(code, "docs/ai.md", "exec"), {})
    assert capsys.readouterr().out.split("\n")[:2] == ["(256, 195) (256, 362) True",
                                                       "(64, 505) (64, 559) True"]


@pytest.mark.parametrize("players", [2, 4, 7])
def test_every_row_is_the_layouts_own_tensor_byte_for_byte(players: int) -> None:
    """The rows written a field at a time for the whole batch (Art of War's writer) are the
    layout's
    own tensor from scratch (plus the seat's one-hot), byte for byte, at every step of many
    games: challenges of every kind, Wise Men added, deaths, piles that change and do not."""
    env = BatchedWar(24, players=players, seed=7 * players)
    assert env._plan is not None
    obs, masks, seats = env.reset()
    rng = np.random.default_rng(players)
    seen_fight = seen_added = 0
    for _ in range(150):
        for i, g in enumerate(env.games):
            want = np.asarray(Seated(g, PLAYER_SEATS).tensor(int(seats[i]), "observation",
                                                             raw=True), dtype=np.float32)
            assert obs[i].tobytes() == want.tobytes(), (i, g.wait)
            legal = sorted(env._ids[a] for a in g.legal_actions())
            assert np.flatnonzero(masks[i]).tolist() == legal
            seen_fight += g.fight is not None
            seen_added += g.fight is not None and any(g.fight.added)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, masks, seats, _, _ = env.step(actions)
    assert seen_fight > 100 and seen_added > 0


def test_a_layout_it_does_not_know_is_written_by_the_layout_itself() -> None:
    """Without a writer (a layout other than the one Art of War's knows) the rows come from
    each game's own tensor: the same arrays."""
    fast, slow = BatchedWar(5, players=3, seed=2), BatchedWar(5, players=3, seed=2)
    slow._plan = None
    a, b = fast.reset(), slow.reset()
    rng = np.random.default_rng(0)
    for _ in range(60):
        for x, y in zip(a, b, strict=True):
            assert x.tobytes() == y.tobytes()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in a[1]])
        a, b = fast.step(actions), slow.step(actions)


def test_actions_not_interned_are_found_by_their_value() -> None:
    """The mask finds each legal action's id by the action object's identity (the tables
    intern them); an action that is another object (equal, not the same) is found by its
    value: the same masks."""
    fast, plain = BatchedWar(6, players=3, seed=4), BatchedWar(6, players=3, seed=4)
    assert plain._plan is not None
    plain._plan._objects = plain._plan._objects + 1  # (no object found by identity)
    a, b = fast.reset(), plain.reset()
    rng = np.random.default_rng(1)
    for _ in range(40):
        assert a[1].tobytes() == b[1].tobytes()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in a[1]])
        a, b = fast.step(actions), plain.step(actions)


def _stepped(env: Batched, singles: list[Seated], make: object, rounds: int,
             seed: int, taken: list[int] | None = None) -> int:
    """Step the batch and the single games side by side (a random legal id each), checking
    every row, mask, seat, reward and end; the games ended (`taken`: the ids taken).
    reward="shaped": each step pays the change in the seats' shaped scores since the last
    (from 0 at a game's start), and a game's rewards sum to its returns."""
    obs, masks, seats = env.reset()
    n, rng, ended = len(singles), np.random.default_rng(seed), 0
    next_seed = [env.seed + i + n for i in range(n)]
    shaped = env.reward == "shaped"
    paid = [[0.0] * env.num_seats for _ in range(n)]
    total = np.zeros((n, env.num_seats))
    for _ in range(rounds):
        for i, s in enumerate(singles):
            seat = s.current()
            assert seats[i] == seat
            assert obs[i].tobytes() == tensor(s, seat).tobytes(), i
            assert np.array_equal(masks[i], mask(s, seat)), i
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, masks, seats, rewards, dones = env.step(actions)
        if taken is not None:
            taken.extend(actions.tolist())
        total += rewards
        for i, s in enumerate(singles):
            s.apply(int(actions[i]))
            assert bool(dones[i]) == s.is_terminal()
            if shaped:
                now = s.shaped()
                want = [a - b for a, b in zip(now, paid[i], strict=True)]
                paid[i] = [0.0] * env.num_seats if s.is_terminal() else now
            else:
                want = s.returns() if s.is_terminal() else [0.0] * len(rewards[i])
            assert rewards[i].tolist() == np.float32(want).tolist(), (i, want)
            if s.is_terminal():
                assert env.last_returns[i].tolist() == s.returns()
                assert np.allclose(total[i], s.returns(), atol=1e-5), (total[i], s.returns())
                total[i] = 0.0
                singles[i] = make(next_seed[i])  # type: ignore[operator]
                next_seed[i] += n
                ended += 1
    assert env.episodes == ended
    return ended


@pytest.mark.parametrize(("game", "options", "seats"), [
    ("kuhn", {"players": 2}, "players"), ("art-project", {"mission": "japan"}, "players"),
    ("art-project", {"mission": "usa", "players": 3}, "players"),
    ("art-project", {"mission": "japan", "players": 3}, "team")])
def test_a_game_without_a_writer_is_batched_from_its_own_tensors(
        game: str, options: dict[str, object], seats: str) -> None:
    """A game whose tools give no batch writer: each row is the game's own tensor (the
    single-game adapters' view with that seating, written from scratch here; the batch's
    incrementally, in each game's own buffer), through ends, resets and delegations."""
    env = Batched(5, game=game, seed=3, seats=seats, **options)
    assert env._plan is None and env.game == game

    def make(seed: int) -> Seated:
        return start(game, {**options, "seats": seats}, seed=seed, chance="sample")

    taken: list[int] = []
    ended = _stepped(env, [make(3 + i) for i in range(5)], make, 100, 0, taken)
    assert ended >= 5
    assert env.last_returns.shape == (5, 1 if seats == "team" else env.players)
    if game == "art-project":  # (a joint decision delegated to a player: its own id)
        size = env._seated[0].space.size
        assert (max(taken) >= size) == (seats == "players") and env.num_actions == (
            size + env.players if seats == "players" else size)


@pytest.mark.parametrize(("game", "options", "seats"), [
    ("art-of-war", {"players": 3}, "players"), ("art-of-war", {"variants": "duel"}, "players"),
    ("art-project", {"mission": "japan", "variants": "no-ally-dice"}, "players"),
    ("art-project", {"mission": "usa", "players": 3}, "team"), ("kuhn", {}, "players")])
def test_the_adapters_parameters_variants_and_a_shaped_reward(
        game: str, options: dict[str, object], seats: str) -> None:
    """`variants` and `reward` are the adapters' parameters, as every adapter takes them
    (docs/ai.md): variants joined by `+` (not read letter by letter), and reward="shaped"
    pays every seat the change in its shaped score each step, its rewards summing to
    the game's returns; the same rows, rewards and ends as single games made by the
    adapters' `start` from the same parameters."""
    env = Batched(4, game=game, seed=11, seats=seats, reward="shaped", **options)
    assert env.reward == "shaped"

    def make(seed: int) -> Seated:
        return start(game, {**options, "seats": seats}, seed=seed, chance="sample")

    assert _stepped(env, [make(11 + i) for i in range(4)], make, 60, 1) >= 4
    if "variants" in options:
        named = tuple(str(options["variants"]).split("+"))
        assert env.games[0].rules.variants == make(0).game.rules.variants == named
    plain = Batched(4, game=game, seed=11, seats=seats, reward="terminal", **options)
    _stepped(plain, [make(11 + i) for i in range(4)], make, 30, 1)


def test_bad_arguments_are_the_projects_errors_naming_them() -> None:
    """n, a seed (as `new_game` checks it: a whole number of 64 bits; numpy's integers
    taken), the adapters' parameters and the game's options: a wrong one is the project's
    error naming it (GameError, an unknown variant's too), never a TypeError or
    OverflowError from inside, and `reset` with a wrong seed changes nothing."""
    for bad, message in [({"n": 2.0}, "n .* must be a whole number, not float"),
                         ({"n": 0}, "n .* must be from 1 to"), ({"n": True}, "whole number"),
                         ({"seed": "x"}, "seed must be a whole number, not str"),
                         ({"seed": 1.0}, "seed must be a whole number, not float"),
                         ({"seed": 2**64}, "seed must be from"),
                         ({"seed": -(2**63) - 1}, "seed must be from"),
                         ({"reward": "dense"}, "parameter 'reward' must be one of"),
                         ({"variants": ["duel"]}, "parameter 'variants' must be text"),
                         ({"variants": "dule"}, "unknown variant 'dule'"),
                         ({"players": "2"}, "parameter 'players' must be a whole number"),
                         ({"colour": 1}, "unknown parameter 'colour'"),
                         ({"game": 5}, "game must be .*text"),
                         ({"game": "chess"}, "unknown game 'chess'")]:
        with pytest.raises(GameError, match=message):
            BatchedWar(**{"n": 2, **bad})  # type: ignore[arg-type]
    env = BatchedWar(2, seed=np.int64(5))
    assert env.seed == 5 and type(env.seed) is int
    first = env.reset()
    assert all(a.tobytes() == b.tobytes() for a, b in zip(
        first, BatchedWar(2, seed=5).reset(), strict=True))
    for bad_seed in ("5", 5.0, 2**64, None.__class__):
        with pytest.raises(GameError, match="seed must be"):
            env.reset(seed=bad_seed)  # type: ignore[arg-type]
    assert env.seed == 5
    again = env.reset(seed=np.uint64(5))
    assert all(a.tobytes() == b.tobytes() for a, b in zip(first, again, strict=True))


def test_a_seed_near_the_top_wraps_round_and_every_game_saves_and_loads() -> None:
    """Game i's seeds `seed + i + k * n` past 2**64 - 1 wrap round to 0 (minus 2**64): the
    same generator (its state is the seed's low 64 bits), every game within what a save
    holds, so each one's save loads back."""
    import artproject as A
    from artproject.core.generator import rng_state

    assert rng_state(2**64 + 5) == rng_state(5)
    top = 2**64 - 1
    env = BatchedWar(3, players=2, seed=top - 1)
    obs, masks, _ = env.reset()
    assert [g.seed for g in env.games] == [top - 1, top, 0]
    assert env.next_seed == [1, 2, 3]
    low = BatchedWar(1, players=2, seed=0)
    assert obs[2].tobytes() == low.reset()[0][0].tobytes()
    rng = np.random.default_rng(0)
    while env.episodes < 6:
        _, masks, _, _, _ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    for g in env.games:
        assert 0 <= g.seed <= top
        assert A.loads(A.dumps(g)).fingerprint() == g.fingerprint()


def test_a_seating_the_game_does_not_offer_is_refused() -> None:
    """Art of War has a seat a player only: the team seating is refused, saying which."""
    with pytest.raises(GameError, match="seats must be one of players for the art-of-war"):
        Batched(4, game="art-of-war", seats="team")


def test_the_arrays_handed_out_are_the_callers() -> None:
    """The observations and masks `step` returns are new, writable arrays: a learner that
    writes over them changes neither the games nor what `step` accepts (the masks it
    checks ids by are its own)."""
    env = Batched(4, game="art-project", seed=1, mission="japan")
    obs, masks, _ = env.reset()
    again = masks.copy()
    rng = np.random.default_rng(0)
    for _ in range(30):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in again])
        assert obs.flags.writeable and masks.flags.writeable
        obs[:], masks[:] = 7.0, 0  # (the caller's own)
        obs, masks, _, _, _ = env.step(actions)
        again = masks.copy()
    bad = np.array([int(np.flatnonzero(m == 0)[0]) for m in again])
    with pytest.raises(IllegalActionError, match="game 0"):
        env.step(bad)


def test_a_games_batched_environment_is_found_by_the_name_its_tools_give() -> None:
    """`BatchedWar` is `Batched` with Art of War (its tools' BATCHED_ENV): the same rows;
    a name no game gives is an AttributeError."""
    import pickle

    import artproject.adapters.batched as batched

    assert BatchedWar.GAME == "art-of-war" and issubclass(BatchedWar, Batched)
    a, b = BatchedWar(3, players=3, seed=2), Batched(3, game="art-of-war", players=3, seed=2)
    assert all(x.tobytes() == y.tobytes() for x, y in zip(a.reset(), b.reset(), strict=True))
    assert pickle.loads(pickle.dumps(BatchedWar)) is BatchedWar
    with pytest.raises(AttributeError, match="BatchedChess"):
        batched.BatchedChess  # noqa: B018


def test_the_rules_loaded_once_go_to_the_option_that_names_the_rules() -> None:
    """New games reuse the rules the probe loaded, under the game's `RULES_OPTION` (not its
    first option, whichever that is); a game that names no such option gets its options as
    given; every shipped game names one, and it is one of its options."""
    from artproject.adapters.batched import _reused
    from artproject.core.games import game_class, game_names

    probe = SimpleNamespace(rules="LOADED")
    late = SimpleNamespace(OPTIONS={"players": 2, "rules": "x"}, RULES_OPTION="rules")
    assert _reused(late, probe, {"players": 3, "variants": "v"}) == {"players": 3,
                                                                     "rules": "LOADED"}
    none = SimpleNamespace(OPTIONS={"players": 2}, RULES_OPTION=None)
    assert _reused(none, probe, {"players": 3}) == {"players": 3}
    for name in game_names():
        cls = game_class(name)
        assert cls.RULES_OPTION in cls.OPTIONS, name


def test_none_means_the_default_and_only_the_adapters_parameters_pass() -> None:
    """`variants=None` and `reward=None` are the defaults; any other name than the
    adapters' parameters (`log`, which the game's `create` takes) is a GameError naming
    it, as the other adapters refuse it (tests/test_adapters_review.py)."""
    for kw in ({"variants": None}, {"reward": None}):
        env = Batched(2, **kw)
        obs, mask, _ = env.reset()
        assert obs.shape[0] == 2 and mask.any()
    for name in ("bogus", "log"):
        with pytest.raises(GameError, match=f"unknown parameter '{name}'"):
            Batched(2, **{name: 1})
