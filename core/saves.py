"""Saving, loading and replaying games, of any game.

A save records how the game began (the game's own header: its rules, players, seed, and a
set position if it began from one), every action taken, any reseed, and a digest of the
final state. Loading replays the actions and checks the digest, so a save made with other
rules, or edited outside the engine, is refused with a clear error instead of yielding a
different game; a save without its digest, or with a wrong one, loads only when trusted
(`trust=True`, the command line's `--trust`), with a `SaveWarning`.

Every key is declared once (core/schema.py): the kernel's here (`SaveSpec`), a game's in
its subclass of it (its `save_spec()`); a save is read only from a regular file of at most
2 MiB, nested at most 24 deep, and structured before anything is replayed. A game names its
rule files by their path relative to the save (`save_header(folder)`), so a save and its
files can move together.

Versions: 2 (the first game's saves, sampled chance, no `game` key) loads as the default
game; 3 adds `game`, `chance` ("explicit": the actions include the chance outcomes) and
`reseeds` ([decisions taken, seed] pairs), then `generator` (explicit chance: the state of
the generator `sample_chance` draws from, which the actions alone do not give back).
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Final, NewType, TypeVar

import attrs
import tomli_w

from . import checks
from .actions import Action
from .errors import ArtError, GameError, RulesError, SaveError, SaveWarning
from .files import MAX_NESTING, doc_depth, exists, nesting, read_text, shorten, write_atomic
from .games import DEFAULT, game_class
from .machine import Machine
from .schema import (
    Wrong,
    declared,
    make_section,
    param,
    register_type,
    section,
    structure,
    what,
)
from .sources import is_name, package_dir, path_text, shipped_ref

FORMAT: Final = "artproject-save"
VERSION: Final = 3
READS: Final = (2, 3)
_SEED: Final = (-(2**63), 2**64 - 1)  # a seed: any 64-bit number, signed or not

# A reseed: [decisions taken, seed] (`Machine.reseed` after that many decisions).
Reseed = NewType("Reseed", tuple[int, int])


def _reseed(value: Any, _: Any) -> tuple[int, int]:
    ok = isinstance(value, list) and len(value) == 2 and all(
        type(x) is int for x in value) and value[0] >= 0 and _SEED[0] <= value[1] <= _SEED[1]
    if not ok:
        raise Wrong(f"expected [decisions taken, seed] (two whole numbers), not {what(value)}")
    return value[0], value[1]


register_type(Reseed, _reseed, "a pair [decisions taken, seed]", "pairs [decisions taken, seed]")


@section()
@attrs.frozen(kw_only=True)
class SaveSpec:
    """A save file, JSON or TOML (`save FILE` in play, `save_game`)."""

    format: str = param(f'always "{FORMAT}"', choices=(FORMAT,))
    version: int = param("the save format's version (2 or 3)", lo=1)
    game: str = param("the game saved (version 3)", default=DEFAULT)
    # (a game's own keys go here: `save_spec`)
    actions: tuple[str, ...] = param("every decision taken, in the action notation")
    digest: str | None = param("a digest of the final state: loading replays the actions "
                               "and compares; a save without it loads only with --trust",
                               default=None)
    chance: str = param("`sample`: chance drawn from the seed; `explicit`: the actions "
                        "include the chance outcomes", choices=("sample", "explicit"),
                        default="sample")
    reseeds: tuple[Reseed, ...] = param("where the game was given a new future: [decisions "
                                        "taken, seed] pairs", factory=tuple)
    generator: int | None = param("explicit chance: the state of the generator "
                                  "`sample_chance` draws from (the actions, which hold the "
                                  "outcomes, do not say which were drawn from it)",
                                  default=None, lo=0, hi=2**64 - 1)


def rule_reference(ref: str, folder: Path | None, shipped: str) -> str:
    """How a save names a rule file it began with: a shipped one (in the data folder
    `shipped`, "PKG/SUB") by its name, any other by its path relative to `folder`, where the
    save will lie (absolute without one)."""
    if is_name(ref):
        return ref
    try:
        p = Path(ref).resolve()
        pkg, _, sub = shipped.partition("/")
        if p.suffix == ".toml" and p.parent == (package_dir(pkg) / sub).resolve():
            return p.stem  # a shipped file named by its path: its name travels better
        if folder is not None:
            return os.path.relpath(p, folder.resolve())
        return str(p)
    except (OSError, ValueError, RuntimeError):  # another drive, a loop of links
        return ref


def rules_header(rules: Any, folder: Path | None, shipped: str, key: str = "rules",
                 ) -> dict[str, Any]:
    """How a save names the rules a game began with, under `key`, and their variants: each
    as `rule_reference` names it (the rules shipped in the data folder `shipped`, their
    variants in its `variants`); a game's `save_header` begins with this."""
    return {key: rule_reference(rules.ref or rules.name, folder, shipped),
            "variants": [rule_reference(v, folder, f"{shipped}/variants")
                         for v in rules.variants]}


