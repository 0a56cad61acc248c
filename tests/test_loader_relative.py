"""A relative path written in a rule file (a mission's `extends` and `cards`, Art of War's
`cards`) is read relative to the file that names it, never the current directory: a file of
the same name where the command is run is not looked at, and one only there is no such file,
told at the reference's file, line and column. A path given by the caller (a scenario's deck,
a file named on the command line) stays the caller's: relative to the current directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from artproject.core.aow.loader import load_rules as load_war
from artproject.core.art.loader import load_rules
from artproject.core.errors import RulesError
from artproject.core.scenario import run_scenario
from artproject.core.sources import package_dir, scenario_ref
from tests.test_loader_refs import cli, located, write

DECK = package_dir("cards") / "mission-cards.toml"
WAR = package_dir("missions") / "art-of-war.toml"
WAR_DECK = package_dir("cards") / "art-of-war.toml"


def titled_deck(title: str) -> str:
    """The shipped mission deck with its first card titled `title`: which deck was read."""
    text = DECK.read_text(encoding="utf-8")
    assert "[[card]]\nid = 1\n" in text
    return text.replace("[[card]]\nid = 1\n", f'[[card]]\nid = 1\ntitle = "{title}"\n', 1)


def war_rules(cards: str) -> str:
    """The shipped rules of Art of War naming the card file `cards`."""
    text = WAR.read_text(encoding="utf-8")
    assert '\ncards = "art-of-war"\n' in text
    return text.replace('\ncards = "art-of-war"\n', f'\ncards = "{cards}"\n', 1)


def war_deck(title: str) -> str:
    """Art of War's shipped deck with its farmer titled `title`."""
    text = WAR_DECK.read_text(encoding="utf-8")
    assert 'name = "farmer"\n' in text
    return text.replace('name = "farmer"\n', f'name = "farmer"\ntitle = "{title}"\n', 1)


def war_line(text: str, key: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(key))


# ====================================================================== extends
def test_extends_reads_the_file_beside_not_the_one_in_the_cwd(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "sub/m.toml", 'extends = "parent.toml"\n')
    write(tmp_path, "sub/parent.toml", 'extends = "japan"\nabout = "Beside"\n')
    write(tmp_path, "parent.toml", 'extends = "japan"\nabout = "Where it is run"\n')
    monkeypatch.chdir(tmp_path)
    assert load_rules(Path("sub/m.toml")).raw["about"] == "Beside"
    assert load_rules("sub/m.toml").raw["about"] == "Beside"
    assert load_rules(tmp_path / "sub" / "m.toml").raw["about"] == "Beside"


def test_extends_to_a_file_only_in_the_cwd_is_no_such_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "sub/m.toml", '# a mission\nextends = "parent.toml"\n')
    write(tmp_path, "parent.toml", 'extends = "japan"\nabout = "Where it is run"\n')
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulesError) as err:
        load_rules(Path("sub/m.toml"))
    located(err.value, "m.toml", 2, 11)
    assert err.value.path == "extends"
    assert "no such file: sub/parent.toml" in str(err.value)
    code, text = cli(capsys, "check", "sub/m.toml")
    assert code == 2
    assert "sub/m.toml:2:11: extends: no such file: sub/parent.toml" in text


def test_a_path_up_a_folder_is_read_from_the_files_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "a/b/m.toml", 'extends = "../parent.toml"\n')
    write(tmp_path, "a/parent.toml", 'extends = "japan"\nabout = "Beside"\n')
    write(tmp_path, "a/b/sub/x.toml", "")  # the cwd below: ../parent.toml is a/b/parent.toml
    write(tmp_path, "a/b/parent.toml", 'extends = "japan"\nabout = "Where it is run"\n')
    monkeypatch.chdir(tmp_path / "a" / "b" / "sub")
    assert load_rules(tmp_path / "a" / "b" / "m.toml").raw["about"] == "Beside"


# ====================================================================== cards
def test_cards_reads_the_deck_beside_not_the_one_in_the_cwd(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "sub/m.toml", 'extends = "japan"\ncards = "deck.toml"\n')
    write(tmp_path, "sub/deck.toml", titled_deck("Beside"))
    write(tmp_path, "deck.toml", titled_deck("Where it is run"))
    monkeypatch.chdir(tmp_path)
    assert load_rules(Path("sub/m.toml")).cards[1].title == "Beside"
    assert load_rules(tmp_path / "sub" / "m.toml").cards[1].title == "Beside"


