"""A mission author's findings: a variant for another board checked on the board it is
layered on, a file without `name` named by itself, an author's city list that the inherited
roads no longer fit, a byte-order mark, and the smaller messages. Each through the real
command (`artproject.cli.main`), as an author runs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from artproject.cli import main

EGYPT_VARIANT = ('about = "Storms around Cairo"\n'
                 'hooks = ["on round_start if round > 4: place 1 agent in cairo"]\n')
SCANDINAVIA_VARIANT = ('about = "Red threads cost 3"\n[rules]\n'
                       'move_cost = \'3 fuel if road.thread == "red" else 1 fuel\'\n')


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


# ---------------------------------------------- 1. a variant checked on its own board
@pytest.mark.parametrize("args", [
    ["simulate", "--mission", "egypt", "--games", "1"],
    ["verify", "egypt", "--examples", "1", "--players", "2"],
    ["render", "egypt", "-o", "egypt.svg"],
])
def test_a_variant_naming_its_boards_city_is_played_there(
        workdir: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    (workdir / "v.toml").write_text(EGYPT_VARIANT)
    status, _, err = cli(capsys, *args, "--variant", "v.toml")
    assert status == 0, err
    assert "unknown city" not in err


def test_a_variant_naming_a_road_attribute_of_its_board(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "v.toml").write_text(SCANDINAVIA_VARIANT)
    status, _, err = cli(capsys, "simulate", "--mission", "scandinavia", "--games", "1",
                         "--variant", "v.toml")
    assert status == 0, err


def test_play_takes_a_variant_of_its_board(workdir: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    (workdir / "v.toml").write_text(EGYPT_VARIANT)
    stdin, sys.stdin = sys.stdin, io.StringIO("quit\n")
    try:
        status, _, err = cli(capsys, "play", "--mission", "egypt", "--variant", "v.toml",
                             "--seed", "1", "--players", "2")
    finally:
        sys.stdin = stdin
    assert status == 0, err


def test_a_variant_is_refused_on_a_board_it_does_not_fit_naming_that_board(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "v.toml").write_text(EGYPT_VARIANT)
    status, out, err = cli(capsys, "simulate", "--mission", "egypt,japan", "--games", "1",
                           "--variant", "v.toml")
    assert status == 2 and out == ""
    assert "unknown city 'cairo'" in err
    assert "(as `artproject check v.toml --mission japan` finds)" in err


def test_check_names_the_board_and_takes_another(workdir: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "v.toml").write_text(EGYPT_VARIANT)
    status, _, err = cli(capsys, "check", "v.toml")
    assert status == 2 and "unknown city 'cairo'" in err
    assert "checked as a variant on japan, the default board" in err and "--mission" in err
    status, out, err = cli(capsys, "check", "v.toml", "--mission", "egypt")
    assert (status, err) == (0, ""), err
    assert "no errors" in out
    (workdir / "s.toml").write_text(SCANDINAVIA_VARIANT)
    assert cli(capsys, "check", "s.toml", "--mission", "scandinavia")[0] == 0
    status, _, err = cli(capsys, "check", "s.toml", "--mission", "egypt")
    assert status == 2 and "checked as a variant on egypt (--mission)" in err


# ---------------------------------------------- 2. a file without `name` is named by itself
HARBOUR = 'extends = "japan"\n[rules]\nlost_city_at = 4\n'


def test_a_file_without_name_is_named_by_its_file(workdir: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "harbour.toml").write_text(HARBOUR)
    status, out, err = cli(capsys, "render", "harbour.toml", "-o", "h.svg")
    assert status == 0, err
    assert "wrote h.svg: harbour," in out and "Japan" not in out
    assert "Japan" not in (workdir / "h.svg").read_text()
    status, out, err = cli(capsys, "simulate", "--mission", "harbour.toml", "--games", "1",
                           "--csv")
    assert status == 0, err
    assert out.splitlines()[1].startswith("harbour,"), out


def test_a_file_with_its_own_name_and_title_keeps_them(workdir: Path,
                                                       capsys: pytest.CaptureFixture[str],
                                                       ) -> None:
    (workdir / "h.toml").write_text('name = "harbour"\ntitle = "The Harbour"\n' + HARBOUR)
    status, out, err = cli(capsys, "render", "h.toml", "-o", "h.svg")
    assert status == 0, err
    assert "wrote h.svg: The Harbour," in out


def test_verify_names_a_counterexample_by_the_authors_file(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "harbour.toml").write_text(HARBOUR + '[[property]]\nname = "little fuel"\n'
                                       'check = "van.fuel <= 1"\n')
    status, _, err = cli(capsys, "verify", "harbour.toml", "--examples", "2", "--players", "2")
    assert status == 1, err
    assert (workdir / "counterexample-harbour.toml").exists()
    assert not (workdir / "counterexample-japan.toml").exists()


def test_a_save_of_a_file_without_name_loads_that_file(workdir: Path,
                                                       capsys: pytest.CaptureFixture[str],
                                                       ) -> None:
    import io
    import sys

    (workdir / "harbour.toml").write_text(HARBOUR)

    def play(stdin: str, *args: str) -> tuple[int, str, str]:
        before, sys.stdin = sys.stdin, io.StringIO(stdin)
        try:
            return cli(capsys, "play", *args)
        finally:
            sys.stdin = before

    status, out, err = play("save g.json\nquit\n", "--mission", "harbour.toml", "--seed", "2",
                            "--players", "2")
    assert status == 0, err
    assert "== harbour: round 1" in out
    import json

    assert json.loads((workdir / "g.json").read_text())["mission"] == "harbour.toml"
    status, out, err = play("quit\n", "--load", "g.json")
    assert status == 0, err
    assert "== harbour: round 1" in out and "Japan" not in out


# ---------------------------------------------- 3. a city list without the roads it needs
ONE_CITY = ('extends = "japan"\n\n[[city]]\nname = "tokyo"\nsymbol = "paintings"\nx = 50\n'
            'y = 50\nstart = true\n')


def test_cities_replaced_without_roads_is_one_error_in_the_authors_file(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "tokyo.toml").write_text(ONE_CITY)
    status, out, err = cli(capsys, "check", "tokyo.toml")
    assert status == 2 and "1 error(s)" in out
    first = err.splitlines()[0]
    assert first.startswith("tokyo.toml:3:1: city: these cities replace the whole list of "), err
    assert "7 cities this list lacks ('sapporo'" in first and "[[road]]" in first
    assert "japan.toml:" not in err  # nothing told inside the parent


def test_an_authors_own_road_to_an_unknown_city_is_told_at_that_road(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "r.toml").write_text('extends = "japan"\n\n[[road]]\nfrom = "tokyo"\n'
                                 'to = "tokio"\n')
    status, _, err = cli(capsys, "check", "r.toml")
    assert status == 2
    assert "r.toml:5:6: road[0].to: unknown city 'tokio' (did you mean 'tokyo'?)" in err, err


# ---------------------------------------------- 4. a byte-order mark (Windows Notepad's)
BOM = "\ufeff"


def test_a_file_starting_with_a_byte_order_mark_reads(workdir: Path,
                                                      capsys: pytest.CaptureFixture[str],
                                                      ) -> None:
    (workdir / "bom.toml").write_text(BOM + 'extends = "japan"\n[rules]\nlost_city_at = 0\n',
                                   encoding="utf-8")
    status, _, err = cli(capsys, "check", "bom.toml")
    assert status == 2 and BOM not in err
    assert err.startswith("bom.toml:3:16: rules.lost_city_at: 0 is out of range"), err
    (workdir / "bom.toml").write_text(BOM + 'extends = "japan"\n', encoding="utf-8")
    (workdir / "var.toml").write_text(BOM + 'about = "x"\n[rules]\nlost_city_at = 4\n',
                                   encoding="utf-8")
    (workdir / "s.toml").write_text(BOM + 'mission = "bom.toml"\nplayers = 2\n[[step]]\n'
                                 'expect = ["players == 2"]\n', encoding="utf-8")
    assert cli(capsys, "check", "bom.toml", "var.toml", "s.toml")[0] == 0
    status, _, err = cli(capsys, "scenario", "--variant", "var.toml", "s.toml")
    assert status == 0, err


def test_a_bad_variant_over_many_scenarios_is_told_once(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A variant every scenario of its board is run with has its mistake told once, not once
    a scenario (it was told 63 times over tests/scenarios/); each scenario still counts as
    one that could not be read."""
    (workdir / "bad.toml").write_text('name = "bad"\n[rules]\nlost_city_at = 4\n')
    for n in range(3):
        (workdir / f"s{n}.toml").write_text('mission = "japan"\nplayers = 2\n[[step]]\n'
                                         'expect = ["players == 2"]\n')
    status, out, err = cli(capsys, "scenario", "--variant", "bad.toml", "s0.toml", "s1.toml",
                           "s2.toml")
    assert status == 2
    assert err.count("bad.toml:1:8: name: a mission's key, not a variant's") == 1, err
    assert "0 passed, 0 failed, 3 could not be read (1 error above, each told once)" in out


