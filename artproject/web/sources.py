"""What the replay viewer opens: a save, a stored transcript, a game from a `--store` results
database, or a scenario file (the counterexample `verify` writes), each turned into the game
it records, played from its start, one frame per decision.

The viewer names no game: a save is the kernel's (core/saves.py), a transcript names its game
and how it began in its first line and its decisions on `> ` lines, a store's row is played
again by the sweep's own policies from its seed, and a scenario is run by the kernel's
scenario runner. Whatever the file, what comes back is a `Recording`: the game at its start,
each decision, and the game after each (rebuilt from a checkpoint when asked).
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import attrs

from ..core.errors import ArtError, GameError, SaveError
from ..core.machine import Machine
from ..core.sources import shipped_ref

MAX_BYTES: Final = 32 * 1024 * 1024  # an upload: a save is at most 2 MiB, a store larger
CHECKPOINT: Final = 16  # a frame kept every this many decisions (the rest are replayed)
SQLITE: Final = b"SQLite format 3\x00"


class SourceError(ArtError):
    """A file the replay viewer cannot open: names the file and what was expected."""


@attrs.define
class Recording:
    """A game as recorded: its start, its decisions, and the game after each (frames)."""

    title: str  # what the file is, for people ("save NAME.json", "transcript NAME")
    kind: str  # save, transcript, store, scenario
    start: Machine  # the game before the first decision (recording its events)
    actions: list[str]  # each decision in the notation
    frames: dict[int, Machine]  # the game after k decisions, for some k (checkpoints)
    reseeds: tuple[tuple[int, int], ...] = ()

    @property
    def steps(self) -> int:
        """How many decisions were taken (step 0 is the start)."""
        return len(self.actions)

    def at(self, k: int) -> Machine:
        """The game after `k` decisions (a copy: the caller may keep it)."""
        if not 0 <= k <= self.steps:
            raise SourceError(f"there is no step {k}: this game has steps 0 to {self.steps}")
        base = max(j for j in self.frames if j <= k)
        st = self.frames[base].clone()
        for i in range(base, k):
            for n, seed in self.reseeds:
                if n == i:
                    st.reseed(seed)
            st.apply(self.actions[i])
            if (i + 1) % CHECKPOINT == 0 and i + 1 not in self.frames:
                self.frames[i + 1] = st.clone()
        return st

    def over(self) -> bool:
        """Whether the recorded game has ended (then everything may be shown)."""
        return self.at(self.steps).is_over()


def from_game(st: Machine, title: str, kind: str) -> Recording:
    """The recording of a game as played so far: its start again, its decisions."""
    start = st.restart(log=True)
    return Recording(title, kind, start, [str(a) for a in st.history], {0: start},
                     tuple(sorted(st.reseeds)))


def digest_of(data: bytes) -> str:
    """A file's id in the viewer's links: the same file, the same links."""
    return hashlib.sha256(data).hexdigest()[:16]


def kind_of(data: bytes) -> str:
    """What a file is by its content: store (SQLite), save, scenario or transcript."""
    if data.startswith(SQLITE):
        return "store"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SourceError("not a save, transcript, scenario or results store (not text, and "
                          "not an SQLite file)") from None
    head = text.lstrip()
    if head.startswith("#") and "\n> " in text:
        return "transcript"
    if head.startswith("{"):
        return "save"  # JSON: only saves are
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return "transcript" if head.startswith("#") else "save"  # the save's error says why
    if doc.get("format") != "artproject-save" and ("step" in doc or "about" in doc):
        return "scenario"
    return "save"


def open_bytes(data: bytes, name: str) -> Recording | list[dict[str, Any]]:
    """A recording from a file's bytes; for a store, the list of its games to choose from."""
    if len(data) > MAX_BYTES:
        raise SourceError(f"{name}: {len(data):,} bytes; the viewer opens files of at most "
                          f"{MAX_BYTES:,}")
    kind = kind_of(data)
    if kind == "store":
        return store_games(data, name)
    text = data.decode("utf-8-sig")
    if kind == "transcript":
        return from_transcript(text, name)
    if kind == "scenario":
        return from_scenario(text, name)
    return from_save(text, name)


