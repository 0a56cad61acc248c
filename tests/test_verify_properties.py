"""A mission's [[property]] entries through `extends` and variants, where verify says a
broken one is written, and what verify leaves in the folder it is run from."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from artproject.checking import check_file
from artproject.cli import main
from artproject.core.art.loader import load_rules
from artproject.core.errors import RulesError

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "missions" / "fuel-cap.toml"  # a property verify breaks


def write(folder: Path, name: str, text: str) -> Path:
    p = folder / name
    p.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return p


OK_PROPERTY = """
    [[property]]
    name = "round is never negative"
    check = "round >= 0"
"""


def test_a_variants_properties_add_to_the_missions(tmp_path: Path) -> None:
    mission = tmp_path / "fuel-cap.toml"
    mission.write_text(BROKEN.read_text())
    variant = write(tmp_path, "okprop.toml", OK_PROPERTY)
    names = [p.name for p in load_rules(mission, [variant]).properties]
    assert names == ["the van never holds more than 4 fuel", "the threat is never below 0",
                     "round is never negative"]


def test_an_extending_missions_properties_add_to_its_parents(tmp_path: Path) -> None:
    (tmp_path / "fuel-cap.toml").write_text(BROKEN.read_text())
    child = write(tmp_path, "child.toml", 'extends = "fuel-cap.toml"\nname = "child"\n'
                  + textwrap.dedent(OK_PROPERTY))
    rules = load_rules(child)
    assert [p.name for p in rules.properties][-1] == "round is never negative"
    assert len(rules.properties) == 3


def test_a_variant_cannot_hide_a_broken_property_from_verify(tmp_path: Path) -> None:
    mission = tmp_path / "fuel-cap.toml"
    mission.write_text(BROKEN.read_text())
    write(tmp_path, "okprop.toml", OK_PROPERTY)
    r = subprocess.run([sys.executable, "-m", "artproject", "verify", "fuel-cap.toml",
                        "--variant", "okprop.toml", "--examples", "60", "--out", "t.toml"],
                       cwd=tmp_path, capture_output=True, text=True, check=False)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "the van never holds more than 4 fuel" in r.stdout


def test_a_property_named_twice_is_refused_at_the_later_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fuel-cap.toml").write_text(BROKEN.read_text())
    write(tmp_path, "same.toml", """
        about = "a house rule"

        [[property]]
        name = "the van never holds more than 4 fuel"
        check = "van.fuel <= 6"
    """)
    with pytest.raises(RulesError) as info:
        load_rules("fuel-cap.toml", ["same.toml"])
    said = str(info.value)
    assert said.startswith("same.toml:4:8: property[0].name: a property named 'the van never "
                           "holds more than 4 fuel' is already declared at fuel-cap.toml:7:8"), said
    # in one file too: which of the two would a report name?
    twice = write(Path("."), "twice.toml", 'extends = "japan"\nname = "twice"\n'
                  + textwrap.dedent(OK_PROPERTY) + textwrap.dedent(OK_PROPERTY))
    assert any("twice.toml:9:8: property[1].name: a property named 'round is never negative' "
               "is already declared at twice.toml:5:8" in str(e) for e in check_file(twice))


def test_a_broken_property_is_told_where_it_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fuel-cap.toml").write_text(BROKEN.read_text())
    code = main(["verify", "fuel-cap.toml", "--examples", "60", "--out", "cx.toml"])
    out = capsys.readouterr().out
    assert code == 1
    assert ("fuel-cap: COUNTEREXAMPLE: fuel-cap.toml:8:9: property 'the van never holds more "
            "than 4 fuel' does not hold: van.fuel <= 4") in out, out
    # and in a variant's file, where that one is written
    write(tmp_path, "fuel3.toml", """
        [[property]]
        name = "the van never holds more than 3 fuel"
        check = "van.fuel <= 3"
    """)
    (tmp_path / "japan.toml").write_text('extends = "japan"\nname = "j"\n')
    code = main(["verify", "japan.toml", "--variant", "fuel3.toml", "--examples", "60",
                 "--out", "cx3.toml"])
    out = capsys.readouterr().out
    assert code == 1 and "COUNTEREXAMPLE: fuel3.toml:3:9: property 'the van never holds " \
        "more than 3 fuel'" in out, out


def test_verify_leaves_nothing_but_what_was_asked_for(tmp_path: Path) -> None:
    """Hypothesis keeps files of its own (`.hypothesis/`): never in the user's folder."""
    (tmp_path / "fuel-cap.toml").write_text(BROKEN.read_text())
    for args, code in ((["fuel-cap.toml", "--examples", "20", "--out", "cx.toml"], 1),
                       (["japan", "--examples", "3"], 0)):
        r = subprocess.run([sys.executable, "-m", "artproject", "verify", *args], cwd=tmp_path,
                           capture_output=True, text=True, check=False)
        assert r.returncode == code, r.stdout + r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cx.toml", "fuel-cap.toml"]


def test_verify_puts_back_the_hypothesis_home_it_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The suite's own Hypothesis (its examples database) is left as verify found it."""
    from hypothesis import configuration

    before = configuration.storage_directory("x", intent_to_write=False).home_directory
    monkeypatch.chdir(tmp_path)
    assert main(["verify", "japan", "--examples", "3"]) == 0
    capsys.readouterr()
    assert configuration.storage_directory("x", intent_to_write=False).home_directory == before
    assert list(tmp_path.iterdir()) == []


def test_searches_in_threads_take_hypothesis_home_in_turn() -> None:
    """Two searches at once (threads) hold Hypothesis's home one after the other: inside,
    each sees a folder of its own that exists; after both, the home found is back."""
    import threading
    import time

    from hypothesis import configuration

    from artproject.verify import _hypothesis_home

    def home() -> object:
        return vars(configuration).get("__hypothesis_home_directory")

    before, seen, entered = home(), [], threading.Event()

    def first() -> None:
        with _hypothesis_home():
            seen.append(home())
            entered.set()
            time.sleep(0.2)
            seen.append(Path(str(home())).is_dir())

    def second() -> None:
        entered.wait()
        with _hypothesis_home():
            seen.append(home())
            seen.append(Path(str(home())).is_dir())

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen[1] is True and seen[3] is True and seen[0] != seen[2]
    assert home() == before


def test_a_variant_given_twice_is_told_as_such(tmp_path: Path) -> None:
    """The same variant file layered twice declares its properties twice: told as the file
    given twice, not as a property clashing with itself."""
    from artproject.core.art.loader import load_rules
    from artproject.core.errors import RulesError

    v = tmp_path / "pv.toml"
    v.write_text('about = "v"\n[[property]]\nname = "p2"\ncheck = "threat >= 0"\n')
    with pytest.raises(RulesError, match=r"this file is given twice .*'p2'.*: give it once"):
        load_rules("japan", [v, v])
