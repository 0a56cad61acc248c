"""Issue 27: every public function, given arbitrary values, answers with the project's own
errors (docs/api.md, "Errors") or works, and a refused call leaves the game unchanged; what
new_game accepts, a save holds and loads back."""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import artproject as A
from artproject import Action, ArtError, new_game
from artproject.simulate import simulate, simulate_grid

# Values of every shape a caller might pass by mistake: None, bools, numbers huge and odd,
# text, bytes, containers, objects, paths (a device among them).
ANY = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12),
              st.binary(max_size=6), st.builds(object), st.just(Path("/dev/null")),
              st.sampled_from([2**64, 2**64 - 1, -(2**63) - 1, 10**30, -1, 0, 1, 7,
                               "done", "p1", "japan", "art-of-war", "easy", "json",
                               "observation", "\0"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.tuples(inner, inner, inner),
                            st.dictionaries(st.text(max_size=4), inner, max_size=2)),
    max_leaves=4)
# simulate_grid plays what it is given: no valid count of games over a handful
FEW = ANY.filter(lambda v: not (type(v) is int and 3 < v <= 1_000_000))
# a file name (relative: written in the test's own folder), a long one among them
NAME = st.one_of(ANY.filter(lambda v: not isinstance(v, str | os.PathLike)),
                 st.text(st.characters(codec="utf-8", exclude_characters="/\0."), min_size=1,
                         max_size=300))


def art() -> Any:
    return new_game("japan", players=2, seed=1)


def war() -> Any:
    return new_game("art-of-war", players=3, seed=1)


