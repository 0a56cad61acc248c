"""The fuzz harness: hostile copies of every shipped file and of saves, and what they may raise.

Each mutant is made from one shipped file (a mission, base, variant, card file or
scenario) or one save, by a seeded generator: a value of another type, shape or size, a
number at or past a limit, a key removed or added, a deep nesting, a huge or truncated
file, broken bytes. It is then checked as a user would (`check`, `load_rules`, a short game
when it loads, of Art of War for its files through its own loader; when it declares a
[tune] section, the variant `tune` would write for values within its ranges, loaded and
played; `loads` and a few more moves for a save).
Only the project's own errors (`ArtError`) may come out; anything else is a finding,
reported with the mutant's seed so it can be made again.

Issue 27's classes, so that they stay fixed: every writer given a path that is a device, a
FIFO, a folder or a link to nothing (it must stay what it was, refused in one line); damaged
results stores (refused when opened, byte for byte unchanged; or, when SQLite finds nothing
wrong, read with every row checked); the play prompt of either game given the other game's
saves, mutated saves and odd commands (no unexpected error may reach it); and every public
function given hostile arguments (only the project's errors, the game unchanged).

    tests/test_fuzz.py       a bounded run in CI (a few seconds)
    python tools/fuzz.py     a long run by hand: --files N --saves N --seed S --keep DIR
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import shutil
import tempfile
import tomllib
import traceback
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import tomli_w

from artproject.checking import check
from artproject.core.art.game import new_game
from artproject.core.art.loader import load_rules
from artproject.core.art.tunables import tunables, variant_text
from artproject.core.errors import ArtError
from artproject.core.games import DEFAULT as DEFAULT_GAME
from artproject.core.games import new_game as other_game
from artproject.core.saves import dumps, loads

ROOT = Path(__file__).resolve().parent.parent
STEPS = 300  # decisions of a game played on a mutant that loads


def shipped_files() -> list[Path]:
    """Every shipped rule file, the test boards and decks, and the scenarios."""
    return sorted([*ROOT.glob("missions/**/*.toml"), *ROOT.glob("cards/*.toml"),
                   *ROOT.glob("tests/missions/*.toml"), *ROOT.glob("tests/cards/*.toml"),
                   *ROOT.glob("tests/scenarios/*.toml")])


# ====================================================================== hostile values
_DSL = [
    "gain 99999999999999999999 fuel", "not " * 5000 + "true", "{" * 500 + "win" + "}" * 500,
    "if true then " * 40 + "win", " and ".join(["true"] * 300), " + ".join(["1"] * 300) + " > 1",
    "place 1 agent in hq", "on round_end: place 10001 agents in every city", "",
    "on city_lost: lose 3 clues", "1 fuel if road.heading == \"north\" else 2 radio",
    "films x0", "films, films", "win; " * 3000, "\x00", "gain 1 fuel" * 2000,
]
_TEXT = ["", " ", "x", "hq", "p1", "every", "Tokyo", "tokyo", "films", "fuel", "a b", "é",
         "../../missions/japan.toml", "/dev/zero", "/", ".", "a" * 5000, "\x00", "japan",
         "base", "mission-cards", "x.toml", "all", "1,2", "médium"]
_NUMBERS = [0, 1, -1, 2, 6, 13, 100, 9999, 10_000, 10_001, 2**31, 2**63, -(2**63) - 1,
            10**30, -10**30]
_FLOATS = [0.5, -0.0, 1e308, -1e308, 1e-308, math.nan, math.inf, -math.inf, 100.0, 100.5]


def hostile(rng: random.Random, like: Any = None) -> Any:
    """A value to put where another was: of another type, shape or size, or at a limit."""
    kind = rng.randrange(12)
    if kind == 0 and isinstance(like, int) and not isinstance(like, bool):
        return rng.choice([like + 1, like - 1, -like, like * 1000, 0, 10_000, 10_001])
    if kind == 1:
        return rng.choice(_NUMBERS)
    if kind == 2:
        return rng.choice(_FLOATS)
    if kind == 3:
        return rng.choice([True, False])
    if kind == 4:
        return rng.choice(_TEXT)
    if kind == 5:
        return rng.choice(_DSL)
    if kind == 6:
        return rng.choice([[], [1], ["a"], [[]], [{}], ["films"] * 1000, list(range(300))])
    if kind == 7:
        return rng.choice([{}, {"a": 1}, {"name": "x"}, {"from": "a", "to": "b"}])
    if kind == 8:  # deep: past the nesting limit, or just within it
        depth = rng.choice([5, 20, 23, 30, 100])
        v: Any = 1
        for _ in range(depth):
            v = [v] if rng.random() < 0.5 else {"k": v}
        return v
    if kind == 9 and isinstance(like, str):
        return like * rng.choice([2, 100]) if len(like) < 100 else like[: len(like) // 2]
    if kind == 10 and isinstance(like, list) and like:
        return [like[0]] * rng.choice([0, 2, 50]) if rng.random() < 0.5 else like[::-1]
    return [like] if rng.random() < 0.5 else {"value": like}


# ====================================================================== document mutations
Path_ = tuple[Any, ...]


def paths(doc: Any) -> Iterator[Path_]:
    """Every key path in a parsed document (without recursion: a mutant may be deep)."""
    stack: list[tuple[Path_, Any]] = [((), doc)]
    while stack:
        prefix, v = stack.pop()
        items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(
            v, list) else ()
        for k, x in items:
            yield (*prefix, k)
            stack.append(((*prefix, k), x))


def _parent(doc: Any, path: Path_) -> Any:
    for p in path[:-1]:
        doc = doc[p]
    return doc


def mutate_doc(doc: Any, rng: random.Random) -> tuple[Any, str]:
    """A mutated copy of a parsed document, and what was done."""
    doc = json.loads(json.dumps(doc))  # a deep copy (TOML dates are not in our files)
    how = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        every = list(paths(doc))
        op = rng.randrange(6)
        try:
            how.append(_mutate_once(doc, every, op, rng))
        except (KeyError, IndexError, TypeError):  # an earlier change moved the place
            continue
    return doc, "; ".join(how)


def _mutate_once(doc: Any, every: list[Path_], op: int, rng: random.Random) -> str:
    if not every or op == 0:  # an unknown key, at the top or in a table
        tables = [p for p in every if isinstance(_get(doc, p), dict)]
        where = _get(doc, rng.choice(tables)) if tables and rng.random() < 0.5 else doc
        key = rng.choice(["extra", "hook", "rule", "cities", "x", "step", "card", ""])
        if isinstance(where, dict):
            where[key] = hostile(rng)
        return f"add {key!r}"
    path = rng.choice(every)
    parent = _parent(doc, path)
    if op == 1:
        parent[path[-1]] = hostile(rng, parent[path[-1]])
        return f"set {path}"
    if op == 2:
        del parent[path[-1]]
        return f"delete {path}"
    if op == 3 and isinstance(parent, list):
        parent.insert(rng.randrange(len(parent) + 1), json.loads(json.dumps(rng.choice(parent))))
        return f"duplicate in {path[:-1]}"
    if op == 4:  # a whole section of another shape
        doc[path[0]] = hostile(rng, doc[path[0]])
        return f"reshape {path[:1]}"
    other = rng.choice(every)  # two values swapped (not one into itself)
    if other[: len(path)] == path or path[: len(other)] == other:
        return "no swap"
    a, b = _get(doc, path), _get(doc, other)
    _parent(doc, path)[path[-1]], _parent(doc, other)[other[-1]] = b, a
    return f"swap {path} {other}"


def _get(doc: Any, path: Path_) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def mutate_text(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """Byte-level damage: truncation, junk, brackets, huge numbers, size."""
    op = rng.randrange(8)
    at = rng.randrange(len(data) + 1)
    if op == 0:
        return data[:at], f"truncate at {at}"
    if op == 1:
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
        return data[:at] + junk + data[at:], f"insert bytes at {at}"
    if op == 2:
        return data[:at] + b"[" * rng.choice([25, 1000, 100_000]) + data[at:], "brackets"
    if op == 3:
        return data.replace(b"= 3", b"= " + b"9" * rng.choice([6, 20, 5000]), 1), "big number"
    if op == 4:
        lines = data.split(b"\n")
        i = rng.randrange(len(lines))
        return b"\n".join(lines[:i] + lines[i + 1:]), f"delete line {i}"
    if op == 5 and rng.random() < 0.05:  # rarely: past the size cap
        return data + b"# padding padding padding padding\n" * 70_000, "too large"
    if op == 6:
        return data.replace(b"\n", b"\r\n", rng.randrange(1, 20)), "line ends"
    keys = [b"a." * rng.choice([10, 30, 200]) + b"b = 1\n", b"x = " + b"{a = " * 40 + b"1"
            + b"}" * 40 + b"\n"]
    return rng.choice(keys) + data, "deep keys"


# ====================================================================== running
@attrs.define
class Finding:
    """An exception that is not the project's own, with how to make its input again."""

    kind: str  # "file" or "save"
    seed: int
    source: str
    mutation: str
    error: str
    where: str
    text: bytes = b""


