"""The compiled-rules cache (core/cache.py, core/art/frozen.py) and `check`'s kept verdicts:
a hit is the rules compiled afresh, a changed file is never a hit, a damaged entry is a miss,
the cache can be turned off and moved, and a cached `check` starts without the checker."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import attrs
import pytest

from artproject import new_game
from artproject.core import cache
from artproject.core.art import loader
from artproject.core.art.bots import heuristic_policy
from artproject.core.art.loader import load_rules, shipped_missions
from artproject.core.art.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = (ROOT / "bench" / "missions" / "every-hook.toml",
            ROOT / "tests" / "missions" / "round-end-hooks.toml")


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own (XDG_CACHE_HOME), the cache on."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("ARTPROJECT_CACHE", raising=False)
    return tmp_path / "xdg" / "artproject"


def entries(where: Path) -> list[Path]:
    return sorted(where.glob("*")) if where.is_dir() else []


def plain(x: Any) -> Any:
    """The rules' data with each compiled function as its code (comparable)."""
    if callable(x) and hasattr(x, "__code__"):
        c = x.__code__
        return ("fn", c.co_code, c.co_consts, c.co_names)
    if isinstance(x, Rules):
        return tuple((f.name, plain(getattr(x, f.name))) for f in attrs.fields(Rules)
                     if f.name != "cache")
    if attrs.has(type(x)):
        return (type(x).__name__, *(plain(getattr(x, f.name)) for f in attrs.fields(type(x))))
    if isinstance(x, Exception):
        return (type(x).__name__, str(x))
    if isinstance(x, tuple | list):
        return tuple(plain(y) for y in x)
    if hasattr(x, "items"):
        return tuple((k, plain(v)) for k, v in x.items())
    return x


def games(rules: Rules) -> list[tuple[Any, ...]]:
    """Every decision of a few heuristic games (state, legal actions, events)."""
    out: list[tuple[Any, ...]] = []
    for players, seed in ((2, 1), (4, 2)):
        st = new_game(rules, players, "medium", seed, log=True)
        choose = heuristic_policy(seed)
        while not st.is_over():
            out.append((st.fingerprint(), tuple(map(str, st.legal_actions()))))
            st.apply(choose(st))
        out.append((st.fingerprint(), tuple(st.events())))
    return out


def compiled(mission: str | Path, monkeypatch: pytest.MonkeyPatch) -> Rules:
    with monkeypatch.context() as m:
        m.setenv("ARTPROJECT_CACHE", "off")
        return loader._load(mission, ())


def thawed(mission: str | Path, monkeypatch: pytest.MonkeyPatch) -> Rules:
    """The rules from the cache (the compiler may not run)."""
    loader._load(mission, ())  # made, if not yet kept
    with monkeypatch.context() as m:
        m.setattr(loader, "_compile", _no_compile)
        return loader._load(mission, ())


def _no_compile(*args: Any) -> Rules:
    raise AssertionError("compiled: the cache was not used")


