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