def saved_rules(load: Callable[[str, list[str]], Any], ref: str, variants: Iterable[str],
                folder: Path | None, name: str) -> Any:
    """The rules a save names (`ref` and its variants, each found as `rule_resolve` finds
    it), loaded by the game's `load`; SaveError naming the save when they cannot be (a
    game's `from_header` begins with this)."""
    try:
        return load(rule_resolve(ref, folder), [rule_resolve(v, folder) for v in variants])
    except RulesError as err:
        raise SaveError(f"{name}: the save's rules cannot be loaded: {err}") from None


def rule_resolve(ref: str, folder: Path | None) -> str:
    """A save's rule file: a name, or a path relative to the save in `folder` (or, as older
    saves wrote it, to the current folder); a name only for a save sent to a server
    (`sources.shipped_only`: RulesError naming what is allowed)."""
    shipped_ref(ref)
    if is_name(ref) or folder is None or Path(ref).is_absolute():
        return ref
    beside = folder / ref
    return str(beside) if exists(beside) or not exists(ref) else ref


def save_spec(header: type[Any], name: str = "SaveFile") -> type[Any]:
    """A game's saves: the kernel's keys with the game's own (`header`, an attrs class of
    `param` fields: how its game began) after `game`, all declared once."""
    kernel = declared(SaveSpec)
    return make_section(name, SaveSpec.__doc__ or "", [
        *kernel[:3], *declared(header), *kernel[3:]], header.__module__)


def digest(st: Machine) -> str:
    """The digest of a game's state a save holds: its fingerprint's, and with explicit chance
    (whose fingerprint leaves the generator out: chance comes from outside) also the seed's,
    the reseeds' and the generator's, which `sample_chance` draws from, so an edited seed or
    generator is told too."""
    fp = _explicit_print(st)
    if st.explicit:
        fp["(generator)"] = st.rng
    return _hashed(fp)


def _explicit_print(st: Machine) -> dict[str, Any]:
    """The fingerprint, with explicit chance its seed and reseeds too (the digest saves had
    before the generator was in it)."""
    fp = st.fingerprint()
    if st.explicit:
        fp["(seed)"], fp["(reseeds)"] = st.seed, [list(r) for r in st.reseeds]
    return fp


