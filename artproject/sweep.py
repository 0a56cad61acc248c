"""A sweep: the games of a grid, in batches on a backend, each game's result kept.

Game i of a cell is played from seed `seed + i` with the policy seeded the same way, so a
game's result depends only on its cell and seed: one process, a pool or a cluster, in
whatever order the batches come back, give the same rows and so the same report. With a
results store, the games it already holds are not played again (a resumed sweep).
"""

from __future__ import annotations

import hashlib
import math
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import attrs

from .core.errors import GameError, RulesError, RulesErrors, closest
from .core.files import write_atomic
from .core.games import DEFAULT, game_class, game_tools
from .store import CellKey, Row, Store

BATCH_MAX: Final = 50  # games a batch at most: scheduling a batch costs about a millisecond
NO_DIFFICULTY: Final = "-"  # a cell's difficulty in a game that has none


@attrs.frozen
class Batch:
    """Games of one cell, sent to a worker: everything it needs to play them."""

    mission: str  # the rules: a shipped name or an absolute path
    name: str  # the rules' `name`, as the store records it
    rules: str  # the rules' digest (rules_digest): a worker that reads others is refused
    variants: tuple[str, ...]
    texts: tuple[str, ...]  # more variants, as TOML text (tune's trials): shipped with the job
    difficulty: str
    players: int
    policy: str
    seeds: Sequence[int]  # a tuple, or a range (sent to a worker in a few bytes)
    game: str = DEFAULT  # the game played (its rules, policies and results are its own)
    folder: str = ""  # the parent's files of `texts` (`_owned`), where a worker can read them


def _paths(texts: Sequence[str], folder: str) -> tuple[str, ...]:
    """Where the variants shipped as text lie in `folder`: a file each, named by its digest."""
    return tuple(str(Path(folder) / f"variant-{hashlib.sha256(t.encode()).hexdigest()[:16]}"
                     ".toml") for t in texts)


@contextmanager
def _owned(texts: Sequence[str]) -> Iterator[str]:
    """A temporary folder holding `texts` for as long as the block runs, removed when it
    ends however it ends (an error, Ctrl-C); "" when there are none. The sweep's parent
    owns it: a worker never makes one that outlives its batch's loading (`_files`), so a
    worker the pool terminates leaves nothing behind."""
    if not texts:
        yield ""
        return
    with tempfile.TemporaryDirectory(prefix="artproject-variants-") as folder:
        for path, text in zip(_paths(texts, folder), texts, strict=True):
            write_atomic(Path(path), text, replace=True)
        yield folder


@contextmanager
def _files(texts: Sequence[str], folder: str) -> Iterator[tuple[str, ...]]:
    """The variants shipped as text, as files the loader reads: those in the parent's
    `folder` where this process can read them (the same machine), else in a folder of this
    block's own (a worker elsewhere), removed as the block ends."""
    if not texts or (folder and all(Path(p).is_file() for p in _paths(texts, folder))):
        yield _paths(texts, folder)
        return
    with _owned(texts) as own:
        yield _paths(texts, own)


def _loaded(game: str, mission: str, variants: Sequence[str], texts: Sequence[str],
            folder: str) -> Any:
    """The rules with every variant, those shipped as text read from `folder` (`_files`). An
    error in a text's file is told by the key and message alone: the file is temporary, and
    gone by the time anyone reads the error (the caller says whose values they were)."""
    with _files(texts, folder) as paths:
        try:
            return _rules(game, mission, (*variants, *paths))
        except RulesError as err:
            raise _untied(err, paths) from None


def _untied(err: RulesError, paths: Sequence[str]) -> RulesError:
    """`err` (one error or several) with each location in one of `paths` dropped, its key
    kept."""
    names = {Path(p).name for p in paths}
    found = err.errors if isinstance(err, RulesErrors) else [err]
    out = [RulesError(e.message, None, e.path or "")
           if e.where is not None and Path(e.where.file).name in names else e for e in found]
    return RulesErrors(out) if isinstance(err, RulesErrors) else out[0]


