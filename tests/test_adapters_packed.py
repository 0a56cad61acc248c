"""What the adapters keep for speed never goes stale. The adapters' tensors written in
place (`Packers`: a seat's buffer, a game's own one-call writer) are, to the byte, the
tensor made from scratch (the layout's writers, numpy's conversion), over many random
states of both games, every kind, seating and viewer; the seats'
record of a position (seat to act, legal ids, the arrays made at it) is worked out again
whenever the game changes under it; PettingZoo's observations, masks and infos and
OpenSpiel's observers at every step are what a fresh copy works out; Art of War's shaped
score made for the player count is the one worked out.

Needs the `ai` extra for numpy (CI installs it through `dev`)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from artproject.adapters._common import Packers, start
from artproject.core.actions import PUBLIC, TEAM
from artproject.core.games import game_class
from artproject.core.tensors import KINDS, layout

GAMES = [("art-project", {"players": 2}), ("art-project", {"players": 4}),
         ("art-project", {"players": 1}), ("art-of-war", {"players": 2}),
         ("art-of-war", {"players": 3}), ("art-of-war", {"players": 6})]


def _states(game: str, options: dict[str, Any], n: int, seed: int) -> list[Any]:
    """`n` states of random games (each a copy, as play left it), new games as they end."""
    cls, rng, out, deal = game_class(game), random.Random(seed), [], seed
    while len(out) < n:
        g = cls.create(seed=deal, chance="sample", **options)
        deal += 1
        while g.outcome is None and len(out) < n:
            out.append(g.clone())
            g.apply(rng.choice(g.legal_actions()))
        out.append(g)  # the end too
    return out


def _scratch(lay: Any, st: Any, viewer: int) -> bytes:
    return np.asarray(lay.tensor(st, viewer), dtype=np.float32).tobytes()


def _incremental(lay: Any) -> tuple[Any, bytearray, memoryview, memoryview]:
    """A new incremental writer of `lay` and a buffer of its own: (writer, the buffer, it
    as float32 numbers, it as bytes)."""
    write, buf = lay.incremental_writer(), bytearray(4 * lay.size)
    assert write is not None
    return write, buf, memoryview(buf).cast("f"), memoryview(buf)


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_layout_written_in_place_is_the_tensor_made_from_scratch(
        game: str, options: dict[str, Any]) -> None:
    """`Layout.write_view` (a game's one-call writer where it gives one) into a zeroed
    buffer gives, to the byte, the tensor made from scratch, for every kind and viewer,
    over the states of random play in play order and in random order."""
    states = _states(game, options, 500, seed=11)
    players = states[0].num_players()
    viewers = [*range(players), TEAM, PUBLIC]
    rng = random.Random(5)
    for kind in KINDS:
        lay = layout(states[0], kind)
        buf = bytearray(4 * lay.size)
        view = memoryview(buf).cast("f")
        for i in [*range(len(states)), *rng.sample(range(len(states)), len(states))]:
            st, v = states[i], rng.choice(viewers)
            buf[:] = bytes(len(buf))
            lay.write_view(st, v, view, buf)
            assert bytes(buf) == _scratch(lay, st, v), (kind, i, v)


@pytest.mark.parametrize(("game", "options"), [
    ("art-project", {"players": 2, "seats": "players"}),
    ("art-project", {"players": 3, "seats": "team"}),
    ("art-of-war", {"players": 2}), ("art-of-war", {"players": 4})])
def test_the_adapters_packers_give_the_seats_tensors(game: str, options: dict[str, Any],
                                                     ) -> None:
    """`Packers` (every layout written as float32 in place, one buffer a kind for every
    seat), kept across the positions and games of random play as an adapter keeps it,
    gives each seat's tensor of both kinds as
    `Seated.tensor` makes it from scratch, the seat's own segments (the seat, a
    delegation) included."""
    rng = np.random.default_rng(9)
    packers, checked = Packers(), 0
    for episode in range(40):
        s = start(game, options, seed=episode, chance="sample")
        while not s.is_terminal() and checked < 2500:
            for seat in [*range(s.num_seats()), PUBLIC]:
                for kind in KINDS:
                    want = np.asarray(s.tensor(seat, kind, raw=True), dtype=np.float32)
                    got = packers.array(s, seat, kind)
                    assert got.tobytes() == want.tobytes(), (seat, kind)
                    checked += 1
            legal = s.legal()
            s.apply(legal[int(rng.integers(len(legal)))])
    assert checked >= 1000


@pytest.mark.parametrize(("game", "options"), [
    ("art-project", {"players": 3, "seats": "players"}),
    ("art-project", {"players": 2, "seats": "team"}),
    ("art-of-war", {"players": 3})])
def test_one_buffer_serves_the_seats_in_any_order(game: str, options: dict[str, Any]) -> None:
    """`Packers` keeps one buffer a kind for every seat: asked for some seats at some
    positions, in any order (the seat to act only, as PettingZoo asks; another seat after
    several positions; the same seat twice; none), each tensor is the one made from
    scratch: a seat after another rewrites what the seat sees, and nothing else is left
    from the other's."""
    rng = np.random.default_rng(4)
    packers, checked = Packers(), 0
    for episode in range(60):
        s = start(game, options, seed=100 + episode, chance="sample")
        while not s.is_terminal():
            seats = [*range(s.num_seats()), PUBLIC]
            asked = [seats[int(i)] for i in rng.integers(len(seats), size=int(rng.integers(3)))]
            cur = s.current()
            for seat in ([cur] if cur >= 0 and rng.random() < 0.6 else []) + asked:
                want = np.asarray(s.tensor(seat, "observation", raw=True), dtype=np.float32)
                assert packers.array(s, seat, "observation").tobytes() == want.tobytes(), seat
                checked += 1
            legal = s.legal()
            s.apply(legal[int(rng.integers(len(legal)))])
    assert checked >= 300


def _fresh(s: Any) -> Any:
    """A seated copy that keeps nothing the original worked out (its own record, arrays)."""
    from artproject.core.seats import Seated

    c = Seated(s.game.clone(), s.seats, s.limit)
    c.turn, c.marks, c.steps, c.decisions = s.turn, s.marks, s.steps, s.decisions
    return c


