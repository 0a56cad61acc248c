"""The library's API as a reviewer found it (issues of the API review): rules loaded by two
threads at once, saves that must not load edited or be written unloadable, numpy's values
given as actions, and the messages of refused arguments."""

from __future__ import annotations

import marshal
import threading
from pathlib import Path

import pytest

from artproject import MalformedActionError, new_game, replay
from artproject.core import cache, files
from artproject.core.art.loader import load_rules

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------- the cache and threads
def test_each_threads_watcher_notes_its_own_reads(tmp_path: Path) -> None:
    """Two blocks watching at once, in two threads: each notes the files its thread read,
    never the other's (a file read twice, changed between, would be noted with the other
    thread's bytes), and nothing stays registered after."""
    names = [tmp_path / "a.toml", tmp_path / "b.toml"]
    for p in names:
        p.write_text(f"# {p.name}\n")
    both_in, both_read = threading.Barrier(2), threading.Barrier(2)
    seen: list[dict[str, str]] = [{}, {}]
    failed: list[BaseException] = []

    def work(i: int) -> None:
        try:
            with cache.watching() as read:
                both_in.wait(10)
                files.read_text(names[i])
                files.exists(tmp_path / f"missing-{i}")
                both_read.wait(10)
            seen[i] = dict(read)
        except BaseException as err:  # (told by the test below)
            failed.append(err)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failed
    for i in range(2):
        assert set(seen[i]) == {str(names[i]), str(tmp_path / f"missing-{i}")}
        assert seen[i][str(tmp_path / f"missing-{i}")] == "-"
    assert files.WATCHERS == []


def test_nested_watchers_in_one_thread_both_note() -> None:
    """An entry made while another is made: its files are the outer one's too."""
    base = str(ROOT / "missions" / "base.toml")
    with cache.watching() as outer:
        with cache.watching() as inner:
            files.read_text(base)
        files.exists(ROOT / "missions" / "japan.toml")
    assert base in inner and base in outer and len(outer) == 2 and len(inner) == 1
    assert files.WATCHERS == []


def test_rules_loaded_by_threads_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    """Missions loaded from several threads at once (by path: never kept in memory): no
    error, no watcher left registered, and no cache entry names a mission it was not made
    from."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("ARTPROJECT_CACHE", raising=False)
    missions = [ROOT / "missions" / f"{m}.toml" for m in ("japan", "usa", "rio", "egypt")]
    errors: list[BaseException] = []
    start = threading.Barrier(len(missions) * 2)

    def go(path: Path) -> None:
        try:
            start.wait(10)
            load_rules(path)
        except BaseException as err:  # (told by the test below)
            errors.append(err)

    threads = [threading.Thread(target=go, args=(m,)) for m in missions for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and files.WATCHERS == []
    made = sorted((tmp_path / "xdg" / "artproject").glob("rules-*"))
    assert made
    for entry in made:
        with open(entry, "rb") as f:
            _, deps, _ = marshal.load(f)
        named = {p for p, _ in deps} & {str(m) for m in missions}
        assert len(named) == 1, named


# ---------------------------------------------------------------- numpy's values as actions
@pytest.mark.parametrize("game", ["japan", "kuhn"])
def test_numpy_values_are_malformed_actions(game: str) -> None:
    """An id taken from an array (a policy's argmax) given to `apply` or `replay`: a
    MalformedActionError saying what an action is, the game unchanged (not numpy's
    ValueError from comparing it with the legal actions)."""
    np = pytest.importorskip("numpy")
    g = new_game(game, players=2, seed=1)
    before = g.fingerprint()
    for bad in (np.int64(0), np.array([1, 2]), np.array(["done", "-1", "x"])):
        with pytest.raises(MalformedActionError, match="expected an action"):
            g.apply(bad)
        with pytest.raises(MalformedActionError, match="expected an action"):
            replay(g, [bad])
    with pytest.raises(MalformedActionError, match="an action's id"):
        g.apply(np.int64(0))
    assert g.fingerprint() == before
    g.apply(g.legal_actions()[0])  # and the game plays on