def _hashed(fp: dict[str, Any]) -> str:
    data = json.dumps(fp, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def _digest_matches(st: Machine, want: str, generator: int | None) -> bool:
    """Whether `want` is the game's digest; with explicit chance and no `generator` saved,
    also of the kinds saves had before it was (its seed and reseeds' but not the generator's;
    before that the fingerprint's alone: such a save's seed is not checked)."""
    return want == digest(st) or (st.explicit and generator is None and want in (
        _hashed(_explicit_print(st)), _hashed(st.fingerprint())))


def replayable(doc: dict[str, Any], st: Machine, folder: str | Path | None) -> None:
    """SaveError unless the save document `doc` of the game `st` loads back to it, as
    `from_dict` will read it (its rules named by its header, each action by its text): a
    save holds only those, so a state made otherwise would never load."""
    try:
        with warnings.catch_warnings():  # (trusted: another game is told below, in words
            warnings.simplefilter("ignore", SaveWarning)  # of its own)
            back = from_dict(doc, "<the save>", trust=True,
                             folder=None if folder is None else Path(folder))
        why = "" if digest(back) == doc["digest"] else "it replays to another game"
    except ArtError as err:
        why = str(err).removeprefix("<the save>: ")
    if why:
        raise SaveError(f"this game cannot be saved: its save would not load back ({why}); a "
                        "save holds only the rules its header names, the start and the "
                        "actions, so a determinization from resample(), a state changed "
                        "outside the rules (apply_position) or rules other than its header "
                        "names (another file given at load) cannot be saved: nothing was "
                        "written")


def to_dict(st: Machine, folder: str | Path | None = None) -> dict[str, Any]:
    """The save document of a game, at any point of play; a rule file is named by its path
    relative to `folder` (where the save will lie; absolute without one). SaveError for a
    game its save would not load back to (`replayable`)."""
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": st.game,
                           **st.save_header(None if folder is None else Path(folder)),
                           "actions": [str(a) for a in st.history], "digest": digest(st)}
    if st.start is not None:
        doc["start"] = st.start
    if st.explicit:
        doc["chance"] = "explicit"
    if st.reseeds:
        doc["reseeds"] = [list(r) for r in st.reseeds]
    if st.explicit:
        doc["generator"] = st.rng
    replayable(doc, st, folder)
    return doc


def dumps(st: Machine, fmt: str = "json", folder: str | Path | None = None) -> str:
    """The save as JSON (default) or TOML text."""
    checks.game(st)
    if fmt not in ("json", "toml") or type(fmt) is not str:
        raise GameError(f"fmt must be json or toml, not {checks.what(fmt)}")
    doc = to_dict(st, None if folder is None else checks.ref(folder, "folder"))
    if fmt == "toml":
        return tomli_w.dumps(doc)
    return json.dumps(doc, indent=1) + "\n"


def save_game(st: Machine, path: str | Path, replace: bool = False) -> None:
    """Write a save (TOML when the name ends in .toml), atomically: never half-written.

    An existing file is left alone (SaveError) unless `replace=True`, as the command line's
    saves never overwrite a file they did not write; a device, pipe or folder is never
    replaced.
    """
    checks.game(st)
    path = Path(checks.ref(path, "path"))
    checks.flag(replace, "replace")
    text = dumps(st, "toml" if path.suffix == ".toml" else "json", path.parent)
    try:
        write_atomic(path, text, replace, "replace=True, the command line's --force,")
    except GameError as err:
        raise SaveError(str(err)) from None


def loads(text: str, name: str = "<save>", trust: bool = False,
          folder: str | Path | None = None) -> Any:
    """A game from save text (JSON or TOML); SaveError if it is corrupt or foreign.

    `folder` is where the save lies (a rule file's path in it is relative to it); `trust`
    loads a save whose digest is missing or wrong, with a SaveWarning.
    """
    text = _save_text(text, name)
    checks.text(name, "name")
    checks.flag(trust, "trust")
    if folder is not None:
        checks.ref(folder, "folder")
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
            cut = " (the file ends there: cut short?)" if not text[jerr.pos:].strip() else ""
            raise SaveError(f"{name}:{jerr.lineno}:{jerr.colno}: not a save file "
                            f"(neither JSON nor TOML): {jerr.msg}{cut}") from None
    except (ValueError, RecursionError) as err:  # a number of thousands of digits, say
        raise SaveError(f"{name}: not a save file: {str(err)[:120]}") from None
    if doc_depth(doc) > MAX_NESTING:
        raise SaveError(f"{name}: nested too deeply: more than {MAX_NESTING} levels")
    return from_dict(doc, name, trust, None if folder is None else Path(folder))


def _save_text(text: Any, name: Any) -> str:
    """A save's text: a str, or bytes of UTF-8 (SaveError otherwise), read past a byte-order
    mark as files are (core/files.py `read_text`)."""
    if type(text) is bytes:
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise SaveError(f"{name}: not UTF-8 text (byte {err.start}): not a save") from None
    if type(text) is not str:
        raise GameError(f"a save's text must be a str (or bytes), not {checks.what(text)}")
    return text.removeprefix("\ufeff")


