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
