"""The library's API as a reviewer found it (issues of the API review): rules loaded by two
threads at once, saves that must not load edited or be written unloadable, numpy's values
given as actions, and the messages of refused arguments."""

from __future__ import annotations

import json
import marshal
import threading
from pathlib import Path
from typing import Any

import pytest

from artproject import (
    Action,
    GameError,
    MalformedActionError,
    SaveError,
    apply_position,
    dumps,
    load_game,
    loads,
    new_game,
    replay,
    save_game,
)
from artproject.core import cache, files, saves
from artproject.core.actions import PUBLIC
from artproject.core.art.loader import load_rules
from artproject.core.seats import Seated

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


# ---------------------------------------------------------------- saves
def _explicit_game() -> Any:
    g = new_game("japan", players=3, seed=4, chance="explicit")
    g.apply("done")
    while g.is_chance_node():
        g.apply(g.sample_chance())
    return g


@pytest.mark.parametrize("edit", [("seed", 0), ("seed", 12345), ("reseeds", [[1, 43]])])
def test_an_edited_seed_of_explicit_chance_is_an_edited_save(edit: tuple[str, Any]) -> None:
    """With explicit chance the fingerprint leaves the generator out, yet `sample_chance`
    draws from the seed: an edited seed or reseed is an edited save (SaveError)."""
    g = _explicit_game()
    g.reseed(42)
    doc = json.loads(dumps(g))
    assert loads(json.dumps(doc)).fingerprint() == g.fingerprint()
    doc[edit[0]] = edit[1]
    with pytest.raises(SaveError, match="replayed game differs"):
        loads(json.dumps(doc))


def test_explicit_saves_written_before_still_load() -> None:
    """A save of explicit chance whose digest is the fingerprint's alone (as saves were
    written before the seed was in it) loads as before."""
    g = _explicit_game()
    doc = json.loads(dumps(g))
    del doc["generator"]  # (saves of both kinds had none)
    for earlier in (saves._hashed(g.fingerprint()), saves._hashed(saves._explicit_print(g))):
        doc["digest"] = earlier
        assert doc["digest"] != saves.digest(g)
        assert loads(json.dumps(doc)).fingerprint() == g.fingerprint()


def test_a_game_its_save_would_not_replay_is_refused(tmp_path: Path) -> None:
    """A determinization (`resample`) or a game set by `apply_position` by hand: saving it
    is a SaveError saying why, and nothing is written; a normal game saves and loads."""
    g = new_game("japan", players=2, seed=3)
    g.apply("done")
    hand = new_game("japan", players=2, seed=3)
    apply_position(hand, {"health": [1, 1]})
    for bad in (g.resample([0], seed=5), hand):
        with pytest.raises(SaveError, match=r"cannot be saved.*resample.*apply_position"):
            save_game(bad, tmp_path / "w.json")
        with pytest.raises(SaveError, match="cannot be saved"):
            dumps(bad)
        assert not (tmp_path / "w.json").exists()
    save_game(g, tmp_path / "g.json")
    assert load_game(tmp_path / "g.json").fingerprint() == g.fingerprint()


def test_the_save_refused_is_the_one_that_would_not_load_as_written(tmp_path: Path) -> None:
    """The check reads the save document back as loading will (the rules its header names,
    each action by its text), not the game in memory: rules given another card file (which
    the header does not record) replayed in memory but never loaded; a game played on them
    is refused. An action given as a tuple equal to a listed one (numpy's numbers in it) is
    the listed action in the history, so its save loads."""
    import random

    np = pytest.importorskip("numpy")
    from artproject import load_rules

    g = new_game(load_rules("japan", cards="tests/cards/scenario-deck.toml"), 2, seed=4)
    rng = random.Random(2)
    for _ in range(40):
        if g.is_over():
            break
        g.apply(rng.choice(g.legal_actions()))
    with pytest.raises(SaveError, match=r"cannot be saved: its save would not load back \(it "
                                        r"replays to another game\).*other than its header names"):
        save_game(g, tmp_path / "c.json")
    assert not (tmp_path / "c.json").exists()
    t = new_game("japan", players=2, seed=1)
    a = t.legal_actions()[0]
    t.apply((a.verb, np.int64(a.player), a.arg))
    assert type(t.history[-1]) is Action and t.history[-1] == a
    assert loads(dumps(t)).fingerprint() == t.fingerprint()


# ---------------------------------------------------------------- messages
def test_library_messages_name_the_librarys_parameters(tmp_path: Path) -> None:
    """A library caller's words are trust=True and replace=True (the command line's flags
    named beside them)."""
    g = new_game("japan", players=2, seed=1)
    doc = json.loads(dumps(g))
    doc["digest"] = "0" * 16
    with pytest.raises(SaveError, match=r"trust=True \(the command line's --trust\)"):
        loads(json.dumps(doc))
    save_game(g, tmp_path / "g.json")
    with pytest.raises(SaveError, match=r"already exists.*replace=True, the command line's "
                                        r"--force, replaces it"):
        save_game(g, tmp_path / "g.json")


def test_argument_messages() -> None:
    np = pytest.importorskip("numpy")
    g = new_game("japan", players=2, seed=3)
    world = g.resample([np.int64(0)], 1)  # numpy's integers are seats, as ints are
    assert world.hands[0] == g.hands[0]
    with pytest.raises(GameError, match=r"0 to 1\), TEAM \(-1\), PUBLIC \(-2\) or NOBODY "
                                        r"\(-5\), not -3"):
        g.observation(-3)
    assert g.observation(-2) == g.observation(np.int64(-2))
    with pytest.raises(GameError, match="path must hold no NUL character"):
        save_game(g, "a\0b.json")
    with pytest.raises(GameError, match="kuhn is played by 2 players, not 3"):
        new_game("kuhn", players=3)


@pytest.mark.parametrize("bad", [None, 99, "0", True, -3])
def test_legal_ids_checks_the_seat(bad: Any) -> None:
    """`Seated.legal_ids` of no seat of the game: GameError, as `observation`'s."""
    seated = Seated(new_game("japan", players=2, seed=1), "players")
    with pytest.raises(GameError, match="seat"):
        seated.legal_ids(bad)
    now = seated.current()
    assert seated.legal_ids(now) and seated.legal_ids(1 - now) == ()
    assert seated.legal_ids(PUBLIC) == ()


def test_a_save_with_a_byte_order_mark_loads_everywhere_a_file_would() -> None:
    """A file with a BOM (Windows Notepad's) is read past it by `load_game`; `loads` of its
    text or bytes, and the replay viewer's upload, refused it."""
    from artproject.web.sources import open_bytes

    g = new_game("japan", players=2, seed=1)
    g.apply("done")
    text = "\ufeff" + dumps(g)
    assert loads(text).fingerprint() == g.fingerprint()
    assert loads(text.encode()).fingerprint() == g.fingerprint()
    rec = open_bytes(text.encode(), "bom.json")
    assert not isinstance(rec, list) and rec.actions == [str(a) for a in g.history]