# ---------------------------------------------------------------------- saves
def from_save(text: str, name: str) -> Recording:
    """A save (JSON or TOML), replayed and its digest checked (core/saves.py)."""
    from ..core.saves import loads

    try:
        st = loads(text, name)
    except SaveError as err:
        raise SourceError(str(err)) from None
    return from_game(st, f"save {name}", "save")


# ---------------------------------------------------------------------- transcripts
_ART_HEAD = re.compile(r"#\s*(?P<mission>[\w.-]+), (?P<players>\d+) players?, "
                       r"(?P<difficulty>[\w-]+), seed (?P<seed>\d+)")
_GAME_HEAD = re.compile(r"#\s*(?P<game>[\w.-]+), (?P<players>\d+) players?, seed (?P<seed>\d+)"
                        r"(?:, (?P<policies>[^,]+(?:,[^,]+)*?))?, (?P<variant>[\w.-]+ ?\w*)$")


def _transcript_game(head: str, name: str) -> Machine:
    """The game a transcript's first line names, at its start, recording its events (its
    mission and variant shipped ones, by name, for a file sent to a server:
    `shipped_only`)."""
    from ..core.games import is_game, new_game

    m = _GAME_HEAD.match(head)
    try:
        if m and is_game(m["game"]):
            variant = m["variant"].strip()
            variants = [] if variant == "seed rules" else [shipped_ref(variant, "variant")]
            return new_game(m["game"], players=int(m["players"]), seed=int(m["seed"]),
                            log=True, variants=variants)
        m = _ART_HEAD.match(head)
        if m:
            return new_game(None, mission=shipped_ref(m["mission"], "mission"),
                            players=int(m["players"]), difficulty=m["difficulty"],
                            seed=int(m["seed"]), log=True)
    except ArtError as err:
        raise SourceError(f"{name}:1: the game this transcript names cannot start: {err}"
                          ) from None
    raise SourceError(f"{name}:1: not a transcript: its first line should name the game, "
                      "as the transcripts' writers do: '# BOARD, 2 players, DIFFICULTY, seed "
                      "1, POLICY policy' (the default game) or '# GAME, 3 players, seed 1, "
                      "POLICIES, seed rules'")


def from_transcript(text: str, name: str) -> Recording:
    """A stored transcript (tests/transcripts): its game started again and each `> `
    decision replayed; the events it lists must be the ones the replay tells."""
    lines = text.splitlines()
    st = _transcript_game(lines[0].strip() if lines else "", name)
    events: list[str] = []
    for n, line in enumerate(lines[1:], start=2):
        if line.startswith("> "):
            try:
                st.apply(line[2:].strip())
            except ArtError as err:
                raise SourceError(f"{name}:{n}: {line[2:].strip()!r} does not replay: {err}"
                                  ) from None
        elif line.strip() and not line.startswith(("#", "=")):
            events.append(line.strip())
    told = st.events()
    if told != events:
        at = next((i for i, (a, b) in enumerate(zip(told, events, strict=False)) if a != b),
                  min(len(told), len(events)))
        raise SourceError(f"{name}: the game plays differently now than the transcript "
                          f"tells (event {at + 1}: the transcript says "
                          f"{events[at] if at < len(events) else 'nothing'!r}, the engine "
                          f"{told[at] if at < len(told) else 'nothing'!r})")
    return from_game(st, f"transcript {name}", "transcript")


