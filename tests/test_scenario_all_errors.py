"""A scenario file's mistakes all reported in one run, each at its file:line:col (docs/
scenarios.md): every step's actions and expectations, every position entry (a table's keys,
a list's dice and cities one by one), the difficulty; a mission, variant or card file that
cannot be found is told at the key that names it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from artproject.core.errors import RulesError, RulesErrors
from artproject.core.scenario import run_scenario


def errors_of(tmp_path: Path, text: str) -> list[str]:
    f = tmp_path / "s.toml"
    f.write_text(text)
    with pytest.raises(RulesError) as err:
        run_scenario(f)
    found = err.value.errors if isinstance(err.value, RulesErrors) else [err.value]
    return [str(e).splitlines()[0].replace(f"{tmp_path}/", "") for e in found]


def test_every_steps_mistake_at_once(tmp_path: Path) -> None:
    got = errors_of(tmp_path, """mission = "japan"
players = 3
[[step]]
do = "mvoe p1 kyoto"
expect = ['deciding == p4', "agents(tokio) == 1", "hq"]
[[step]]
refuse = "frobnicate"
only_legal = ["move p9 kyoto", "bad bad"]
returns = [1]
events_with = [" "]
""")
    assert [g.split(": ")[0] for g in got] == [
        "s.toml:4:6", "s.toml:5:24", "s.toml:5:37", "s.toml:5:52", "s.toml:7:10",
        "s.toml:8:15", "s.toml:8:32", "s.toml:9:11", "s.toml:10:16"]
    assert "unknown verb 'mvoe'" in got[0]
    assert "no player 'p4'" in got[1]
    assert "unknown name 'tokio'" in got[2]
    assert "expected a condition" in got[3]
    assert "unknown verb 'frobnicate'" in got[4]
    assert "'p9' is not a player" in got[5]
    assert "unknown verb 'bad'" in got[6]
    assert "1 returns for a 3-player game" in got[7]
    assert "an empty text" in got[8]


def test_every_position_mistake_at_once_with_the_steps(tmp_path: Path) -> None:
    got = errors_of(tmp_path, """mission = "japan"
difficulty = "nightmare"
[position]
pawns = ["tokio", "kyoto"]
van = { fuel = 99, radio = 9 }
dice = [7, 0]
lost = ["osaka", "nowhere", "atlantis"]
hands = [[5, 5], [19]]
[[step]]
do = "done"
expect = ["hq"]
""")
    assert got == [
        "s.toml:2:14: difficulty: unknown difficulty 'nightmare'; expected one of: easy, "
        "medium, hard, impossible",
        "s.toml:4:10: position.pawns.p1: unknown city 'tokio' (did you mean 'tokyo'?)",
        "s.toml:5:16: position.van.fuel: expected a whole number from 0 to 6, not 99",
        "s.toml:5:28: position.van.radio: expected a whole number from 0 to 6, not 9",
        "s.toml:6:9: position.dice[0]: expected a whole number from 1 to 6, not 7",
        "s.toml:6:12: position.dice[1]: 0 is out of range: expected a whole number from 1 "
        "to 100",
        "s.toml:7:18: position.lost[1]: unknown city 'nowhere'",
        "s.toml:7:29: position.lost[2]: unknown city 'atlantis'",
        "s.toml:8:14: position.hands.p1[1]: card 5 is named twice (first at "
        "position.hands.p1[0]): a card lies in one place",
        "s.toml:11:12: expected a condition (true or false), not a number; compare it, as "
        "in `hq > 0`"]


def test_entries_that_disagree_are_still_told(tmp_path: Path) -> None:
    got = errors_of(tmp_path, """mission = "japan"
[position]
hands = [[5], [19]]
discard = [19]
""")
    assert len(got) == 1 and "card 19 is named twice" in got[0]


@pytest.mark.parametrize(("text", "head"), [
    ('mission = "nope.toml"\n', "s.toml:1:11: mission: "),
    ('variants = ["reroll-any-dice", "nope"]\n', "s.toml:1:32: variants[1]: unknown variant "
                                                 "'nope'"),
    ('variants = ["nope.toml"]\n', "s.toml:1:13: variants[0]: "),
    ('cards = "nope.toml"\n', "s.toml:1:9: cards: "),
])
def test_a_file_not_found_is_told_at_its_key(tmp_path: Path, text: str, head: str) -> None:
    got = errors_of(tmp_path, text)
    assert len(got) == 1 and got[0].startswith(head), got


def test_the_command_tells_them_all_and_exits_2(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text('players = 3\n[[step]]\ndo = "mvoe p1 kyoto"\nexpect = ["deciding == p4", '
                 '"hq"]\n')
    out = subprocess.run([sys.executable, "-m", "artproject", "scenario", str(f)],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 2
    told = out.stdout + out.stderr
    assert "mvoe" in told and "p4" in told and "expected a condition" in told


def test_a_step_naming_a_player_the_game_has_not_is_told_against_its_players(
        tmp_path: Path) -> None:
    """`do = "move p3 kyoto"` in a game of two said `expected p1..p6` (the most any game
    seats); it names this game's players, as `play` and the server do. An action a step
    expects refused may name any player."""
    got = errors_of(tmp_path, 'mission = "japan"\nplayers = 2\n[[step]]\ndo = "move p3 kyoto"\n'
                    '[[step]]\nrefuse = "move p5 kyoto"\n')
    assert got == ["s.toml:4:6: step[0].do: 'move p3 kyoto': 'p3' is not a player; expected "
                   "p1..p2"], got


def test_art_of_war_positions_tell_every_mistake_at_once(tmp_path: Path) -> None:
    """Art of War's set-up stopped at its position's first mistake, steps unchecked; each
    entry is now checked on a game holding the position's own hands (the seeded deal's
    would hold the cards a deck_top names), the hands read together."""
    got = errors_of(tmp_path, """game = "art-of-war"
players = 3
seed = 4
[position]
hands = { p1 = ["legnd", "farmer"], p2 = ["heroine", "soldier"], p3 = ["chef", "monk"] }
tokens = [6, -1, 6]
deck_top = ["king", "qeen", "queen"]
[[step]]
do = "challenge p1 p9"
""")
    assert got == [
        "s.toml:5:17: position.hands.p1[0]: unknown card 'legnd' (did you mean 'legend'?)",
        "s.toml:6:14: position.tokens[1]: -1 is out of range: expected a whole number from 0 "
        "to 10,000",
        "s.toml:7:21: position.deck_top[1]: unknown card 'qeen' (did you mean 'queen'?)",
        "s.toml:9:6: step[0].do: 'challenge p1 p9': 'p9' is not a player; expected p1..p3"], got
