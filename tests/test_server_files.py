"""A file sent to the server reads nothing of the server's disk (docs/server.md, "Security
model"; docs/web.md, "Replay"): a save, scenario, transcript or results store uploaded to the
replay viewer may name only the shipped missions, variants and card files, by name. A path
(absolute, `../` up and out, /proc, a link, a folder) is refused with the same answer whether
or not anything is there, and no reply holds a line of a file, a server path or a traceback.
The server's own command line (`serve --replay FILE`) still opens a file that names a rule
file by its path, as the command line's tools do; and a strange upload name is never a 500."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("httpx")

from artproject.core.files import shorten
from tests.serving import Running, running

ROOT = Path(__file__).resolve().parents[1]
SECRET = "hunter2-SECRET"
SAVES = {  # a fresh game of each game, as saves.to_dict writes it (the ref replaced)
    "art-project": {"format": "artproject-save", "version": 3, "game": "art-project",
                    "mission": "japan", "variants": [], "players": 1, "difficulty": "medium",
                    "seed": 1, "actions": [], "digest": "f68767cdea0b46dd"},
    "art-of-war": {"format": "artproject-save", "version": 3, "game": "art-of-war",
                   "rules": "art-of-war", "variants": [], "players": 2, "seed": 1,
                   "actions": [], "digest": "61c881ac2c99c3be"},
    "kuhn": {"format": "artproject-save", "version": 3, "game": "kuhn", "rules": "kuhn",
             "variants": [], "players": 2, "seed": 1, "deal": [], "actions": [],
             "digest": "84dab85991df36fc"},
}
SCENARIOS = {  # game -> (its keys, a first step); the key under test replaced
    "art-project": ('mission = "japan"\nplayers = 1\n', "done"),
    "art-of-war": ('game = "art-of-war"\nrules = "art-of-war"\nplayers = 2\n', None),
    "kuhn": ('game = "kuhn"\nrules = "kuhn"\nplayers = 2\n', None),
}
# what a reply must never say of a path it was given: whether it is there, and what it is
TELLS = ("no such file", "folder", "regular file", "device", "link", "cannot read",
         "not valid TOML", "UTF-8", "artproject-view", "Traceback", "root:")


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from running(tmp_path_factory.mktemp("serve") / "games.db")


@pytest.fixture(scope="module")
def secrets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Files on the server's disk a client must not read, nor learn are there."""
    d = tmp_path_factory.mktemp("secret")
    (d / "secret.toml").write_text(f'db_password = "{SECRET}"\n[card]\nname = "{SECRET}"\n')
    (d / "notes.txt").write_text(f"{SECRET}\n")
    (d / "link.toml").symlink_to(d / "secret.toml")
    (d / "folder.toml").mkdir()
    return {"toml": d / "secret.toml", "text": d / "notes.txt", "link": d / "link.toml",
            "folder": d / "folder.toml", "missing": d / "missing.toml"}


def _refs(secrets: dict[str, Path], up: Path) -> list[str]:
    """Every way to name a file of the server's: by its path, `../` from `up`, /proc's."""
    paths = [str(p) for p in secrets.values()]
    return [*paths, os.path.relpath(secrets["toml"], up), "../" * 40 + paths[0].lstrip("/"),
            "/proc/self/environ", "/etc/passwd", "/etc/hostname", str(up),
            str(secrets["toml"].parent)]


def _refused(r: Any, ref: str) -> str:
    """A refusal of `ref`: 400, a JSON error telling no secret, no path of the server's
    besides the one it was given, and nothing about what is there."""
    assert r.status_code == 400, r.text
    err: str = r.json()["error"]
    assert SECRET not in r.text and "PATH=" not in r.text, err
    bare = err.replace(repr(shorten(ref, 60)), "REF")  # the answer less the name given
    assert not any(t in bare for t in TELLS), err
    assert "the rule files shipped with artproject, by their names" in err, err
    return bare


def _post(srv: Running, data: bytes, name: str) -> Any:
    return srv.http.post("/api/replays", params={"name": name}, content=data)


