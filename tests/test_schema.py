"""One schema for every rule file: each wrong value is one clear error, odd boards warn.

Each case below is a mutation a hostile user tried (issue 11): it must give exactly the
errors listed, each naming its file, line and key, and never raise anything else.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from artproject.checking import check
from artproject.core import schema
from artproject.core.art import schema as art_schema
from artproject.core.art.loader import load_rules
from artproject.core.errors import RulesError, RulesWarning
from artproject.reference import reference

ROOT = Path(__file__).resolve().parent.parent


def check_text(tmp: Path, text: str, name: str = "m.toml") -> tuple[list[str], list[str]]:
    p = tmp / name
    p.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    errors, warnings = check(p)
    return [str(e) for e in errors], [str(w) for w in warnings]


def test_reference_doc_matches_the_schema() -> None:
    """docs/reference.md is generated from the declarations: `python tools/reference.py`."""
    assert (ROOT / "docs" / "reference.md").read_text(encoding="utf-8") == reference()


def test_every_parameter_is_declared_with_a_meaning_and_has_a_base_value() -> None:
    rules = load_rules("japan")
    declared = {f"{sec}.{f.name}" for sec, cls in zip(
        ("components", "setup", "rules", "solo"), art_schema.PARAMETERS, strict=True)
        for f in cls.__attrs_attrs__}  # type: ignore[attr-defined]
    assert declared == set(rules.params)
    for cls in (*art_schema.PARAMETERS, art_schema.CitySpec, art_schema.TrackSpec,
                art_schema.CardSpec):
        for key, expects, p, _ in schema.fields_of(cls):
            assert p.meaning and expects, key


# ---------------------------------------------------------------- shapes: one error each
@pytest.mark.parametrize(("text", "where", "message"), [
    ('extends = "japan"\nrules = 5\n', "2:9: rules", "expected a table, not a whole number 5"),
    ('extends = "japan"\nsetup = "x"\n', "2:9: setup", "expected a table, not text 'x'"),
    ('extends = "japan"\n[setup]\nvan = 3\n', "3:7: setup.van",
     "expected a table of names = a whole number from 0 to 10,000, not a whole number 3"),
    ('extends = "japan"\n[setup]\nvan = {fuel = nan}\n', "3:15: setup.van.fuel",
     "expected a whole number from 0 to 10,000, not a number nan"),
    ('extends = "japan"\n[setup]\nagents_per_city = inf\n', "3:19: setup.agents_per_city",
     "expected a whole number from 0 to 10,000, not a number inf"),
    ('extends = "japan"\n[rules]\nmove_cost = 5\n', "3:13: rules.move_cost",
     "expected DSL cost (docs/dsl.md), not a whole number 5"),
    ('extends = "japan"\nsymbols = "films"\n', "2:11: symbols",
     "expected a list of names, not text 'films'"),
    ('extends = "japan"\n[components]\nresources = "fuel"\n', "3:13: components.resources",
     "expected a list of names, not text 'fuel'"),
    ('extends = "japan"\n[rules]\nclues_per_artwork = 0\n', "3:21: rules.clues_per_artwork",
     "0 is out of range: expected a whole number from 1 to 10,000"),
    ('extends = "japan"\n[components]\ndie_faces = 0\n', "3:13: components.die_faces",
     "0 is out of range"),
    ('extends = "japan"\n[setup]\nvan = { fuel = -1 }\n', "3:16: setup.van.fuel",
     "-1 is out of range"),
    ('extends = "japan"\n[components]\nagent_tokens = 100000000\n', "components.agent_tokens",
     "100000000 is out of range"),
    ('extends = "japan"\n[rules]\nmovement = "road"\n', "rules.movement",
     "unknown value 'road' (did you mean 'roads'?); expected one of: roads, anywhere"),
    ('extends = "japan"\ncity = [{ name = "a", x = 1e308, y = 1, start = true }]\n', "city[0].x",
     "1e+308 is out of range: expected a number from 0 to 100"),
    ('extends = "japan"\n[[city]]\nname = "a"\nx = 1\ny = 1\nagents = -2\nstart = true\n',
     "6:10: city[0].agents", "-2 is out of range"),
    ('extends = "japan"\n[[city]]\nname = ""\nx = 1\ny = 1\nstart = true\n',
     "3:8: city[0].name", "'' is not a name"),
    ('extends = "japan"\n[difficulty]\n"all levels" = 2\n', "difficulty.all levels",
     "'all levels' is not a word"),
    ('extends = "japan"\ntrack = "long"\n', "2:9: track", "expected a list of tables"),
    ('extends = "japan"\n[[road]]\nfrom = "tokyo"\n', "road[0].to",
     "missing: a road needs 'to' = a city name"),
    ('extends = 3\n', "extends", "expected text, not a whole number 3"),
    ('extends = "japan"\nhooks = "on round_end: win"\n', "2:9: hooks", "expected a list"),
    # issue 16's [tune] section, declared like every other key
    ('extends = "japan"\ntune = 5\n', "2:8: tune", "expected a table, not a whole number 5"),
    ('extends = "japan"\n[tune.setp]\nagents_per_city = [1, 2]\n', "tune.setp",
     "unknown [tune] section 'setp' (did you mean 'setup'?); expected one of: components, "
     "setup, rules, solo, difficulty, track"),
    ('extends = "japan"\n[tune.setup]\nagents_per_city = "1-3"\n',
     "3:19: tune.setup.agents_per_city",
     "expected a range [low, high] of two whole numbers, not text '1-3'"),
    ('extends = "japan"\n[tune.setup]\nagents_per_city = [1, 2, 3]\n',
     "tune.setup.agents_per_city", "not [1, 2, 3]"),
    ('extends = "japan"\n[tune.track]\nthreat = [1, 9]\n', "3:10: tune.track.threat",
     "expected a table, not a list"),
    ('extends = "japan"\n[tune.track]\nthreat = { first = [1, 2] }\n',
     "tune.track.threat.last", "missing: this key is required"),
    ('extends = "japan"\n[tune.track]\nthreats = { first = [1, 2], last = [3, 4] }\n',
     "tune.track.threats", "unknown track number 'threats' (did you mean 'threat'?)"),
    # the range is read against the parameter's own declaration: dice have 1 to 100 faces
    ('extends = "japan"\n[tune.components]\ndie_faces = [2, 200]\n',
     "3:13: tune.components.die_faces",
     "the range [2, 200] is outside what the rules accept (1 to 100)"),
    ('extends = "japan"\n[tune.components]\nresources = [1, 2]\n',
     "tune.components.resources", "only whole-number parameters can be tuned"),
])
def test_a_wrong_value_is_one_error(tmp_path: Path, text: str, where: str, message: str,
                                    ) -> None:
    errors, _ = check_text(tmp_path, text)
    assert len(errors) == 1, errors
    first = errors[0].splitlines()[0]
    assert where in first and message in first, first
    assert first.startswith(str(tmp_path / "m.toml"))


def test_a_file_without_extends_is_one_error(tmp_path: Path) -> None:
    errors, _ = check_text(tmp_path, 'name = "x"\n[rules]\nlost_city_at = 4\n')
    assert len(errors) == 1 and "not a mission: it extends no mission" in errors[0]


def test_an_empty_file_is_an_error(tmp_path: Path) -> None:
    errors, _ = check_text(tmp_path, "# nothing here\n")
    assert errors == [f"{tmp_path / 'm.toml'}: empty file: not a mission, variant, card file "
                      "or scenario"]


def test_a_base_file_checks_its_own_values(tmp_path: Path) -> None:
    text = (ROOT / "missions" / "base.toml").read_text().replace(
        "lost_city_at = 5 ", 'lost_city_at = "banana"')
    errors, _ = check_text(tmp_path, text, "base.toml")
    assert len(errors) == 1 and "rules.lost_city_at: expected a whole number" in errors[0]
    assert check_text(tmp_path, (ROOT / "missions" / "base.toml").read_text()) == ([], [])


def test_a_card_file_of_the_wrong_shape(tmp_path: Path) -> None:
    errors, _ = check_text(tmp_path, "[final]\nid = 0\n[[card]]\nid = 1\nclues = 3\n")
    assert len(errors) == 1 and "card[0].clues: expected DSL symbols" in errors[0]
    errors, _ = check_text(tmp_path, 'final = 0\ncard = "x"\n')
    assert len(errors) == 2 and "final: expected a table" in errors[0]


# ---------------------------------------------------------------- names
@pytest.mark.parametrize(("name", "message"), [
    ("hq", "'hq' cannot be the name of a city"),
    ("p1", "'p1' cannot be the name of a city"),
    ("threat", "'threat' cannot be the name of a city"),
    ("x2", "'x2' cannot be the name of a city"),
    ("films", "city 'films' has the name of an artwork symbol"),
    ("Kyoto", "'Kyoto' is not a name"),
])
def test_city_names_cannot_clash_with_the_dsl(tmp_path: Path, name: str, message: str) -> None:
    text = (ROOT / "missions" / "japan.toml").read_text().replace('"kyoto"', f'"{name}"')
    text = text.replace('extends = "base"', f'extends = "{ROOT}/missions/base.toml"')
    errors, _ = check_text(tmp_path, text)
    assert len(errors) == 1 and message in errors[0], errors


# ---------------------------------------------------------------- meaning: errors
@pytest.mark.parametrize(("text", "where", "message"), [
    ("[setup]\nvan = { fuel = 9 }\n", "setup.van.fuel",
     "9 fuel in the van at set-up, but the game has 6 fuel tokens (R1)"),
    ("[setup]\nfinal_card_from_bottom = 9999\n", "setup.final_card_from_bottom",
     "the final card would lie under 9998 cards, but the deck has 72"),
    ("[solo]\nremoved_cards = 9999\n", "solo.removed_cards",
     "solo mode removes 9999 cards from a deck of 72"),
    ("[rules]\nclues_per_artwork = 99\n", "rules.clues_per_artwork",
     "no artwork can ever reach the track: no symbol is on 99 cards"),
    ("[components]\nartwork_tokens = 3\n", "components.artwork_tokens",
     "the track has 6 spaces, but the game has 3 artwork tokens"),
    ("[components]\nagent_tokens = 10\n", "components.agent_tokens",
     "set-up places 16 agents, but the game has 10 agent tokens (R2)"),
    ("[difficulty]\nhard = 26\n", "difficulty.hard",
     "hard: every team needs more than the 25 health tokens"),
    ('[[road]]\nfrom = "tokyo"\nto = "tokyo"\n', "road[0]", "a road from 'tokyo' to itself"),
])
def test_a_board_that_cannot_be_played_is_an_error(tmp_path: Path, text: str, where: str,
                                                   message: str) -> None:
    errors, _ = check_text(tmp_path, 'extends = "japan"\n' + text)
    assert len(errors) == 1, errors
    assert f"{tmp_path / 'm.toml'}:" in errors[0] and f"{where}: {message}" in errors[0], errors


def test_an_ordered_track_needs_reachable_artworks(tmp_path: Path) -> None:
    """Rio's track demands paintings first: no road to Lapa's paintings cannot be won."""
    rio = (ROOT / "missions" / "rio.toml").read_text()
    blocks = rio.split("\n\n")
    cut = "\n\n".join(b for b in blocks if not (b.startswith("[[road]]") and "lapa" in b))
    cut = cut.replace('extends = "base"', f'extends = "{ROOT}/missions/base.toml"')
    errors, _ = check_text(tmp_path, cut)
    assert len(errors) == 1 and "track[0].symbol: the track demands a paintings artwork here, " \
        "but no city the pawns can reach bears 'paintings'" in errors[0], errors


# ---------------------------------------------------------------- meaning: warnings
@pytest.mark.parametrize(("text", "message"), [
    ("road = []\n", "no road leads from the start to sapporo, sendai, nagoya"),
    ("[difficulty]\neasy = 5\n", "easy: teams of 6 need more than the 25 health tokens"),
    ("[solo]\nremoved_cards = 65\n", "solo mode removes 65 of 72 cards: the final card would "
     "be drawn first and every solo game would end in round 1"),
    ("[rules]\nlost_city_at = 41\n", "no city can hold 41 agents (the game has 40)"),
    ("[[track]]\nthreat = 5\nally_cost = 1\n[[track]]\nthreat = 4\nally_cost = 1\n",
     "the threat falls along the track"),
])
def test_a_board_that_is_merely_odd_warns(tmp_path: Path, text: str, message: str) -> None:
    errors, warnings = check_text(tmp_path, 'extends = "japan"\n' + text)
    assert errors == [] and len(warnings) == 1, (errors, warnings)
    assert "warning: " + message in warnings[0]


def test_warnings_stay_with_the_rules() -> None:
    rules = load_rules("japan")
    assert rules.warnings == ()
    w = RulesWarning("odd", None, "rules.x")
    assert isinstance(w, RulesError) and str(w) == "rules.x: warning: odd"


# ---------------------------------------------------------------- scenarios and positions
def test_a_scenarios_shape_errors_are_reported_together(tmp_path: Path) -> None:
    errors, _ = check_text(tmp_path, """
        players = 0
        phase = "lunch"
        [position]
        hands = { p1 = [1, [2]] }
        dice = [0]
        [[step]]
        do = 3
        expect = "round == 1"
    """)
    where = [e.splitlines()[0].split(": ")[1] for e in errors]
    assert where == ["players", "phase", "position.hands.p1[1]", "position.dice[0]",
                     "step[0].do", "step[0].expect"], errors


@pytest.mark.parametrize(("position", "message"), [
    ("hands = { p1 = [[1]] }", "position.hands.p1[0]: expected a whole number"),
    ("health = 3", "position.health: expected a list of whole numbers from 1, p1 first, or a "
                   "table of pN = health, not a whole number 3"),
    ("deck_top = [1.5]", "position.deck_top[0]: expected a whole number"),
    ("final_round = 1", "position.final_round: expected true or false"),
    ("helth = [3]", "position.helth: unknown position entry 'helth' (did you mean 'health'?)"),
])
def test_a_positions_entries_are_declared(tmp_path: Path, position: str, message: str) -> None:
    errors, _ = check_text(tmp_path, f"[position]\n{position}\n")
    assert len(errors) == 1 and message in errors[0], errors
