"""Starting, saving, loading and replaying games.

A save records how the game began (mission, variants, players, difficulty, seed, and a set
position if it began from one) and every action taken, plus a digest of the final state.
Loading replays the actions and checks the digest, so a save made with other rules, or
edited by hand, is refused with a clear error instead of yielding a different game; a save
without its digest, or with a wrong one, loads only when trusted (`trust=True`, the command
line's `--trust`), with a `SaveWarning`.

A shipped mission or variant is named by its name; any other by its path relative to the
save file, so a save and its mission can move together.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

import tomli_w

from ..missions import DEFAULT
from . import schema
from .actions import Action
from .errors import ArtError, GameError, RulesError, SaveError, SaveWarning
from .files import MAX_NESTING, doc_depth, exists, nesting, read_text, shorten, write_atomic
from .loader import _is_name, _package_dir, load_rules, path_text
from .position import apply_position
from .rules import Rules
from .state import PHASES, State

FORMAT: Final = schema.SAVE_FORMAT
# 2: chance comes from a 64-bit LCG (version 1's games, from splitmix64, replay otherwise)
VERSION: Final = 2


def new_game(mission: str | Path | Rules = DEFAULT, players: int = 2,
             difficulty: str = "medium", seed: int = 0, variants: Iterable[str | Path] = (),
             position: Mapping[str, Any] | None = None, phase: str = "mission",
             log: bool = False) -> State:
    """Start a game: a shipped mission's name, a file path (or loaded rules), 1-6 players, a seed.

    log=True records the events as they happen (`events()` otherwise replays the game to
    tell them: right for a look now and then, slow to ask after every step).
    """
    rules = mission if isinstance(mission, Rules) else load_rules(mission, variants)
    if phase not in PHASES:
        raise GameError(f"unknown phase {phase!r}; expected one of: {', '.join(PHASES)}")
    if position is None and phase == "mission":
        return State.new(rules, players, difficulty, seed, log=log)
    st = State.new(rules, players, difficulty, seed, start=False, log=log)
    apply_position(st, position or {})
    st.start = {"phase": phase, "position": dict(position or {})}
    st.start_round(phase)
    return st


def digest(st: State) -> str:
    data = json.dumps(st.fingerprint(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def to_dict(st: State, folder: str | Path | None = None) -> dict[str, Any]:
    """The save document of a game, at any point of play.

    A mission or variant file is named by its path relative to `folder` (where the save
    will lie), or absolute without one; a shipped one by its name.
    """
    doc: dict[str, Any] = {
        "format": FORMAT, "version": VERSION,
        "mission": _reference(st.rules.ref or st.rules.name, folder, "missions"),
        "variants": [_reference(v, folder, "missions/variants") for v in st.rules.variants],
        "players": st.players, "difficulty": st.difficulty, "seed": st.seed,
        "actions": [str(a) for a in st.history], "digest": digest(st),
    }
    if st.start is not None:
        doc["start"] = st.start
    return doc


def _reference(ref: str, folder: str | Path | None, shipped: str) -> str:
    if _is_name(ref):
        return ref
    try:
        p = Path(ref).resolve()
        pkg, _, sub = shipped.partition("/")
        if p.suffix == ".toml" and p.parent == (_package_dir(pkg) / sub).resolve():
            return p.stem  # a shipped file named by its path: its name travels better
        if folder is not None:
            return os.path.relpath(p, Path(folder).resolve())
        return str(p)
    except (OSError, ValueError, RuntimeError):  # another drive, a loop of links
        return ref


def _resolve(ref: str, folder: Path | None) -> str:
    """A save's mission or variant: a name, or a path relative to the save (or, as older
    saves wrote it, to the current folder)."""
    if _is_name(ref) or folder is None or Path(ref).is_absolute():
        return ref
    beside = folder / ref
    return str(beside) if exists(beside) or not exists(ref) else ref


def dumps(st: State, fmt: str = "json", folder: str | Path | None = None) -> str:
    """The save as JSON (default) or TOML text."""
    doc = to_dict(st, folder)
    if fmt == "toml":
        return tomli_w.dumps(doc)
    return json.dumps(doc, indent=1) + "\n"


def save_game(st: State, path: str | Path, replace: bool = True) -> None:
    """Write a save (TOML when the name ends in .toml), atomically: never half-written.

    With replace=False an existing file is left alone (SaveError): the command line's
    saves never overwrite a file they did not write.
    """
    path = Path(path)
    text = dumps(st, "toml" if path.suffix == ".toml" else "json", path.parent)
    try:
        write_atomic(path, text, replace)
    except GameError as err:
        raise SaveError(str(err)) from None


def loads(text: str, name: str = "<save>", trust: bool = False,
          folder: str | Path | None = None) -> State:
    """A game from save text (JSON or TOML); SaveError if it is corrupt or foreign.

    `folder` is where the save lies (a mission path in it is relative to it); `trust`
    loads a save whose digest is missing or wrong, with a SaveWarning.
    """
    deepest, _ = nesting(text)
    if deepest > MAX_NESTING:
        raise SaveError(f"{name}: nested too deeply: more than {MAX_NESTING} levels of arrays "
                        "and tables; not a save")
    doc: Any
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as jerr:
        try:
            doc = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, ValueError):
            raise SaveError(f"{name}:{jerr.lineno}:{jerr.colno}: not a save file "
                            f"(neither JSON nor TOML): {jerr.msg}") from None
    except (ValueError, RecursionError) as err:  # a number of thousands of digits, say
        raise SaveError(f"{name}: not a save file: {str(err)[:120]}") from None
    if doc_depth(doc) > MAX_NESTING:
        raise SaveError(f"{name}: nested too deeply: more than {MAX_NESTING} levels")
    return from_dict(doc, name, trust, None if folder is None else Path(folder))


def load_game(path: str | Path, trust: bool = False) -> State:
    """A game from a save file (a regular file of at most 2 MiB)."""
    name = shorten(str(path))
    text = read_text(path, name, lambda msg: SaveError(f"{name}: cannot read: {msg}"))
    return loads(text, name, trust, Path(path).parent)


def from_dict(doc: Any, name: str = "<save>", trust: bool = False,
              folder: Path | None = None) -> State:
    """Rebuild a game from a save document by replaying it; checks the digest."""
    spec = _structure(doc, name)
    st = _start(spec, doc, name, folder)
    for i, text in enumerate(spec.actions, start=1):
        try:
            st.apply(Action.parse(text))
        except GameError as err:
            raise SaveError(f"{name}: action {i} ({text[:60]!r}) does not replay: {err}"
                            ) from None
    _check_digest(st, spec.digest, name, trust)
    return st


def _structure(doc: Any, name: str) -> schema.SaveSpec:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(f"{name}: not an artproject save (no format = {FORMAT!r})")
    version = doc.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version != VERSION:
        why = (" (its dice and draws came from an older generator, so its moves cannot be "
               "replayed)" if version == 1 else "")
        raise SaveError(f"{name}: save format version {version}; this artproject reads "
                        f"version {VERSION}{why}")
    spec, found = schema.structure(doc, schema.SaveSpec)
    if spec is None:
        path, msg = found[0]
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise SaveError(f"{name}: {path_text(path)}: {msg}{more}")
    return spec


def _start(spec: schema.SaveSpec, doc: Mapping[str, Any], name: str, folder: Path | None,
           ) -> State:
    """The game as it began: its rules, then its set-up or set position (as written: the
    schema has checked its shape)."""
    try:
        rules = load_rules(_resolve(spec.mission, folder),
                           [_resolve(v, folder) for v in spec.variants])
    except RulesError as err:
        raise SaveError(f"{name}: the save's rules cannot be loaded: {err}") from None
    start = spec.start
    try:
        if start is None:
            return new_game(rules, spec.players, spec.difficulty, spec.seed)
        return new_game(rules, spec.players, spec.difficulty, spec.seed,
                        position=doc["start"].get("position", {}), phase=start.phase)
    except RulesError as err:  # the set position names something these rules lack
        raise SaveError(f"{name}: start.{err.path or 'position'}: {err.message}") from None
    except ArtError as err:
        raise SaveError(f"{name}: {err}") from None


def _check_digest(st: State, want: str | None, name: str, trust: bool) -> None:
    if want is not None and want == digest(st):
        return
    if want is None:
        why = f"{name}: the save has no digest, so an edited save cannot be told apart"
    else:
        why = (f"{name}: the replayed game differs from the saved one (digest {digest(st)} "
               f"!= {want}); was it saved with other rules, or edited?")
    if not trust:
        raise SaveError(why + "; --trust loads it anyway")
    warnings.warn(SaveWarning(why + "; loaded on trust"), stacklevel=3)


def replay(st: State, actions: Iterable[str | Action]) -> State:
    """Apply actions in notation to a game, returning it."""
    for a in actions:
        st.apply(a)
    return st
