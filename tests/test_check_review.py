"""A mission author's review of `artproject check`: a file given with `--mission` is checked
as the variant `simulate --mission BOARD --variant FILE` would layer there, whatever keys
it holds; and a mistake in one key hides no mistake in another key that does not depend on
it (a [rules] typo hides no hook's DSL error, one [tune] mistake no other). Each through
the real command (`artproject.cli.main`), as an author runs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from artproject.cli import main


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def told(err: str, name: str) -> list[str]:
    """The errors told about the file `name` (its `file:line:col: ...` lines)."""
    return [line for line in err.splitlines() if line.startswith(f"{name}:")
            and ": note: " not in line]


def check(capsys: pytest.CaptureFixture[str], name: str, *more: str) -> tuple[int, list[str]]:
    status, _, err = cli(capsys, "check", name, *more)
    return status, told(err, name)


# ---------------------------------------------- 1. `check FILE --mission BOARD` is a variant
NAMED = 'about = "house"\nname = "myhouse"\n[rules]\nlost_city_at = 4\n'
HARBOUR = ('about = "a harbour"\nname = "harbour"\ntitle = "Harbour"\nextends = "japan"\n'
           '[rules]\nlost_city_at = 4\n')


def simulated(capsys: pytest.CaptureFixture[str], name: str) -> tuple[int, list[str]]:
    status, _, err = cli(capsys, "simulate", "--mission", "japan", "--variant", name,
                         "--games", "1", "--players", "2", "--difficulty", "easy")
    return status, told(err, name)


@pytest.mark.parametrize(("text", "keys"), [(NAMED, ["2:8: name"]),
                                            (HARBOUR, ["2:8: name", "3:9: title",
                                                       "4:11: extends"])])
def test_check_with_mission_checks_the_file_as_simulate_layers_it(
        workdir: Path, capsys: pytest.CaptureFixture[str], text: str, keys: list[str]) -> None:
    (workdir / "v.toml").write_text(text)
    status, found = check(capsys, "v.toml", "--mission", "japan")
    assert status == 2
    assert [line.split(": ", 2)[0] + ": " + line.split(": ", 2)[1] for line in found] == \
        [f"v.toml:{k}" for k in keys], found
    assert "a mission's key, not a variant's" in found[0]
    assert (status, found) == simulated(capsys, "v.toml")


def test_check_with_mission_says_the_file_was_checked_as_a_variant_there(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "v.toml").write_text(NAMED)
    _, _, err = cli(capsys, "check", "v.toml", "--mission", "japan")
    assert "v.toml: note: checked as a variant on japan (--mission)" in err


def test_a_mission_file_alone_is_still_checked_as_a_mission(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "harbour.toml").write_text(HARBOUR)
    status, out, err = cli(capsys, "check", "harbour.toml")
    assert (status, err) == (0, ""), err
    assert "no errors" in out


def test_a_card_file_and_a_base_file_with_mission_are_checked_as_before(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from artproject.core.sources import package_dir

    for name, folder in (("mission-cards.toml", "cards"), ("base.toml", "missions")):
        (workdir / name).write_text((package_dir(folder) / name).read_text(encoding="utf-8"))
        status, out, err = cli(capsys, "check", name, "--mission", "egypt")
        assert (status, err) == (0, ""), err
        assert "no errors" in out


# ---------------------------------------------- 2. a schema error hides no other error
HOOK = 'hooks = ["on artwork_collected: place 1 agent in tokio"]\n'
TOKIO = "unknown city 'tokio'"


@pytest.mark.parametrize(("rules", "error"), [
    ("lost_city_att = 4", "4:1: rules.lost_city_att: unknown rule parameter"),
    ("lost_city_at = 0", "4:16: rules.lost_city_at: 0 is out of range"),
    ('movement = "road"', "4:12: rules.movement: unknown value 'road'"),
])
def test_a_rules_mistake_hides_no_hook_error(workdir: Path, capsys: pytest.CaptureFixture[str],
                                             rules: str, error: str) -> None:
    (workdir / "m.toml").write_text(f'extends = "japan"\n{HOOK}[rules]\n{rules}\n')
    status, found = check(capsys, "m.toml")
    assert status == 2
    assert len(found) == 2, found
    assert found[0].startswith("m.toml:2:"), found
    assert TOKIO in found[0]
    assert found[1].startswith(f"m.toml:{error}"), found


def test_a_variants_mistakes_each_told_with_its_hook_error(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "v.toml").write_text(f'{HOOK}[components]\ndie_faces = 0\n[[track]]\nthreat = -1\n'
                                 'ally_cost = 1\n')
    status, found = check(capsys, "v.toml", "--mission", "japan")
    assert status == 2
    assert [line.split(": ")[0] for line in found] == ["v.toml:1:50", "v.toml:3:13",
                                                       "v.toml:5:10"], found
    assert TOKIO in found[0]


TUNE = """extends = "japan"
[tune.rules]
lost_city_at = [0, 4]
move_cost = [1, 2]
lost_cty_at = [1, 2]
[tune.setup]
agents_per_city = [3, 1]
[tune.difficulty]
hardd = [1, 2]
[tune.track]
threat = { first = [1, 4], lst = [10, 16] }
[tune.threat_by_players]
7 = [1, 2]
"""


def test_one_tune_mistake_hides_no_other(workdir: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "t.toml").write_text(TUNE)
    status, found = check(capsys, "t.toml")
    assert status == 2
    assert [line.split(": ")[:2] for line in found] == [
        ["t.toml:3:16", "tune.rules.lost_city_at"], ["t.toml:4:13", "tune.rules.move_cost"],
        ["t.toml:5:1", "tune.rules.lost_cty_at"],
        ["t.toml:7:19", "tune.setup.agents_per_city"],
        ["t.toml:9:1", "tune.difficulty.hardd"],
        ["t.toml:11:10", "tune.track.threat.last"], ["t.toml:11:28", "tune.track.threat.lst"],
        ["t.toml:13:5", "tune.threat_by_players.7"]], found


def test_a_team_size_is_not_judged_on_a_broken_threat_ramp(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Its lowest end is checked against the tuned ramp's: with the ramp broken, that check
    waits for the ramp (the track's own lowest threat would be the wrong yardstick)."""
    (workdir / "t.toml").write_text('extends = "japan"\n[tune.track]\n'
                                 'threat = { first = [1, 4], lst = [10, 16] }\n'
                                 '[tune.threat_by_players]\n2 = [-5, 1]\n')
    status, found = check(capsys, "t.toml")
    assert status == 2
    assert not any("threat_by_players" in line for line in found), found


