"""A stored game of a designer's own mission or variant file replays (`serve --replay
STORE`) wherever the server runs: the store records where the rules came from (a file by its
absolute path); a file changed or moved since is said plainly, never a different game
replayed; a store written before the sources were recorded still opens and replays."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from artproject.store import Store
from artproject.web.replays import Book
from artproject.web.sources import SourceError
from tests.test_scale import cli

MISSIONS = Path(__file__).parent / "missions"
HARBOUR = MISSIONS / "harbour-tunable.toml"  # its name: harbour


@pytest.fixture
def own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store of one game of the designer's harbourx.toml with hardcity.toml layered on,
    swept in the designer's folder; the test then leaves that folder."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "harbourx.toml").write_text(HARBOUR.read_text().replace(
        'name = "harbour"', 'name = "harbourx"'))
    shutil.copy(MISSIONS / "team-threat.toml", work / "hardcity.toml")
    monkeypatch.chdir(work)
    r = cli("simulate", "--mission", "harbourx.toml", "--variant", "hardcity.toml",
            "--players", "3", "--games", "1", "--seed", "1", "--store", "own.db")
    assert r.returncode == 0, r.stderr
    monkeypatch.chdir(tmp_path)  # the server starts elsewhere
    return work


def _replay(db: Path) -> str:
    book = Book()
    got = book.open(db.read_bytes(), db.name, local=True)
    (game,) = got["games"]
    rec = book.recording(f"{got['id']}.{game['index']}")
    assert rec.over()
    return rec.title


def test_a_game_of_one_s_own_files_replays_from_anywhere(own: Path) -> None:
    assert _replay(own / "own.db") == \
        "store own.db: harbourx + hardcity.toml 3p medium seed 1 heuristic"


def test_a_file_changed_since_is_said_plainly(own: Path) -> None:
    mission = own / "harbourx.toml"
    mission.write_text(mission.read_text().replace("lost_city_at = 4", "lost_city_at = 5"))
    said = r"harbourx\.toml, \S+hardcity\.toml hold now \(changed since"
    with pytest.raises(SourceError, match=said):
        _replay(own / "own.db")


def test_a_file_moved_since_is_said_plainly(own: Path) -> None:
    (own / "hardcity.toml").rename(own / "elsewhere.toml")
    with pytest.raises(SourceError, match=r"hardcity\.toml, which is no longer there"):
        _replay(own / "own.db")


def test_a_store_written_before_sources_were_recorded(tmp_path: Path) -> None:
    """The old store (no sources table): shipped rules replay as before, and a sweep into it
    adds the table and resumes."""
    db = tmp_path / "old.db"
    sim = ("simulate", "--mission", "japan", "--players", "2", "--games", "1", "--seed", "1",
           "--store", str(db))
    assert cli(*sim).returncode == 0
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE sources")  # as artproject wrote it before
    conn.close()
    with Store.read(db) as store:
        assert store.sources() == {} and store.count() == 1
    assert _replay(db) == "store old.db: japan 2p medium seed 1 heuristic"
    assert cli("report", str(db)).returncode == 0
    assert cli(*sim).returncode == 0
    with Store.read(db) as store:
        assert store.count() == 1 and len(store.sources()) == 1


def test_a_store_of_one_s_own_files_sent_to_a_server_says_where_it_replays(own: Path) -> None:
    """A file sent to a server may name shipped rules only: the game is refused saying so
    and how it does replay, naming the file by its name (never its path)."""
    db = own / "own.db"
    book = Book()
    got = book.open(db.read_bytes(), db.name)  # (not local: sent to the server)
    with pytest.raises(SourceError) as err:
        book.recording(f"{got['id']}.0")
    said = str(err.value)
    assert "a file of its own (harbourx.toml, hardcity.toml)" in said
    assert "rule files shipped with artproject" in said and "serve --replay" in said
    assert str(own) not in said


def _crafted(tmp_path: Path, missions: list[str], refs: list[tuple[object, object]]) -> bytes:
    """A store as anyone may send one: its games' missions and its sources table's values
    written by hand."""
    db = tmp_path / "crafted.db"
    Store.open(db).close()
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE sources")  # (any values: no NOT NULL, no types)
    conn.execute("CREATE TABLE sources (game, mission, variant, rules, mission_ref, "
                 "variant_refs)")
    for m, (ref, vrefs) in zip(missions, refs, strict=True):
        conn.execute("INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                     ("art-project", m, "", "abc", "medium", 2, 1, "random", "won", "", 3, 4,
                      "x"))
        conn.execute("INSERT INTO sources VALUES (?,?,?,?,?,?)",
                     ("art-project", m, "", "abc", ref, vrefs))
    conn.commit()
    conn.close()
    return db.read_bytes()


def test_a_store_sent_to_the_server_tells_nothing_of_its_files(tmp_path: Path) -> None:
    """A store sent to the server names its games' rules as it likes: whether a path it
    names lies on the server's disk must not show in the reply (the replay looked for the
    files of a store's sources before refusing a path)."""
    there = tmp_path / "there.toml"
    there.write_text("x = 1\n")
    absent = tmp_path / "absent.toml"
    book = Book()
    got = book.open(_crafted(tmp_path, [str(there), str(absent)],
                             [("/x/own.toml", ""), ("/x/own.toml", "")]), "up.db")
    said = []
    for game in got["games"]:
        with pytest.raises(SourceError) as err:
            book.recording(f"{got['id']}.{game['index']}")
        said.append(str(err.value).replace(game["mission"], "MISSION"))
    assert said[0] == said[1], said
    assert "no longer there" not in said[0]


@pytest.mark.parametrize(("ref", "refs"), [(5, ""), ("egypt", 7), (None, ""),
                                           (b"egypt", "")])
def test_a_sources_table_of_other_values_is_refused_plainly(tmp_path: Path, ref: object,
                                                            refs: object) -> None:
    """Values the store never writes there (a number, none, bytes) are a store refused in
    one line, not the server's failure (AttributeError, TypeError: a 500)."""
    book = Book()
    with pytest.raises(SourceError, match=r"not a results store: .*other than a text"):
        got = book.open(_crafted(tmp_path, ["egypt"], [(ref, refs)]), "up.db")
        book.recording(f"{got['id']}.0")


def test_the_files_kept_open_are_bounded_by_what_they_take(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           ) -> None:
    """Stores sent to the server are kept open with their lists of games, each up to 32 MiB
    and a list as long as it holds: kept by count alone (32), they could hold gigabytes.
    Past KEPT_BYTES the least recently used go first; the newest always stays."""
    import artproject.web.replays as replays

    stores = []
    for i in range(3):
        (tmp_path / str(i)).mkdir()
        stores.append(_crafted(tmp_path / str(i), [f"egypt{i}"], [("egypt", "")]))
    book = Book()
    monkeypatch.setattr(replays, "KEPT_BYTES", 1)
    ids = [book.open(data, f"up{i}.db")["id"] for i, data in enumerate(stores)]
    assert list(book.files) == [ids[2]] and list(book.stores) == [ids[2]]
    assert book.summary(ids[2])["games"][0]["mission"] == "egypt2"
    monkeypatch.setattr(replays, "KEPT_BYTES", 10**9)  # (room for all: kept by count)
    for i, data in enumerate(stores):
        book.open(data, f"up{i}.db")
    assert list(book.files) == ids
