"""A comparison with a text the game can never give (`outcome != "lose"`, `phase ==
"battel"`, `wait != "mvoe"`, `symbol(kyoto) != "film"`, `card(17) == "hand p9"`) was
accepted and silently always (or never) held: a property so written passed `check` and
`verify`. It is an error at the text, with the nearest value; every text the game does give
stays accepted (the words' sets hold every value random games reach)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from artproject.cli import main
from artproject.core.art import words
from artproject.core.art.game import new_game
from artproject.core.art.position import CARD_PLACES, card_place

from .test_dsl_authoring import check


@pytest.mark.parametrize(("cond", "col", "message"), [
    ('outcome != "lose"', 21, '`outcome` (a text) is never "lose": the outcomes are "", '
     "lost, won (did you mean 'lost'?)"),
    ('phase != "battel"', 19, '`phase` (a text) is never "battel": the phases are'),
    ('wait != "mvoe"', 18, "(did you mean 'move'?)"),
    ('symbol(kyoto) != "film"', 27, "(did you mean 'films'?)"),
    ('"hand p9" != card(17)', 10, '`card(17)` (a text) is never "hand p9": the places of a '
     "card are"),
])
def test_a_property_compared_with_a_text_the_game_never_gives_is_an_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cond: str, col: int,
        message: str) -> None:
    code, errors, path = check(tmp_path, f"[[property]]\nname = \"p\"\ncheck = '{cond}'\n",
                               capsys, "v.toml")
    errors = [e for e in errors if ": note: " not in e]  # (checked on the default board)
    assert code == 2 and len(errors) == 1, errors
    assert errors[0].startswith(f"{path}:3:{col}: ") and message in errors[0], errors


def test_a_rule_compared_with_a_phase_never_given_is_an_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, errors, path = check(tmp_path, 'extends = "japan"\nhooks = ["on round_start: '
                               'if phase == \\"movment\\" then gain 1 fuel"]\n', capsys)
    assert code == 2 and len(errors) == 1, errors
    assert errors[0].startswith(f"{path}:2:39: ") and "(did you mean 'movement'?)" in errors[0]


@pytest.mark.parametrize("cond", [
    'outcome != "lost" or outcome == "won" or outcome == ""',
    'phase != "before battle" and phase != "setup" and phase != "over"',
    'wait != "move" and wait != "boundary" and wait != ""',
    'symbol(kyoto) != "films" or symbol(tokyo) == ""',
    'card(17) != "hand p6" and card(3) != "chain p2" and card(1) != "removed"',
])
def test_a_text_the_game_gives_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           cond: str) -> None:
    code, errors, _ = check(tmp_path, f"[[property]]\nname = \"p\"\ncheck = '{cond}'\n",
                            capsys, "v.toml")
    assert code == 0 and not [e for e in errors if ": note: " not in e], errors


def test_verify_no_longer_says_a_never_given_text_holds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    Path("v.toml").write_text("[[property]]\nname = \"p\"\ncheck = 'outcome != \"lose\"'\n")
    code = main(["verify", "japan", "--variant", "v.toml", "--examples", "2"])
    said = capsys.readouterr()
    assert code == 2 and "holds" not in said.out, said


@pytest.mark.parametrize(("mission", "players"), [("japan", 1), ("rio", 3), ("usa", 6)])
def test_every_text_random_games_reach_is_one_the_words_know(mission: str,
                                                             players: int) -> None:
    """The words' sets are the engine's own: a text the game gives is never refused."""
    outcomes, phases, waits = (read()[0] for read in
                               (words._outcomes, words._phases, words._waits))
    rng = random.Random(7)
    for seed in range(2):
        st = new_game(mission, players=players, seed=seed)
        cards = range(max(st.rules.cards) + 2)
        while True:
            assert (st.outcome or "") in outcomes and st.phase in phases
            assert st.wait_name() in waits, st.wait_name()
            assert {card_place(st, c) for c in cards} <= CARD_PLACES
            if st.outcome is not None:
                break
            st.apply(rng.choice(st.legal_actions()))