def _rules(game: str, mission: str, variants: Sequence[str]) -> Any:
    """A game's rules, by the game's own loader."""
    return game_tools(game).load_rules(mission, variants)


def _digest(game: str, rules: Any) -> str:
    """A digest of what decides a game besides the engine, by the game's own tools."""
    return str(game_tools(game).rules_digest(rules))


def play_batch(b: Batch) -> tuple[str, str, list[tuple[int, str, str, int, int]]]:
    """A worker's part: play a batch by its game's tools (`play_one`); (artproject version,
    the rules' digest, per game: seed, outcome, cause, rounds, decisions)."""
    from . import __version__

    tools = game_tools(b.game)
    rules = _loaded(b.game, b.mission, b.variants, b.texts, b.folder)
    # (a game with difficulties is told the cell's: its tools declare `difficulties`)
    more = {} if b.difficulty == NO_DIFFICULTY else {"difficulty": b.difficulty}
    return __version__, _digest(b.game, rules), [
        tools.play_one(rules, b.players, seed, b.policy, **more) for seed in b.seeds]


@attrs.frozen
class Grid:
    """What a sweep plays: rules files x difficulties x team sizes, `games` a cell."""

    missions: tuple[str, ...]
    difficulties: tuple[str, ...]
    players: tuple[int, ...]
    games: int
    seed: int = 0
    variants: tuple[str, ...] = ()
    policy: str = "heuristic"
    texts: tuple[str, ...] = ()  # variants given as TOML text (see Batch)
    game: str = DEFAULT


def _ref(mission: str) -> str:
    """Rules as a worker elsewhere can find them: a shipped name, or an absolute path."""
    if mission.endswith(".toml") or "/" in mission or "\\" in mission:
        return str(Path(mission).resolve())
    return mission


def variant_label(variants: Sequence[str], texts: Sequence[str] = ()) -> str:
    """How a cell's variants are named in the store: as given, joined by '+'."""
    names = [Path(v).name if v.endswith(".toml") else v for v in variants]
    names += [hashlib.sha256(t.encode()).hexdigest()[:12] for t in texts]
    return "+".join(names)


@attrs.frozen
class Plan:
    """A sweep worked out: its cells, the batches still to play, and the games already done."""

    grid: Grid
    cells: tuple[CellKey, ...]
    batches: tuple[Batch, ...]
    done: int  # games of the grid the store already holds
    total: int  # games of the grid (a cell named twice, once)


def plan_sweep(grid: Grid, store: Store | None = None, workers: int = 1,
               between: Callable[[], None] | None = None, folder: str = "") -> Plan:
    """Load every rules file and check the difficulties against it (an error here plays no
    game), and batch the games the store lacks: about two batches a worker a cell, BATCH_MAX
    games at most. A cell named twice (one difficulty twice, one rules file by its name and
    its path) is played once and reported at each place it is named, with or without a
    store. `between` is called after each cell (the command line's: a Ctrl-C held meanwhile
    is raised there). `folder` holds the grid's variants given as text (run_sweep's, which
    it removes when the sweep ends); without one, each load writes and removes its own."""
    names, digests = {}, {}
    for m in grid.missions:
        rules = _loaded(grid.game, m, grid.variants, grid.texts, folder)
        _check_difficulties(grid.game, rules, grid.difficulties)
        names[m], digests[m] = rules.name, _digest(grid.game, rules)
    label = variant_label(grid.variants, grid.texts)
    stop = grid.seed + grid.games
    variants = tuple(_ref(v) for v in grid.variants)
    size = max(1, min(BATCH_MAX, math.ceil(grid.games / max(1, 2 * workers))))
    cells = []
    planned: set[CellKey] = set()
    batches: list[Batch] = []
    done = 0
    for m in grid.missions:
        for d in grid.difficulties:
            for p in grid.players:
                key = CellKey(grid.game, names[m], label, digests[m], d, p, grid.policy)
                cells.append(key)
                if key in planned:  # (named before: its games are planned once)
                    continue
                planned.add(key)
                if store is not None and not grid.texts:  # (a variant as text: no file)
                    store.note_source(key, _ref(m), variants)  # for a replay (web/sources.py)
                have = store.seeds(key, grid.seed, stop) if store is not None else set()
                done += len(have)
                # (a range while nothing is stored: a million seeds a cell cost no memory)
                todo: Sequence[int] = ([s for s in range(grid.seed, stop) if s not in have]
                                       if have else range(grid.seed, stop))
                batches += [Batch(_ref(m), key.mission, key.rules, variants, grid.texts, d, p,
                                  grid.policy, todo[i:i + size], grid.game, folder)
                            for i in range(0, len(todo), size)]
                if between is not None:
                    between()
    return Plan(grid, tuple(cells), tuple(batches), done, len(planned) * grid.games)