ADAPTED = [("art-project", {"players": 2, "seats": "players"}),
           ("art-project", {"players": 3, "seats": "team", "reward": "shaped"}),
           ("art-project", {"players": 3, "seats": "players", "reward": "shaped"}),
           ("art-of-war", {"players": 2}), ("art-of-war", {"players": 3, "reward": "shaped"})]


@pytest.mark.parametrize(("game", "options"), ADAPTED)
def test_pettingzoo_gives_what_is_made_from_scratch_at_every_step(
        game: str, options: dict[str, Any]) -> None:
    """What the adapters keep (the seats' record of a position, its arrays, the seats'
    tensor buffers, a game's own one-call writer) never goes stale: over random PettingZoo
    play of both games and seatings, every agent observed at random moments (some twice,
    some not at all), each observation is, to the byte, the seat's tensor as the layout's
    writers make it from scratch, converted by numpy; each mask marks exactly the legal ids
    a fresh copy of the seats works out; each info's shaped score and the agent to act are
    a fresh copy's."""
    from artproject.adapters.pettingzoo import raw_env

    rng = np.random.default_rng(13)
    e = raw_env(game=game, **options)
    checked, episode = 0, 0
    while checked < 1200:
        e.reset(seed=episode)
        episode += 1
        for _agent in e.agent_iter(max_iter=300):
            s, fresh = e.seated, _fresh(e.seated)
            assert s.current() == fresh.current()
            if s.current() >= 0:
                assert e.agent_selection == e.possible_agents[s.current()]
            for agent in e.agents:
                seat = e._index[agent]
                assert e.infos[agent]["shaped"] == fresh.shaped()[seat]
                for _ in range(int(rng.integers(3))):
                    obs = e.observe(agent)
                    want = np.asarray(fresh.tensor(seat, "observation", raw=True),
                                      dtype=np.float32)
                    assert obs["observation"].tobytes() == want.tobytes(), (agent, checked)
                    assert np.flatnonzero(obs["action_mask"]).tolist() == fresh.legal(seat)
                    checked += 1
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else
                   int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize(("game", "options"), ADAPTED[:4])
def test_openspiel_observers_give_the_tensors_made_from_scratch(
        game: str, options: dict[str, Any]) -> None:
    """OpenSpiel's observers (a seat's, the public one; observation and information state)
    written from the seats' kept buffers, for states of random play taken in play order
    and out of it, are, to the byte, the tensors made from scratch."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    import artproject.adapters.openspiel  # noqa: F401 (registers the games)

    game_ = pyspiel.load_game("python_" + game.replace("-", "_"), options)
    rng = np.random.default_rng(5)
    states = []
    while len(states) < 150:
        st = game_.new_initial_state()
        while not st.is_terminal() and len(states) < 150:
            if st.is_chance_node():
                ids, ps = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(int(rng.choice(ids, p=ps)))
                continue
            states.append(st.clone())
            st.apply_action(int(rng.choice(st.legal_actions())))
    kinds = pyspiel.PrivateInfoType
    for recall in (False, True):
        for private in (kinds.SINGLE_PLAYER, kinds.NONE):
            obs = make_observation(game_, pyspiel.IIGObservationType(
                public_info=True, perfect_recall=recall, private_info=private))
            kind = "information_state" if recall else "observation"
            order = [*range(len(states)), *rng.permutation(len(states)).tolist()]
            for i in order:
                s = states[i].seated
                for p in range(s.num_seats()):
                    obs.set_from(states[i], p)
                    seat = PUBLIC if private == kinds.NONE else p
                    want = np.asarray(_fresh(s).tensor(seat, kind, raw=True), np.float32)
                    assert obs.tensor.tobytes() == want.tobytes(), (i, p, recall)


def test_a_position_worked_out_again_when_the_game_changes_under_the_seats() -> None:
    """The seats' record of a position is tested against the game each time: a decision
    applied to the game itself, a game put in its place (a resampled copy, whose other
    hands differ), a clone's game: each gives the legal ids a fresh copy works out."""
    rng = random.Random(2)
    for game, options in ADAPTED:
        s = start(game, options, seed=4, chance="sample")
        for _ in range(60):
            if s.is_terminal():
                break
            s.legal()
            if rng.random() < 0.3 and s.turn is None:
                s.game.apply(rng.choice(s.game.legal_actions()))
            elif rng.random() < 0.3 and s.current() >= 0:
                s = s.resample(s.current(), rng.randrange(1 << 30))
            elif rng.random() < 0.3:  # every hand dealt anew, the acting player's too
                s.game = s.game.resample([], rng.randrange(1 << 30))
            else:
                s = s.clone() if rng.random() < 0.3 else s
                s.apply(rng.choice(s.legal()))
            if not s.is_terminal():
                assert (s.current(), s.legal()) == (_fresh(s).current(), _fresh(s).legal())


