"""A reviewer's findings on `check` and `tune` (docs/cli.md, docs/missions.md): a variant
that sets a number in each of the base rules' four sections is a variant, not a base file;
each through the real command (`artproject.cli.main`), as an author runs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from artproject.cli import main
from artproject.core.art.tools import kind_of
from artproject.core.sources import package_dir, read_toml

ROOT = Path(__file__).resolve().parents[1]
HARBOUR = str(ROOT / "tests" / "missions" / "harbour-tunable.toml")


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


# ---------------------------------------------- 1. a variant of the four sections
FOUR = ("[components]\nally_dice = 2\n[setup]\nagents_per_city = 1\n"
        "[rules]\nlost_city_at = 6\n[solo]\nremoved_cards = 10\n")


@pytest.mark.parametrize("board", [[], ["--mission", "egypt"], ["--mission", HARBOUR]])
def test_a_variant_of_the_four_sections_checks_as_a_variant(
        workdir: Path, capsys: pytest.CaptureFixture[str], board: list[str]) -> None:
    (workdir / "four.toml").write_text(FOUR)
    status, out, err = cli(capsys, "check", "four.toml", *board)
    assert (status, err) == (0, ""), err
    assert "no errors" in out


def test_the_base_rules_and_a_renamed_copy_are_still_base_files(workdir: Path) -> None:
    text = (package_dir("missions") / "base.toml").read_text(encoding="utf-8")
    (workdir / "mine.toml").write_text("\n".join(
        line for line in text.splitlines() if not line.startswith("name =")))
    for path in (package_dir("missions") / "base.toml", workdir / "mine.toml"):
        assert kind_of(read_toml(path)[0]) == "base", path
    (workdir / "four.toml").write_text(FOUR)
    assert kind_of(read_toml(workdir / "four.toml")[0]) == "variant"


def test_serve_watch_draws_a_variant_of_the_four_sections(workdir: Path) -> None:
    from artproject.core.art.tools import check_file, watch_game

    (workdir / "four.toml").write_text(FOUR)
    errors, _, kind = check_file(workdir / "four.toml", read_toml(workdir / "four.toml")[0])
    assert (errors, kind) == ([], "variant")
    assert not isinstance(watch_game(workdir / "four.toml", kind), str)


def test_a_variant_tune_writes_checks_clean_where_it_is_used(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from artproject.core.art.tools import load_rules, tunables, variant_text

    # (what `tune` writes for its best trial: each [tune] number at the low end of its range)
    rules = load_rules(HARBOUR)
    text = variant_text(rules, {d.name: d.low for d in tunables(rules)}, "tuned")
    assert all(f"\n[{k}]\n" in text for k in ("components", "setup", "rules", "solo")), text
    (workdir / "tuned.toml").write_text(text)
    for board in ([], ["--mission", HARBOUR]):
        status, _, err = cli(capsys, "check", "tuned.toml", *board)
        assert (status, err) == (0, ""), err
    status, _, err = cli(capsys, "simulate", "--mission", HARBOUR, "--variant", "tuned.toml",
                         "--games", "1", "--players", "1", "--difficulty", "easy")
    assert status == 0, err


# ---------------------------------------------- 3. a board lost in round 1
FALLS = "[rules]\nlost_city_at = 2\n"  # Japan sets 2 agents in each of its 8 cities (R18)
ROUND_ONE = "every game would be lost in round 1"


def test_cities_lost_at_once_beyond_the_markers_for_every_team_is_an_error(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "v.toml").write_text(FALLS + "[components]\nlost_city_markers = 1\n")
    status, _, err = cli(capsys, "check", "v.toml")
    assert status == 2
    assert err.startswith("v.toml:2:16: rules.lost_city_at: set-up places 2 or more agents "
                          "(lost_city_at = 2) in each of 8 cities: they fall at the end of "
                          "round 1 (R18)"), err
    assert ROUND_ONE in err and "1 lost-city marker (R2)" in err


def test_cities_lost_at_once_that_a_large_team_might_clear_is_a_warning(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "v.toml").write_text(FALLS)
    status, out, err = cli(capsys, "check", "v.toml")
    assert status == 0 and "1 warning(s)" in out
    assert "v.toml:2:16: rules.lost_city_at: warning: " in err
    assert "teams of 1 to 4 players lose every game in round 1" in err and ROUND_ONE not in err


def test_a_hook_that_may_win_in_round_one_makes_the_loss_uncertain(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "v.toml").write_text('hooks = ["on artwork_collected: win"]\n' + FALLS
                                    + "[components]\nlost_city_markers = 1\n")
    status, _, err = cli(capsys, "check", "v.toml")
    assert status == 0 and ": warning: set-up places 2 or more agents" in err, err


def test_a_hook_whose_words_say_win_but_that_cannot_is_read_as_the_dsl_reads_it(
        workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A defeat whose message says "win" is no way to win (the check matched the word in the
    hook's text, so the error below became a warning: the diff reviewer's finding)."""
    (workdir / "v.toml").write_text('hooks = [\'on city_lost: defeat "the team cannot win '
                                    'now"\']\n' + FALLS + "[components]\nlost_city_markers = 1\n")
    status, _, err = cli(capsys, "check", "v.toml")
    assert status == 2 and ROUND_ONE in err, err


def test_no_shipped_board_loses_cities_at_set_up() -> None:
    from artproject.core.art.tools import load_rules, shipped_rules

    for name in shipped_rules():
        assert not [w for w in load_rules(name).warnings if "fall at the end of round 1"
                    in str(w)], name