# ---------------------------------------------------------------------- scenarios
def from_scenario(text: str, name: str) -> Recording:
    """A scenario file (what `verify` writes): set up and run by the kernel's scenario
    runner, a frame after each step (a step may force dice or draws besides its action)."""
    from ..core import scenario as sc
    from ..core.errors import RulesError
    from ..core.scenario_steps import Stop, run_step
    from ..core.sources import path_text, read_toml, readable

    with tempfile.TemporaryDirectory(prefix="artproject-view-") as tmp:
        path = Path(tmp) / "scenario.toml"  # (not the upload's name: '..', a NUL, a folder)
        path.write_text(text, encoding="utf-8")
        try:
            with readable(Path(tmp)):  # (the copy: where only shipped files are read too)
                doc, smap = read_toml(path, name)

            def fail(msg: str, *p: Any) -> RulesError:
                return RulesError(msg, smap.locate(p), path_text(p))

            cls = sc._game_of(doc, fail)
            spec = sc._shape(doc, cls.scenario_spec() or sc.ScenarioSpec, fail)
            st, begin = cls.scenario_setup(spec, doc, path, (), smap.locate, fail)
            steps = sc._compile_steps(doc, st, sc.step_keys(type(spec)), smap, fail)
            begin()
        except ArtError as err:
            raise SourceError(str(err).replace(str(path), name).replace(tmp + "/", "")) from None
    start = st.clone()
    frames = {0: start}
    actions: list[str] = []
    seen = len(st.log)
    for step in steps:
        if "do" not in step.raw:
            continue
        try:
            run_step(st, step, seen)
        except (Stop, ArtError) as err:
            raise SourceError(f"{name}: step {step.n} cannot be played: {err}") from None
        seen = len(st.log)
        actions.append(str(step.raw["do"]))
        frames[len(actions)] = st.clone()
    return Recording(f"scenario {name}", "scenario", start, actions, frames)


# ---------------------------------------------------------------------- results stores
def _store_rows(data: bytes, name: str) -> tuple[list[Any], dict[Any, Any]]:
    """A store's rows, and where each cell's rules came from (Store.sources)."""
    from ..core.sources import readable
    from ..store import Store

    with tempfile.TemporaryDirectory(prefix="artproject-view-") as tmp:
        path = Path(tmp) / "store.db"
        path.write_bytes(data)
        try:
            with readable(Path(tmp)), Store.read(path) as store:
                return list(store.rows()), store.sources()
        except (GameError, sqlite3.Error) as err:
            raise SourceError(f"{name}: not a results store: {err}".replace(str(path), name)
                              ) from None


# What the viewer lists of a stored game: what tells one game from another (its rules'
# digest shortened: two sweeps of an edited file), what came of it, and its index (its link).
LISTED: Final = ("game", "mission", "variant", "difficulty", "players", "seed", "policy",
                 "outcome", "cause", "rounds", "decisions")


def store_games(data: bytes, name: str) -> list[dict[str, Any]]:
    """Every game a results store holds, each as the viewer lists it (the page filters and
    pages them: a designer looks for one game among thousands)."""
    return [{**{k: getattr(r, k) for k in LISTED}, "rules": r.rules[:8], "index": i}
            for i, r in enumerate(_store_rows(data, name)[0])]


def from_store(data: bytes, name: str, index: int) -> Recording:
    """Game `index` of a results store, played again from its seed by its policy; its rules
    must be the ones it was played with (the row's digest)."""
    rows, sources = _store_rows(data, name)
    if not 0 <= index < len(rows):
        raise SourceError(f"{name}: there is no game {index}: the store holds {len(rows)}")
    row = rows[index]
    st = _replay_row(row, name, sources.get((row.game, row.mission, row.variant, row.rules)))
    return from_game(st, f"store {name}: {game_title(row)}", "store")


def game_title(row: Any) -> str:
    """A stored game in words, with all that tells it from the store's others: its rules
    (and variant), team size, difficulty (a game with any), seed and policy."""
    from ..sweep import NO_DIFFICULTY

    rules = row.mission + (f" + {row.variant}" if row.variant else "")
    level = "" if row.difficulty == NO_DIFFICULTY else f" {row.difficulty}"
    return f"{rules} {row.players}p{level} seed {row.seed} {row.policy}"