def test_art_of_war_s_shaped_score_made_per_player_count_is_the_one_worked_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Art of War's shaped score, worked out by a flat function made for the player count
    (`_score_of`, its terms read from rows of shares worked out once), is, to the bit, the
    loop's (`_shaped`: the documented formula) over random states of 2 to 7 players, with
    every player alive, with the dead, at the end (the returns), and with more tokens and
    cards than the rows hold (made again with rows of a few)."""
    from artproject.core.aow import ai

    def bits(xs: list[float]) -> list[str]:
        return [float(x).hex() for x in xs]

    dead = alive = 0
    for players in (2, 3, 6, 7):
        monkeypatch.setattr(ai, "SHARES", 5)
        few = ai._score_of(players)  # (rows of up to 5 tokens or cards: most states past them)
        monkeypatch.undo()
        for st in _states("art-of-war", {"players": players}, 400, seed=players):
            got = st.shaped_score()
            want = st.returns() if st.outcome is not None else ai._shaped(st)
            assert type(got) is list and bits(got) == bits(want), (players, st.alive)
            assert got is not st.shaped_score() and bits(few(st)) == bits(want)
            if st.outcome is None:
                dead += 0 in st.alive
                alive += 0 not in st.alive
    assert dead > 50 and alive > 500


def test_the_art_project_s_shaped_score_with_its_kept_denominators() -> None:
    """The A.R.T. Project's shaped score, its denominators kept by the rules, is the
    documented formula worked out from the state, at 1 to 4 players (docs/ai.md)."""
    from artproject.core.art import info

    for players in (1, 2, 4):
        for st in _states("art-project", {"players": players}, 200, seed=players):
            if st.outcome is not None:
                continue
            r = st.rules
            start_ = r.difficulties[st.difficulty] * (2 if st.solo else 1) * st.players
            s = (info.SHAPE_TRACK * len(st.track) / max(1, len(r.track))
                 + info.SHAPE_HEALTH * min(1.0, sum(st.health) / max(1, start_))
                 + info.SHAPE_VAN * sum(st.van) / max(1, len(r.resources) * st.tab.res_cap))
            assert st.shaped_score() == [0.9 * (2.0 * s - 1.0)] * st.players


def test_the_art_project_s_shaped_scorer_is_its_shaped_score_to_the_bit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`shaped_scorer`'s flat function (its numbers read from a table made once for the
    game) gives `shaped_score`'s floats to the bit, fresh lists, over random states of 1 to
    6 players at every difficulty, at the end (the returns), with health above the start,
    and with health or a van of another length or counts past the table (`shaped_score`'s
    own, then); a game whose table would be too big is scored by `shaped_score` itself."""
    from artproject.core.art import info

    def bits(xs: list[float]) -> list[str]:
        return [float(x).hex() for x in xs]

    seen = 0
    for players, difficulty in ((1, "easy"), (2, "medium"), (3, "hard"), (6, "medium")):
        options = {"players": players, "difficulty": difficulty}
        for st in _states("art-project", options, 150, seed=players):
            score = st.shaped_scorer()
            assert score is st.clone().shaped_scorer()  # (made once for the game)
            got = score(st)
            assert type(got) is list and bits(got) == bits(st.shaped_score())
            assert got is not score(st)
            seen += st.outcome is None
            if st.outcome is None:
                for health, van in (([9] * players, st.van), ([1] * (players + 1), st.van),
                                    (st.health, [*st.van, 1]), (st.health, [99, 0, 0])):
                    c = st.clone()
                    c.health, c.van = list(health), list(van)
                    assert bits(score(c)) == bits(c.shaped_score())
    assert seen > 400
    st = _states("art-project", {"players": 2}, 3, seed=1)[2]
    monkeypatch.setattr(info, "SCORES_KEPT", 10)
    assert info._scorer_of(st) is info.shaped_score


def test_every_game_s_shaped_scorer_gives_its_shaped_score() -> None:
    """A game's `shaped_scorer` (the kernel's: the class's `shaped_score`; Art of War's:
    the function made for its player count) gives what `shaped_score` gives."""
    from artproject.core.hooks import GameHooks

    for game, options in GAMES:
        for st in _states(game, options, 60, seed=4):
            assert st.shaped_scorer()(st) == st.shaped_score()
            assert GameHooks.shaped_scorer(st)(st) == st.shaped_score()


def test_a_layout_written_in_place_takes_every_kind_of_segment() -> None:
    """`Layout.write_view` for segments of plain numbers of every size (one, a few set one
    by one, many packed at once), a field read in place and a writer's own: the
    numbers `Layout.tensor` gives, converted as numpy does; a writer that sets a slice is
    refused with TypeError (the adapters then write that layout as a list)."""
    from types import SimpleNamespace

    from artproject.core.tensors import Layout, Segment, field, numbers, one_hot

    def hot(st: Any, v: int, out: Any, at: int) -> None:
        one_hot(out, at, st.pick)

    segs = [Segment("one", (1,), "", numbers(lambda st: [st.n])),
            Segment("few", (3,), "", numbers(lambda st: (st.n, 2, True))),
            Segment("many", (12,), "", field("row")),
            Segment("hot", (4,), "", hot)]
    lay = Layout("observation", segs)
    for n in (0, 3, -1.5, 7):
        st = SimpleNamespace(n=n, row=[n * k / 3 for k in range(12)], pick=int(n) % 4)
        buf = bytearray(4 * lay.size)
        lay.write_view(st, 0, memoryview(buf).cast("f"), buf)
        assert bytes(buf) == np.asarray(lay.tensor(st, 0), np.float32).tobytes()

    def sliced(st: Any, v: int, out: Any, at: int) -> None:
        out[at:at + 2] = [1.0, 2.0]

    bad = Layout("observation", [Segment("two", (2,), "", sliced)])
    buf = bytearray(8)
    with pytest.raises(TypeError):
        bad.write_view(None, 0, memoryview(buf).cast("f"), buf)


@pytest.mark.parametrize(("game", "options"), [*ADAPTED, ("art-of-war", {"players": 4})])
def test_the_seats_kept_owners_and_ids_are_the_ones_worked_out(
        game: str, options: dict[str, Any]) -> None:
    """What the seats keep for a set of legal actions (whose own actions they are, their
    ids, a joint decision's split, each action's id by the identity of the space's own
    action object), kept once per rules and player count, gives at every step of random
    play the seat to act and the legal ids a fresh copy works out with nothing kept (every
    action then found by its value)."""
    rng = random.Random(8)
    for episode in range(12):
        s = start(game, options, seed=episode, chance="sample")
        kept = [d for d in s._owners if isinstance(d, dict)]
        assert len(kept) == 2  # (what the legal lists give, their splits inside; the ids)
        while not s.is_terminal():
            got = (s.current(), s.legal())
            saved = [d.copy() for d in kept]
            for d in kept:
                d.clear()
            fresh = _fresh(s)
            assert got == (fresh.current(), fresh.legal())
            for d, was in zip(kept, saved, strict=True):
                d.update(was)
            s.apply(rng.choice(s.legal()))