@pytest.mark.parametrize(("text", "error"), [
    ('extends = "japan"\nrules = 5\n', "m.toml:2:9: rules: expected a table"),
    ('extends = "japan"\nsymbols = "films"\n'
     'hooks = ["on artwork_collected: gain 1 painting"]\n',
     "m.toml:2:11: symbols: expected a list"),
    ('extends = "japan"\n' + HOOK + '[[city]]\nname = "tokyo"\nx = 500\ny = 1\n',
     "m.toml:5:5: city[0].x: 500 is out of range"),
    ('extends = "japan"\ndifficulty = { hard = 0 }\n[tune.difficulty]\nhard = [1, 2]\n',
     "m.toml:2:23: difficulty.hard: 0 is out of range"),
    ('extends = "japan"\ncards = 5\n', "m.toml:2:9: cards: expected text"),
])
def test_no_error_follows_from_a_broken_key(workdir: Path, capsys: pytest.CaptureFixture[str],
                                            text: str, error: str) -> None:
    """What a broken key would have given (a section, the symbols, the cities, a
    difficulty, the card file) is not judged without it: one error, not a cascade."""
    (workdir / "m.toml").write_text(text)
    status, found = check(capsys, "m.toml")
    assert status == 2
    assert len(found) == 1 and found[0].startswith(error), found


def test_a_section_of_the_wrong_shape_hides_no_hook_error(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "m.toml").write_text('extends = "japan"\nrules = 5\n' + HOOK)
    status, found = check(capsys, "m.toml")
    assert status == 2
    assert [line.split(": ")[0] for line in found] == ["m.toml:2:9", "m.toml:3:50"], found
    assert TOKIO in found[1]


# ---------------------------------------------- 3. a misspelt key's value waits too
GOLDRUSH = ('name = "goldrush"\nextends = "japan"\n[components]\n'
            'resourcez = ["fuel", "radio", "weapon", "gold"]\n'
            '[setup]\nvan = { fuel = 3, radio = 3, weapon = 3, gold = 2 }\n'
            '[rules]\nmove_cost = "1 gold"\n')


def test_a_misspelt_key_is_told_alone_not_what_its_default_then_breaks(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A key no declaration has was dropped, and what read the key it was meant for judged
    that key's default: `strat = true` for `start` also told "exactly one city must be the
    start, not 0", first; `resourcez` also told every use of the new resource. The nearest
    declared key is now set aside with it, so only the typo is told."""
    japan = (Path(__file__).parent.parent / "missions" / "japan.toml").read_text()
    assert japan.count("start = true") == 1
    (workdir / "strat.toml").write_text(japan.replace("start = true", "strat = true"))
    (workdir / "gold.toml").write_text(GOLDRUSH)
    for name, typo in (("strat.toml", "strat: unknown key 'strat' (did you mean 'start'?)"),
                       ("gold.toml", "components.resourcez: unknown rule parameter "
                                     "'resourcez' (did you mean 'resources'?)")):
        status, found = check(capsys, name)
        assert status == 2 and len(found) == 1 and typo in found[0], found
