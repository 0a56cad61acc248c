"""Starting, saving, loading and replaying games.

A save records how the game began (mission, variants, players, difficulty, seed, and a set
position if it began from one) and every action taken, plus a digest of the final state.
Loading replays the actions and checks the digest, so a save made with other rules, or
edited by hand, is refused with a clear error instead of yielding a different game.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

import tomli_w

from ..missions import DEFAULT
from .actions import Action
from .errors import ArtError, GameError, RulesError, SaveError
from .loader import load_rules
from .position import apply_position
from .state import PHASES, State

FORMAT: Final = "artproject-save"
# 2: chance comes from a 64-bit LCG (version 1's games, from splitmix64, replay otherwise)
VERSION: Final = 2


def new_game(mission: str | Path = DEFAULT, players: int = 2, difficulty: str = "medium",
             seed: int = 0, variants: Iterable[str | Path] = (),
             position: Mapping[str, Any] | None = None, phase: str = "mission",
             log: bool = False) -> State:
    """Start a game: a shipped mission's name or a file path, 1-6 players, a seed.

    log=True records the events as they happen (`events()` otherwise replays the game to
    tell them: right for a look now and then, slow to ask after every step).
    """
    rules = load_rules(mission, variants)
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


def to_dict(st: State) -> dict[str, Any]:
    """The save document of a game, at any point of play."""
    doc: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "mission": st.rules.ref or st.rules.name,
        "variants": list(st.rules.variants), "players": st.players,
        "difficulty": st.difficulty, "seed": st.seed,
        "actions": [str(a) for a in st.history], "digest": digest(st),
    }
    if st.start is not None:
        doc["start"] = st.start
    return doc


def dumps(st: State, fmt: str = "json") -> str:
    """The save as JSON (default) or TOML text."""
    doc = to_dict(st)
    if fmt == "toml":
        return tomli_w.dumps(doc)
    return json.dumps(doc, indent=1) + "\n"


def save_game(st: State, path: str | Path) -> None:
    """Write a save (TOML when the name ends in .toml), atomically: never half-written."""
    path = Path(path)
    text = dumps(st, "toml" if path.suffix == ".toml" else "json")
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=".save-")
    except OSError as err:
        raise SaveError(f"{path}: cannot write: {err.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def loads(text: str, name: str = "<save>") -> State:
    """A game from save text (JSON or TOML); SaveError if it is corrupt or foreign."""
    doc: Any
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as jerr:
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            raise SaveError(f"{name}:{jerr.lineno}:{jerr.colno}: not a save file "
                            f"(neither JSON nor TOML): {jerr.msg}") from None
    return from_dict(doc, name)


def load_game(path: str | Path) -> State:
    """A game from a save file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise SaveError(f"{path}: cannot read: {err}") from None
    return loads(text, str(path))


def _need(doc: Mapping[str, Any], key: str, kind: type | tuple[type, ...], name: str) -> Any:
    if key not in doc:
        raise SaveError(f"{name}: not a complete save: '{key}' is missing")
    v = doc[key]
    if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
        raise SaveError(f"{name}: '{key}' has the wrong type ({type(v).__name__})")
    return v


def from_dict(doc: Any, name: str = "<save>") -> State:
    """Rebuild a game from a save document by replaying it; checks the digest."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(f"{name}: not an artproject save (no format = {FORMAT!r})")
    version = _need(doc, "version", int, name)
    if version != VERSION:
        why = (" (its dice and draws came from an older generator, so its moves cannot be "
               "replayed)" if version == 1 else "")
        raise SaveError(f"{name}: save format version {version}; this artproject reads "
                        f"version {VERSION}{why}")
    mission = _need(doc, "mission", str, name)
    variants = _need(doc, "variants", list, name)
    players = _need(doc, "players", int, name)
    difficulty = _need(doc, "difficulty", str, name)
    seed = _need(doc, "seed", int, name)
    actions = _need(doc, "actions", list, name)
    start = doc.get("start")
    try:
        if start is not None:
            if not isinstance(start, dict):
                raise SaveError(f"{name}: 'start' must be a table")
            st = new_game(mission, players, difficulty, seed, variants,
                          start.get("position", {}), start.get("phase", "mission"))
        else:
            st = new_game(mission, players, difficulty, seed, variants)
    except SaveError:
        raise
    except RulesError as err:
        raise SaveError(f"{name}: the save's rules cannot be loaded: {err}") from None
    except ArtError as err:
        raise SaveError(f"{name}: {err}") from None
    for i, text in enumerate(actions, start=1):
        if not isinstance(text, str):
            raise SaveError(f"{name}: action {i} is not text")
        try:
            st.apply(Action.parse(text))
        except GameError as err:
            raise SaveError(f"{name}: action {i} ({text!r}) does not replay: {err}") from None
    want = doc.get("digest")
    if want is not None and want != digest(st):
        raise SaveError(f"{name}: the replayed game differs from the saved one (digest "
                        f"{digest(st)} != {want}); was it saved with other rules?")
    return st


def replay(st: State, actions: Iterable[str | Action]) -> State:
    """Apply actions in notation to a game, returning it."""
    for a in actions:
        st.apply(a)
    return st
