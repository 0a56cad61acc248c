"""Art of War's rules in the compiled-rules cache (core/cache.py, core/frozen.py), as
tests/test_cache.py tests the first game's: a hit is the rules compiled afresh and plays
the same games, a changed rules, variant or card file is never a hit, a damaged entry is a
miss, the cache can be turned off, a game on thawed rules pickles, `check` keeps a clean
file's verdict (never a scenario's), and a warm load of either game imports no Lark."""

from __future__ import annotations

import marshal
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
from artproject.core.aow import loader
from artproject.core.aow import new_game as new_war
from artproject.core.aow.bots import POLICIES
from artproject.core.aow.loader import DEFAULT, load_rules, shipped_variants
from artproject.core.aow.rules import WarRules

ROOT = Path(__file__).resolve().parent.parent
HOUSE = "refused-card-hand"  # a shipped variant (W6's house rule)
DUEL = "duel"  # a shipped variant with a card file of its own (the game solved, docs/ai.md)
RULE_SETS = [(DEFAULT, ()), (DEFAULT, (HOUSE,)), (DEFAULT, (DUEL,))]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own (XDG_CACHE_HOME), the cache on, nothing loaded yet
    in this process."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("ARTPROJECT_CACHE", raising=False)
    monkeypatch.setattr(loader, "_SHIPPED", {})
    return tmp_path / "xdg" / "artproject"


def entries(where: Path, kind: str = "rules") -> list[Path]:
    return sorted(where.glob(f"{kind}-*")) if where.is_dir() else []


def plain(x: Any, depth: int = 0) -> Any:
    """The rules' data with each compiled function as its code and the constants it reads
    (comparable)."""
    if callable(x) and hasattr(x, "__code__"):
        c = x.__code__
        consts = tuple((n, plain(x.__globals__.get(n), depth + 1) if depth < 3 else None)
                       for n in c.co_names if n.startswith("_k"))
        return ("fn", c.co_code, c.co_consts, c.co_names, consts)
    if isinstance(x, type):
        return x.__qualname__
    if attrs.has(type(x)):
        return (type(x).__name__, *((f.name, plain(getattr(x, f.name), depth))
                                    for f in attrs.fields(type(x)) if f.name != "cache"))
    if isinstance(x, Exception):
        return (type(x).__name__, str(x))
    if isinstance(x, tuple | list):
        return tuple(plain(y, depth) for y in x)
    if hasattr(x, "items"):
        return tuple((k, plain(v, depth)) for k, v in x.items())
    return x


def games(rules: WarRules) -> list[tuple[Any, ...]]:
    """Every decision of a few heuristic games (state and legal actions), and the end."""
    out: list[tuple[Any, ...]] = []
    for players, seed in ((2, 1), (4, 2), (7, 3)):
        if players > rules.p("components.max_players"):
            continue  # (the duel is for two)
        st = new_war(rules, players, seed=seed, log=True)
        choose = POLICIES["heuristic"](seed)
        while not st.is_over():
            out.append((st.fingerprint(), tuple(map(str, st.legal_actions()))))
            st.apply(choose(st))
        out.append((st.fingerprint(), tuple(st.events()), tuple(st.returns())))
    return out


def compiled(ref: str | Path, variants: tuple[str | Path, ...],
             monkeypatch: pytest.MonkeyPatch) -> WarRules:
    with monkeypatch.context() as m:
        m.setenv("ARTPROJECT_CACHE", "off")
        return loader._load(ref, variants)


def _no_compile(*args: Any) -> WarRules:
    raise AssertionError("compiled: the cache was not used")


def thawed(ref: str | Path, variants: tuple[str | Path, ...],
           monkeypatch: pytest.MonkeyPatch) -> WarRules:
    """The rules from the cache (the compiler may not run)."""
    loader._load(ref, variants)  # made, if not yet kept
    with monkeypatch.context() as m:
        m.setattr(loader, "_compile", _no_compile)
        return loader._load(ref, variants)