def test_a_game_seed_drawn_from_a_generator_is_the_one_integers_gives() -> None:
    """`seed_from` (PCG64's next 64 bits, shifted) draws what `integers(0, 2**62)` draws,
    and leaves the generator where that leaves it, over many seeds; another bit generator
    is asked `integers` itself."""
    from artproject.adapters._common import seed_from

    for seed in range(300):
        mine, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
        for _ in range(4):
            assert seed_from(mine) == int(theirs.integers(0, 2**62))
        assert mine.bit_generator.state == theirs.bit_generator.state
    other = np.random.Generator(np.random.MT19937(3))
    assert seed_from(other) == int(np.random.Generator(np.random.MT19937(3)).integers(
        0, 2**62))


def test_an_agent_s_action_space_contains_what_discrete_contains() -> None:
    """PettingZoo's action spaces (`Ids`: a plain int answered by its range at once) hold
    just what Gymnasium's Discrete of the same size holds, for ids in and out of range,
    numpy's integers, floats, arrays and other things; but a bool, which Discrete holds as
    0 or 1, is no id (the adapters refuse it, as numpy's bool)."""
    from gymnasium import spaces

    from artproject.adapters.pettingzoo import Ids

    for n in (1, 2, 362):
        mine, theirs = Ids(n), spaces.Discrete(n)
        for x in (*range(-3, n + 3), 2**63, -2**63 - 1, 2**70, True, False, np.int64(1),
                  np.int16(n - 1), np.uint64(n), np.int64(-1), 1.0, 0.5, np.float32(0),
                  np.array(0), np.array([0]), None, "0", [0]):
            assert mine.contains(x) == (theirs.contains(x) and not isinstance(x, bool)), (n, x)
        assert mine == theirs and isinstance(mine, spaces.Discrete)


@pytest.mark.parametrize("game", ["art-of-war", "art-project"])
def test_openspiel_s_new_states_share_the_game_s_first_until_changed(game: str) -> None:
    """OpenSpiel's new states share the game's first state (it makes one to size each
    tensor it hands out) until one is changed or its `seated` asked for: a state played
    on, or whose `seated` is played on, leaves every other new state at the start."""
    pyspiel = pytest.importorskip("pyspiel")
    import artproject.adapters.openspiel  # noqa: F401 (registers the games)

    spiel = pyspiel.load_game("python_" + game.replace("-", "_"), {"players": 2})
    a, b = spiel.new_initial_state(), spiel.new_initial_state()
    first = str(a)
    for _ in range(6):
        a.apply_action(a.chance_outcomes()[0][0] if a.is_chance_node() else
                       a.legal_actions()[0])
    assert str(a) != first and str(b) == first
    c = spiel.new_initial_state()
    c.seated.apply(c.legal_actions()[0])
    assert str(c) != first
    d = spiel.new_initial_state().clone()  # (a copy of a new state: its own game too)
    d.apply_action(d.legal_actions()[0])
    assert str(d) != first
    assert str(spiel.new_initial_state()) == str(b) == first
    assert spiel.new_initial_state().seated is not spiel.proto


def test_the_agents_infos_made_at_once_are_the_loop_s() -> None:
    """`infos_of`'s one expression gives the dicts a loop over the agents gives: each agent
    its own fresh dict of its seat's shaped score; and PettingZoo's `last` is AECEnv's,
    a subclass's own `observe` used."""
    from pettingzoo import AECEnv

    from artproject.adapters._common import infos_of
    from artproject.adapters.pettingzoo import raw_env

    for agents in (["team_0"], ["player_0", "player_1"], [f"player_{i}" for i in range(6)]):
        shaped = [0.25 * i - 0.5 for i in range(len(agents))]
        got = infos_of(agents)(shaped)
        assert type(got) is dict and list(got) == agents
        assert got == {a: {"shaped": shaped[i]} for i, a in enumerate(agents)}
        assert all(type(v) is dict for v in got.values())
        assert infos_of(agents)(shaped)[agents[0]] is not got[agents[0]]

    class Marked(raw_env):  # type: ignore[misc]
        def observe(self, agent: str) -> dict[str, Any]:
            return {**super().observe(agent), "marked": True}

    for cls in (raw_env, Marked):
        e = cls(game="art-of-war", players=2)
        e.reset(seed=4)
        got, want = e.last(), AECEnv.last(e)
        assert got[0].keys() == want[0].keys()
        assert got[0]["observation"].tobytes() == want[0]["observation"].tobytes()
        assert got[1:] == want[1:] and e.last(observe=False)[0] is None


def test_pettingzoo_s_infos_are_kept_while_the_shaped_score_is() -> None:
    """`infos` after a step: the same dicts while every seat's shaped score is unchanged
    (as PettingZoo's own games keep theirs), new ones with the new scores when it changed,
    and at the end (the returns); each holds its seat's score."""
    from artproject.adapters.pettingzoo import raw_env

    for game, options in (("art-project", {"players": 2, "seats": "players"}),
                          ("art-of-war", {"players": 3})):
        e, rng = raw_env(game=game, **options), random.Random(1)
        kept = changed = 0
        for seed in range(20):
            e.reset(seed=seed)
            while not e.terminations[e.agent_selection] and \
                    not e.truncations[e.agent_selection]:
                infos, shown = e.infos, [e.infos[a]["shaped"] for a in e.agents]
                e.step(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
                                  .tolist()))
                now = e.seated.shaped()
                assert [e.infos[a]["shaped"] for a in e.agents] == now
                if e.seated.is_terminal() or now != shown:
                    assert all(e.infos[a] is not infos[a] for a in e.agents)
                    changed += 1
                else:
                    assert e.infos is infos
                    kept += 1
        assert kept > 20 and changed > 20, (game, kept, changed)