@pytest.mark.parametrize("game", sorted(SAVES))
@pytest.mark.parametrize("key", ["rules", "variants"])
def test_a_save_s_rule_files_are_shipped_ones_only(srv: Running, secrets: dict[str, Path],
                                                   game: str, key: str) -> None:
    answers = set()
    for ref in _refs(secrets, Path.cwd()):
        save = dict(SAVES[game])
        if key == "variants":
            save["variants"] = [ref]
        else:
            save["mission" if game == "art-project" else "rules"] = ref
        answers.add(_refused(_post(srv, json.dumps(save).encode(), "s.json"), ref))
    assert len(answers) == 1, answers  # the same whatever is (or is not) there


@pytest.mark.parametrize(("game", "key"), [("art-project", "mission"), ("art-project", "cards"),
                                           ("art-project", "variants"), ("art-of-war", "rules"),
                                           ("art-of-war", "variants"), ("kuhn", "rules")])
def test_a_scenario_s_rule_files_are_shipped_ones_only(srv: Running, secrets: dict[str, Path],
                                                       game: str, key: str) -> None:
    head, step = SCENARIOS[game]
    answers = set()
    for i, ref in enumerate(_refs(secrets, Path("/tmp/artproject-view-x"))):
        value = json.dumps([ref] if key == "variants" else ref)
        keys = "\n".join(line for line in head.splitlines() if not line.startswith(key))
        text = (f'about = "{key} {i}"\n{keys}\n{key} = {value}\nseed = 1\n\n[[step]]\n'
                + (f'do = "{step}"\n' if step else 'note = "start"\n'))
        answers.add(_refused(_post(srv, text.encode(), "evil.toml"), ref))
    assert len(answers) == 1, answers