def test_the_shipped_variants_are_tested() -> None:
    assert shipped_variants() == [DUEL, HOUSE]


@pytest.mark.parametrize(("ref", "variants"), RULE_SETS)
def test_thawed_rules_are_the_compiled_rules(ref: str, variants: tuple[str, ...], here: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    fresh, kept = compiled(ref, variants, monkeypatch), thawed(ref, variants, monkeypatch)
    assert len(entries(here)) == 1
    assert kept is not fresh and kept.made[0] is not fresh.made[0]
    assert plain(kept) == plain(fresh)
    assert len(kept.made) == len(fresh.made) > 0
    assert [str(w) for w in kept.warnings] == [str(w) for w in fresh.warnings]
    assert games(kept) == games(fresh)


def test_load_rules_goes_through_the_cache(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """load_rules as a game calls it: the shipped name, and with the shipped variant."""
    first, house = load_rules(), load_rules(DEFAULT, [HOUSE])
    assert len(entries(here)) == 2
    monkeypatch.setattr(loader, "_SHIPPED", {})
    monkeypatch.setattr(loader, "_compile", _no_compile)
    again, house_again = load_rules(), load_rules(DEFAULT, [HOUSE])
    assert (again.ref, again.variants, again.p("rules.refused_card")) == (
        DEFAULT, (), "discard")
    assert (house_again.ref, house_again.variants, house_again.p("rules.refused_card")) == (
        DEFAULT, (HOUSE,), "hand")
    assert again.cache["loaded"] == first.cache["loaded"]
    assert house_again.cache["loaded"] == house.cache["loaded"]


def test_a_game_on_thawed_rules_pickles(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Card texts' compiled steps on the work stack pickle by their place in the list made;
    unpickling loads the rules again (from the cache: the compiler may not run)."""
    load_rules(DEFAULT, [HOUSE])
    monkeypatch.setattr(loader, "_compile", _no_compile)
    st = new_game(DEFAULT, 4, seed=5, variants=[HOUSE])
    choose = POLICIES["heuristic"](5)
    queued = 0
    while not st.is_over():
        back = pickle.loads(pickle.dumps(st))
        assert back.fingerprint() == st.fingerprint()
        assert list(map(str, back.legal_actions())) == list(map(str, st.legal_actions()))
        queued += _compiled_queued(st)
        st.apply(choose(st))
    assert queued  # some pickle named a compiled card text


def _compiled_queued(st: Any) -> bool:
    """Whether a function the compiler made is on the game's work stack (or resumes it)."""
    made = {id(fn) for fn in st.rules.made}
    queued = [st.resume, *(x for fn, args in st.queue for x in (fn, *args))]
    return any(id(x) in made or (type(x) is tuple and any(id(y) in made for y in x))
               for x in queued)


def write(p: Path, text: str) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return p


def _copy_rules(folder: Path) -> tuple[Path, Path]:
    """The shipped rules as files of the test's own, naming a card file beside them."""
    text = (ROOT / "missions" / "art-of-war.toml").read_text(encoding="utf-8")
    rules = write(folder / "war.toml", text.replace('cards = "art-of-war"',
                                                    'cards = "my-cards.toml"'))
    cards = write(folder / "my-cards.toml",
                  (ROOT / "cards" / "art-of-war.toml").read_text(encoding="utf-8"))
    return rules, cards


def test_a_changed_file_is_never_a_hit(tmp_path: Path, here: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    rules, cards = _copy_rules(tmp_path)
    variant = write(tmp_path / "v.toml", 'game = "art-of-war"\n[rules]\nraise_limit = 2\n')
    assert load_rules(rules).p("rules.raise_limit") == 1
    assert load_rules(rules, [variant]).p("rules.raise_limit") == 2
    rules.write_text(rules.read_text().replace("tokens_dealt = 6", "tokens_dealt = 5"),
                     encoding="utf-8")
    assert load_rules(rules).p("setup.tokens_dealt") == 5  # the rules file itself
    assert load_rules(rules, [variant]).p("setup.tokens_dealt") == 5  # under a variant
    variant.write_text(variant.read_text().replace("= 2", "= 3"), encoding="utf-8")
    assert load_rules(rules, [variant]).p("rules.raise_limit") == 3  # the variant
    assert load_rules(rules).cards[0].score == 1
    cards.write_text(cards.read_text().replace("score = 1\n", "score = 21\n", 1),
                     encoding="utf-8")
    assert load_rules(rules).cards[0].score == 21  # the card file it names
    assert load_rules(rules, [variant]).cards[0].score == 21
    assert plain(loader._load(rules, ())) == plain(compiled(rules, (), monkeypatch))


def test_a_file_appearing_in_the_working_folder_changes_nothing(
        tmp_path: Path, here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`cards = "my-cards.toml"` is read beside the rules file, never from the working
    folder: a card file of that name appearing there changes neither the rules nor the
    cache's answer."""
    rules, cards = _copy_rules(tmp_path / "sub")
    monkeypatch.chdir(tmp_path)
    assert load_rules(rules).cards[0].score == 1
    write(tmp_path / "my-cards.toml", cards.read_text().replace("score = 1\n", "score = 9\n", 1))
    assert load_rules(rules).cards[0].score == 1 == compiled(rules, (), monkeypatch
                                                             ).cards[0].score


@pytest.mark.parametrize("damage", [b"", b"\x00garbage", "marshal", "truncated", "art"])
def test_a_damaged_entry_is_a_miss(damage: Any, here: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = compiled(DEFAULT, (HOUSE,), monkeypatch)
    loader._load(DEFAULT, (HOUSE,))
    (entry,) = entries(here)
    if damage == "marshal":
        data = marshal.dumps((cache.FORMAT, (), b"not rules"))
    elif damage == "truncated":
        data = entry.read_bytes()[:-100]
    elif damage == "art":  # whole, fresh, but the other game's rules
        from artproject.core.art import frozen as art_frozen
        from artproject.core.art.loader import _load as load_art

        with monkeypatch.context() as m:
            m.setenv("ARTPROJECT_CACHE", "off")
            other = art_frozen.freeze(load_art("japan", ()))
        assert other is not None
        _, deps, _ = marshal.loads(entry.read_bytes())
        data = marshal.dumps((cache.FORMAT, deps, other))
    else:
        data = damage
    entry.write_bytes(data)
    assert plain(loader._load(DEFAULT, (HOUSE,))) == plain(fresh)
    assert plain(thawed(DEFAULT, (HOUSE,), monkeypatch)) == plain(fresh)  # kept again, whole


def test_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a"))
    monkeypatch.setenv("ARTPROJECT_CACHE", "off")
    monkeypatch.setattr(loader, "_SHIPPED", {})
    loader._load(DEFAULT, ())
    assert not (tmp_path / "a").exists()
    monkeypatch.delenv("ARTPROJECT_CACHE")
    loader._load(DEFAULT, ())
    assert len(list((tmp_path / "a" / "artproject").glob("rules-*"))) == 1
    assert not list((tmp_path / "a").rglob(".*"))  # no temporary file left behind
    monkeypatch.setenv("ARTPROJECT_CACHE", "off")  # off: compiled, whatever is kept
    calls: list[int] = []
    real = loader._compile

    def counted(*args: Any) -> WarRules:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(loader, "_compile", counted)
    assert loader._load(DEFAULT, ()).name == "art-of-war" and calls == [1]


def test_the_games_entries_are_apart(here: Path) -> None:
    """The same request of either game is two entries (a game is part of the key)."""
    from artproject.core.art.loader import _load as load_art

    loader._load(DEFAULT, ())
    with pytest.raises(Exception, match="another game"):
        load_art(DEFAULT, ())
    assert len(entries(here)) == 1


# ---------------------------------------------------------------------- check
def run_check(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "artproject", "check", *args],
                          capture_output=True, text=True, env=env, cwd=cwd)


def test_check_keeps_clean_verdicts_of_art_of_war(tmp_path: Path) -> None:
    """Its rules, a variant and a card file; a change in a file the rules name (the card
    file) is seen; files with errors and scenarios are checked every time."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    env.pop("ARTPROJECT_CACHE", None)
    cards = _copy_rules(tmp_path)[1]
    variant = write(tmp_path / "v.toml", 'game = "art-of-war"\n[rules]\nraise_limit = 2\n')
    files = ("war.toml", "v.toml", "my-cards.toml")
    first = run_check(*files, env=env, cwd=tmp_path)
    assert first.returncode == 0 and "checked 3 file(s): no errors" in first.stdout, first
    kept = tmp_path / "xdg" / "artproject"
    assert len(entries(kept, "check")) == 3
    again = run_check(*files, env=env, cwd=tmp_path)
    assert (again.returncode, again.stdout, again.stderr) == (0, first.stdout, first.stderr)
    assert len(entries(kept, "check")) == 3
    scenario = ROOT / "tests" / "scenarios" / "aow-massacre-tie-split.toml"
    assert run_check(str(scenario), env=env, cwd=tmp_path).returncode == 0
    assert len(entries(kept, "check")) == 3  # a scenario is run every time
    cards.write_text(cards.read_text().replace("count = 2", "count = -2", 1), encoding="utf-8")
    bad = run_check("war.toml", env=env, cwd=tmp_path)
    assert bad.returncode == 2 and "my-cards.toml" in bad.stderr, bad.stderr
    assert run_check("war.toml", env=env, cwd=tmp_path).stderr == bad.stderr  # run again
    variant.write_text(variant.read_text().replace("= 2", "= 0"), encoding="utf-8")
    worse = run_check("v.toml", env=env, cwd=tmp_path)
    assert worse.returncode == 2 and "v.toml" in worse.stderr, worse.stderr


def test_a_kept_check_of_art_of_war_starts_without_the_checker(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("ARTPROJECT_CACHE", None)
    probe = ("import sys\nfrom artproject.cli import main\ntry:\n    main({args})\n"
             "except SystemExit:\n    pass\n"
             "print(sorted(m for m in ('artproject.checking', 'artproject.core.aow', 'lark', "
             "'cattrs', 'artproject.core.errors') if m in sys.modules))")

    def imported(args: list[str]) -> str:
        r = subprocess.run([sys.executable, "-c", probe.format(args=args)], capture_output=True,
                           text=True, env=env, cwd=ROOT)
        return r.stdout.strip().splitlines()[-1]

    for file in ("missions/art-of-war.toml", f"missions/variants/{HOUSE}.toml",
                 "cards/art-of-war.toml"):
        assert "lark" in imported(["check", file])  # the first time: checked
        assert imported(["check", file]) == "['artproject.core.errors']"


def test_a_warm_load_imports_no_lark(tmp_path: Path) -> None:
    """Rules thawed from the cache parse nothing: a fresh process that imports either game
    and loads its rules from a warm cache never imports Lark (dsl/text.py holds what the
    engine needs of the DSL's front end without it); the first load, compiling, does."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("ARTPROJECT_CACHE", None)
    probe = ("import sys\nfrom artproject import new_game\n"
             "from artproject.core.aow import new_game as new_war\n"
             "print('lark' in sys.modules)\n"
             f"new_game('japan'); new_war('{DEFAULT}', variants=['{HOUSE}'])\n"
             "print('lark' in sys.modules)")

    def lark() -> list[str]:
        r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           env=env, cwd=ROOT)
        assert r.returncode == 0, r.stderr
        return r.stdout.split()

    assert lark() == ["False", "True"]  # compiled, and kept
    assert lark() == ["False", "False"]
