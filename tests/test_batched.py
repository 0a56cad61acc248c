"""The batched Art of War environment (artproject/adapters/batched.py): every row is the
single-game adapters' view of its game (observation, mask, seat), rewards and ends are the
game's, ended games reset at once with the next seed, and a bad id changes nothing."""

from __future__ import annotations

import numpy as np
import pytest

from artproject.adapters._common import mask, start, tensor
from artproject.adapters.batched import BatchedWar
from artproject.core.errors import GameError, IllegalActionError


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
    assert [g.fingerprint() for g in env.games] == before
    obs2, _, _, _, _ = env.step(actions)
    assert obs2.shape == obs.shape == (4, env.obs_size)


def test_reset_with_a_seed_deals_the_same_games() -> None:
    a, b = BatchedWar(3, players=4, seed=5), BatchedWar(3, players=4, seed=0)
    oa, ma, sa = a.reset()
    ob, mb, sb = b.reset(seed=5)
    assert np.array_equal(oa, ob) and np.array_equal(ma, mb) and np.array_equal(sa, sb)
    with pytest.raises(GameError):
        BatchedWar(0)


def test_the_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/ai.md's batched example (its `py` block) runs and prints what it says."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "ai.md").read_text()
    (code,) = re.findall(r"^```py\n(.*?)^```$", text, re.S | re.M)
    exec(compile(code, "docs/ai.md", "exec"), {})
    assert capsys.readouterr().out.strip() == "(256, 195) (256, 362) True"


@pytest.mark.parametrize("players", [2, 4, 7])
def test_every_row_is_the_layouts_own_tensor_byte_for_byte(players: int) -> None:
    """The rows written a field at a time for the whole batch (`_Plan`) are the layout's
    own tensor from scratch (plus the seat's one-hot), byte for byte, at every step of many
    games: challenges of every kind, Wise Men added, deaths, piles that change and do not."""
    env = BatchedWar(24, players=players, seed=7 * players)
    assert env._plan is not None
    obs, masks, seats = env.reset()
    rng = np.random.default_rng(players)
    seen_fight = seen_added = 0
    for _ in range(150):
        for i, g in enumerate(env.games):
            want = np.asarray(env._slow_row(g, int(seats[i])), dtype=np.float32)
            assert obs[i].tobytes() == want.tobytes(), (i, g.wait)
            legal = sorted(env._ids[a] for a in g.legal_actions())
            assert np.flatnonzero(masks[i]).tolist() == legal
            seen_fight += g.fight is not None
            seen_added += g.fight is not None and any(g.fight.added)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, masks, seats, _, _ = env.step(actions)
    assert seen_fight > 100 and seen_added > 0


def test_a_layout_it_does_not_know_is_written_by_the_layout_itself() -> None:
    """Without a plan (a layout other than the one `_Plan` knows) the rows come from the
    layout's writers: the same arrays."""
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
