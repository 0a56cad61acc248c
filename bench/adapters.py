"""The adapters' speed beside the engine's own, in the same rounds: random play through
PettingZoo (raw and wrapped), Gymnasium and OpenSpiel against the engine's `legal_actions()`
+ `apply()` loop, both games.

    python bench/adapters.py [--steps N] [--rounds R] [--game art-project|art-of-war]
                             [--profile] [--parts] [--floors] [--full] [--replayed]
                             [--digest]

Each figure is agent steps a second of CPU time (one core): a step is one decision taken
through the library, the observation and mask read as a learner reads them (PettingZoo:
`last()` then `step()`; Gymnasium: `step()` returning the observation; OpenSpiel: the acting
seat's observation tensor, then `apply_action`); the engine's own loop takes a random legal
action and applies it, new games included. The adapters' loops are a learner's: seeded at
their first reset, then `reset()` (Gymnasium's `Env.reset`: "called with a seed right after
initialization and then never again" in the typical use). The rounds interleave the
contenders, so the machine's drift hits all alike, each with the cyclic garbage collector
off while it runs (as timeit has it); the ratio is the median of each round's (the engine's
rate in that round over the adapter's), with their range: a row of replayed games against the
engine replaying the same games, any other against the engine's own random loop.
`--profile` runs cProfile over PettingZoo's. `--parts` adds PettingZoo's `raw_env` loop
with parts of its step taken out (the tensor: a zero array handed out instead; then the
shaped score in `infos` as well), to show what the rest of a step costs against the
engine's, and PettingZoo's and Gymnasium's loops reseeded at every game (`reset(seed=n)`:
numpy's seeding each time, a learner's evaluation loop). `--floors`
adds the libraries' own floor: a null game of the same shape (bench/floors.py: as many
action ids, as long a tensor, as many legal ids and decisions a game) whose answers are all
made in advance, through the same PettingZoo and OpenSpiel loops, so a ratio reads as the
engine + the floor + the adapter's own work. Gymnasium's step plays the other seats'
decisions too: "gymnasium, a decision" counts every decision its games took, the figure to
set beside the engine's, whose steps are decisions. `--full` adds full-length games: the
heuristic's games (every seat the heuristic, 60 games recorded through `raw_env` once),
replayed by the engine (set-up included), through `raw_env` with the observation and mask
read at each step, and through Gymnasium (seat 0 the learner's, the other seats answered
from the recording); all count the game's decisions (random games of The A.R.T. Project last
12 decisions, so a reset weighs on every step; the heuristic's last over a hundred).
`--replayed` adds the random loop's own games, recorded once (as many decisions as a round
takes), replayed by the engine (set-up included) and through `raw_env` (`last()` and
`step()`): the adapter's work at random with no learner's draw from the mask on its side
(the engine's replay has no draw either), the learner's loop's games.
`--digest` prints instead a digest of all that the adapters hand out in seeded random play
(every observation, mask, reward, info, termination and truncation through PettingZoo's
`raw_env` and `env`, its `state()`, Gymnasium's steps against random and heuristic seats,
OpenSpiel's chance outcomes, tensors, legal ids and returns; both games, both seatings,
both rewards): the speed work's guard, the same before and after a change that hands out
the same.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

GAMES: dict[str, dict[str, Any]] = {
    "art-project": {"players": 2, "seats": "players"},
    "art-of-war": {"players": 2},
}


def native(game: str, steps: int) -> int:
    """The engine alone: random legal actions, a new game at each end."""
    from artproject.core.games import game_class

    cls, rng, n, seed = game_class(game), random.Random(0), 0, 0
    options = {k: v for k, v in GAMES[game].items() if k != "seats"}
    while n < steps:
        g = cls.create(seed=seed, **options)
        seed += 1
        while g.outcome is None and n < steps:
            g.apply(rng.choice(g.legal_actions()))
            n += 1
    return n


def pettingzoo(game: str, steps: int, wrapped: bool = False, reseed: bool = False) -> int:
    """PettingZoo's AEC loop, a random legal id each step (`env()` or `raw_env()`)."""
    from artproject.adapters.pettingzoo import env, raw_env

    return aec_loop((env if wrapped else raw_env)(game=game, **GAMES[game]), steps, reseed)


