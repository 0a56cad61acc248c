"""A programmer's review of the library (its findings, each a test that failed before the
fix): an explicit-chance save keeps the generator `sample_chance` draws from; `replay`
returns the game as typed; a misspelt option to `new_game` is the project's error; the
viewer constants are exported; `load_rules` loads every game's rules, for `verify`."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import artproject
from artproject import GameError, SaveError, dumps, load_rules, loads, new_game
from artproject.core import saves
from artproject.core.aow.rules import WarRules
from artproject.core.art.rules import Rules
from artproject.core.kuhn.rules import KuhnRules
from artproject.verify import verify


def _step(g: Any) -> None:
    g.apply(g.sample_chance() if g.is_chance_node() else g.legal_actions()[-1])


@pytest.mark.parametrize("kw", [{"mission": "japan", "players": 2},
                                {"game": "art-of-war", "players": 3},
                                {"game": "kuhn", "players": 2}])
@pytest.mark.parametrize("fmt", ["json", "toml"])
def test_an_explicit_save_draws_on_as_the_game_it_saved(kw: dict[str, Any], fmt: str) -> None:
    """A game driven by `sample_chance` and saved at any step draws, once loaded, what the
    game itself goes on to draw (the generator is saved: the actions do not give it back)."""
    g = new_game(seed=3, chance="explicit", **kw)
    steps = 0
    while not g.is_over() and steps < 40:
        h = loads(dumps(g, fmt))
        assert h.rng == g.rng, f"step {steps}: the loaded game's generator differs"
        assert pickle.loads(pickle.dumps(g)).rng == g.rng
        while not g.is_over():  # both play on to the next draw: the same outcome
            if g.is_chance_node():
                assert str(h.sample_chance()) == str(g.sample_chance())
                break
            h.apply(g.legal_actions()[-1])
            _step(g)
        else:
            break
        _step(g)
        steps += 1
    assert steps > 1


def test_an_edited_generator_is_an_edited_save() -> None:
    g = new_game("japan", players=2, seed=3, chance="explicit")
    g.apply("done")
    g.apply(g.sample_chance())
    doc = json.loads(dumps(g))
    doc["generator"] = (doc["generator"] + 1) % 2**64
    with pytest.raises(SaveError, match="replayed game differs"):
        loads(json.dumps(doc))
    for bad in (-1, 2**64, "7", 1.5, True):
        doc["generator"] = bad
        with pytest.raises(SaveError, match="generator"):
            loads(json.dumps(doc))


def test_a_sampled_save_has_no_generator() -> None:
    """Sampled chance: the seed and actions give the generator back (no key written)."""
    g = new_game("japan", players=2, seed=3)
    g.apply("done")
    assert "generator" not in json.loads(dumps(g))
    assert saves.digest(g) == saves._hashed(g.fingerprint())


def test_replay_returns_the_game_as_typed(tmp_path: Path) -> None:
    """`replay(game, ...)` is typed as the game it was given: a typed program reads the
    game's own attributes from it (mypy --strict over a user's program, the package read as
    it is installed: artproject.core is core/, as tools/typecheck.sh lays it out)."""
    root = Path(__file__).resolve().parents[1]
    pkg = tmp_path / "artproject"
    pkg.mkdir()
    for f in (root / "artproject").iterdir():
        (pkg / f.name).symlink_to(f)
    for d in ("core", "dsl", "missions", "cards"):
        (pkg / d).symlink_to(root / d)
    (tmp_path / "user.py").write_text(
        "from artproject import State, new_game, replay\n\n\n"
        "def rounds() -> int:\n"
        "    game: State = new_game('japan', players=2, seed=1)\n"
        "    return replay(game, ['done']).round\n")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                           "--config-file", str(root / "pyproject.toml"), "user.py"],
                          capture_output=True, text=True, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("game", ["japan", "art-of-war", "kuhn"])
def test_a_misspelt_option_is_the_projects_error(game: str) -> None:
    with pytest.raises(GameError, match=r"no option 'player'"):
        new_game(game, player=2)


def test_a_misspelt_option_of_the_first_game_is_named_with_the_nearest() -> None:
    with pytest.raises(GameError, match=r"no option 'difficult' \(did you mean 'difficulty'"):
        new_game("japan", difficult="hard")


def test_another_games_own_option_is_passed_on() -> None:
    """Kuhn poker's `deal`, through the public face's `new_game`."""
    g = new_game("kuhn", deal=["king", "jack"], seed=1)
    assert g.observation(0) != g.observation(1)
    assert "king" in json.dumps(g.observation(0))


def test_the_viewer_constants_are_exported() -> None:
    from artproject.core.actions import NOBODY, PUBLIC, TERMINAL

    assert (artproject.TERMINAL, artproject.PUBLIC, artproject.NOBODY) == (
        TERMINAL, PUBLIC, NOBODY)
    assert {"TERMINAL", "PUBLIC", "NOBODY"} <= set(artproject.__all__)


def test_load_rules_loads_every_games_rules() -> None:
    assert isinstance(load_rules("japan"), Rules)
    assert isinstance(load_rules("art-of-war"), WarRules)
    assert isinstance(load_rules("kuhn"), KuhnRules)
    assert isinstance(load_rules("art-of-war", game="art-of-war"), WarRules)
    assert isinstance(load_rules(game="art-project"), Rules)
    with pytest.raises(GameError, match="unknown game 'chess'"):
        load_rules("art-of-war", game="chess")
    with pytest.raises(GameError, match=r"The A\.R\.T\. Project's"):
        load_rules("art-of-war", cards="x.toml")


def test_verify_takes_art_of_war_rules_from_the_public_face() -> None:
    report = verify(load_rules("art-of-war"), examples=2, seed=1, game="art-of-war")
    assert report.failure is None


def test_another_games_loaded_rules_start_its_game_when_it_is_named() -> None:
    """`load_rules("art-of-war")`'s rules start a game with its game named (the diff
    reviewer's: `new_game(rules)` was refused as no mission's name); without the game named,
    a GameError says to name it."""
    war = load_rules("art-of-war")
    assert new_game(war, game="art-of-war", players=3).players == 3
    with pytest.raises(GameError, match="name their game"):
        new_game(war, players=3)


def test_rules_given_twice_are_the_projects_error() -> None:
    """A rules file as the first argument and `rules=` too: a GameError, not Python's
    TypeError from the game's start."""
    for game in ("art-of-war", "kuhn"):
        with pytest.raises(GameError, match="given twice"):
            new_game("missions/art-of-war.toml", game=game, rules=game)
