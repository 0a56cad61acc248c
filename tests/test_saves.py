"""Saves that cannot be trusted are refused; saves travel with their missions; file limits."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import pytest

from artproject import SaveError, State, dumps, load_game, loads, new_game, save_game
from artproject.core.art.loader import load_rules
from artproject.core.errors import RulesError, SaveWarning
from artproject.core.files import MAX_FILE_BYTES, MAX_NESTING, fresh_name, write_atomic

ROOT = Path(__file__).resolve().parent.parent


def a_game() -> State:
    g = new_game(players=2, seed=9)
    for _ in range(5):
        g.apply(g.legal_actions()[-1])
    return g


def test_a_save_without_its_digest_is_refused_unless_trusted() -> None:
    g = a_game()
    doc = json.loads(dumps(g))
    del doc["digest"]
    with pytest.raises(SaveError, match=r"no digest.*trust=True \(the command line.s --trust\)"):
        loads(json.dumps(doc))
    with pytest.warns(SaveWarning, match="loaded on trust"):
        h = loads(json.dumps(doc), trust=True)
    assert h.fingerprint() == g.fingerprint()


def test_an_edited_position_without_digest_is_refused() -> None:
    """The issue's exploit: digest deleted, start position edited to health 9/9."""
    g = new_game(players=2, seed=1, phase="battle", position={"pawns": ["kyoto", "kyoto"]})
    doc = json.loads(dumps(g))
    doc["start"]["position"]["health"] = [9, 9]
    with pytest.raises(SaveError, match="differs from the saved one"):
        loads(json.dumps(doc))
    del doc["digest"]
    with pytest.raises(SaveError, match="no digest"):
        loads(json.dumps(doc))


def test_a_wrong_digest_loads_on_trust_with_a_warning() -> None:
    doc = json.loads(dumps(a_game()))
    doc["digest"] = "0" * 16
    with pytest.raises(SaveError, match="differs"):
        loads(json.dumps(doc))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        loads(json.dumps(doc), trust=True)
    assert [w.category for w in seen] == [SaveWarning]


@pytest.mark.parametrize(("change", "message"), [
    ({"players": 9}, "players: 9 is out of range: expected a whole number from 1 to 6"),
    ({"players": "2"}, "players: expected a whole number"),
    ({"seed": 2**64}, "seed: 18446744073709551616 is out of range"),
    ({"actions": "done"}, "actions: expected a list of texts, not text 'done'"),
    ({"actions": [1]}, "actions[0]: expected text"),
    ({"start": 5}, "start: expected a table"),
    ({"start": {"phase": "lunch"}}, "start.phase: unknown value 'lunch'"),
    ({"start": {"position": {"helth": 3}}}, "start.position.helth: unknown position entry"),
    ({"variants": ["no-such-variant"]}, "unknown variant 'no-such-variant'"),
    ({"mission": ""}, "no mission named"),
    ({"mission": "x" * 5000 + ".toml"}, "the save's rules cannot be loaded"),
    ({"digest": 5}, "digest: expected text"),
    ({"extra": 1}, "unknown key 'extra'"),
])
def test_a_save_of_the_wrong_shape_is_one_clear_error(change: dict[str, object],
                                                      message: str) -> None:
    doc = json.loads(dumps(a_game()))
    doc.update(change)
    with pytest.raises(SaveError) as err:
        loads(json.dumps(doc))
    assert message in str(err.value), str(err.value)
    assert "\n" not in str(err.value).split(": the save's rules")[0]


def test_a_save_names_its_mission_relative_to_itself(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "boards").mkdir()
    (tmp_path / "games").mkdir()
    board = tmp_path / "boards" / "harder.toml"
    board.write_text('extends = "japan"\n[rules]\nlost_city_at = 4\n')
    monkeypatch.chdir(tmp_path / "boards")
    g = new_game("harder.toml", seed=3)
    save = tmp_path / "games" / "g.json"
    save_game(g, save)
    assert json.loads(save.read_text())["mission"] == "../boards/harder.toml"
    monkeypatch.chdir("/")  # anywhere else: the save still finds its mission
    assert load_game(save).fingerprint() == g.fingerprint()
    moved = tmp_path / "moved"
    (moved / "boards").mkdir(parents=True)
    (moved / "games").mkdir()
    board.rename(moved / "boards" / "harder.toml")
    save.rename(moved / "games" / "g.json")  # the two moved together
    assert load_game(moved / "games" / "g.json").fingerprint() == g.fingerprint()