def aec_loop(e: Any, steps: int, reseed: bool = False) -> int:
    """The AEC loop (`last()`, a random id from the mask, `step()`) over `e`: the steps. A
    learner's: seeded at its first reset, then `reset()` (`reseed`: `reset(seed=n)` for the
    n-th game, numpy's seeding at every game)."""
    rng, n, seed = random.Random(0), 0, 0
    while n < steps:
        e.reset(seed=seed if reseed or seed == 0 else None)
        seed += 1
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            n += 1
    return n


def gymnasium(game: str, steps: int, decisions: bool = False, reseed: bool = False) -> int:
    """Gymnasium's loop, seat 0 (the others random), a random legal id each step: the
    steps, or (`decisions`) the decisions the games took in them, the others' included
    (each step plays the other seats' decisions up to seat 0's next: as many engine steps
    as a step of PettingZoo's or the engine's own loop takes several of). Seeded at its
    first reset only, as Gymnasium's `Env.reset` asks of the typical use (`reseed`: every
    game, as `aec_loop`)."""
    from artproject.adapters.gymnasium import KernelEnv

    e = KernelEnv(game=game, others="random", **GAMES[game])
    rng, n, seed, taken = random.Random(0), 0, 0, 0
    while n < steps:
        obs, _ = e.reset(seed=seed if reseed or seed == 0 else None)
        seed += 1
        while True:
            obs, _, term, trunc, _ = e.step(rng.choice(
                np.flatnonzero(obs["action_mask"]).tolist()))
            n += 1
            if term or trunc or n >= steps:
                break
        taken += e.seated.decisions
    return taken if decisions else n


def openspiel(game: str, steps: int) -> int:
    """OpenSpiel's loop: the acting seat's observation tensor, a random legal id."""
    import pyspiel

    import artproject.adapters.openspiel  # noqa: F401 (registers the games)

    return spiel_loop(pyspiel.load_game("python_" + game.replace("-", "_"), GAMES[game]),
                      steps)


def spiel_loop(g: Any, steps: int) -> int:
    """OpenSpiel's loop over the game `g` (chance nodes by their probabilities, else the
    acting seat's observation tensor and a random legal id): the decisions taken."""
    rng, n = random.Random(0), 0
    while n < steps:
        st = g.new_initial_state()
        while not st.is_terminal() and n < steps:
            if st.is_chance_node():
                ids, ps = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(rng.choices(ids, ps)[0])
                continue
            st.observation_tensor(st.current_player())
            st.apply_action(rng.choice(st.legal_actions()))
            n += 1
    return n