def test_pettingzoo_s_agent_iter_is_aec_s() -> None:
    """raw_env's `agent_iter` (a generator) yields what AECEnv's AECIterator yields over the
    same play: the agent to act until no agent is left (the dead steps included), or
    `max_iter` agents."""
    from pettingzoo import AECEnv

    from artproject.adapters.pettingzoo import raw_env

    for max_iter in (2**63, 2**62 + 1, 7, 0):
        got = []
        for which in ("ours", "AECEnv's"):
            e, rng, seen = raw_env(game="art-of-war", players=2), random.Random(5), []
            e.reset(seed=2)
            agents = e.agent_iter(max_iter) if which == "ours" else \
                AECEnv.agent_iter(e, max_iter)
            for agent in agents:
                seen.append(agent)
                obs, _, term, trunc, _ = e.last()
                e.step(None if term or trunc else
                       rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            assert list(iter(agents))[:1] == ([] if not e.agents or max_iter == 0 else
                                              [e.agent_selection])
            got.append(seen)
        assert got[0] == got[1] and len(got[0]) == min(max_iter, len(got[1]))
        assert max_iter < 2**62 or not e.agents


def test_pettingzoo_s_dead_step_is_aec_s() -> None:
    """raw_env's `_was_dead_step` leaves what AECEnv's leaves, from any state of dead and
    live agents (1 to 4 agents, each dead by termination, truncation or both, or live; the
    first dead one kept to come back to or not, `_skip_agent_selection` never set yet
    among them), and refuses an action as AECEnv's does."""
    import itertools

    from pettingzoo import AECEnv

    from artproject.adapters.pettingzoo import raw_env

    kept = ("agents", "agent_selection", "terminations", "truncations", "rewards",
            "_cumulative_rewards", "infos", "_skip_agent_selection")

    def made(e: raw_env, agents: list[str], dead: tuple[int, ...], at: int,
             skip: Any) -> raw_env:
        e.agents, e.agent_selection = list(agents), agents[at]
        e.terminations = {a: d in (1, 3) for a, d in zip(agents, dead, strict=True)}
        e.truncations = {a: d in (2, 3) for a, d in zip(agents, dead, strict=True)}
        e.rewards = {a: float(i) + 0.5 for i, a in enumerate(agents)}
        e._cumulative_rewards = {a: -float(i) for i, a in enumerate(agents)}
        e.infos = {a: {"i": i} for i, a in enumerate(agents)}
        if skip != "unset":
            e._skip_agent_selection = skip
        elif hasattr(e, "_skip_agent_selection"):
            del e._skip_agent_selection
        return e

    def left(e: raw_env) -> str:  # (repr: the dicts' order, 0 and 0.0 told apart)
        return repr([getattr(e, name, "unset") for name in kept])

    envs, cases = [raw_env(game="art-of-war", players=2) for _ in range(2)], 0
    for n in range(1, 5):
        agents = [f"player_{i}" for i in range(n)]
        for dead in itertools.product(range(4), repeat=n):  # live, terminated, cut, both
            for at in (i for i in range(n) if dead[i]):
                for skip in ("unset", None, agents[-1]):
                    ours, theirs = (made(e, agents, dead, at, skip) for e in envs)
                    while True:
                        a = ours.agent_selection
                        if not ours.agents or not (ours.terminations.get(a) or
                                                   ours.truncations.get(a)):
                            break
                        with pytest.raises(ValueError, match="only valid action is None"):
                            ours._was_dead_step(0)
                        with pytest.raises(ValueError, match="only valid action is None"):
                            AECEnv._was_dead_step(theirs, 0)
                        ours._was_dead_step(None)
                        AECEnv._was_dead_step(theirs, None)
                        assert left(ours) == left(theirs)
                        cases += 1
    assert cases > 1000


def test_pettingzoo_s_dicts_are_fresh_at_each_reset_and_end() -> None:
    """The rewards, terminations, truncations and infos a reset and a game's end set are
    new dicts of the right values (copied from the environment's kept ones: a change made
    to one never shows in the next game's)."""
    from artproject.adapters.pettingzoo import raw_env

    e, rng = raw_env(game="art-of-war", players=2), random.Random(3)
    seen: list[dict[str, Any]] = []
    for seed in range(3):
        e.reset(seed=seed)
        assert e.rewards == e._cumulative_rewards == {"player_0": 0.0, "player_1": 0.0}
        assert e.terminations == e.truncations == {"player_0": False, "player_1": False}
        seen += [e.rewards, e._cumulative_rewards, e.terminations, e.truncations]
        for d in (e.rewards, e._cumulative_rewards, e.terminations, e.truncations):
            d["extra"] = 7  # (a change to the handed-out dicts)
        while not (e.terminations["player_0"] or e.truncations["player_0"]):
            e.step(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
                              .tolist()))
        cut = e.seated.truncated()
        assert e.terminations == dict.fromkeys(e.possible_agents, not cut)
        assert e.truncations == dict.fromkeys(e.possible_agents, cut)
        e.terminations["extra"] = e.truncations["extra"] = 7
        seen += [e.terminations, e.truncations]
    assert len({id(d) for d in seen}) == len(seen)


# ------------------------------------------------ the incremental writer (a seat's buffer
# kept between writes, only the segments whose sources changed written again)
INCREMENTAL = [("art-project", {"players": 1}), ("art-project", {"players": 2}),
               ("art-project", {"players": 3}), ("art-project", {"players": 4})]


@pytest.mark.parametrize(("game", "options"), INCREMENTAL)
def test_an_incremental_writer_gives_the_tensor_made_from_scratch(
        game: str, options: dict[str, Any]) -> None:
    """`Layout.incremental_writer`, one a viewer and kind with its own buffer, fed the
    states of random play (new games among them) in play order, skipping positions at
    random, then in random order (each write far from the last), gives each time, to the
    byte, the tensor made from scratch: every segment whose source changed was written
    again, every other one still holds what it should. (Art of War writes its tensor by
    its own one-call writer, all of it each time: no incremental writer.)"""
    assert layout(game_class("art-of-war").create(players=3), "observation"
                  ).incremental_writer() is None
    states = _states(game, options, 400, seed=21)
    players = states[0].num_players()
    rng = random.Random(4)
    for kind in KINDS:
        lay = layout(states[0], kind)
        for v in [*range(players), TEAM, PUBLIC]:
            write, buf, view, data = _incremental(lay)
            order = [i for i in range(len(states)) if rng.random() < 0.7]
            order += rng.sample(range(len(states)), 60)
            for i in order:
                write(states[i], v, view, data)
                assert bytes(buf) == _scratch(lay, states[i], v), (kind, v, i)