@attrs.define
class Tally:
    files: int = 0
    saves: int = 0
    devices: int = 0  # writes aimed at a device, FIFO, folder or dangling link
    stores: int = 0  # damaged results stores opened
    prompts: int = 0  # play sessions scripted with other games' and mutated saves
    calls: int = 0  # public functions called with a hostile argument
    refused: int = 0  # mutants refused with the project's own error (the expected outcome)
    accepted: int = 0  # mutants that loaded (and were then played a little)
    tuned: int = 0  # of those, mutants with a [tune] section whose tuned variant was tried
    findings: list[Finding] = attrs.Factory(list)


def _finding(kind: str, seed: int, source: str, how: str, exc: BaseException,
             text: bytes) -> Finding:
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f"{frame.filename}:{frame.lineno} in {frame.name}" if frame else "?"
    return Finding(kind, seed, source, how, f"{type(exc).__name__}: {str(exc)[:200]}", where,
                   text)


class Workspace:
    """A folder that mirrors the files mutants refer to (test boards and decks)."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="artproject-fuzz-"))
        for sub in ("missions", "cards"):
            shutil.copytree(ROOT / "tests" / sub, self.dir / sub)
        (self.dir / "scenarios").mkdir()
        (self.dir / "variants").mkdir()

    def place(self, source: Path) -> Path:
        """Where a mutant of `source` is written: beside what it names relatively."""
        sub = source.parent.name if source.parent.name in ("scenarios", "variants") else ""
        return self.dir / sub / f"mutant-{source.name}"

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def _play(rules: Any, rng: random.Random) -> None:
    """A short game on rules that loaded: the engine must cope with what check accepted."""
    diff = rng.choice(list(rules.difficulties) or ["medium"])
    st = new_game(rules, rng.randint(1, 6), diff, rng.randrange(1000))
    for _ in range(STEPS):
        if st.is_over():
            return
        st.apply(rng.choice(st.legal_actions()))


def _play_other(game: str, target: Path, variants: list[Path], rng: random.Random) -> None:
    """A short game of another game (Art of War) on its mutated rules or variant: its own
    loader and set-up through the game registry, 2-7 players (W1; a count its rules refuse is
    the project's own error)."""
    options: dict[str, Any] = {"variants": variants} if variants else {"rules": target}
    st = other_game(game, players=rng.randint(2, 7), seed=rng.randrange(1000), **options)
    for _ in range(STEPS):
        if st.is_terminal():
            return
        st.apply(rng.choice(st.legal_actions()))


def _tune(rules: Any, mission: str | Path, variants: list[Path], rng: random.Random,
          ws: Workspace, tally: Tally) -> None:
    """What `tune` does with rules whose [tune] section loaded: values within its ranges,
    written as its variant, loaded and played. The rules may refuse the values together
    (the project's own error); anything else is a finding."""
    dims = tunables(rules)
    if not dims:
        return
    tally.tuned += 1
    values = {d.name: rng.randint(d.low, d.high) for d in dims}
    tuned = ws.dir / "variants" / "tuned.toml"
    tuned.write_text(variant_text(rules, values, "a fuzzed trial"), encoding="utf-8")
    with contextlib.suppress(ArtError):
        _play(load_rules(mission, [*variants, tuned]), rng)


def fuzz_file(source: Path, seed: int, ws: Workspace, tally: Tally) -> None:
    """One mutant of one rule file: checked, and, if it loads, played."""
    rng = random.Random(seed)
    raw = source.read_bytes()
    if rng.random() < 0.25:
        data, how = mutate_text(raw, rng)
    else:
        doc, how = mutate_doc(tomllib.loads(raw.decode()), rng)
        try:
            data = tomli_w.dumps(doc).encode()
        except (TypeError, ValueError, RecursionError):  # a value TOML cannot hold
            data, how = mutate_text(raw, rng)
    target = ws.place(source)
    target.write_bytes(data)
    tally.files += 1
    try:
        errors, _ = check(target)
        if errors or "scenarios" in source.parts:
            tally.refused += bool(errors)
            tally.accepted += not errors
            return
        tally.accepted += 1
        if source.parent.name == "cards":
            return  # checked on the default board; a deck alone is not a game
        variants = [target] if source.parent.name == "variants" else []
        game = tomllib.loads(data.decode()).get("game")  # another game's file says so
        if isinstance(game, str) and game != DEFAULT_GAME:
            _play_other(game, target, variants, rng)
            return
        mission = "japan" if variants else target
        rules = load_rules(mission, variants)
        _play(rules, rng)
        _tune(rules, mission, variants, rng, ws, tally)
    except ArtError:
        tally.refused += 1
    except Exception as exc:  # the finding this harness is for
        tally.findings.append(_finding("file", seed, str(source.relative_to(ROOT)), how, exc,
                                       data))


# ---------------------------------------------------------------------- saves
def base_saves() -> list[str]:
    """Saves to mutate: games on every board, mid-game, from set positions, and with
    explicit chance and a reseed."""
    out = []
    for i, mission in enumerate(("japan", "egypt", "usa", "scandinavia", "polynesia", "rio")):
        rng = random.Random(i)
        st = new_game(mission, players=1 + i % 4, difficulty="easy", seed=i)
        for _ in range(20 + 15 * i):
            if st.is_over():
                break
            st.apply(rng.choice(st.legal_actions()))
        out.append(dumps(st))
    st = new_game("japan", players=2, seed=3, phase="battle",
                  position={"pawns": ["kyoto", "kyoto"], "dice": [6, 6], "hands": [[5], [19]],
                            "agents": {"kyoto": 2}, "track": ["films"]})
    st.apply("fight p1 kyoto")
    out.append(dumps(st, "toml"))
    # the kernel's own keys: explicit chance (its outcomes among the actions) and a reseed
    st = new_game("egypt", players=2, seed=9, chance="explicit")
    rng = random.Random(9)
    while not st.is_over() and len(st.history) < 40:
        st.apply(st.sample_chance() if st.is_chance_node() else rng.choice(st.legal_actions()))
        if len(st.history) == 10:
            st.reseed(77)
    out.append(dumps(st))
    return out


def fuzz_save(base: str, seed: int, tally: Tally) -> None:
    """One mutant of one save: loaded (trusted or not), and, if it loads, played on."""
    rng = random.Random(seed)
    if rng.random() < 0.25:
        data, how = mutate_text(base.encode(), rng)
        text = data.decode("utf-8", "replace")
    else:
        is_toml = not base.lstrip().startswith("{")
        doc = tomllib.loads(base) if is_toml else json.loads(base)
        doc, how = _mutate_save(doc, rng)
        try:
            text = tomli_w.dumps(doc) if is_toml else json.dumps(doc)
        except (TypeError, ValueError, RecursionError):
            text, how = json.dumps(doc, default=str), how + " (as JSON)"
    tally.saves += 1
    try:
        st = loads(text, f"<save {seed}>", trust=rng.random() < 0.5)
        tally.accepted += 1
        for _ in range(20):
            if st.is_over():
                break
            st.apply(rng.choice(st.legal_actions()))
    except ArtError:
        tally.refused += 1
    except Exception as exc:
        tally.findings.append(_finding("save", seed, "save", how, exc, text.encode()))


def _mutate_save(doc: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """A save's own weak points first: its actions, digest, start and mission."""
    op = rng.randrange(6)
    actions = doc.get("actions", [])
    if op == 0 and actions:
        i = rng.randrange(len(actions))
        actions[i] = rng.choice(["done", "move p1 " + "x" * 300, "play p9 1", "", "roll",
                                 actions[i].upper(), actions[i] + " extra", "fight p1 kyoto"])
        return doc, f"action {i}"
    if op == 1:
        doc.pop("digest", None) if rng.random() < 0.5 else doc.update(digest="0" * 16)
        doc.setdefault("start", {}).setdefault("position", {})["health"] = [9] * 6
        return doc, "edited position, digest gone or wrong"
    if op == 2:
        doc["mission"] = rng.choice(_TEXT)
        return doc, "mission"
    if op == 3:
        pos = doc.setdefault("start", {"phase": "mission"}).setdefault("position", {})
        key = rng.choice(["hands", "pawns", "agents", "van", "dice", "track", "round",
                          "lost", "chain", "deck_top", "allies", "health", "carried"])
        pos[key] = hostile(rng)
        return doc, f"start.position.{key}"
    return mutate_doc(doc, rng)


def run(files: int, saves: int, seed: int = 0,
        progress: Callable[[Tally], None] | None = None, only: str = "") -> Tally:
    """`files` mutants of the shipped files (round robin; those whose path holds `only`)
    and `saves` mutated saves."""
    tally = Tally()
    sources = [p for p in shipped_files() if only in str(p.relative_to(ROOT))]
    if not sources:
        raise ValueError(f"no shipped file's path holds {only!r}")
    ws = Workspace()
    # saves loaded on trust say so with a warning: the harness knows, and keeps quiet
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            _run(files, saves, seed, sources, ws, tally, progress)
        finally:
            ws.close()
    return tally


def _run(files: int, saves: int, seed: int, sources: list[Path], ws: Workspace, tally: Tally,
         progress: Callable[[Tally], None] | None) -> None:
    for i in range(files):
        fuzz_file(sources[i % len(sources)], seed * 1_000_003 + i, ws, tally)
        if progress is not None and (i + 1) % 500 == 0:
            progress(tally)
    bases = base_saves()
    for i in range(saves):
        fuzz_save(bases[i % len(bases)], seed * 1_000_003 + i, tally)
        if progress is not None and (i + 1) % 500 == 0:
            progress(tally)


# ---------------------------------------------------------------------- issue 27's classes
def _cli(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    """The command in this process: its status, stdout and stderr."""
    import io
    import sys

    from artproject.cli import main

    out, err, old = io.StringIO(), io.StringIO(), sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def _odd_path(folder: Path, rng: random.Random) -> tuple[Path, str]:
    """Something at a path that is no regular file: a device node (as root), a FIFO, a
    folder or a link to nothing."""
    import os
    import stat

    path = folder / rng.choice(["out.svg", "cx.toml", "tuned.toml", "s.json", "win-rate.png"])
    kind = rng.choice(["device", "fifo", "folder", "dangling"])
    if kind == "device":
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except (PermissionError, AttributeError):
            kind = "fifo"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling":
        path.symlink_to(folder / "nothing-here")
    return path, kind


def _kind_of(path: Path) -> int:
    import os

    return os.lstat(path).st_mode & 0o170000


def fuzz_device(seed: int, tally: Tally) -> None:
    """One writer aimed at something that is no regular file, with or without --force: it
    must be refused in one line (exit 2) and stay what it was."""
    import os

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="artproject-fuzz-dev-"))
    cwd = Path.cwd()
    try:
        os.chdir(folder)
        path, kind = _odd_path(folder, rng)
        before = _kind_of(path)
        force = ["--force"] if rng.random() < 0.5 else []
        tune = str(ROOT / "tests" / "missions" / "harbour-tunable.toml")
        how = rng.choice(["render", "render-war", "verify", "tune", "save_game", "write_atomic",
                          "play-save"])
        argv = {"render": ["render", "japan", "-o", str(path), *force],
                "render-war": ["render", "--game", "art-of-war", "-o", str(path), *force],
                "verify": ["verify", "japan", "--examples", "1", "--out", str(path), *force],
                "tune": ["tune", tune, "-o", str(path), "--games", "1", "--trials", "1",
                         *force]}.get(how)
        tally.devices += 1
        if argv is not None:
            code, _, err = _cli(argv)
            bad = code != 2 or len(err.strip().splitlines()) != 1 or "Traceback" in err
        elif how == "play-save":
            code, out, err = _cli(["play", "--seed", str(seed % 100)],
                                  f"save {path}{' --force' if force else ''}\nquit\n")
            bad = code != 0 or "! " not in out or "unexpected error" in out
        else:
            from artproject.core.files import write_atomic
            from artproject.core.saves import save_game

            try:
                if how == "save_game":
                    save_game(new_game("japan", seed=1), path, replace=bool(force))
                else:
                    write_atomic(path, "x", replace=bool(force))
                bad = True
            except ArtError:
                bad = False
        if bad or _kind_of(path) != before:
            raise AssertionError(f"{how} {' '.join(force)} on a {kind}: not refused in one "
                                 "line, or the path was changed")
        tally.refused += 1
    except Exception as exc:
        tally.findings.append(_finding("device", seed, "device", how if "how" in locals()
                                       else "?", exc, b""))
    finally:
        os.chdir(cwd)
        shutil.rmtree(folder, ignore_errors=True)


_STORE: dict[str, bytes] = {}


def _base_store() -> bytes:
    """A small results store of both games, made once."""
    if "db" not in _STORE:
        folder = Path(tempfile.mkdtemp(prefix="artproject-fuzz-store-"))
        try:
            db = folder / "s.db"
            for args in (["simulate", "--games", "12", "--players", "1-3", "--store", str(db)],
                         ["simulate", "--game", "art-of-war", "--games", "6", "--store",
                          str(db)]):
                code, _, err = _cli(args)
                assert code == 0, err
            _STORE["db"] = db.read_bytes()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return _STORE["db"]


def _damage_store(data: bytes, db: Path, rng: random.Random) -> str:
    import sqlite3

    op = rng.randrange(5)
    if op == 0:
        cut = rng.randrange(1, len(data))
        db.write_bytes(data[:cut])
        return f"cut to {cut} bytes"
    if op == 1:
        buf = bytearray(data)
        at = rng.randrange(len(buf))
        n = rng.choice([1, 8, 100, 4096])
        buf[at:at + n] = rng.randbytes(min(n, len(buf) - at))
        db.write_bytes(bytes(buf))
        return f"{n} random bytes at {at}"
    if op == 2:
        db.write_bytes(data + rng.randbytes(rng.choice([1, 100, 4096])))
        return "bytes appended"
    db.write_bytes(data)
    col = rng.choice(["players", "seed", "rounds", "decisions", "outcome", "mission", "game"])
    value = hostile(rng)
    value = value if isinstance(value, int | float | str | bytes) or value is None else str(
        value)
    conn = sqlite3.connect(db)
    try:
        with conn:
            if op == 3:
                conn.execute(f"UPDATE games SET {col} = ? WHERE rowid = ?",
                             (value, rng.randrange(1, 30)))
            else:
                conn.execute(rng.choice([
                    "DELETE FROM meta", "DROP TABLE meta", "UPDATE meta SET value = 'x'",
                    "ALTER TABLE games ADD COLUMN extra TEXT", "CREATE TABLE more (x)",
                    "UPDATE games SET rounds = -5"]))
    except (sqlite3.Error, OverflowError):
        pass
    finally:
        conn.close()
    return f"{col} set to {value!r:.40}" if op == 3 else "an SQL edit"


def fuzz_store(seed: int, tally: Tally) -> None:
    """One damaged store: `simulate --store` and `report` refuse it in one line, leaving it
    byte for byte as it was, or (SQLite finding nothing wrong) use it."""
    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="artproject-fuzz-store-"))
    db = folder / "s.db"
    how = "?"
    try:
        how = _damage_store(_base_store(), db, rng)
        tally.stores += 1
        before = db.read_bytes()
        args = rng.choice([["report", str(db)],
                           ["simulate", "--games", "13", "--players", "1-3", "--store",
                            str(db)]])
        code, _, err = _cli(args)
        if "Traceback" in err or code not in (0, 2) or (code == 2 and (
                len(err.strip().splitlines()) != 1 or db.read_bytes() != before)):
            raise AssertionError(f"{args[0]}: status {code}: {err.strip()[-300:]}")
        tally.refused += code == 2
        tally.accepted += code == 0
    except Exception as exc:
        tally.findings.append(_finding("store", seed, "store", how, exc,
                                       db.read_bytes() if db.exists() else b""))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def fuzz_prompt(seed: int, bases: list[str], tally: Tally) -> None:
    """One scripted play session, of either game, given the other game's saves, mutated saves,
    devices and odd commands: the game goes on, no unexpected error reaches the prompt."""
    import os

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="artproject-fuzz-play-"))
    cwd = Path.cwd()
    script = ""
    try:
        os.chdir(folder)
        war = other_game("art-of-war", players=rng.randint(2, 7), seed=seed % 1000)
        (folder / "war.json").write_text(dumps(war))
        (folder / "art.json").write_text(rng.choice(bases))
        data, _ = mutate_text(rng.choice(bases).encode(), rng)
        (folder / "odd.json").write_bytes(data)
        game = rng.choice(["art-project", "art-of-war"])
        lines = []
        for _ in range(rng.randint(3, 12)):
            lines.append(rng.choice([
                "load war.json", "load art.json", "load odd.json", "load /dev/null",
                "load .", "load " + "x" * 300, "save s.json", "save s.json --force",
                "save /dev/null", "save " + "y" * 300, "view p9", "view p1", "undo", "help",
                "1", "2", "99", "", "done", "move p1 kyoto", "\x00", "load", "save"]))
        script = "\n".join(lines) + "\nquit\n"
        tally.prompts += 1
        code, out, err = _cli(["play", "--game", game, "--seed", str(seed % 1000)], script)
        if code != 0 or "unexpected error" in out or "Traceback" in out + err:
            what = next((x for x in out.splitlines() if "unexpected" in x), err[-300:])
            raise AssertionError(f"play --game {game}: {what}")
        tally.accepted += 1
    except Exception as exc:
        tally.findings.append(_finding("prompt", seed, "prompt", "script", exc,
                                       script.encode()))
    finally:
        os.chdir(cwd)
        shutil.rmtree(folder, ignore_errors=True)