# ---------------------------------------------- 5. the smaller messages
def test_extending_an_unreadable_file_is_told_at_the_extends(
        workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    import builtins

    from artproject.core import files

    (workdir / "noperm.toml").write_text('extends = "japan"\n')
    (workdir / "ext.toml").write_text('extends = "noperm.toml"\n')

    def refusing(path: object, *args: object, **kw: object) -> object:
        if str(path).endswith("noperm.toml"):  # as chmod 000 does (root reads anything)
            raise PermissionError(13, "Permission denied")
        return builtins.open(path, *args, **kw)  # type: ignore[call-overload]

    monkeypatch.setattr(files, "open", refusing, raising=False)
    monkeypatch.setenv("ARTPROJECT_CACHE", "off")
    status, _, err = cli(capsys, "check", "ext.toml")
    assert status == 2
    assert err.startswith("ext.toml:1:11: extends: cannot read this file: Permission denied: "
                          "noperm.toml"), err


def test_a_card_files_errors_name_it_as_given(workdir: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from artproject.core.sources import package_dir

    text = (package_dir("cards") / "mission-cards.toml").read_text(encoding="utf-8")
    (workdir / "deck.toml").write_text(text.replace("[[card]]\nid = 2\n", "[[card]]\nid = 1\n", 1))
    status, _, err = cli(capsys, "check", "deck.toml")
    assert status == 2 and err.startswith("deck.toml:"), err
    assert str(workdir) not in err


def test_a_mission_file_without_toml_is_hinted(workdir: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "noext").write_text('extends = "japan"\n')
    status, _, err = cli(capsys, "simulate", "--mission", "noext", "--games", "1")
    assert status == 2 and "unknown mission 'noext'" in err
    assert "a mission file's name ends in .toml" in err and "./noext" in err, err
    assert cli(capsys, "simulate", "--mission", "./noext", "--games", "1")[0] == 0