@pytest.mark.parametrize("mission", [*shipped_missions(), *FIXTURES])
def test_thawed_rules_are_the_compiled_rules(mission: str | Path, here: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    fresh, kept = compiled(mission, monkeypatch), thawed(mission, monkeypatch)
    assert entries(here)
    assert plain(kept) == plain(fresh)
    assert [str(w) for w in kept.warnings] == [str(w) for w in fresh.warnings]
    assert games(kept) == games(fresh)


def test_a_game_on_thawed_rules_pickles(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hooks' compiled steps on the work stack pickle by their place in the list made."""
    mission = FIXTURES[0]
    load_rules(mission)
    with monkeypatch.context() as m:
        m.setattr(loader, "_compile", _no_compile)
        st = new_game(mission, 3, "medium", 5)
    choose = heuristic_policy(5)
    while not st.is_over():
        back = pickle.loads(pickle.dumps(st))
        assert back.fingerprint() == st.fingerprint()
        st.apply(choose(st))


def write(p: Path, text: str) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return p


def test_a_changed_file_is_never_a_hit(tmp_path: Path, here: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    cards = (ROOT / "cards" / "mission-cards.toml").read_text(encoding="utf-8")
    write(tmp_path / "my-cards.toml", cards)
    m = write(tmp_path / "m.toml", """
        extends = "japan"
        name = "m"
        cards = "my-cards.toml"
        [rules]
        lost_city_at = 5
        """)
    assert load_rules(m).p("rules.lost_city_at") == 5
    m.write_text(m.read_text().replace("= 5", "= 6"), encoding="utf-8")
    assert load_rules(m).p("rules.lost_city_at") == 6  # the mission itself
    assert load_rules(m).cards[1].gain == (("fuel", 1),)
    write(tmp_path / "my-cards.toml", cards.replace('gain = "1 fuel"', 'gain = "2 fuel"', 1))
    assert load_rules(m).cards[1].gain == (("fuel", 2),)  # a file it reads
    assert plain(loader._load(m, ())) == plain(compiled(m, monkeypatch))


def test_a_file_appearing_in_the_working_folder_changes_nothing(
        tmp_path: Path, here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`extends = "parent.toml"` is read beside the file that names it, never from the
    working folder: a parent of that name appearing there changes neither the rules nor
    the cache's answer."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "sub" / "parent.toml", 'extends = "japan"\nabout = "Beside"\n')
    m = write(tmp_path / "sub" / "m.toml", 'extends = "parent.toml"\nname = "m"\n')
    assert load_rules(m).raw["about"] == "Beside"
    write(tmp_path / "parent.toml", 'extends = "japan"\nabout = "Here"\n')
    assert load_rules(m).raw["about"] == "Beside" == compiled(m, monkeypatch).raw["about"]


@pytest.mark.parametrize("damage", [b"", b"\x00garbage", "marshal", "truncated"])
def test_a_damaged_entry_is_a_miss(damage: Any, here: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import marshal

    fresh = compiled("rio", monkeypatch)
    loader._load("rio", ())
    (entry,) = entries(here)
    if damage == "marshal":
        data = marshal.dumps((cache.FORMAT, (), b"not rules"))
    elif damage == "truncated":
        data = entry.read_bytes()[:-100]
    else:
        data = damage
    entry.write_bytes(data)
    assert plain(loader._load("rio", ())) == plain(fresh)
    assert plain(thawed("rio", monkeypatch)) == plain(fresh)  # kept again, whole


def test_off_moved_and_unwritable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a"))
    monkeypatch.setenv("ARTPROJECT_CACHE", "off")
    loader._load("usa", ())
    assert not (tmp_path / "a").exists()
    monkeypatch.delenv("ARTPROJECT_CACHE")
    loader._load("usa", ())
    assert [p.parent for p in (tmp_path / "a").rglob("rules-*")] == [tmp_path / "a" /
                                                                     "artproject"]
    assert not list((tmp_path / "a").rglob(".*"))  # no temporary file left behind
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))  # nowhere to write
    assert loader._load("usa", ()).name == "usa"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")  # the XDG spec: ignored
    assert cache.folder() == Path.home() / ".cache" / "artproject"


def test_a_folder_others_may_write_in_is_not_used(here: Path) -> None:
    loader._load("egypt", ())
    (entry,) = entries(here)
    request = (("str", "egypt"), ("NoneType", "None"), ("NoneType", "None"))
    assert cache.lookup("rules", request) is not None
    here.chmod(0o777)  # a planted entry would be code that runs: the cache is off then
    assert cache.lookup("rules", request) is None
    entry.write_bytes(b"planted")
    assert loader._load("egypt", ()).name == "egypt"
    assert entry.read_bytes() == b"planted"  # nor written
    here.chmod(0o700)


def test_other_code_reads_other_entries(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = cache._path("rules", ("x",))
    monkeypatch.setattr(cache, "_code", "another engine")
    assert cache._path("rules", ("x",)) != key


def test_another_copy_of_the_engine_reads_other_entries(
        here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two checkouts of the same code: a shipped file asked for by name is each one's own
    (missions/NAME.toml beside each), so neither may read the other's entries."""
    import artproject

    key = cache._path("rules", ("x",))
    monkeypatch.setattr(artproject, "__file__", "/elsewhere/artproject/__init__.py")
    assert cache._path("rules", ("x",)) != key


def run_check(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "artproject", "check", *args],
                          capture_output=True, text=True, env=env, cwd=cwd)


def test_check_keeps_clean_verdicts_only(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    env.pop("ARTPROJECT_CACHE", None)
    m = write(tmp_path / "m.toml", 'extends = "japan"\nname = "m"\n[rules]\n'
                                   'lost_city_at = 90\n')  # a warning: cities never fall
    first = run_check("m.toml", env=env, cwd=tmp_path)
    assert first.returncode == 0 and "warning" in first.stderr, first.stderr
    again = run_check("m.toml", env=env, cwd=tmp_path)
    assert (again.returncode, again.stdout, again.stderr) == (0, first.stdout, first.stderr)
    assert len(list((tmp_path / "xdg" / "artproject").glob("check-*"))) == 1
    m.write_text(m.read_text() + "oops = 1\n", encoding="utf-8")
    bad = run_check("m.toml", env=env, cwd=tmp_path)
    assert bad.returncode == 2 and "oops" in bad.stderr
    assert run_check("m.toml", env=env, cwd=tmp_path).stderr == bad.stderr  # run again
    env["ARTPROJECT_CACHE"] = "off"
    assert run_check("m.toml", env=env, cwd=tmp_path).stderr == bad.stderr


def test_a_kept_check_starts_without_the_checker(tmp_path: Path) -> None:
    """What `check` imports when its verdict is kept: not the checker, the loader, the DSL's
    parser or the schema; and `--help` not the engine at all."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("ARTPROJECT_CACHE", None)
    probe = ("import sys\nfrom artproject.cli import main\ntry:\n    main({args})\n"
             "except SystemExit:\n    pass\n"
             "print(sorted(m for m in ('artproject.checking', 'artproject.core.art', 'lark', "
             "'cattrs', 'attrs', 'artproject.core.errors') if m in sys.modules))")

    def imported(args: list[str]) -> str:
        r = subprocess.run([sys.executable, "-c", probe.format(args=args)], capture_output=True,
                           text=True, env=env, cwd=ROOT)
        return r.stdout.strip().splitlines()[-1]

    check = ["check", "missions/japan.toml"]
    assert "lark" in imported(check)  # the first time: checked
    assert imported(check) == "['artproject.core.errors']"
    assert imported(["--help"]) == "[]"


def test_a_decks_generated_plays_are_kept(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cards' generated plays (core/art/cardplay.py) are compiled once and read back by a
    later process (here: with the process's own copy forgotten), the same code; a damaged
    entry is compiled afresh; with the cache off nothing is written."""
    from artproject.core.art import cardplay
    from artproject.core.art.tables import Tables

    rules = load_rules("japan")
    monkeypatch.setattr(cardplay, "_CODES", {})
    made = cardplay.card_plays(rules, Tables(rules))
    (entry,) = [p for p in entries(here) if p.name.startswith("cards-")]

    def no_compile(*args: Any) -> Any:
        raise AssertionError("compiled: the cache was not used")

    monkeypatch.setattr(cardplay, "_CODES", {})
    with monkeypatch.context() as m:
        m.setattr(cardplay, "compile", no_compile, raising=False)
        kept = cardplay.card_plays(rules, Tables(rules))
    assert [f.__code__.co_code for f in kept.values()] == [
        f.__code__.co_code for f in made.values()]
    entry.write_bytes(b"\x00damaged")
    monkeypatch.setattr(cardplay, "_CODES", {})
    assert cardplay.card_plays(rules, Tables(rules)).keys() == made.keys()
    entry.unlink()
    monkeypatch.setattr(cardplay, "_CODES", {})
    monkeypatch.setenv("ARTPROJECT_CACHE", "off")
    cardplay.card_plays(rules, Tables(rules))
    assert not [p for p in entries(here) if p.name.startswith("cards-")]