def _check_difficulties(game: str, rules: Any, difficulties: Sequence[str]) -> None:
    """Each difficulty one the rules have (a game with difficulties: its tools'
    `difficulties`) or, for a game without any, the one cell NO_DIFFICULTY: GameError naming
    the first that is not, before a game is played."""
    tools = game_tools(game)
    known = list(tools.difficulties(rules)) if hasattr(tools, "difficulties") else None
    for i, d in enumerate(difficulties):
        if known is None and d != NO_DIFFICULTY:
            raise GameError(f"difficulties[{i}]: {game_class(game).TITLE} has no difficulty; "
                            f"give [{NO_DIFFICULTY!r}], not {d!r}")
        if known is not None and d not in known:
            raise GameError(f"difficulties[{i}]: unknown difficulty {d!r}{closest(d, known)}; "
                            "expected one of: " + ", ".join(known))


def run_plan(plan: Plan, backend: Any, store: Store | None = None,
             progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Play a plan's batches on the backend; a report per cell, in grid order. With a store,
    each batch's rows are written (one transaction) as the batch comes back."""
    from . import __version__

    grid = plan.grid
    kept: dict[CellKey, list[Row]] = {}
    for b, (version, digest, results) in backend.run(_tagged, plan.batches):
        if version != __version__:
            raise GameError(f"a worker runs artproject {version}; this is {__version__}: "
                            "install the same version on every worker")
        if digest != b.rules:
            raise GameError(f"a worker read other rules for {b.mission}: every machine needs "
                            "the same mission and variant files at the same paths")
        key = CellKey(b.game, b.name, plan.cells[0].variant, b.rules, b.difficulty, b.players,
                      b.policy)
        rows = [Row(*key[:6], seed, key.policy, outcome, cause, rounds, decisions, version)
                for seed, outcome, cause, rounds, decisions in results]
        if store is not None:
            store.add(rows)
        else:
            kept.setdefault(key, []).extend(rows)
        if progress is not None:
            progress(len(rows))
    stop = grid.seed + grid.games
    out = []
    for key in plan.cells:
        rows = (list(store.rows(key, grid.seed, stop)) if store is not None
                else kept.get(key, []))
        out.append(game_tools(grid.game).summary(key, rows, grid.seed, grid.games,
                                                 list(grid.variants)))
    return out


def run_sweep(grid: Grid, backend: Any, store: Store | None = None,
              progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Plan and play a grid (see plan_sweep and run_plan); its variants given as text in a
    temporary folder of this call's, removed when it returns or fails."""
    with _owned(grid.texts) as folder:
        plan = plan_sweep(grid, store, backend.workers, folder=folder)
        if progress is not None and plan.done:
            progress(plan.done)
        return run_plan(plan, backend, store, progress)


def _tagged(b: Batch) -> tuple[Batch, tuple[str, str, list[tuple[int, str, str, int, int]]]]:
    return b, play_batch(b)


def grid_of(missions: Iterable[str | Path], difficulties: Iterable[str],
            players: Iterable[int], games: int, seed: int, variants: Iterable[str | Path],
            policy: str, game: str = DEFAULT) -> Grid:
    """A Grid of these (each text, tuple and number as the Grid keeps it)."""
    return Grid(tuple(str(m) for m in missions), tuple(difficulties), tuple(players), games,
                seed, tuple(str(v) for v in variants), policy, game=game)
