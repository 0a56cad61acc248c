"""The game-AI adapters' speed beside PettingZoo's classic `leduc_holdem`, in the same run:
agent steps a second with a random agent (a uniform choice among the legal ids, from the
action mask), each environment read through its public constructor.

    python bench/ai.py [--steps N] [--rounds R] [--batch 256] [--art-batch 64]
                       [--clock cpu|wall]

Rows: PettingZoo's `leduc_holdem_v4` (rlcard's engine under PettingZoo's AEC loop: the
peer), wrapped (`env()`) and raw (`raw_env()`); this project's PettingZoo environment for
Art of War (2 players) and The A.R.T. Project (Japan, 2 players), the same two ways;
OpenSpiel's `python_art_of_war` (its state stepped directly); the batched environment
(`artproject.adapters.batched.Batched`, numpy arrays in and out, auto-reset) for each game
(`--batch` games of Art of War a call, `--art-batch` of The A.R.T. Project), once with its
random agent (numpy, a batch at a time) and once counting only the time inside `step`; and
the engine itself (`legal_actions` + `apply`, the random choice in Python): each game one
game at a time and as many games in turn as its batch (the batched environment's own engine
work, its ceiling).
Rounds are interleaved, so the machine's drift hits every row alike: medians (and ranges)
over the rounds, each median as a ratio to leduc_holdem's through the same API in the same
rounds, and an adapter's as the engine's steps a second over its own (the adapters' "within
5x of the engine", issue 26). The peer needs `pip install -e '.[bench]'` (rlcard and pygame
for leduc_holdem); without them the other rows run alone, the engine's ratios still printed,
and a line on standard error says what is missing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

Clock = Callable[[], float]
clock: Clock = time.process_time


def pettingzoo_loop(make: Callable[[], Any], steps: int, seed: int) -> float:
    """Agent steps a second of a PettingZoo AEC environment under a random agent (episodes
    reset as they end; a finished agent's `step(None)` is not counted)."""
    rng = np.random.default_rng(seed)
    e = make()
    done = 0
    episode = seed
    t0 = clock()
    while done < steps:
        e.reset(seed=episode)
        episode += 1
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
            done += 1
            del agent
    return done / (clock() - t0)


def openspiel_loop(steps: int, seed: int) -> float:
    """Decisions a second of OpenSpiel's `python_art_of_war` (chance sampled, not counted)."""
    import pyspiel

    import artproject.adapters.openspiel  # noqa: F401 (registers the games)

    game = pyspiel.load_game("python_art_of_war", {"players": 2})
    rng = random.Random(seed)
    done = 0
    t0 = clock()
    while done < steps:
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                ids, probs = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(rng.choices(ids, probs)[0])
                continue
            legal = st.legal_actions()
            st.apply_action(legal[rng.randrange(len(legal))])
            done += 1
    return done / (clock() - t0)


def engine_loop(steps: int, seed: int, game: str = "art-of-war", **options: Any) -> float:
    """Decisions a second of the engine itself (2 players), one game at a time."""
    from artproject.core.games import new_game

    rng = random.Random(seed)
    done, i = 0, 0
    t0 = clock()
    while done < steps:
        g = new_game(game, players=2, seed=seed + i, **options)
        i += 1
        while g.outcome is None:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
            done += 1
    return done / (clock() - t0)


def engine_batch_loop(n: int, steps: int, seed: int, game: str = "art-of-war",
                      **options: Any) -> float:
    """Decisions a second of the engine stepping `n` games (2 players) in turn, a new game
    where one ends: the batched environment's own engine work, without its arrays."""
    from artproject.core.games import new_game

    rng = random.Random(seed)
    games = [new_game(game, players=2, seed=seed + i, **options) for i in range(n)]
    done, deal = 0, seed + n
    t0 = clock()
    while done < steps:
        for i, g in enumerate(games):
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
            if g.outcome is not None:
                games[i] = new_game(game, players=2, seed=deal, **options)
                deal += 1
        done += n
    return done / (clock() - t0)


def batched_loop(n: int, steps: int, seed: int, game: str = "art-of-war",
                 **options: Any) -> tuple[float, float]:
    """Agent steps a second of the batched environment (2 players): with its random agent
    (a uniform legal id a game, drawn in numpy for the whole batch), and inside `step`
    alone."""
    from artproject.adapters.batched import Batched

    env = Batched(n, game=game, players=2, seed=seed, **options)
    _, mask, _ = env.reset()
    rng = np.random.default_rng(seed)
    calls = max(1, steps // n)
    inside = 0.0
    t0 = clock()
    for _ in range(calls):
        rows, cols = np.nonzero(mask)  # each game's legal ids, in order, game after game
        counts = np.bincount(rows, minlength=n)
        pick = np.cumsum(counts) - counts + (rng.random(n) * counts).astype(np.int64)
        actions = cols[pick]
        t1 = clock()
        _, mask, _, _, _ = env.step(actions)
        inside += clock() - t1
    total = clock() - t0
    return calls * n / total, calls * n / inside


def _spread(xs: list[float]) -> str:
    return f"{statistics.median(xs):,.0f} ({min(xs):,.0f}-{max(xs):,.0f})"


def main() -> None:
    global clock
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20_000, help="agent steps a row a round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch", type=int, default=256, help="games in the batched environment")
    ap.add_argument("--art-batch", type=int, default=64,
                    help="games in The A.R.T. Project's batched environment (its fastest "
                         "by the clock: 32-64, docs/ai.md)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = ap.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    leduc = _leduc()
    from artproject.adapters.pettingzoo import env, raw_env

    aow: dict[str, Any] = {"game": "art-of-war", "players": 2}
    art: dict[str, Any] = {"mission": "japan", "players": 2}
    steps, batch, art_batch = args.steps, args.batch, args.art_batch
    # the engine's rows, named: each adapter's row names the one it is measured against
    e_aow = "engine, Art of War, 2 players, one game at a time (no adapter)"
    e_batch = f"engine, Art of War, 2 players, {batch} games in turn (no adapter)"
    e_art = "engine, The A.R.T. Project, Japan, 2 players (no adapter)"
    e_art_batch = (f"engine, The A.R.T. Project, Japan, 2 players, {art_batch} games in turn "
                   "(no adapter)")
    runs: list[tuple[str, str, str | None, Callable[[int], Any]]] = [
        # (row, its peer row: the same API; its engine row, or None)
        ("PettingZoo leduc_holdem_v4 env() (the peer)", "", None,
         lambda r: pettingzoo_loop(leduc.env, steps, r)),
        ("PettingZoo leduc_holdem_v4 raw_env() (the peer)", "", None,
         lambda r: pettingzoo_loop(leduc.raw_env, steps, r)),
        ("PettingZoo env(), Art of War, 2 players", "env", e_aow,
         lambda r: pettingzoo_loop(lambda: env(**aow), steps, r)),
        ("PettingZoo raw_env(), Art of War, 2 players", "raw", e_aow,
         lambda r: pettingzoo_loop(lambda: raw_env(**aow), steps, r)),
        ("PettingZoo env(), The A.R.T. Project, Japan, 2 players", "env", e_art,
         lambda r: pettingzoo_loop(lambda: env(**art), steps, r)),
        ("PettingZoo raw_env(), The A.R.T. Project, Japan, 2 players", "raw", e_art,
         lambda r: pettingzoo_loop(lambda: raw_env(**art), steps, r)),
        ("OpenSpiel python_art_of_war, 2 players", "env", e_aow,
         lambda r: openspiel_loop(steps, r)),
        (f"batched Art of War, {batch} games a call, 2 players", "env", e_batch,
         lambda r: batched_loop(batch, steps * 4, r)),
        (f"batched The A.R.T. Project, Japan, {art_batch} games a call, 2 players", "env",
         e_art_batch, lambda r: batched_loop(art_batch, steps * 2, r, "art-project",
                                             mission="japan")),
        (e_aow, "env", None, lambda r: engine_loop(steps * 2, r)),
        (e_batch, "env", None, lambda r: engine_batch_loop(batch, steps * 4, r)),
        (e_art, "env", None,
         lambda r: engine_loop(steps * 2, r, "art-project", mission="japan")),
        (e_art_batch, "env", None, lambda r: engine_batch_loop(art_batch, steps * 2, r,
                                                               "art-project",
                                                               mission="japan")),
    ]
    peers = {"env": runs[0][0], "raw": runs[1][0]} if leduc is not None else {}
    if leduc is None:  # (no peer: its two rows left out)
        runs = runs[2:]
    for *_, run in runs:  # warm up: rules, layouts, spaces
        run(1000)
    rows: dict[str, list[float]] = {}
    of: dict[str, tuple[str, str | None]] = {}
    for r in range(args.rounds):
        for name, peer, engine, run in runs:
            out = run(r)
            if isinstance(out, tuple):
                rows.setdefault(name, []).append(out[0])
                rows.setdefault(name + ": inside step", []).append(out[1])
                of[name + ": inside step"] = (peer, engine)
            else:
                rows.setdefault(name, []).append(out)
            of[name] = (peer, engine)
    print(f"agent steps a second, random agents, median (range) of {args.rounds} interleaved "
          f"rounds ({clock.__name__}); the median ratio to leduc_holdem's through the same "
          "API (env() or raw_env()) in the same rounds; an adapter's cost a step over its "
          "engine's (the engine's steps a second over its own):")
    print("| environment | steps a second | x leduc_holdem | engine / it |")
    print("| --- | --- | --- | --- |")
    for name, xs in rows.items():
        peer, engine = of[name]
        ratio = "-"  # (no peer in this run)
        if peers:
            base = rows[peers[peer or "env"]]
            ratio = f"{statistics.median(x / p for x, p in zip(xs, base, strict=True)):.2f}"
        cost = ""
        if engine is not None:
            pairs = zip(xs, rows[engine], strict=True)
            cost = f"{statistics.median(e / x for x, e in pairs):.1f}x"
        print(f"| {name} | {_spread(xs)} | {ratio} | {cost} |")


def _leduc() -> Any:
    """PettingZoo's `leduc_holdem_v4` module, or None (said on standard error) where its
    libraries are not installed."""
    try:
        from pettingzoo.classic import leduc_holdem_v4
    except ImportError as e:  # (rlcard, pygame: the bench extra)
        print(f"bench/ai.py: the peer, PettingZoo's leduc_holdem, is left out: {e} (install "
              "it with pip install -e '.[bench]')", file=sys.stderr)
        return None
    return leduc_holdem_v4


if __name__ == "__main__":
    main()