def test_an_incremental_writer_s_saved_position_put_back() -> None:
    """What `save` kept (the buffer and each source's copy) put back by `restore` into a
    buffer that went on elsewhere, the next writes still give the tensors from scratch;
    a viewer other than the last one's is written whole."""
    states = _states("art-project", {"players": 3}, 300, seed=5)
    lay = layout(states[0], "observation")
    write, buf, view, data = _incremental(lay)
    write(states[0], 1, view, data)
    saved = write.save(data)  # type: ignore[attr-defined]
    for i in range(1, 120):
        write(states[i], 1, view, data)
    write.restore(saved, data)  # type: ignore[attr-defined]
    assert bytes(buf) == _scratch(lay, states[0], 1)
    for i in [*range(150, 300, 7), 0, 3]:
        write(states[i], 1, view, data)
        assert bytes(buf) == _scratch(lay, states[i], 1), i
    for v in (0, TEAM, 2):
        write(states[40], v, view, data)
        assert bytes(buf) == _scratch(lay, states[40], v), v


def test_an_incremental_writer_sees_a_source_changed_in_place() -> None:
    """Each way of keeping a source (core/tensors.py KEEPS), and a plain segment with
    none: a change made in place to the state's lists (the kept copy is a copy, not the
    list itself), a value put back as it was, a live object gone and back: the writer
    gives what `Layout.tensor` does after each."""
    from types import SimpleNamespace

    from artproject.core.tensors import (
        EVERY,
        IS,
        ITEMS,
        LIST,
        LISTS,
        LIVE,
        ROWS,
        Layout,
        Row,
        Segment,
        Source,
        field,
        inlined,
        numbers,
        one_hot,
    )

    def hot(st: Any, v: int, out: Any, at: int) -> None:
        one_hot(out, at, st.pick)

    def flags(st: Any, v: int, out: Any, at: int) -> None:
        for x in st.marks:
            out[at + x] = 1.0

    def grid(st: Any, v: int, out: Any, at: int) -> None:
        for r, row in enumerate(st.grid):
            for x in row:
                out[at + 3 * r + x] += 1.0

    def grid_lines(at: int, p: str) -> tuple[list[str], dict[str, Any]]:
        return ["for r, row in enumerate(st.grid):", "    for x in row:",
                f"        out[{at} + 3 * r + x] += 1.0"], {}

    def grid_row(at: int, r: int, p: str) -> Row:
        return Row(["for x in h:", f"    out[{at + 3 * r} + x] += 1.0"], {})

    def sizes_row(at: int, r: int, p: str) -> Row:
        return Row([f"out[{at + r}] = len(h)"], {}, covers=True)

    def sizes(st: Any, v: int, out: Any, at: int) -> None:
        for r, row in enumerate(st.grid):
            out[at + r] = len(row)

    def live(st: Any, v: int, out: Any, at: int) -> None:
        if st.box is not None:
            out[at] = st.box[0]
            out[at + 1] = v

    segs = [Segment("n", (1,), "", field("n")),
            Segment("row", (4,), "", field("row")),
            Segment("sum", (1,), "", numbers(lambda st: sum(st.row))),
            Segment("pick", (4,), "", hot, source=Source("st.pick", IS)),
            Segment("pick2", (4,), "", hot, source=Source("st.pick")),
            Segment("marks", (5,), "", flags, source=Source("st.marks", LIST)),
            Segment("all", (1,), "", numbers(lambda st: len(st.grid[0]) + st.n),
                    source=Source("[st.n, st.grid[0]]", ITEMS)),
            Segment("grid", (2, 3), "", inlined(grid, grid_lines),
                    source=Source("st.grid", LISTS)),
            Segment("rows", (2, 3), "", inlined(grid, grid_lines, grid_row),
                    source=Source("st.grid", ROWS)),
            Segment("sizes", (2,), "", inlined(sizes, grid_lines, sizes_row),
                    source=Source("st.grid", ROWS)),
            Segment("box", (2,), "", live, source=Source("st.box", LIVE)),
            Segment("every", (3,), "", field("row3"), source=Source("", EVERY)),
            Segment("plain", (4,), "", hot)]
    lay = Layout("observation", segs)
    st = SimpleNamespace(n=1, row=[0, 1, 2, 3], pick=2, marks=[1], grid=[[0, 1], [2]],
                         box=None, row3=[1, 2, 3])
    write, buf, view, data = _incremental(lay)

    def check(step: str) -> None:
        write(st, 1, view, data)
        assert bytes(buf) == np.asarray(lay.tensor(st, 1), np.float32).tobytes(), step

    check("first")
    changes = [("row in place", lambda: st.row.__setitem__(2, 9)),
               ("marks in place", lambda: st.marks.append(4)),
               ("a row of the grid in place", lambda: st.grid[1].append(0)),
               ("the other row", lambda: st.grid[0].remove(1)),
               ("n", lambda: setattr(st, "n", 5)), ("pick", lambda: setattr(st, "pick", 0)),
               ("box", lambda: setattr(st, "box", [7])),
               ("box in place", lambda: st.box.__setitem__(0, 8)),
               ("box gone", lambda: setattr(st, "box", None)),
               ("row3 in place", lambda: st.row3.__setitem__(0, 4)),
               ("marks emptied", lambda: st.marks.clear()),
               ("n back", lambda: setattr(st, "n", 1)), ("nothing", lambda: None)]
    for step, change in changes:
        change()
        check(step)


def test_a_source_of_rows_needs_their_lines_and_a_keep_must_be_known() -> None:
    """A segment of a `ROWS` source without lines for its rows, or a source kept by no
    known way, is refused when the writer is made, naming the segment."""
    from artproject.core.tensors import ROWS, Layout, Segment, Source, numbers

    rows = Layout("observation", [Segment("hands", (2, 2), "", numbers(lambda st: [0] * 4),
                                          source=Source("st.hands", ROWS))])
    with pytest.raises(ValueError, match=r"'hands'.*rows"):
        rows.incremental_writer()
    odd = Layout("observation", [Segment("n", (1,), "", numbers(lambda st: 0),
                                         source=Source("st.n", "sometimes"))])
    with pytest.raises(ValueError, match=r"'n'.*sometimes"):
        odd.incremental_writer()


