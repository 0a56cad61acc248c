"""The shipped deck keeps every fact the rulebook states about mission cards. The card texts
are not in our sources (the deck is our reconstruction, tuned by simulation: docs/balance.md),
so tuning may change its numbers, never these facts; each test quotes the rulebook."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from artproject import new_game
from artproject.core.art.loader import load_rules
from artproject.core.art.rules import Rules

ROOT = Path(__file__).parent.parent
# the shipped deck, and the scenarios' fixed deck (tests/cards/): a fixture may pin which
# card is where, never a rule
DECKS = {"shipped": None, "scenario fixture": str(ROOT / "tests" / "cards" /
                                                  "scenario-deck.toml")}


@pytest.fixture(params=sorted(DECKS), scope="module")
def rules(request: pytest.FixtureRequest) -> Rules:
    return load_rules("japan", cards=DECKS[request.param])


def test_72_mission_cards_and_the_final_card(rules: Rules) -> None:
    """Rulebook, Components: "72 Mission cards", "1 Final card"."""
    assert len(rules.cards) == 72 and len(set(rules.cards)) == 72
    assert rules.final_card is not None and rules.final_card not in rules.cards


def test_the_final_card_goes_on_top_of_the_last_12(rules: Rules) -> None:
    """Rulebook, Setup: "Count out the last 12 cards, place the final card on top of them,
    then return them to the bottom of the deck" (R3)."""
    g = new_game(rules, players=2, seed=5).clone()
    assert g.deck_size() == 73
    drawn = []
    while (card := g.draw_card()) is not None:
        drawn.append(card)
    assert len(drawn) == 73 and drawn[-13] == rules.final_card
    assert sorted(drawn[:-13] + drawn[-12:]) == sorted(rules.cards)


def test_every_card_has_its_four_sections(rules: Rules) -> None:
    """Rulebook, Play a Mission Card: "Spend the resources shown in the first section",
    "Place agent tokens in the cities shown in the second section", "Gain the resources or
    health tokens shown in the third section", "Gather the clues shown in the fourth
    section" -- every card has the four, in that order (an empty one says "nothing")."""
    for card in rules.cards.values():
        assert list(card.text) == ["cost", "agents", "gain", "clues"], card.id


def _in_one_city(rules: Rules) -> Counter[int]:
    """Cards by the most agents they place in a single city (0: none at all)."""
    return Counter(max((n for _, n in card.agents), default=0)
                   for card in rules.cards.values())


def test_cards_place_2_or_3_agents_in_one_city_and_others_none(rules: Rules) -> None:
    """Rulebook, Play a Mission Card: "Some mission cards require placing 2 or 3 agents in a
    single city, others require placing no agents at all." """
    most = _in_one_city(rules)
    assert most[0] >= 1, "no card places no agents"
    assert most[1] >= 1, "no card places a single agent"
    assert most[2] >= 1, "no card places 2 agents in a single city"
    assert most[3] >= 1, "no card places 3 agents in a single city"


def test_clue_backs_bear_one_or_two_symbols(rules: Rules) -> None:
    """Rulebook, Battle: "If the card shows two clue symbols, two dice may be rerolled";
    R9: one or two symbols, never the same twice."""
    sizes = Counter(len(card.clues) for card in rules.cards.values())
    assert set(sizes) == {1, 2}
    assert all(len(set(card.clues)) == len(card.clues) for card in rules.cards.values())


def test_some_card_gains_a_health_token(rules: Rules) -> None:
    """Rulebook, Play a Mission Card: "Gain the resources or health tokens shown in the third
    section"."""
    assert any(kind == "health" for card in rules.cards.values() for kind, _ in card.gain)