def test_a_transcript_names_shipped_rules_only(srv: Running, secrets: dict[str, Path],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(secrets["toml"].parent)  # the server's folder holds secret.toml
    for ref, head in (("secret.toml", "# secret.toml, 1 players, medium, seed 1, heuristic "
                                      "policy"),
                      ("secret.toml", "# art-of-war, 2 players, seed 1, random, secret.toml"),
                      ("link.toml", "# link.toml, 1 players, medium, seed 1, heuristic policy")):
        _refused(_post(srv, f"{head}\n> done\n".encode(), "t.txt"), ref)


def test_a_results_store_s_games_name_shipped_rules_only(srv: Running, secrets: dict[str, Path],
                                                         tmp_path: Path) -> None:
    db = tmp_path / "results.db"
    subprocess.run([sys.executable, "-m", "artproject", "simulate", "--mission", "japan",
                    "--players", "1", "--games", "1", "--seed", "1", "--store", str(db)],
                   check=True, capture_output=True, cwd=ROOT)
    for ref in (str(secrets["toml"]), str(secrets["missing"]), "/proc/self/environ"):
        with sqlite3.connect(db) as c:
            c.execute("UPDATE games SET mission = ?", (ref,))
        c.close()
        r = _post(srv, db.read_bytes(), "results.db")
        assert r.status_code == 200, r.text
        got = srv.http.get(f"/api/replays/{r.json()['id']}.0")
        assert got.status_code == 400, got.text
        assert SECRET not in got.text
        assert "rule files shipped with artproject" in got.json()["error"]


def test_shipped_names_still_open(srv: Running) -> None:
    for game, save in SAVES.items():
        r = _post(srv, json.dumps({**save, "variants": []}).encode(), f"{game}.json")
        assert r.status_code == 200, r.text
    r = _post(srv, b'about = "cards"\nmission = "japan"\ncards = "mission-cards"\n'
                   b'variants = ["no-ally-dice"]\nplayers = 1\nseed = 1\n\n[[step]]\nnote = '
                   b'"start"\n', "ok.toml")
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("name", ["..", ".", "", "a\x00b", "../../x.toml", "/", "\\..\\",
                                  "x" * 500, "\x1b[31mred"])
def test_any_upload_name_is_answered_never_a_500(srv: Running, name: str) -> None:
    text = (f'about = "name {name.encode().hex()}"\nmission = "japan"\nplayers = 1\n'
            'seed = 1\n\n[[step]]\ndo = "done"\n')
    r = _post(srv, text.encode(), name)
    assert r.status_code == 200, r.text
    title = r.json()["title"]
    assert title.startswith("scenario ") and "artproject-view" not in title
    assert title.isprintable() and "/" not in title and "\\" not in title
    assert title not in ("scenario ", "scenario .", "scenario ..")
    bad = text.replace('do = "done"', 'do = "no such action"')
    r = _post(srv, bad.encode(), name)  # an error naming the file: the same name
    assert r.status_code == 400 and "artproject-view" not in r.text, r.text


def test_the_lobby_offers_shipped_boards_and_variants_only(srv: Running,
                                                           secrets: dict[str, Path]) -> None:
    for body in ({"board": str(secrets["toml"])}, {"variants": [str(secrets["toml"])]},
                 {"variants": ["../" * 9 + "etc/passwd"]}, {"board": ["japan"]}):
        r = srv.http.post("/api/games", json={"game": "art-project", "seats": ["person"],
                                              **body})
        assert r.status_code == 400 and r.json()["error"] == "bad-option", r.text
        assert SECRET not in r.text


def test_static_files_stay_in_their_folder(srv: Running) -> None:
    for path in ("/static/..%2f..%2f..%2fpyproject.toml", "/static/%2e%2e/__init__.py",
                 "/static/..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd"):
        r = srv.http.get(path)
        assert r.status_code == 404, (path, r.status_code, r.text[:200])
        assert "root:" not in r.text and "[project]" not in r.text


def test_the_command_line_s_own_file_may_name_a_file(tmp_path: Path) -> None:
    """`serve --replay FILE` (the server's own command line) opens a save that names its
    mission by a path, as `play --load` does; the same bytes uploaded are refused."""
    from artproject.web.replays import Book

    mission = tmp_path / "harbour.toml"
    mission.write_text((ROOT / "missions" / "japan.toml").read_text())
    save = json.dumps({**SAVES["art-project"], "mission": str(mission)}).encode()
    with pytest.raises(Exception, match="rule files shipped with artproject"):
        Book().open(save, "s.json")
    book = Book()
    assert book.open(save, "s.json", local=True)["kind"] == "save"
    assert book.open(save, "s.json")["kind"] == "save"  # the file the server opened itself


def test_confinement_reads_nothing_outside_the_shipped_folders(secrets: dict[str, Path],
                                                               ) -> None:
    """Below the checks of each file's keys, nothing outside the shipped folders is read or
    looked for while a client's file is handled: a rule file that names another by a path
    is refused the same whether or not it is there."""
    from artproject.core.art.loader import load_rules
    from artproject.core.errors import RulesError
    from artproject.core.files import exists, read_text
    from artproject.core.sources import shipped_only
    from artproject.web.replays import SHIPPED

    with shipped_only(SHIPPED):
        assert load_rules("japan").name
        for p in secrets.values():
            assert not exists(p)
            with pytest.raises(RulesError) as err:
                read_text(p)
            assert SECRET not in str(err.value) and "no such file" not in str(err.value)
            with pytest.raises(RulesError) as err:
                load_rules(p)
            assert SECRET not in str(err.value) and "no such file" not in str(err.value)
    assert exists(secrets["toml"]) and SECRET in read_text(secrets["toml"])


def test_a_failure_of_the_server_names_no_path(srv: Running, monkeypatch: pytest.MonkeyPatch,
                                               caplog: pytest.LogCaptureFixture) -> None:
    """A bug (an error the viewer does not expect) answers 500 with the error's kind, not
    its text, which may name the server's files; the server's log has the text."""
    from artproject.web import replays

    def broken(data: bytes, name: str) -> Any:
        raise FileNotFoundError(2, "No such file or directory", "/srv/private/store.db")

    monkeypatch.setattr(replays, "open_bytes", broken)
    r = _post(srv, b'{"a fresh file": 1}', "x.json")
    assert r.status_code == 500, r.text
    assert r.json()["error"].startswith("the server failed (FileNotFoundError)")
    assert "/srv/private" not in r.text and "Traceback" not in r.text
    assert any("/srv/private/store.db" in rec.getMessage() for rec in caplog.records)