def fuzz_call(seed: int, tally: Tally) -> None:
    """One public function called with a hostile argument (tests/test_library_args.py's
    entries): only the project's errors, and a refused call leaves the game unchanged."""
    import os

    from tests.test_library_args import CALLS, GAMES, ON_A_GAME

    rng = random.Random(seed)
    name = rng.choice(sorted(CALLS))
    value = hostile(rng)
    if rng.random() < 0.3:
        value = rng.choice([[value], (value, value, value), {"k": value}, Path(str(value)[:50])])
    if name.startswith("simulate") and type(value) is int and value > 3:
        value = -value  # a valid count would play it: kept small by making it invalid
    folder = Path(tempfile.mkdtemp(prefix="artproject-fuzz-call-"))
    cwd = Path.cwd()
    try:
        os.chdir(folder)
        tally.calls += 1
        game = GAMES[rng.choice(["art", "war"]) if name in ON_A_GAME else "art"]()
        before = game.fingerprint()
        try:
            CALLS[name][1](game, value)
            tally.accepted += 1
        except ArtError:
            tally.refused += 1
            if str(game.fingerprint()) != str(before):
                raise AssertionError(f"{name}({value!r:.40}) refused but changed the game"
                                     ) from None
    except Exception as exc:
        tally.findings.append(_finding("call", seed, name, f"{value!r:.60}", exc, b""))
    finally:
        os.chdir(cwd)
        shutil.rmtree(folder, ignore_errors=True)


def run_hardening(devices: int, stores: int, prompts: int, calls: int, seed: int = 0,
                  progress: Callable[[Tally], None] | None = None,
                  tally: Tally | None = None) -> Tally:
    """Issue 27's classes: `devices` writers aimed at odd paths, `stores` damaged stores,
    `prompts` scripted play sessions, `calls` public functions with hostile arguments."""
    tally = tally if tally is not None else Tally()
    bases = base_saves() if prompts else []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n, fuzz in ((devices, lambda i: fuzz_device(i, tally)),
                        (stores, lambda i: fuzz_store(i, tally)),
                        (prompts, lambda i: fuzz_prompt(i, bases, tally)),
                        (calls, lambda i: fuzz_call(i, tally))):
            for i in range(n):
                fuzz(seed * 1_000_003 + i)
                if progress is not None and (i + 1) % 200 == 0:
                    progress(tally)
    return tally