def test_a_shipped_mission_is_named_by_name(tmp_path: Path) -> None:
    g = new_game(str(ROOT / "missions" / "egypt.toml"), seed=2,
                 variants=[str(ROOT / "missions" / "variants" / "no-ally-dice.toml")])
    doc = json.loads(dumps(g, folder=tmp_path))
    assert (doc["mission"], doc["variants"]) == ("egypt", ["no-ally-dice"])
    assert loads(json.dumps(doc)).fingerprint() == g.fingerprint()


def test_save_game_can_refuse_to_replace(tmp_path: Path) -> None:
    g = a_game()
    p = tmp_path / "mine.toml"
    p.write_text('extends = "japan"\n')
    with pytest.raises(SaveError, match="already exists; nothing was written"):
        save_game(g, p, replace=False)
    assert p.read_text() == 'extends = "japan"\n'
    assert list(tmp_path.iterdir()) == [p]  # no temporary file left behind


# ---------------------------------------------------------------- file limits
@pytest.mark.parametrize("read", ["rules", "save"])
def test_only_regular_files_are_read(tmp_path: Path, read: str) -> None:
    os.mkfifo(tmp_path / "fifo.toml")
    for path in ("/dev/zero", str(tmp_path), str(tmp_path / "fifo.toml")):
        with pytest.raises((RulesError, SaveError), match="not a regular file"):
            load_rules(path) if read == "rules" else load_game(path)


def test_too_large_a_file_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text('extends = "japan"\n' + "# padding\n" * (MAX_FILE_BYTES // 10))
    with pytest.raises(RulesError, match="too large: more than 2 MiB"):
        load_rules(big)
    with pytest.raises(SaveError, match="too large"):
        load_game(big)


@pytest.mark.parametrize("text", [
    "x = " + "[" * 100_000 + "]" * 100_000,
    "x = " + "{a = " * 1000 + "1" + "}" * 1000,
    'extends = "japan"\n' + ".".join(["a"] * 1000) + " = 1\n",
])
def test_toml_too_deep_is_refused(tmp_path: Path, text: str) -> None:
    p = tmp_path / "deep.toml"
    p.write_text(text)
    with pytest.raises(RulesError, match=f"nested too deeply: more than {MAX_NESTING}"):
        load_rules(p)


def test_json_too_deep_is_refused() -> None:
    with pytest.raises(SaveError, match="nested too deeply"):
        loads("[" * 100_000 + "]" * 100_000)
    with pytest.raises(SaveError, match="nested too deeply"):
        loads('{"a": ' * 30 + "1" + "}" * 30)


def test_huge_numbers_in_files_are_our_errors(tmp_path: Path) -> None:
    p = tmp_path / "m.toml"
    p.write_text('extends = "japan"\n[rules]\nlost_city_at = ' + "9" * 5000 + "\n")
    with pytest.raises(RulesError):
        load_rules(p)
    with pytest.raises(SaveError):
        loads('{"format": "artproject-save", "version": ' + "9" * 5000 + "}")


# ---------------------------------------------------------------- writing
def test_writes_follow_the_umask_and_keep_a_replaced_files_mode(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "new.txt", "x")
    finally:
        os.umask(old)
    assert (tmp_path / "new.txt").stat().st_mode & 0o777 == 0o640
    mine = tmp_path / "mine.txt"
    mine.write_text("old")
    mine.chmod(0o604)
    write_atomic(mine, "new", replace=True)
    assert mine.read_text() == "new" and mine.stat().st_mode & 0o777 == 0o604


def test_fresh_names(tmp_path: Path) -> None:
    p = tmp_path / "artproject-autosave.json"
    assert fresh_name(p) == p
    p.write_text("{}")
    (tmp_path / "artproject-autosave-2.json").write_text("{}")
    assert fresh_name(p) == tmp_path / "artproject-autosave-3.json"


def test_a_saves_mission_that_is_no_regular_file_is_refused() -> None:
    doc = json.loads(dumps(a_game()))
    for mission in ("/dev/zero", "/dev/stdin", "/"):
        doc["mission"] = mission
        with pytest.raises(SaveError, match=r"not a regular file|cannot be loaded"):
            loads(json.dumps(doc))