def test_cards_in_a_file_extended_is_read_beside_that_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "m.toml", 'extends = "sub/parent.toml"\n')
    write(tmp_path, "sub/parent.toml", 'extends = "japan"\ncards = "deck.toml"\n')
    write(tmp_path, "sub/deck.toml", titled_deck("Beside"))
    write(tmp_path, "deck.toml", titled_deck("Where it is run"))
    monkeypatch.chdir(tmp_path)
    assert load_rules(Path("m.toml")).cards[1].title == "Beside"


def test_cards_only_in_the_cwd_is_no_such_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "sub/m.toml", 'extends = "japan"\ncards = "deck.toml"\n')
    write(tmp_path, "deck.toml", titled_deck("Where it is run"))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulesError) as err:
        load_rules(Path("sub/m.toml"))
    located(err.value, "m.toml", 2, 9)
    assert err.value.path == "cards"
    assert "no such file: sub/deck.toml" in str(err.value)
    code, text = cli(capsys, "check", "sub/m.toml")
    assert code == 2
    assert "sub/m.toml:2:9: cards: no such file: sub/deck.toml" in text


def test_a_deck_the_caller_gives_stays_relative_to_the_cwd(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not written in a file (a scenario's deck comes already joined to its folder): read
    where the caller is, whatever file set the mission's own `cards`."""
    write(tmp_path, "sub/m.toml", 'extends = "japan"\ncards = "deck.toml"\n')
    write(tmp_path, "sub/deck.toml", titled_deck("Beside"))
    write(tmp_path, "deck.toml", titled_deck("Where it is run"))
    monkeypatch.chdir(tmp_path)
    assert load_rules(Path("sub/m.toml"), cards="deck.toml").cards[1].title == (
        "Where it is run")
    assert load_rules("japan", cards="deck.toml").cards[1].title == "Where it is run"


# ====================================================================== Art of War's cards
def test_war_cards_reads_the_deck_beside_not_the_one_in_the_cwd(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "sub/w.toml", war_rules("deck.toml"))
    write(tmp_path, "sub/deck.toml", war_deck("Beside"))
    write(tmp_path, "deck.toml", war_deck("Where it is run"))
    monkeypatch.chdir(tmp_path)
    assert load_war(Path("sub/w.toml")).cards[0].title == "Beside"
    assert load_war(tmp_path / "sub" / "w.toml").cards[0].title == "Beside"


def test_war_cards_only_in_the_cwd_is_no_such_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    text = war_rules("deck.toml")
    write(tmp_path, "sub/w.toml", text)
    write(tmp_path, "deck.toml", war_deck("Where it is run"))
    monkeypatch.chdir(tmp_path)
    line = war_line(text, "cards = ")
    with pytest.raises(RulesError) as err:
        load_war(Path("sub/w.toml"))
    located(err.value, "w.toml", line, 9)
    assert err.value.path == "cards"
    assert "no such file: sub/deck.toml" in str(err.value)
    code, out = cli(capsys, "check", "sub/w.toml")
    assert code == 2
    assert f"sub/w.toml:{line}:9: cards: no such file: sub/deck.toml" in out


# ====================================================================== scenarios
def test_a_scenarios_mission_path_without_toml_is_read_beside_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A path with a folder in it is a path whatever it ends with (the loader reads it so):
    relative to the scenario, as one ending in .toml is, never to the current directory."""
    write(tmp_path, "sub/boards/board", 'extends = "japan"\ntitle = "Beside"\n')
    write(tmp_path, "boards/board", 'extends = "japan"\ntitle = "Where it is run"\n')
    write(tmp_path, "sub/s.toml", """
        mission = "boards/board"
        players = 2
        [[step]]
        expect = ["players == 2"]
    """)
    monkeypatch.chdir(tmp_path)
    assert scenario_ref("boards/board", Path("sub/s.toml"), "mission") == str(
        Path("sub/boards/board"))
    assert scenario_ref("deck.toml", Path("sub/s.toml"), "cards") == str(Path("sub/deck.toml"))
    assert scenario_ref("no/deck", Path("sub/s.toml"), "cards", toml_only=True) == "no/deck"
    assert scenario_ref("japan", Path("sub/s.toml"), "mission") == "japan"
    result = run_scenario(Path("sub/s.toml"))
    assert result.passed, result.failures
    (tmp_path / "sub" / "boards" / "board").unlink()
    with pytest.raises(RulesError, match="no such file"):
        run_scenario(Path("sub/s.toml"))
