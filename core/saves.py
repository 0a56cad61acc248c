"""Saving, loading and replaying games, of any game.

A save records how the game began (the game's own header: its rules, players, seed, and a
set position if it began from one), every action taken, any reseed, and a digest of the
final state. Loading replays the actions and checks the digest, so a save made with other
rules, or edited outside the engine, is refused with a clear error instead of yielding a different
game.

Versions: 2 (the first game's saves, sampled chance, no `game` key) loads as the default
game; 3 adds `game`, `chance` ("explicit": the actions include the chance outcomes) and
`reseeds` ([decisions taken, seed] pairs).
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

from .actions import Action
from .errors import ArtError, GameError, SaveError
from .games import DEFAULT, game_class
from .machine import Machine

FORMAT: Final = "artproject-save"
VERSION: Final = 3
READS: Final = (2, 3)


def digest(st: Machine) -> str:
    data = json.dumps(st.fingerprint(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def to_dict(st: Machine) -> dict[str, Any]:
    """The save document of a game, at any point of play."""
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": st.game,
                           **st.save_header(),
                           "actions": [str(a) for a in st.history], "digest": digest(st)}
    if st.start is not None:
        doc["start"] = st.start
    if st.explicit:
        doc["chance"] = "explicit"
    if st.reseeds:
        doc["reseeds"] = [list(r) for r in st.reseeds]
    return doc


def dumps(st: Machine, fmt: str = "json") -> str:
    """The save as JSON (default) or TOML text."""
    doc = to_dict(st)
    if fmt == "toml":
        return tomli_w.dumps(doc)
    return json.dumps(doc, indent=1) + "\n"


def save_game(st: Machine, path: str | Path) -> None:
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


def loads(text: str, name: str = "<save>") -> Any:
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


def load_game(path: str | Path) -> Any:
    """A game from a save file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise SaveError(f"{path}: cannot read: {err}") from None
    return loads(text, str(path))


def need(doc: Mapping[str, Any], key: str, kind: type | tuple[type, ...], name: str) -> Any:
    """`doc[key]`, of type `kind`; SaveError naming the key otherwise."""
    if key not in doc:
        raise SaveError(f"{name}: not a complete save: '{key}' is missing")
    v = doc[key]
    if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
        raise SaveError(f"{name}: '{key}' has the wrong type ({type(v).__name__})")
    return v


def _version(doc: Mapping[str, Any], name: str) -> int:
    version: int = need(doc, "version", int, name)
    if version not in READS:
        why = (" (its chance came from an older generator, so its moves cannot be "
               "replayed)" if version == 1 else "")
        raise SaveError(f"{name}: save format version {version}; this artproject reads "
                        f"versions {', '.join(map(str, READS))}{why}")
    return version


def _game(doc: Mapping[str, Any], name: str) -> type[Machine]:
    game = doc.get("game", DEFAULT)
    if not isinstance(game, str):
        raise SaveError(f"{name}: 'game' must be a game's name")
    try:
        return game_class(game)
    except GameError as err:
        raise SaveError(f"{name}: {err}") from None


def _reseeds(doc: Mapping[str, Any], name: str) -> list[tuple[int, int]]:
    raw = doc.get("reseeds", [])
    ok = isinstance(raw, list) and all(
        isinstance(r, list) and len(r) == 2 and all(type(x) is int for x in r) for r in raw)
    if not ok:
        raise SaveError(f"{name}: 'reseeds' must be a list of [decisions, seed] pairs")
    return sorted((r[0], r[1]) for r in raw)


def from_dict(doc: Any, name: str = "<save>") -> Any:
    """Rebuild a game from a save document by replaying it; checks the digest."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(f"{name}: not an artproject save (no format = {FORMAT!r})")
    _version(doc, name)
    cls = _game(doc, name)
    header = cls.read_header(doc, name)
    actions = need(doc, "actions", list, name)
    chance = doc.get("chance", "sample")
    if chance not in ("sample", "explicit"):
        raise SaveError(f"{name}: 'chance' must be sample or explicit, not {chance!r}")
    reseeds = _reseeds(doc, name)
    try:
        st = cls.from_header(header, chance)
    except SaveError:
        raise
    except ArtError as err:
        raise SaveError(f"{name}: {err}") from None
    _replay_save(st, actions, reseeds, name)
    want = doc.get("digest")
    if want is not None and want != digest(st):
        raise SaveError(f"{name}: the replayed game differs from the saved one (digest "
                        f"{digest(st)} != {want}); was it saved with other rules?")
    return st


def _replay_save(st: Machine, actions: list[Any], reseeds: list[tuple[int, int]],
                 name: str) -> None:
    for i, text in enumerate(actions, start=1):
        while reseeds and reseeds[0][0] == i - 1:
            st.reseed(reseeds.pop(0)[1])
        if not isinstance(text, str):
            raise SaveError(f"{name}: action {i} is not text")
        try:
            st.apply(st.registry.parse(text))
        except GameError as err:
            raise SaveError(f"{name}: action {i} ({text!r}) does not replay: {err}") from None
    for _, seed in reseeds:
        st.reseed(seed)


def replay(st: Machine, actions: Iterable[str | Action]) -> Machine:
    """Apply actions in notation to a game, returning it."""
    for a in actions:
        st.apply(a)
    return st