def pettingzoo_without(game: str, steps: int, parts: tuple[str, ...]) -> int:
    """PettingZoo's `raw_env` loop with `parts` of its step taken out: "tensor" (a zero
    array of the tensor's size handed out instead) and "shaped" (no shaped score worked
    out, and empty `infos`, kept while the score, all zeros, is unchanged): what the rest
    costs."""
    from artproject.adapters import _common
    from artproject.adapters import pettingzoo as pz
    from artproject.core.games import game_class
    from artproject.core.seats import Seated

    zeros: dict[int, Any] = {}

    def observe(seated: Any, seat: int, packers: Any) -> dict[str, Any]:
        blank = zeros.get(seated.ids)  # (the size of the first tensor written)
        if blank is None:
            blank = zeros[seated.ids] = np.zeros(
                _common.observe(seated, seat, packers)["observation"].size, np.float32)
        return {"observation": blank.copy(), "action_mask": _common.mask(seated, seat)}

    def no_infos(agents: list[str]) -> Callable[[Any], dict[str, dict[str, float]]]:
        # (made at a reset and an end only: the scores below never change)
        return lambda shaped: {a: {} for a in agents}

    patches: list[tuple[Any, str, Any]] = []  # (owner, name, stand-in)
    if "tensor" in parts:
        patches.append((pz, "_observe", observe))  # (what `raw_env.last` calls)
    if "shaped" in parts:
        zero = [0.0] * GAMES[game]["players"]  # (the same list: never a change to show)
        patches += [(pz, "infos_of", no_infos),
                    (game_class(game), "shaped_score", lambda st: zero),
                    (game_class(game), "shaped_scorer", lambda st: lambda game: zero),
                    (Seated, "shaped", lambda seated: [0.0] * seated.num_seats())]
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    try:
        for owner, name, stand_in in patches:
            setattr(owner, name, stand_in)
        return pettingzoo(game, steps)
    finally:
        for owner, name, was in saved:
            setattr(owner, name, was)


PARTS: dict[str, Callable[[str, int], int]] = {
    "raw_env, reseeded every game": lambda game, steps: pettingzoo(game, steps, reseed=True),
    "gymnasium, a decision, reseeded every game": lambda game, steps: gymnasium(
        game, steps, decisions=True, reseed=True),
    "raw_env without the tensor": lambda game, steps: pettingzoo_without(
        game, steps, ("tensor",)),
    "raw_env without the tensor and shaped score": lambda game, steps: pettingzoo_without(
        game, steps, ("tensor", "shaped")),
}

CONTENDERS: dict[str, Callable[[str, int], int]] = {
    "engine": native,
    "pettingzoo raw_env": pettingzoo,
    "pettingzoo env": lambda game, steps: pettingzoo(game, steps, wrapped=True),
    "gymnasium": gymnasium,
    "gymnasium, a decision": lambda game, steps: gymnasium(game, steps, decisions=True),
    "openspiel": openspiel,
}


def _floor_aec(game: str, steps: int) -> int:
    from floors import null_aec, shape_of  # bench/, beside

    return aec_loop(null_aec(shape_of(game, GAMES[game])), steps)


def _floor_wrapped(game: str, steps: int) -> int:
    from floors import null_wrapped, shape_of  # bench/, beside

    return aec_loop(null_wrapped(shape_of(game, GAMES[game])), steps)


def _floor_spiel(game: str, steps: int) -> int:
    from floors import null_spiel, shape_of  # bench/, beside

    return spiel_loop(null_spiel(shape_of(game, GAMES[game])), steps)


BOTS: dict[str, str] = {"art-project": "artproject.core.art.bots",
                        "art-of-war": "artproject.core.aow.bots"}  # each game's heuristic
Recording = tuple[int | None, list[int | None], int, list[Any]]  # (`recorded`)
_RECORDED: dict[tuple[str, str, int], list[Recording]] = {}
HEURISTIC_GAMES = 60  # the heuristic's games recorded (over a hundred decisions each)


