"""The default game is the rulebook's: no shipped board adds threat by team size; the
team-size threat is the house rule `team-threat`, opt-in, each board keeping its own numbers
(docs/missions.md, "The threat by team size")."""

from __future__ import annotations

import textwrap
import tomllib
from pathlib import Path

import pytest

from artproject import new_game
from artproject.core.art.loader import load_rules, shipped_missions, shipped_variants
from artproject.core.errors import RulesError

ROOT = Path(__file__).parent.parent
BOARDS = shipped_missions()


def errors_of(path: Path, variants: tuple[str | Path, ...] = ()) -> list[str]:
    try:
        load_rules(path, variants)
    except RulesError as e:
        return str(e).split("\n\n") if "\n\n" in str(e) else [str(e)]
    return []


def test_no_shipped_board_adds_threat_by_team_size() -> None:
    """Rulebook, Battle: "the threat level shown on the first free space of the artwork
    track" -- one printed number, whatever the team. No shipped board sets a number a team
    size adds (the house rule's numbers are its own key, off unless switched on)."""
    for path in sorted((ROOT / "missions").glob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        rules = doc.get("rules", {})
        assert not any(rules.get("threat_by_players", [])), path
        assert rules.get("team_threat", False) is False, path
    assert "printed-track" not in shipped_variants()  # printed is the default: no variant


@pytest.mark.parametrize("board", BOARDS)
def test_every_team_size_reads_the_printed_space(board: str) -> None:
    """On every shipped board at every team size, the threat read in battle is the printed
    space's (R15); with the house rule `team-threat`, the board's own number is added."""
    rules = load_rules(board)
    house = load_rules(board, ["team-threat"])
    own = rules.p("rules.team_threat_by_players")
    assert any(own), f"{board} keeps its own numbers for the house rule"
    for players in range(1, 7):
        g = new_game(board, players=players, seed=1)
        assert g.threat() == rules.track[0].threat
        city = g.rules.start
        assert g.agent_strength(city) == g.agents[city] + rules.track[0].threat + g.hq
        h = new_game(board, players=players, seed=1, variants=["team-threat"])
        assert h.threat() == house.track[0].threat + own[players - 1]


def _files(tmp: Path, board: str, variant: str) -> tuple[Path, Path]:
    b, v = tmp / "harbour.toml", tmp / "house.toml"
    b.write_text(textwrap.dedent(board).lstrip(), encoding="utf-8")
    v.write_text(textwrap.dedent(variant).lstrip(), encoding="utf-8")
    return b, v


def test_a_variant_switching_on_a_team_threat_below_zero_is_refused_where_it_is_set(
        tmp_path: Path) -> None:
    """Bad input: switching the house rule on where a board's number would bring a space
    below 0 names the switch's file:line:col."""
    low = min(s.threat for s in load_rules("japan").track)
    board, variant = _files(tmp_path, f"""
        extends = "japan"
        [rules]
        team_threat_by_players = [0, 0, {-low - 1}, 0, 0, 0]
    """, """
        about = "a team of three faces less"
        [rules]
        team_threat = true
    """)
    assert errors_of(board) == []  # off, the numbers are not played: nothing to refuse
    (err,) = errors_of(board, (variant,))
    assert err.startswith(f"{variant}:3:15: rules.team_threat: {-low - 1} for 3 players would "
                          f"bring the track's lowest threat ({low}) below 0"), err
    # the shipped switch, on a board of one's own, points at that board's own numbers
    variant.write_text("[rules]\nteam_threat = true\nteam_threat_by_players = "
                       f"[0, 0, 0, 0, 0, {-low - 2}]\n", encoding="utf-8")
    (err,) = errors_of(board, (variant,))
    assert err.startswith(f"{variant}:3:26: rules.team_threat_by_players: {-low - 2} for 6 "
                          "players"), err


@pytest.mark.parametrize(("value", "message"), [
    ("[0, 1]", "expected 6 whole numbers, the threat added for 1, 2, 3, 4, 5 and 6 players, "
               "not 2"),
    ('[0, 0, 0, 0, 0, "1"]', "expected a whole number from -10,000 to 10,000, not text"),
])
def test_bad_team_threat_numbers(tmp_path: Path, value: str, message: str) -> None:
    """The board's numbers for the house rule are checked even while it is off."""
    board, _ = _files(tmp_path, f"""
        extends = "japan"
        [rules]
        team_threat_by_players = {value}
    """, "")
    (err,) = errors_of(board)
    assert err.startswith(f"{board}:3:"), err
    assert message in err