def _replay_row(row: Any, name: str, source: tuple[str, tuple[str, ...]] | None) -> Machine:
    """A stored game played again exactly as the sweep played it (sweep.play_batch), with
    the rules files it was played with (`source`: as the store recorded them, a designer's
    own by its absolute path; None, a store written before: by the names it holds)."""
    from .. import sweep

    mission, refs, sent = _refs(row, source)
    what = f"{name}: the game {row.mission} seed {row.seed}"
    # (a designer's own files, looked for on the disk only for a store opened where it
    # lies, never for one sent to the server: its reply would tell whether a path exists)
    files = [] if sent or source is None else [r for r in (mission, *refs)
                                                 if Path(r).is_absolute()]
    try:
        _there(what, files)
        rules = sweep._rules(row.game, shipped_ref(mission, "mission"),
                             [shipped_ref(v, "variant") for v in refs])
        if sweep._digest(row.game, rules) != row.rules:
            raise SourceError(f"{what} was played with other rules than {_now(files)}, so it "
                              "cannot be replayed")
        return _players(row.game)(rules, row)
    except SourceError:
        raise
    except ArtError as err:
        if sent and source is not None:
            raise _sent_own(what, source) from None
        raise SourceError(f"{what} cannot be replayed: {err}") from None


def _refs(row: Any, source: tuple[str, tuple[str, ...]] | None,
          ) -> tuple[str, list[str], bool]:
    """The mission and variants to load for a stored game: as the store recorded them, else
    (a store written before; a file of its own in a store sent to the server, which may
    read shipped files only) by the names the row holds; and whether it was so sent."""
    from ..core.sources import confined

    sent = source is not None and confined() and _paths(source)
    if source is None or sent:
        return row.mission, [v for v in row.variant.split("+") if v], sent
    return source[0], list(source[1]), False


def _there(what: str, files: list[str]) -> None:
    """SourceError naming the first of a game's own files no longer there."""
    for ref in files:
        if not Path(ref).is_file():
            raise SourceError(f"{what} was played with {ref}, which is no longer there "
                              "(moved or deleted): put it back to replay the game")


def _sent_own(what: str, source: tuple[str, tuple[str, ...]]) -> SourceError:
    """A game of a designer's own file, in a store sent to the server: where it replays
    (its own files by their names only, never their paths)."""
    own = ", ".join(Path(r).name for r in (source[0], *source[1]) if Path(r).is_absolute())
    return SourceError(f"{what} was played with a file of its own ({own}); a file sent to "
                       "this server may name only the rule files shipped with artproject: "
                       "open the store with `artproject serve --replay STORE` where that "
                       "file is")


def _now(files: list[str]) -> str:
    """The rules a replay found, as its digest-mismatch message names them."""
    if not files:
        return "the ones here (its rules digest differs)"
    return (", ".join(files) + (" holds" if len(files) == 1 else " hold")
            + " now (changed since: the rules digest differs)")


def _paths(source: tuple[str, tuple[str, ...]]) -> bool:
    """Whether a recorded source names any file by its path (not a shipped name)."""
    return any(Path(r).is_absolute() for r in (source[0], *source[1]))


def _players(game: str) -> Callable[[Any, Any], Machine]:
    """How the sweep plays a row of `game` (its own policies, seated as it seats them): its
    tools' `play_game`, which gives the game played."""
    from ..core.games import game_tools
    from ..sweep import NO_DIFFICULTY

    own = game_tools(game).play_game

    def play(rules: Any, row: Any) -> Machine:
        more = {} if row.difficulty == NO_DIFFICULTY else {"difficulty": row.difficulty}
        st: Machine = own(rules, row.players, row.seed, row.policy, **more)[0]
        return st
    return play


def read_file(path: str | Path) -> tuple[bytes, str]:
    """A file named on the command line (`serve --replay FILE`), its bytes and its name."""
    p = Path(path)
    try:
        if not p.is_file():
            raise SourceError(f"{path}: not a file")
        data = p.read_bytes()
    except OSError as err:
        raise SourceError(f"{path}: cannot read: {err.strerror}") from None
    return data, p.name