def recorded(game: str, source: str = "heuristic", steps: int = 0) -> list[Recording]:
    """Games recorded through `raw_env` (made once for each): `source` "heuristic", every
    seat the heuristic, HEURISTIC_GAMES games; "random", a random legal id at each step
    (`aec_loop`'s games: from `reset(seed=0)`, then `reset()`), as many games as hold
    `steps` decisions. Each game's reset seed (None: the generator's next), the ids its
    steps took, the game's own seed and its decisions (the engine's actions). What the
    recording left in the adapters' caches (the legal lists' owners and ids, the masks) is
    cleared after it: a replay meets its positions as a learner meets new ones, not as the
    recording left them."""
    key = (game, source, steps if source == "random" else 0)
    if key not in _RECORDED:
        from artproject.adapters import _common
        from artproject.adapters.pettingzoo import raw_env
        from artproject.core.actions import CHANCE

        e, taken, rng = raw_env(game=game, **GAMES[game]), 0, random.Random(0)
        out: list[Recording] = []
        policy = _policy(game, source, e, rng)
        while len(out) < HEURISTIC_GAMES if source == "heuristic" else taken < steps:
            seed = len(out) if source == "heuristic" or not out else None
            e.reset(seed=seed)
            choose, ids = policy(len(out)), []
            for _ in e.agent_iter():
                _, _, term, trunc, _ = e.last(observe=False)
                ids.append(None if term or trunc else choose())
                e.step(ids[-1])
            g = e.seated.game
            out.append((seed, ids, g.seed, [a for a in g.history if a.player != CHANCE]))
            taken += len(out[-1][3])
        _RECORDED[key] = out
        e.seated._owners[3].clear()  # (the legal lists' owners and ids kept: owners.py)
        _common._MASKS.clear()
    return _RECORDED[key]


def _policy(game: str, source: str, e: Any,
            rng: random.Random) -> Callable[[int], Callable[[], int]]:
    """A game's chooser of the next id for `recorded` (by the game's number): the
    heuristic's, or a random legal id's."""
    if source == "random":
        return lambda _n: lambda: rng.choice(e.seated.legal(e.seated.current()))
    import importlib

    heuristic = importlib.import_module(BOTS[game]).heuristic_policy

    def seated(n: int) -> Callable[[], int]:
        choose = heuristic(n)
        return lambda: int(e.seated.policy_id(choose))

    return seated


def native_full(game: str, steps: int, source: str = "heuristic") -> int:
    """The engine replaying the recorded games (`recorded`), set-up included: the
    decisions taken."""
    from artproject.core.games import game_class

    cls, n = game_class(game), 0
    options = {k: v for k, v in GAMES[game].items() if k != "seats"}
    while n < steps:
        for _, _, seed, actions in recorded(game, source, steps):
            g = cls.create(seed=seed, **options)
            for a in actions:
                g.apply(a)
            n += len(actions)
    return n


def pettingzoo_full(game: str, steps: int, source: str = "heuristic") -> int:
    """PettingZoo's `raw_env` replaying the same games, the observation and mask read at
    each step as a learner reads them (`last()`): the game's decisions taken (delegations
    to a player with a seat each are steps of the env's, not decisions)."""
    from artproject.adapters.pettingzoo import raw_env

    e, n = raw_env(game=game, **GAMES[game]), 0
    while n < steps:
        for seed, ids, _, actions in recorded(game, source, steps):
            e.reset(seed=seed)
            for i in ids:
                e.last()
                e.step(i)
            n += len(actions)
    return n


def gymnasium_full(game: str, steps: int, source: str = "heuristic") -> int:
    """Gymnasium replaying the same games: seat 0's ids stepped as a learner's, the other
    seats' decisions answered from the recording (a policy that reads its next decision,
    in place of the heuristic's thinking); each step's observation, mask and info made as
    Gymnasium hands them out. The game's decisions taken."""
    from artproject.adapters.gymnasium import KernelEnv

    e, n = KernelEnv(game=game, others="random", **GAMES[game]), 0
    while n < steps:
        for seed, _, _, actions in recorded(game, source, steps):
            def answer(_game: Any, actions: list[Any] = actions) -> Any:
                return actions[e.seated.decisions]

            def seeded(_seed: int, answer: Callable[[Any], Any] = answer) -> Any:
                return answer

            e._seeded = seeded  # (the others' policy)
            e.reset(seed=seed)  # (the same game: Gymnasium's seed_from as raw_env's)
            over = False
            while not over:
                s = e.seated
                _, _, term, trunc, _ = e.step(s.seat_id_for(actions[s.decisions]))
                over = term or trunc
            if e.seated.decisions != len(actions):  # (not the recorded game: say so)
                raise RuntimeError(f"game {seed} replayed through Gymnasium took "
                                   f"{e.seated.decisions} decisions, not {len(actions)}")
            n += len(actions)
    return n


