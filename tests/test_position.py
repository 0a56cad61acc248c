"""Positions: the final card keeps its place (R3) whatever cards a position names, and a
position that cannot exist is a clear error naming its key."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from artproject import State, apply_position, load_rules
from artproject.core.art.position import card_place, deck_card, final_from_bottom, final_from_top
from artproject.core.errors import RulesError
from artproject.core.scenario import run_scenario

from .strategies import card_positions

RULES = load_rules("japan")
BELOW = int(RULES.p("setup.final_card_from_bottom")) - 1  # 12: the cards under it (R3)


def _fresh(players: int) -> State:
    return State.new(RULES, players, "medium", 3, start=False)


def _named(pos: dict[str, object]) -> list[int]:
    hands = pos.get("hands", {})
    assert isinstance(hands, dict)
    out = [c for h in hands.values() for c in h]
    for k in ("chain", "discard", "deck_top"):
        cards = pos.get(k, [])
        assert isinstance(cards, list)
        out += cards
    return out


@given(data=st.data(), players=st.integers(1, 6))
def test_the_final_card_keeps_its_place(data: st.DataObject, players: int) -> None:
    """R3: naming cards in hands, the chain, the discard or on top of the deck takes them from
    above the final card: it stays 13th from the bottom, 12 cards beneath it, until the
    position says it was drawn (R20) or names its place in deck_top."""
    g = _fresh(players)
    clues = {n: c.clues for n, c in RULES.cards.items()}
    pos = data.draw(card_positions(RULES.deck, RULES.final_card, players, clues))
    final = RULES.final_card
    named = [c for c in _named(pos) if c != final]
    top = pos.get("deck_top", [])
    assert isinstance(top, list)
    above = len(g.deck) - BELOW  # the cards above the final card at set-up (solo: fewer)
    drawn = pos.get("final_round") is True or final in pos.get("discard", [])  # type: ignore[operator]
    if not drawn and final not in top and len(named) > above:
        with pytest.raises(RulesError, match=r"too many cards taken out of the deck.*\(R3\)"):
            apply_position(g, pos)
        return
    apply_position(g, pos)
    # every card lies in exactly one place
    places = [card_place(g, c) for c in (*RULES.deck, final)]
    assert "" not in places
    assert sum(map(len, (g.deck, g.deck_top, g.discard, g.removed, *g.hands, *g.chains))) + (
        1 if g.above >= 0 else 0) == len(RULES.deck) + 1
    # draw the whole deck: the named top cards first, in order, and the final card where
    # the position put it
    order = []
    probe = g.clone()
    while (c := probe.draw_card()) is not None:
        order.append(c)
    assert order[: len(top)] == top
    if drawn:
        assert final not in order and card_place(g, final) == "discard" and g.final_round
        assert final_from_top(g) == final_from_bottom(g) == 0
    elif final in top:
        assert order.index(final) == top.index(final)
        assert final_from_top(g) == top.index(final) + 1
    else:
        assert len(order) - 1 - order.index(final) == BELOW  # R3: on the last 12
        assert final_from_bottom(g) == BELOW + 1 and final_from_top(g) == order.index(final) + 1
        assert not g.final_round
    assert [deck_card(g, i + 1) for i in range(len(top))] == top


def test_setup_puts_the_final_card_13th_from_the_bottom() -> None:
    for players in (1, 2, 6):
        g = State.new(RULES, players, "easy", 1, start=False)
        assert final_from_bottom(g) == BELOW + 1 == 13
        assert final_from_top(g) == g.deck_size() - BELOW
        assert deck_card(g, 1) == -1 and deck_card(g, final_from_top(g)) == RULES.final_card


def test_naming_twelve_cards_on_top_keeps_twelve_below() -> None:
    """The issue's own cases: 12 cards in deck_top left the final card drawn 73rd with none
    below it, 4 in the chain and 4 on top drew it 65th with 4 below."""
    for pos, draw in (({"deck_top": list(RULES.deck[:12])}, 61),
                      ({"chain": list(RULES.deck[:4]), "deck_top": list(RULES.deck[4:8])}, 57)):
        g = _fresh(2)
        apply_position(g, pos)
        assert final_from_bottom(g) == 13 and final_from_top(g) == draw


def _scenario(tmp: Path, body: str) -> Path:
    p = tmp / "s.toml"
    p.write_text(textwrap.dedent(body).lstrip())
    return p


@pytest.mark.parametrize(("body", "where", "message"), [
    ("[position]\nhands = { p1 = [0] }\n", "3:17: position.hands.p1[0]",
     "the final card (0) cannot be in a hand: drawn, it is discarded at once (R20)"),
    ("[position]\nchain = [5, 0]\n", "3:13: position.chain[1]",
     "the final card (0) cannot be in a clue chain"),
    ("[position]\nhands = [[5, 1], [19]]\ndiscard = [19]\n", "4:12: position.discard[0]",
     "card 19 is named twice (first at position.hands.p2[0]): a card lies in one place"),
    ("[position]\ndiscard = [0]\nfinal_round = false\n", "4:15: position.final_round",
     "final_round cannot be false"),
    ("[position]\ndeck_top = [0]\nfinal_round = true\n", "4:15: position.final_round",
     "the final round has not begun"),
    ("[position]\ndiscard = [999]\n", "3:12: position.discard[0]",
     "no card 999 in the deck"),
    ("[position]\nfinal_round = 1\n", "3:15: position.final_round",
     "expected true or false, not a whole number 1"),
    ("[position]\nchain = [9, 56, 2]\n", "3:9: position.chain",
     "cards [9, 56, 2] all bear music: 3 matching clues are discarded as soon as they "
     "are gathered (R10), so no chain holds them"),
])
def test_a_position_that_cannot_exist_is_a_clear_error(tmp_path: Path, body: str, where: str,
                                                       message: str) -> None:
    fixture = Path(__file__).parent / "missions" / "japan-scenarios.toml"
    p = _scenario(tmp_path, f"mission = {str(fixture)!r}\n" + body)
    with pytest.raises(RulesError) as err:
        run_scenario(p)
    first = str(err.value).splitlines()[0]
    assert first.startswith(f"{p}:{where}: ") and message in first


def test_too_many_cards_out_of_the_deck_names_the_card(tmp_path: Path) -> None:
    """61 cards out of Japan's deck: only 60 lie above the final card (R3)."""
    cards = list(RULES.deck[:61])
    p = _scenario(tmp_path, f"mission = 'japan'\n[position]\ndiscard = {cards}\n")
    with pytest.raises(RulesError, match=r"position\.discard\[60\]: too many cards"):
        run_scenario(p)
    p.write_text(f"mission = 'japan'\n[position]\ndiscard = {cards}\nfinal_round = true\n")
    assert run_scenario(p).passed  # past the final card: it was drawn (R20)


def test_a_chain_of_its_own_holds_no_triple_either(tmp_path: Path) -> None:
    """USA keeps a chain a player (R21): three matching clues in one player's chain cannot
    exist (R10), while the same cards split between two chains can."""
    body = "mission = 'usa'\nplayers = 2\n[position]\nchains = {{ {} }}\n"
    p = _scenario(tmp_path, body.format("p2 = [9, 56, 2]"))
    with pytest.raises(RulesError, match=r"s\.toml:4:17: position\.chains\.p2: cards \[9, "
                       r"56, 2\] all bear artifacts"):
        run_scenario(p)
    p.write_text(body.format("p1 = [2], p2 = [9, 56]"))
    assert run_scenario(p).passed


def test_the_command_line_says_where_and_exits_2(tmp_path: Path) -> None:
    p = _scenario(tmp_path, "[position]\nhands = { p2 = [0] }\n")
    out = subprocess.run([sys.executable, "-m", "artproject", "scenario", str(p)],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 2
    assert f"{p}:2:17: position.hands.p2[0]: the final card" in out.stderr
    assert "Traceback" not in out.stderr + out.stdout