GAMES = {"art": art, "war": war}
# Each public entry and where the arbitrary value goes: (values, call(game, value)).
CALLS: dict[str, tuple[st.SearchStrategy[Any], Callable[[Any, Any], Any]]] = {
    "new_game(mission)": (ANY, lambda g, v: new_game(v)),
    "new_game(players)": (ANY, lambda g, v: new_game("japan", players=v)),
    "new_game(difficulty)": (ANY, lambda g, v: new_game("japan", difficulty=v)),
    "new_game(seed)": (ANY, lambda g, v: new_game("japan", seed=v)),
    "new_game(variants)": (ANY, lambda g, v: new_game("japan", variants=v)),
    "new_game(position)": (ANY, lambda g, v: new_game("japan", position=v)),
    "new_game(phase)": (ANY, lambda g, v: new_game("japan", phase=v)),
    "new_game(log)": (ANY, lambda g, v: new_game("japan", log=v)),
    "new_game(chance)": (ANY, lambda g, v: new_game("japan", chance=v)),
    "new_game(game)": (ANY, lambda g, v: new_game("japan", game=v)),
    "new_game(art-of-war, players)": (ANY, lambda g, v: new_game("art-of-war", players=v)),
    "new_game(art-of-war, seed)": (ANY, lambda g, v: new_game("art-of-war", seed=v)),
    "load_rules(mission)": (ANY, lambda g, v: A.load_rules(v)),
    "load_rules(variants)": (ANY, lambda g, v: A.load_rules("japan", v)),
    "shipped_missions()": (st.none(), lambda g, v: A.shipped_missions()),
    "apply_position(st)": (ANY, lambda g, v: A.apply_position(v, {})),
    "apply_position(pos)": (ANY, lambda g, v: A.apply_position(g, v)),
    "position_of": (ANY, lambda g, v: A.position_of(v)),
    "dumps(st)": (ANY, lambda g, v: A.dumps(v)),
    "dumps(fmt)": (ANY, lambda g, v: A.dumps(g, v)),
    "dumps(folder)": (ANY, lambda g, v: A.dumps(g, folder=v)),
    "loads(text)": (ANY, lambda g, v: A.loads(v)),
    "loads(name)": (ANY, lambda g, v: A.loads(A.dumps(g), name=v)),
    "loads(trust)": (ANY, lambda g, v: A.loads(A.dumps(g), trust=v)),
    "loads(folder)": (ANY, lambda g, v: A.loads(A.dumps(g), folder=v)),
    "save_game(st)": (ANY, lambda g, v: A.save_game(v, "s.json")),
    "save_game(path)": (NAME, lambda g, v: A.save_game(g, v)),
    "save_game(replace)": (ANY, lambda g, v: A.save_game(g, "r.json", replace=v)),
    "load_game(path)": (ANY, lambda g, v: A.load_game(v)),
    "load_game(trust)": (ANY, lambda g, v: A.load_game(_saved(g), trust=v)),
    "replay(st)": (ANY, lambda g, v: A.replay(v, [])),
    "replay(actions)": (ANY, lambda g, v: A.replay(g, v)),
    "Action.parse(text)": (ANY, lambda g, v: Action.parse(v)),
    "Action.parse(game)": (ANY, lambda g, v: Action.parse("done", v)),
    "apply": (ANY, lambda g, v: g.apply(v)),
    "legal_actions()": (st.none(), lambda g, v: g.legal_actions()),
    "observation": (ANY, lambda g, v: g.observation(v)),
    "information_state": (ANY, lambda g, v: g.information_state(v)),
    "observation_tensor": (ANY, lambda g, v: g.observation_tensor(v)),
    "information_state_tensor": (ANY, lambda g, v: g.information_state_tensor(v)),
    "tensor_layout": (ANY, lambda g, v: g.tensor_layout(v)),
    "action_id": (ANY, lambda g, v: g.action_id(v)),
    "action_from_id": (ANY, lambda g, v: g.action_from_id(v)),
    "reseed": (ANY, lambda g, v: g.reseed(v)),
    "resample(players)": (ANY, lambda g, v: g.resample(v, 1)),
    "resample(seed)": (ANY, lambda g, v: g.resample([0], v)),
    "simulate_grid(missions)": (ANY, lambda g, v: simulate_grid(v, ["easy"], [2], 1, 0)),
    "simulate_grid(difficulties)": (ANY, lambda g, v: simulate_grid(["japan"], v, [2], 1, 0)),
    "simulate_grid(players)": (ANY, lambda g, v: simulate_grid(["japan"], ["easy"], v, 1, 0)),
    "simulate_grid(games)": (FEW, lambda g, v: simulate_grid(["japan"], ["easy"], [2], v, 0)),
    "simulate_grid(seed)": (ANY, lambda g, v: simulate_grid(["japan"], ["easy"], [2], 1, v)),
    "simulate_grid(variants)": (ANY, lambda g, v: simulate_grid(["japan"], ["easy"], [2], 1, 0,
                                                                 v)),
    "simulate_grid(policy)": (ANY, lambda g, v: simulate_grid(["japan"], ["easy"], [2], 1, 0,
                                                               policy=v)),
    "simulate_grid(workers)": (ANY, lambda g, v: simulate_grid(["japan"], ["easy"], [2], 1, 0,
                                                                workers=v)),
    "simulate_grid(game)": (ANY, lambda g, v: simulate_grid(["japan"], ["easy"], [2], 1, 0,
                                                             game=v)),
    "simulate(players)": (ANY, lambda g, v: simulate("japan", v, "easy", 1, 0)),
}
ON_A_GAME = {"apply", "legal_actions()", "observation", "information_state",
             "observation_tensor", "information_state_tensor", "tensor_layout", "action_id",
             "action_from_id", "reseed", "resample(players)", "resample(seed)",
             "apply_position(pos)", "replay(actions)"}


def _saved(g: Any) -> Path:
    path = Path(f"{g.game}.json")
    if not path.exists():
        A.save_game(g, path)
    return path