@pytest.mark.parametrize(("game", "options"), [
    ("art-project", {"players": 2, "seats": "players"}),
    ("art-project", {"players": 3, "seats": "players"}),
    ("art-project", {"players": 4, "seats": "team"}),
    ("art-project", {"players": 1, "seats": "team"})])
def test_the_packers_keep_each_seat_s_buffer_across_games_and_skipped_positions(
        game: str, options: dict[str, Any]) -> None:
    """One `Packers` kept across new games (each starting from the buffer's first position
    of the last one), each seat's tensor of each kind asked at random positions only (a
    seat's buffer skipping many), gives the tensors `Seated.tensor` makes from scratch;
    and A.R.T.'s layouts are written by the incremental writer, never as lists."""
    rng = np.random.default_rng(17)
    packers, checked = Packers(), 0
    for episode in range(30):
        s = start(game, options, seed=episode, chance="sample")
        while not s.is_terminal():
            for seat in [*range(s.num_seats()), PUBLIC]:
                for kind in KINDS:
                    if rng.random() < 0.35:
                        want = np.asarray(s.tensor(seat, kind, raw=True), np.float32)
                        assert packers.array(s, seat, kind).tobytes() == want.tobytes()
                        checked += 1
            legal = s.legal()
            s.apply(legal[int(rng.integers(len(legal)))])
    assert checked >= 300
    assert not packers._lists and packers._slots


def test_an_incremental_writer_sees_each_of_the_art_project_s_facts_change() -> None:
    """Each fact of an A.R.T. state changed alone (its value taken from another state of
    random play, a flag turned over: facts random play seldom changes, the final round
    reached, an artwork lost, the track filled), in place of the last one written: the
    writer (every viewer and kind) gives the tensor made from scratch, so no segment's
    declared source (core/art/tensors.py SOURCES) misses what its numbers depend on."""
    from artproject.core.art.state import ART_FIELDS

    states = [st for st in _states("art-project", {"players": 3}, 400, seed=9)
              if st.outcome is None]
    names = [f.name for f in ART_FIELDS if f.name not in ("tab", "players", "solo")]
    names += ["wait", "outcome"]
    rng = random.Random(2)
    for kind in KINDS:
        lay = layout(states[0], kind)
        for v in (0, 2, TEAM, PUBLIC):
            write, buf, view, data = _incremental(lay)
            for _ in range(150):
                st = rng.choice(states)
                write(st, v, view, data)
                name = rng.choice(names)
                changed = st.clone()
                setattr(changed, name, _another(getattr(st, name), [
                    getattr(other, name) for other in rng.sample(states, 5)]))
                try:
                    want = _scratch(lay, changed, v)
                except (IndexError, KeyError, ValueError, TypeError):
                    write = lay.incremental_writer()  # (a mix no game reaches: the
                    continue  # writer raised too, its buffer left half written)
                write(changed, v, view, data)
                assert bytes(buf) == want, (kind, v, name)


def test_an_incremental_writer_changes_viewer_between_any_two_states() -> None:
    """One writer asked for any viewer at any state of random play, in random order (as
    one buffer serves every seat): a write for another viewer than the last rewrites what
    the new viewer sees (the hands' own cards, the battle) and keeps the rest, and gives
    the tensor made from scratch."""
    states = _states("art-project", {"players": 3}, 400, seed=21)
    rng = random.Random(8)
    for kind in KINDS:
        lay = layout(states[0], kind)
        write, buf, view, data = _incremental(lay)
        at = rng.randrange(len(states))
        for _ in range(600):
            at = max(0, min(len(states) - 1, at + rng.choice((-1, 1, 1, 1, 7))))
            st, v = states[at], rng.choice((0, 1, 2, TEAM, PUBLIC))
            write(st, v, view, data)
            assert bytes(buf) == _scratch(lay, st, v), (kind, at, v)


def test_an_incremental_writer_viewed_at_its_last_position_by_any_viewer() -> None:
    """`writer.viewed` at the position the writer last wrote (a seat's delegation: the game
    unchanged, another seat to act) gives each viewer's tensor made from scratch, in any
    order of viewers, through battles and hands of every size, and the writer's next write
    (another state, any viewer) is whole; a writer that never wrote writes all."""
    states = _states("art-project", {"players": 3}, 2000, seed=5)
    rng = random.Random(2)
    for kind in KINDS:
        lay = layout(states[0], kind)
        write, buf, view, data = _incremental(lay)
        write.viewed(states[7], 1, view, data)  # (no write yet: all of it)
        assert bytes(buf) == _scratch(lay, states[7], 1)
        battles = 0
        for st in states:
            v = rng.choice((0, 1, 2, TEAM, PUBLIC))
            write(st, v, view, data)
            assert bytes(buf) == _scratch(lay, st, v), (kind, v)
            for _ in range(3):
                v = rng.choice((0, 1, 2, TEAM, PUBLIC))
                write.viewed(st, v, view, data)
                assert bytes(buf) == _scratch(lay, st, v), (kind, v)
            battles += st.battle is not None
        assert battles > 5


def test_a_buffer_half_written_is_forgotten_for_every_seat() -> None:
    """A write that raises leaves the one buffer every seat shares half written: it is
    forgotten for them all, and each seat's next tensor is whole."""
    s = start("art-project", {"players": 2, "seats": "players"}, seed=3, chance="sample")
    packers = Packers()
    for seat in (0, 1):
        packers.array(s, seat, "observation")
    s.apply(s.legal()[0])
    shared = packers._shared["observation"]

    def broken(*args: Any) -> None:
        raise RuntimeError("a writer that fails")

    shared.write = broken
    with pytest.raises(RuntimeError):
        packers.array(s, s.current(), "observation")
    assert all(kept is not shared for kept in packers._slots.values())
    for seat in (0, 1):
        want = np.asarray(s.tensor(seat, "observation", raw=True), dtype=np.float32)
        assert packers.array(s, seat, "observation").tobytes() == want.tobytes()


def _another(value: Any, seen: list[Any]) -> Any:
    """A value other than `value` (a fact of a state): one another state had, else the
    flag turned over, the number or a list's first number one more, a list grown."""
    if isinstance(value, bool):
        return not value
    for other in seen:
        if other != value:
            return [list(x) if isinstance(x, list) else x for x in other] \
                if isinstance(other, list) else other
    if isinstance(value, int):
        return value + 1
    if isinstance(value, list) and value and isinstance(value[0], int):
        return [value[0] + 1, *value[1:]]
    if isinstance(value, list):
        return [*value, *value[:1]] if value else [0]
    return value


