"""Loading rule files: merging, every error kind with its location, check finding all errors."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from artproject.checking import check_file
from artproject.core.art.loader import load_rules, shipped_missions
from artproject.core.errors import RulesError, RulesErrors


def write(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return p


def errors_of(path: Path) -> list[str]:
    return [str(e) for e in check_file(path)]


def test_shipped_rules_load() -> None:
    rules = load_rules("japan")
    assert "japan" in shipped_missions()
    assert len(rules.cities) == 8
    assert rules.cities[rules.start].name == "tokyo"
    assert len(rules.track) == 6 and 10 in [s.threat for s in rules.track]  # the example
    assert len(rules.cards) == 72


def test_deck_invariants() -> None:
    """R9: 1 or 2 distinct clue symbols a card; the clue symbols are balanced (our deck)."""
    rules = load_rules("japan")
    counts = dict.fromkeys(rules.symbols, 0)
    for card in rules.cards.values():
        assert 1 <= len(card.clues) <= 2
        assert len(set(card.clues)) == len(card.clues)
        for s in card.clues:
            counts[rules.symbols[s]] += 1
    assert len(set(counts.values())) == 1  # every symbol as often as the others
    assert rules.final_card not in rules.cards


def test_mission_from_a_path_extends_a_shipped_one(tmp_path: Path) -> None:
    p = write(tmp_path, "harder.toml", """
        name = "harder-japan"
        extends = "japan"
        [rules]
        lost_city_at = 4
    """)
    rules = load_rules(p)
    assert rules.p("rules.lost_city_at") == 4
    assert rules.p("rules.weapon_bonus") == 2  # untouched: inherited
    assert len(rules.cities) == 8 and rules.name == "harder-japan"


def test_variant_adds_hooks_and_overrides(tmp_path: Path) -> None:
    v = write(tmp_path, "v.toml", """
        about = "a house rule"
        hooks = ["on round_start: gain 1 fuel"]
        [difficulty]
        easy = 5
    """)
    rules = load_rules("japan", [v])
    assert rules.difficulties["easy"] == 5 and "round_start" in rules.hooks
    assert rules.variants == (str(v),)


def test_toml_syntax_error_has_line_and_column(tmp_path: Path) -> None:
    p = write(tmp_path, "broken.toml", """
        name = "x"
        extends = "japan"
        [rules
        lost_city_at = 4
    """)
    with pytest.raises(RulesError) as err:
        load_rules(p)
    first = str(err.value).splitlines()[0]
    assert first.startswith(f"{p}:3:") and "not valid TOML" in first


def test_an_arrays_item_is_placed_whatever_its_type() -> None:
    """Each item of an array is found where it begins, strings or not, and what is inside
    a nested array or an inline table belongs to its item (a number once moved the caret
    onto the next string)."""
    from artproject.core.sources import SourceMap

    text = textwrap.dedent("""\
        cards = [10, "jack", true]
        pairs = [[1, "a"], {x = "b"}, "c",
          2026-12-01, 'd']  # "not an item"
        after = 1
    """)
    where = SourceMap("t.toml", text).where
    assert [where[("cards", i)] for i in range(3)] == [(1, 10), (1, 14), (1, 22)]
    assert [where[("pairs", i)] for i in range(5)] == [(2, 10), (2, 20), (2, 31), (3, 3),
                                                       (3, 15)]
    assert ("pairs", 5) not in where and where[("after",)] == (4, 9)


def test_misspelt_city_in_road(tmp_path: Path) -> None:
    p = write(tmp_path, "m.toml", """
        extends = "japan"

        [[road]]
        from = "tokyo"
        to = "kyotto"
    """)
    errs = errors_of(p)
    assert errs == [f"{p}:5:6: road[0].to: unknown city 'kyotto' (did you mean 'kyoto'?)\n"
                    '    to = "kyotto"\n'
                    "         ^"]


def test_dsl_error_in_hook_points_into_the_string(tmp_path: Path) -> None:
    p = write(tmp_path, "m.toml", """
        extends = "japan"
        hooks = [
          "on artwork_collected: place 2 agents in tokio",
        ]
    """)
    (err,) = errors_of(p)
    assert err.splitlines()[0] == (
        f"{p}:3:44: unknown city 'tokio' (did you mean 'tokyo'?)")
    assert err.splitlines()[2] == " " * (4 + 43) + "^"


def test_card_file_shape_errors_name_the_path(tmp_path: Path) -> None:
    p = write(tmp_path, "cards.toml", """
        [final]
        id = 0

        [[card]]
        id = 1
        clues = "films"
        gain = 3

        [[card]]
        id = 2
        clues = "films, filmz"
        cost = "1 fule"
    """)
    errs = errors_of(p)
    assert len(errs) == 3, errs
    assert errs[0].startswith(f"{p}:7:8: card[0].gain: ")
    assert f"{p}:11:17: unknown clue symbol 'filmz' (did you mean 'films'?)" in errs[1]
    assert f"{p}:12:11: unknown kind 'fule' (did you mean 'fuel'?)" in errs[2]


def test_unknown_keys_and_parameters(tmp_path: Path) -> None:
    p = write(tmp_path, "m.toml", """
        extends = "japan"
        hook = ["on round_start: win"]
        [rules]
        lost_city_a = 4
        weapon_bonus = "two"
    """)
    errs = errors_of(p)
    assert any("unknown key 'hook' (did you mean 'hooks'?)" in e for e in errs)
    assert any("rules.lost_city_a: unknown rule parameter 'lost_city_a' (did you mean "
               "'lost_city_at'?)" in e for e in errs)
    assert any("rules.weapon_bonus: expected a whole number from 0 to 10,000, not text 'two'"
               in e for e in errs)


@pytest.mark.parametrize(("value", "message"), [
    ("[0, 1, 2]", "expected 6 whole numbers, the threat added for 1, 2, 3, 4, 5 and 6 "
                  "players, not 3"),
    ('[0, 0, 0, 0, 0, "1"]', "expected a whole number from -10,000 to 10,000, not text"),
    ("[0, 0, 0, 0, 0, true]", "expected a whole number from -10,000 to 10,000, not a boolean"),
    ("[0, 0, 0, 0, 0, 100000]", "100000 is out of range"),
    ("[0, -50, 0, 0, 0, 0]", "-50 for 2 players would bring the track's lowest threat (2) "
                             "below 0"),
    ("2", "expected a list of 6 whole numbers, from -10,000 to 10,000, not a whole number 2"),
])
def test_bad_threat_by_players(tmp_path: Path, value: str, message: str) -> None:
    """`rules.threat_by_players` (our reconstruction, docs/missions.md): six whole numbers
    that leave every space's threat at 0 or more; anything else names file:line:col."""
    p = write(tmp_path, "m.toml", f"""
        extends = "japan"
        [rules]
        threat_by_players = {value}
    """)
    errs = errors_of(p)
    assert len(errs) == 1, errs
    assert errs[0].startswith(f"{p}:3:"), errs
    assert message in errs[0], errs


def test_huge_numbers_are_refused(tmp_path: Path) -> None:
    p = write(tmp_path, "m.toml", """
        extends = "japan"
        [components]
        agent_tokens = 100000000
    """)
    assert any("out of range" in e for e in errors_of(p))


def test_unknown_mission_suggests() -> None:
    with pytest.raises(RulesError) as err:
        load_rules("japn")
    assert "unknown mission 'japn' (did you mean 'japan'?)" in str(err.value)


def test_all_errors_are_reported_together(tmp_path: Path) -> None:
    p = write(tmp_path, "m.toml", """
        extends = "japan"
        hooks = ["on round_strat: win", "on round_end: gain 1 fule"]
    """)
    with pytest.raises(RulesErrors) as err:
        load_rules(p)
    assert len(err.value.errors) == 2


def test_extends_loop(tmp_path: Path) -> None:
    a = write(tmp_path, "a.toml", 'extends = "b.toml"\n')
    write(tmp_path, "b.toml", 'extends = "a.toml"\n')
    with pytest.raises(RulesError) as err:
        load_rules(a)
    assert "extends itself" not in str(err.value)  # untrue: the loop is told as its chain
    assert f"a.toml extends {tmp_path}/b.toml, which extends {tmp_path}/a.toml" in str(err.value)


def test_every_shipped_file_checks_clean() -> None:
    root = Path(__file__).resolve().parent.parent
    files = [*root.glob("missions/**/*.toml"), *root.glob("cards/*.toml")]
    assert files
    for f in files:
        assert errors_of(f) == [], f


def test_rio_keeps_the_rulebooks_facts() -> None:
    """Rio's map is ours, but every fact the rulebook gives is kept: its example (R26) needs
    the films district next to the paintings district, whose artwork the track wants first."""
    r = load_rules("rio")
    films, = r.by_symbol["films"]
    paintings, = r.by_symbol["paintings"]
    assert paintings in {road.dst for road in r.neighbours[films]}  # R26: neighbours
    assert r.track[0].symbol == "paintings" and len(r.track) in (6, 7)
    assert r.cities[r.start].name == "central" and r.cities[r.start].symbol is None
    assert sorted(r.symbols) == sorted(c.symbol for c in r.cities if c.symbol)  # one each
    assert set(r.setup_agents) == {0} and r.p("setup.player_agents") == 2  # R25
    assert r.p("rules.carry_artworks")  # R23, R26
    assert any(road.attrs.get("style") == "dashed" for roads in r.neighbours for road in roads)