def _same(a: Any, b: Any) -> bool:
    """Equal fingerprints (a NaN is equal to itself here)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


@pytest.fixture(autouse=True)
def _in_a_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # saves with arbitrary names are written here


@pytest.mark.parametrize("kind", ["art", "war"])
@pytest.mark.parametrize("call", list(CALLS))
def test_only_the_projects_errors(call: str, kind: str) -> None:
    if kind == "war" and call not in ON_A_GAME | {"dumps(folder)", "save_game(path)",
                                                  "loads(trust)", "load_game(trust)"}:
        pytest.skip("not a method of a game: once is enough")
    values, fn = CALLS[call]

    @settings(max_examples=25, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.filter_too_much])
    @given(value=values)
    def check(value: Any) -> None:
        game = GAMES[kind]()
        before = game.fingerprint()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                made = fn(game, value)
            except ArtError:
                assert _same(game.fingerprint(), before), "a refused call changed the game"
                return
        if call.startswith("new_game") and made is not None:
            assert A.loads(A.dumps(made)).fingerprint() == made.fingerprint()  # a save holds it

    check()


@pytest.mark.parametrize(("args", "message"), [
    ({"seed": 2**64}, "seed must be from"), ({"seed": True}, "seed must be a whole number"),
    ({"players": True}, "players must be a whole number"), ({"players": 1.5}, "players"),
    ({"variants": "no-ally-dice"}, "variants must be a list"),
])
def test_new_game_refuses_what_a_save_could_not_hold(args: dict[str, Any], message: str) -> None:
    with pytest.raises(A.GameError, match=message):
        new_game("japan", **args)
    g = new_game("japan", seed=2**64 - 1)  # the largest seed a save holds: accepted, loads
    assert A.loads(A.dumps(g)).fingerprint() == g.fingerprint()


def test_new_game_takes_numpy_integers_as_ints() -> None:
    """A seed or a team size read from an array (numpy's integers) is the same game as the
    int's, held by a save as an int; numpy's bools and floats are still refused."""
    np = pytest.importorskip("numpy")
    g = new_game("japan", np.int64(3), "hard", np.uint64(2**64 - 1))
    assert type(g.seed) is int and type(g.players) is int
    assert g.fingerprint() == new_game("japan", 3, "hard", 2**64 - 1).fingerprint()
    assert A.loads(A.dumps(g)).fingerprint() == g.fingerprint()
    for args in ({"seed": np.float64(1)}, {"players": np.bool_(True)}, {"seed": np.int8(-1),
                                                                          "players": 0}):
        with pytest.raises(A.GameError, match=r"seed|players"):
            new_game("japan", **args)


def test_a_mission_named_with_another_game_is_that_games_rules() -> None:
    """new_game(MISSION, game=GAME): MISSION is GAME's rules, refused by its loader when it is
    not (it was dropped, and GAME's own rules played); GAME's own rules play on."""
    with pytest.raises(A.RulesError, match="unknown rules 'egypt'; Art of War's shipped rules"):
        new_game("egypt", game="art-of-war")
    with pytest.raises(A.GameError, match=r"the rules given \(egypt\) are a mission of The "
                       r"A\.R\.T\. Project, not rules of the game 'art-of-war'"):
        new_game(A.load_rules("egypt"), game="art-of-war")
    for mission in ("art-of-war", str(Path(__file__).parent.parent / "missions/art-of-war.toml")):
        assert new_game(mission, players=3, game="art-of-war").players == 3
    # "japan", The A.R.T. Project's default board, is a mission named like any other: it was
    # taken for "no mission given" and dropped (Kuhn poker played); no mission is the game's own
    with pytest.raises(A.RulesError, match="unknown rules 'japan' of Kuhn poker"):
        new_game("japan", game="kuhn")
    assert type(new_game(game="kuhn")).__name__ == "Kuhn"
    assert new_game(None, players=3, game="art-of-war").players == 3
    assert new_game().rules.name == new_game(game="art-project").rules.name == "japan"


@pytest.mark.parametrize("spec", ["ismcts:budget=99999999999999999999", "ismcts:tree=101",
                                  "ismcts:depth=0", "ismcts:z=nan", "ismcts:margin=1e999"])
def test_make_policy_bounds_every_number_as_the_command_line_does(spec: str) -> None:
    """A search's budget is bounded in the library too (issue 27, item 7): make_policy reads
    its options through the same limits as simulate and --policy, so no call runs for ever."""
    from artproject.core.errors import GameError
    from artproject.policies import make_policy

    with pytest.raises(GameError, match="must be"):
        make_policy(spec, 1)
    assert make_policy("ismcts:budget=10000", 1) is not None


def test_replay_is_all_or_none() -> None:
    """`replay` with a good action then a bad one leaves the game as it was (the good one
    not applied), as every refused call does; all good, all applied."""
    game = GAMES["art"]()
    first = str(game.legal_actions()[0])
    before = game.fingerprint()
    for bad in (None, "fly p1 mars"):
        with pytest.raises(ArtError):
            A.replay(game, [first, bad])
        assert _same(game.fingerprint(), before)
    assert A.replay(game, iter([first])) is game
    assert len(game.history) == 1


def test_new_game_with_an_empty_game_name_is_the_default_game() -> None:
    """`game=""` names the default game, as `game_class` reads it everywhere: new_game plays
    it (it was taken for another game and given that game's `rules`, a bare TypeError;
    Hypothesis found it)."""
    made = new_game("japan", game="")
    assert made.rules.name == "japan" and made.fingerprint() == new_game("japan").fingerprint()
