"""The rulebook's worked examples, played on the SHIPPED boards at every team size they
allow: a fixture may pin what the rulebook does not print (which card is where), never a
rule. The scenario files under tests/scenarios/ hold the examples at one team size; here the
battle example runs at 1 to 6 players."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from artproject.core.art.loader import load_rules
from artproject.core.scenario import run_scenario

SYMBOLS = ["films", "music", "books", "sculptures", "paintings", "artifacts"]


def _ten() -> int:
    """How many artworks lie on shipped Japan's track when the first free space is the one
    that prints the example's threat of 10 (our track reconstructs the board; it keeps a 10)."""
    threats = [s.threat for s in load_rules("japan").track]
    assert 10 in threats, f"shipped Japan's track prints no 10: {threats}"
    return threats.index(10)


@pytest.mark.parametrize("players", range(1, 7))
def test_the_battle_example_on_shipped_japan(tmp_path: Path, players: int) -> None:
    """Rulebook, C - Battle: "4 + 5 + (1+3) = 13" against "3 agents in the city + 1 in The
    White Hand's headquarters + 10 on the artwork track = agent strength 14": 13 loses; one
    weapon (+2, "Spend one weapon token to increase your battle strength") makes 15 and wins.
    The threat is the printed space's whatever the team (R15). Solo, the second die is the
    ally pawn's ("Your ally's pawn brings you a die ... you roll both dice", R24)."""
    others = ['"kyoto"'] * (players - 2)
    if players == 1:  # solo: the ally pawn's die is rolled at once with the leader's (R24)
        fight = ['do = "fight p1 tokyo"', 'events = ["rolled p1=4 a1=1 a2=3 ally=5"]']
    else:  # p2 joins the battle: every participant is in, and the dice are rolled
        fight = ['do = "fight p1 tokyo"', 'expect = ["threat == 10", "agent_strength == 14"]',
                 "[[step]]", 'do = "join p2"', 'events = ["rolled p1=4 a1=1 a2=3 p2=5"]']
    text = textwrap.dedent(f"""
        about = "the rulebook's battle example, {players} player(s)"
        cites = ["rulebook: Battle", "R14", "R15", "R16", "R24"]
        mission = "japan"
        players = {players}
        seed = 1
        phase = "battle"
        [position]
        pawns = ["tokyo", "tokyo", {", ".join(others)}]
        agents = {{ tokyo = 3 }}
        hq = 1
        track = {SYMBOLS[:_ten()]!r}
        allies = 2
        dice = [4, 1, 3, 5]
        [[step]]
    """) + "\n".join(fight) + textwrap.dedent(f"""
        expect = ["threat == 10", "strength == 13", "agent_strength == 14", 'wait == "losing"']
        [[step]]
        do = "boost {'p1' if players == 1 else 'p2'}"
        events = ["battle_won tokyo 15 14"]
        expect = ["agents(tokyo) == 0", "van.weapon == 2"]
    """)
    p = tmp_path / f"battle-{players}.toml"
    p.write_text(text.lstrip(), encoding="utf-8")
    result = run_scenario(p)
    assert result.passed, "\n".join(result.failures)