FULL: dict[str, Callable[[str, int], int]] = {
    "engine, heuristic games replayed": native_full,
    "pettingzoo raw_env, heuristic games replayed": pettingzoo_full,
    "gymnasium, heuristic games replayed": gymnasium_full,
}

REPLAYED: dict[str, Callable[[str, int], int]] = {  # (the random loop's games, replayed)
    "engine, random games replayed": lambda game, steps: native_full(game, steps, "random"),
    "pettingzoo raw_env, random games replayed": lambda game, steps: pettingzoo_full(
        game, steps, "random"),
}


FLOORS: dict[str, Callable[[str, int], int]] = {
    "pettingzoo's floor (a null game)": _floor_aec,
    "pettingzoo env's floor (a null game)": _floor_wrapped,
    "openspiel's floor (a null game)": _floor_spiel,
}


def measure(game: str, steps: int, rounds: int, parts: bool = False,
            floors: bool = False, full: bool = False,
            replayed: bool = False) -> dict[str, list[float]]:
    """Steps a second of CPU time, each contender once a round, interleaved."""
    contenders = {**CONTENDERS, **(PARTS if parts else {}), **(FLOORS if floors else {}),
                  **(FULL if full else {}), **(REPLAYED if replayed else {})}
    out: dict[str, list[float]] = {k: [] for k in contenders}
    if replayed:  # (recorded before any is timed: as many decisions as a round takes)
        recorded(game, "random", steps)
    for run in contenders.values():  # a warm-up: rules loaded, layouts made
        run(game, 200)
    for _ in range(rounds):
        for name, run in contenders.items():
            gc.collect()  # (the cyclic collector off while a contender runs, as timeit has
            gc.disable()  # it: a full collection would land in one contender's time)
            try:
                t = time.process_time()
                n = run(game, steps)
                out[name].append(n / (time.process_time() - t))
            finally:
                gc.enable()
    return out


DIGESTED: list[tuple[str, dict[str, Any]]] = [
    ("art-of-war", {"players": 2}), ("art-of-war", {"players": 3, "reward": "shaped"}),
    ("art-project", {"players": 2, "seats": "players"}),
    ("art-project", {"players": 3, "seats": "team", "reward": "shaped"}),
    ("art-project", {"players": 2, "seats": "players", "reward": "shaped"})]


def digest() -> str:
    """The digest `--digest` prints (see the module's text)."""
    import hashlib
    import warnings

    import artproject.adapters.openspiel  # noqa: F401 (registers the games)

    warnings.filterwarnings("ignore")
    h = hashlib.sha256()

    def put(*xs: Any) -> None:
        for x in xs:
            h.update(x.tobytes() if isinstance(x, np.ndarray) else repr(x).encode())

    for game, opts in DIGESTED:
        _digest_pettingzoo(game, opts, put)
        _digest_gymnasium(game, opts, put)
        _digest_openspiel(game, opts, put)
    return h.hexdigest()


