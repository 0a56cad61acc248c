"""A file's references to other files (`extends`, `cards`) and what a variant may hold: every
mistake told at the file, line and column of the reference that made it, as `check` and
`render` tell it to a user (exit 2, one error a line, no traceback)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from artproject.cli import main
from artproject.core.art.loader import load_rules, shipped_variants
from artproject.core.errors import RulesError, RulesErrors


def write(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return p


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """A command as a user runs it: its exit status and what it printed."""
    code = main(list(args))
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text
    return code, text


def located(err: RulesError, file: str, line: int, col: int) -> None:
    assert err.where is not None
    assert (Path(err.where.file).name, err.where.line, err.where.column) == (file, line, col)


# ====================================================================== extends
def test_unknown_mission_extended_is_told_at_the_extends_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path, "a.toml", 'extends = "b.toml"\n')
    write(tmp_path, "b.toml", 'name = "b"\ntitle = "B"\nextends = "nowhere"\n')
    with pytest.raises(RulesError) as err:
        load_rules(a)
    located(err.value, "b.toml", 3, 11)
    assert err.value.path == "extends"
    monkeypatch.chdir(tmp_path)
    code, text = cli(capsys, "check", "a.toml")
    assert code == 2
    assert "b.toml:3:11: extends: unknown mission 'nowhere'; shipped missions: " in text


def test_a_missing_parent_is_named_where_it_was_looked_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "dir/c.toml", 'extends = "sub/missing.toml"\n')
    monkeypatch.chdir(tmp_path)
    code, text = cli(capsys, "check", "dir/c.toml")
    assert code == 2
    assert "dir/c.toml:1:11: extends: no such file: dir/sub/missing.toml" in text
    with pytest.raises(RulesError) as err:
        load_rules(tmp_path / "dir" / "c.toml")
    located(err.value, "c.toml", 1, 11)


def test_a_folder_extended_is_told_at_the_extends_line(tmp_path: Path) -> None:
    (tmp_path / "sub.toml").mkdir()
    c = write(tmp_path, "c.toml", '# a comment\nextends = "sub.toml"\n')
    with pytest.raises(RulesError) as err:
        load_rules(c)
    located(err.value, "c.toml", 2, 11)
    assert "not a regular file (a folder)" in str(err.value)


def test_another_games_rules_extended_are_told_at_the_extends_line(tmp_path: Path) -> None:
    write(tmp_path, "duel.toml", 'game = "art-of-war"\n')
    c = write(tmp_path, "c.toml", 'extends = "duel.toml"\n')
    with pytest.raises(RulesError) as err:
        load_rules(c)
    located(err.value, "c.toml", 1, 11)
    assert "'art-of-war'" in str(err.value)


def test_a_loop_of_extends_is_told_as_the_chain(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "ext1.toml", 'extends = "ext2.toml"\n')
    write(tmp_path, "ext2.toml", 'name = "two"\nextends = "ext1.toml"\n')
    monkeypatch.chdir(tmp_path)
    code, text = cli(capsys, "check", "ext1.toml")
    assert code == 2
    assert ("ext2.toml:2:11: extends: a loop of 'extends': ext1.toml extends ext2.toml, "
            "which extends ext1.toml") in text
    assert "extends itself" not in text
    with pytest.raises(RulesError) as err:
        load_rules(tmp_path / "ext1.toml")
    located(err.value, "ext2.toml", 2, 11)


def test_a_loop_through_three_files_names_each(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "top.toml", 'extends = "x.toml"\n')
    write(tmp_path, "x.toml", 'extends = "y.toml"\n')
    write(tmp_path, "y.toml", 'extends = "z.toml"\n')
    write(tmp_path, "z.toml", 'extends = "x.toml"\n')
    with pytest.raises(RulesError) as err:
        load_rules(Path("top.toml"))
    located(err.value, "z.toml", 1, 11)
    msg = err.value.message
    assert "x.toml extends y.toml, which extends z.toml, which extends x.toml" in msg
    assert "top.toml" not in msg  # not part of the loop


def test_a_file_that_extends_itself_says_so(tmp_path: Path) -> None:
    me = write(tmp_path, "me.toml", 'extends = "me.toml"\n')
    with pytest.raises(RulesError) as err:
        load_rules(me)
    located(err.value, "me.toml", 1, 11)
    assert "me.toml extends itself" in str(err.value)


def test_unknown_mission_given_alone_still_suggests() -> None:
    with pytest.raises(RulesError) as err:
        load_rules("japn")
    assert err.value.where is None  # no file names it: the command line does
    assert str(err.value).startswith("unknown mission 'japn' (did you mean 'japan'?)")


# ====================================================================== cards
def test_a_missing_card_file_is_told_at_the_cards_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "dir/d.toml", 'extends = "japan"\ncards = "nocards.toml"\n')
    monkeypatch.chdir(tmp_path)
    code, text = cli(capsys, "check", "dir/d.toml")
    assert code == 2
    assert "dir/d.toml:2:9: cards: no such file: dir/nocards.toml" in text
    with pytest.raises(RulesError) as err:
        load_rules(tmp_path / "dir" / "d.toml")
    located(err.value, "d.toml", 2, 9)


def test_an_unknown_shipped_card_file_suggests(tmp_path: Path) -> None:
    d = write(tmp_path, "d.toml", 'extends = "japan"\ncards = "mision-cards"\n')
    with pytest.raises(RulesError) as err:
        load_rules(d)
    located(err.value, "d.toml", 2, 9)
    assert "unknown card file 'mision-cards' (did you mean 'mission-cards'?)" in str(err.value)


def test_a_card_file_given_directly_that_is_missing_names_it(tmp_path: Path) -> None:
    gone = tmp_path / "gone.toml"
    with pytest.raises(RulesError) as err:
        load_rules("japan", cards=gone)
    assert "no such file" in str(err.value) and "gone.toml" in str(err.value)
    assert err.value.where is None or "base.toml" not in err.value.where.file


# ====================================================================== variants
def test_a_variant_that_extends_a_board_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new", "pol", "--from", "polynesia"]) == 0
    capsys.readouterr()
    line = next(n for n, t in enumerate(Path("pol.toml").read_text().splitlines(), 1)
                if t.startswith("extends"))
    code, text = cli(capsys, "render", "japan", "--variant", "pol.toml", "-o", "v2.svg")
    assert code == 2
    assert not Path("v2.svg").exists()
    assert f"pol.toml:{line}:11: extends: a variant cannot extend a board" in text
    with pytest.raises(RulesErrors) as errs:  # and its name and title: a mission's keys
        load_rules("japan", [tmp_path / "pol.toml"])
    assert [e.path for e in errs.value.errors] == ["name", "title", "extends"]


def test_a_variant_with_extends_alone_is_refused(tmp_path: Path) -> None:
    v = write(tmp_path, "ve.toml", """
        about = "house rules"
        extends = "egypt"
        [rules]
        lost_city_at = 4
    """)
    with pytest.raises(RulesError) as err:
        load_rules("japan", [v])
    located(err.value, "ve.toml", 2, 11)
    assert "'egypt'" in str(err.value)


RULES = "[rules]\nlost_city_at = 4\n"


@pytest.mark.parametrize("text, key, line, col", [
    ('title = "X"\n' + RULES, "title", 1, 9),
    ('about = "a"\nname = "x"\n' + RULES, "name", 2, 8),
    ('cards = "mission-cards"\n' + RULES, "cards", 1, 9),
    ('symbols = ["films"]\n' + RULES, "symbols", 1, 11),
    (RULES + '[[city]]\nname = "a"\nx = 1\ny = 1\n', "city", 3, 1),
    (RULES + '[[road]]\nfrom = "tokyo"\nto = "osaka"\n', "road", 3, 1),
])
def test_a_variant_may_not_set_a_missions_keys(tmp_path: Path, text: str, key: str, line: int,
                                               col: int) -> None:
    v = write(tmp_path, "v.toml", text)
    with pytest.raises(RulesError) as err:
        load_rules("japan", [v])
    located(err.value, "v.toml", line, col)
    assert err.value.path == key
    assert "a mission's key, not a variant's" in str(err.value)


def test_a_variant_with_a_missions_keys_given_on_the_command_line_is_told_as_a_variant(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The command's check of a --variant file takes it for the variant it was given as:
    each mission's key told at its line, not `check`'s verdict on a mission that extends
    nothing ("add extends = 'base'"), which would lead the author the wrong way."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "v.toml", 'title = "House rules"\ncards = "mission-cards"\n' + RULES)
    code, text = cli(capsys, "render", "japan", "--variant", "v.toml", "-o", "v.svg")
    assert code == 2
    assert not Path("v.svg").exists()
    assert "v.toml:1:9: title: a mission's key, not a variant's" in text
    assert "v.toml:2:9: cards: a mission's key, not a variant's" in text
    assert "extends no mission" not in text


def test_a_variant_setting_every_base_section_is_played_as_a_variant(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A variant that sets something in each of [components], [setup], [rules] and [solo]
    (as one `tune` writes may) is what `check` alone would take for base rules; given as a
    --variant, it is layered as one, not refused with the base rules' errors."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "all4.toml", """
        [components]
        health_tokens = 25
        [setup]
        agents_per_city = 2
        [rules]
        draw_per_round = 2
        [solo]
        health_factor = 2
    """)
    code, text = cli(capsys, "simulate", "--variant", "all4.toml", "--games", "2")
    assert code == 0, text


def test_what_a_variant_may_set_still_loads(tmp_path: Path) -> None:
    v = write(tmp_path, "v.toml", """
        about = "every kind of key a variant may set"
        hooks = ["on artwork_collected: place 1 agent in tokyo"]
        [components]
        ally_dice = 4
        [difficulty]
        easy = 5
        [setup]
        agents_per_city = 1
        [rules]
        lost_city_at = 4
        [solo]
        removed_cards = 10
        [[track]]
        threat = 3
        ally_cost = 4
    """)
    rules = load_rules("japan", [v])
    assert rules.p("rules.lost_city_at") == 4 and len(rules.track) == 1


@pytest.mark.parametrize("variant", shipped_variants())
def test_every_shipped_variant_layers_on_every_board(variant: str) -> None:
    for board in ("japan", "usa", "rio"):
        load_rules(board, [variant])


def test_a_list_of_tables_is_located_at_its_first_header(tmp_path: Path) -> None:
    from artproject.core.sources import read_toml

    _, smap = read_toml(write(tmp_path, "m.toml", '[rules]\nx = 1\n[[city]]\nname = "a"\n'))
    assert (smap.locate(("city",)).line, smap.locate(("city",)).column) == (3, 1)