def load_game(path: str | Path, trust: bool = False) -> Any:
    """A game from a save file (a regular file of at most 2 MiB)."""
    path = checks.ref(path, "path")
    checks.flag(trust, "trust")
    name = shorten(str(path))
    text = read_text(path, name, lambda msg: SaveError(f"{name}: cannot read: {msg}"))
    return loads(text, name, trust, Path(path).parent)


def from_dict(doc: Any, name: str = "<save>", trust: bool = False,
              folder: Path | None = None) -> Any:
    """Rebuild a game from a save document by replaying it; checks the digest."""
    cls, spec = _structure(doc, name)
    try:
        st = cls.from_header(spec, doc, name, folder)
    except SaveError:
        raise
    except ArtError as err:
        raise SaveError(f"{name}: {err}") from None
    _replay_save(st, spec.actions, sorted(spec.reseeds), name)
    if spec.generator is not None and st.explicit:
        st.rng = spec.generator
    _check_digest(st, spec.digest, name, trust, spec.generator)
    return st


def _structure(doc: Any, name: str) -> tuple[type[Machine], Any]:
    """The save's game and the save structured by its declarations (SaveError naming the
    first key at fault)."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(f"{name}: not an artproject save (no format = {FORMAT!r})")
    version = doc.get("version")
    if type(version) is int and version not in READS:
        why = (" (its chance came from an older generator, so its moves cannot be "
               "replayed)" if version == 1 else "")
        raise SaveError(f"{name}: save format version {version}; this artproject reads "
                        f"versions {', '.join(map(str, READS))}{why}")
    game = doc.get("game", DEFAULT)
    try:
        cls = game_class(game if isinstance(game, str) else DEFAULT)
    except GameError as err:
        raise SaveError(f"{name}: {err}") from None
    spec, found = structure(doc, cls.save_spec() or SaveSpec)
    if spec is None:
        path, msg = found[0]
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise SaveError(f"{name}: {path_text(path)}: {msg}{more}")
    return cls, spec


def _replay_save(st: Machine, actions: Iterable[str], reseeds: list[tuple[int, int]],
                 name: str) -> None:
    for i, text in enumerate(actions, start=1):
        while reseeds and reseeds[0][0] == i - 1:
            st.reseed(reseeds.pop(0)[1])
        try:
            st.apply(st.registry.parse(text))
        except GameError as err:
            raise SaveError(f"{name}: action {i} ({text[:60]!r}) does not replay: {err}"
                            ) from None
    for _, seed in reseeds:
        st.reseed(seed)


# the library's words for loading a save on trust, which the command line says in its own
# (`command_line_words`)
TRUST_HINT: Final = "trust=True (the command line's --trust) loads it anyway"


def command_line_words(message: str, trust: str = "--trust loads it anyway") -> str:
    """A library message as the command line says it: `trust` for the library's parameter."""
    return message.replace(TRUST_HINT, trust)


def _check_digest(st: Machine, want: str | None, name: str, trust: bool,
                  generator: int | None = None) -> None:
    if want is not None and _digest_matches(st, want, generator):
        return
    if want is None:
        why = f"{name}: the save has no digest, so an edited save cannot be told apart"
    else:
        why = (f"{name}: the replayed game differs from the saved one (digest {digest(st)} "
               f"!= {want}); was it saved with other rules, or edited?")
    if not trust:
        raise SaveError(f"{why}; {TRUST_HINT}")
    warnings.warn(SaveWarning(why + "; loaded on trust"), stacklevel=3)


G = TypeVar("G", bound=Machine)  # a game, as given: replay returns it, typed as it came


def replay(st: G, actions: Iterable[str | Action]) -> G:
    """Apply actions in notation to a game, returning it; all or none: one that cannot be
    taken (malformed, illegal where it comes) raises, the game left as it was (they are
    all read, then tried on a copy first)."""
    checks.game(st)
    if isinstance(actions, str | bytes) or not isinstance(actions, Iterable):
        raise GameError(f"actions must be a list of actions, not {checks.what(actions)}")
    actions = list(actions)
    trial = st.clone()
    for a in actions:
        trial.apply(a)
    for a in actions:
        st.apply(a)
    return st