# ---------------------------------------------------------------- the seats and the reset
def _seat_by_the_text(s: Any) -> tuple[int, list[int]]:
    """The seat to act and its sorted ids as core/seats.py's text says, worked out from
    the game alone, action by action (each action's owner asked of its verb)."""
    g, space = s.game, s.space.decisions
    by: dict[int | None, list[int]] = {}
    for a in g.legal_actions():
        own = getattr(a.verb, "owner", None)
        by.setdefault(None if own is None else own(g, a), []).append(space.id(a))
    if s.team:
        return 0, sorted(i for ids in by.values() for i in ids)
    if s.turn is not None:
        return s.turn, sorted(by.get(s.turn, []))
    players = sorted(p for p in by if p is not None)
    if len(by) == 1 and players:
        return players[0], sorted(by[players[0]])
    lead = g.joint_seat()
    return lead, sorted(by.get(None, []) + by.get(lead, [])) + [
        space.size + q for q in players if q != lead]


def _play_by_the_text(game: str, options: dict[str, Any], episodes: int) -> int:
    """Random play in which every position's seat and ids are the text's: the positions."""
    rng, n = random.Random(11), 0
    for episode in range(episodes):
        s = start(game, options, seed=episode, chance="sample")
        while not s.is_terminal():
            if s.current() >= 0:
                assert (s.current(), s.legal()) == _seat_by_the_text(s)
                n += 1
            s.apply(rng.choice(s.legal()))
    return n


@pytest.mark.parametrize(("game", "options"), [
    ("art-project", {"players": 2, "seats": "players"}),
    ("art-project", {"players": 3, "seats": "players"}),
    ("art-project", {"players": 3, "seats": "team"}),
    ("art-of-war", {"players": 3})])
def test_the_seats_give_what_their_text_says(game: str, options: dict[str, Any]) -> None:
    """Whose turn it is and the ids a seat may take, kept by the legal actions (each
    action's owner in a table by id, a joint decision's split kept by the delegation),
    are at every step of random play what the seats' text works out from the game alone."""
    assert _play_by_the_text(game, options, 8) > 100


def test_the_seats_with_owners_that_read_the_state_and_a_joint_seat_of_the_game_s(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An owner that reads the state (split afresh at each position, never kept) and a
    game's own joint seat (asked at each position, not the hooks' first player) give what
    the text says too: the rules' owners table made again for them."""
    cls = game_class("art-project")
    g = cls.create(seed=0, players=3)
    verbs = cls.registry.verbs  # (the game's declared verbs)
    play = verbs["play"]

    def by_round(st: Any, a: Any) -> int | None:  # (the player's own in odd rounds only)
        return a.player if a.player >= 0 and st.round % 2 else None

    monkeypatch.setattr(play, "owner", by_round)
    monkeypatch.setattr(cls, "joint_seat", lambda st: st.round % st.players)
    monkeypatch.delitem(g.derived(), ("seat-owners", 3), raising=False)
    try:
        assert _play_by_the_text("art-project", {"players": 3, "seats": "players"}, 8) > 100
        table = g.derived()[("seat-owners", 3)]
        assert table[2] is None and -2 in table[1]  # (asked each time; read each time)
    finally:
        g.derived().pop(("seat-owners", 3), None)  # (made for the patched rules)


def test_pettingzoo_s_games_seeded_by_pcg64_are_default_rng_s() -> None:
    """PettingZoo's reset draws its games' seeds from PCG64 made from an int seed (no
    Generator made around it): the seeds `default_rng(seed).integers(0, 2**62)` gives, in
    turn, for resets with and without a seed; a seed numpy takes otherwise (its integer, a
    SeedSequence) is given to `default_rng` itself."""
    from artproject.adapters._common import seed_from
    from artproject.adapters.pettingzoo import raw_env

    for seed in (0, 1, 7, 2**40 + 3, 2**70 + 1):
        mine, theirs = np.random.PCG64(seed), np.random.default_rng(seed)
        assert [seed_from(mine) for _ in range(3)] == [
            int(theirs.integers(0, 2**62)) for _ in range(3)]
    e, seeds = raw_env(game="art-of-war", players=2), []
    for seed in (5, None, None, np.int64(5), None, np.random.SeedSequence(5), None):
        e.reset(seed=seed)
        seeds.append(e.seated.game.seed)
    numpy_s = np.random.default_rng(5)
    want = [int(numpy_s.integers(0, 2**62)) for _ in range(3)]
    assert seeds == [*want, *want[:2], *want[:2]]


def test_pettingzoo_s_seeds_drawn_ahead_are_the_ones_drawn_in_turn() -> None:
    """The game seeds PettingZoo's reset draws ahead (`seeds_from`, SEEDS_AHEAD at once)
    are the generator's next ones in turn, across batches, and a reseed drops those left;
    from a Generator over another bit generator too."""
    from artproject.adapters._common import SEEDS_AHEAD, seed_from, seeds_from
    from artproject.adapters.pettingzoo import raw_env

    for made in (lambda: np.random.PCG64(3), lambda: np.random.default_rng(3),
                 lambda: np.random.Generator(np.random.MT19937(3))):
        mine, theirs = made(), made()
        assert seeds_from(mine)[::-1] + seeds_from(mine)[::-1] == [
            seed_from(theirs) for _ in range(2 * SEEDS_AHEAD)]
    e, seeds = raw_env(game="art-of-war", players=2), []
    plan = [9, *[None] * (SEEDS_AHEAD + 5), 9, *[None] * 3, np.int64(9), *[None] * 2]
    for seed in plan:
        e.reset(seed=seed)
        seeds.append(e.seated.game.seed)
    numpy_s = np.random.default_rng(9)
    want = [int(numpy_s.integers(0, 2**62)) for _ in range(SEEDS_AHEAD + 6)]
    assert seeds == [*want, *want[:4], *want[:3]]