def _digest_pettingzoo(game: str, opts: dict[str, Any], put: Callable[..., None]) -> None:
    from artproject.adapters.pettingzoo import env, raw_env

    for maker in (raw_env, env):
        e, rng = maker(game=game, **opts), random.Random(1)
        for ep in range(25):
            e.reset(seed=ep)
            for agent in e.agent_iter(max_iter=3000):
                obs, r, term, trunc, info = e.last()
                put(agent, obs["observation"], obs["action_mask"], r, term, trunc, info,
                    e.rewards, e._cumulative_rewards)
                e.step(None if term or trunc else
                       rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            if maker is raw_env:
                put(e.state())


def _digest_gymnasium(game: str, opts: dict[str, Any], put: Callable[..., None]) -> None:
    from artproject.adapters.gymnasium import KernelEnv

    for others in ("random", "heuristic"):
        g, rng = KernelEnv(game=game, others=others, **opts), random.Random(2)
        for ep in range(10):
            obs, info = g.reset(seed=ep)
            put(obs["observation"], obs["action_mask"], info)
            term = trunc = False
            while not (term or trunc):
                obs, r, term, trunc, info = g.step(
                    rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
                put(obs["observation"], obs["action_mask"], r, term, trunc, info)


def _digest_openspiel(game: str, opts: dict[str, Any], put: Callable[..., None]) -> None:
    import pyspiel

    spiel, rng = pyspiel.load_game("python_" + game.replace("-", "_"), opts), random.Random(3)
    for _ in range(10):
        st = spiel.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                outs = st.chance_outcomes()
                put(outs)
                st.apply_action(rng.choices([o for o, _ in outs], [p for _, p in outs])[0])
                continue
            p = st.current_player()
            put(p, st.observation_tensor(p), st.information_state_tensor(p),
                st.legal_actions(), st.rewards())
            st.apply_action(rng.choice(st.legal_actions()))
        put(st.returns())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=4000, help="steps a contender a round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--game", choices=sorted(GAMES), action="append")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--parts", action="store_true",
                    help="also raw_env without its tensor, and without the shaped score; "
                         "and the loops reseeded at every game")
    ap.add_argument("--floors", action="store_true",
                    help="also a null game of the same shape through PettingZoo and "
                         "OpenSpiel: what the library and the loop cost with no game")
    ap.add_argument("--full", action="store_true",
                    help="also full-length games: the heuristic's, replayed by the engine "
                         "and through PettingZoo's raw_env (a step: a decision)")
    ap.add_argument("--replayed", action="store_true",
                    help="also the random loop's games, recorded, replayed by the engine "
                         "and through PettingZoo's raw_env (no learner's draw)")
    ap.add_argument("--digest", action="store_true",
                    help="print a digest of all the adapters hand out in seeded play")
    ap.add_argument("--seats", choices=("players", "team"), default="players",
                    help="The A.R.T. Project's seating: a seat a player (default) or its own "
                         "default, one seat for the team")
    args = ap.parse_args()
    GAMES["art-project"]["seats"] = args.seats
    if args.digest:
        print(digest())
        return
    games = args.game or sorted(GAMES)
    if args.profile:
        import cProfile
        import pstats
        import tempfile
        from pathlib import Path

        with tempfile.TemporaryDirectory() as tmp:  # (no profile left in the tree)
            prof = str(Path(tmp) / "adapters.prof")
            for game in games:
                pettingzoo(game, 200)  # a warm-up: rules loaded, layouts made
                cProfile.runctx("pettingzoo(game, args.steps)", globals(),
                                {"game": game, "args": args}, prof)
                pstats.Stats(prof).sort_stats("tottime").print_stats(20)
        return
    print("| game | loop | steps/s (median) | range | engine / it, a round (median, range) |\n"
          "| --- | --- | --- | --- | --- |")
    for game in games:
        got = measure(game, args.steps, args.rounds, args.parts, args.floors, args.full,
                      args.replayed)
        seats = GAMES[game].get("seats")
        label = f"{game}, seats={seats}" if seats else game
        for name, rates in got.items():
            mid = statistics.median(rates)
            ratios = [b / r for b, r in zip(got[engine_of(name)], rates, strict=True)]
            print(f"| {label} | {name} | {mid:,.0f} | {min(rates):,.0f}-{max(rates):,.0f} | "
                  f"{statistics.median(ratios):.1f}x ({min(ratios):.1f}-{max(ratios):.1f}) |")


def engine_of(name: str) -> str:
    """The engine's row a row is read against: the engine replaying the same games for a
    replay's row, else the engine's own random loop."""
    for rows in (FULL, REPLAYED):
        if name in rows:
            return next(iter(rows))
    return "engine"


if __name__ == "__main__":
    main()
