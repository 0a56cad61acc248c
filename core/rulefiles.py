"""A game's rule files, found, read, layered and built into its rules by one kernel object
(`RuleFiles`): what every simple game's `load_rules` does the same way, so a new game
writes only its keys (`@section` classes) and `build`, what the shaped keys make.

    FILES = RuleFiles(game="heaps", title="Heaps", spec=HeapsSpec, build=_build,
                      package="rules")

    def load_rules(ref=DEFAULT, variants=()) -> HeapsRules:
        return FILES.load(ref, variants)

A rules file is a shipped name (NAME.toml in the game's data package, whose `game = "..."`
is the game's) or a path; a variant the same under `variants/`. Each file is
read within limits (`read_toml`), checked to be the game's, layered on the ones before
(`layered`: a key's errors told in the file that set it), shaped by the game's schema
(`Where.shape`), then built (`build(spec, merged, where)`, which reports what cannot work
together through `where` and returns None when it cannot build). Every mistake of every file
is raised at once (RulesErrors at file:line:col). The shipped files without variants are
loaded once and kept; rules pickle by reference to their files (`LoadedRules`, which keeps
`cache["loaded"]`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Generic, TypeVar

import attrs

from .errors import RulesError, closest
from .files import exists, shorten
from .sources import (
    Layer,
    LoadedRules,
    Where,
    game_of,
    is_name,
    layered,
    package_dir,
    read_toml,
    shipped_label,
)

R = TypeVar("R", bound=LoadedRules)


@attrs.frozen(eq=False)
class RuleFiles(Generic[R]):
    """A game's rule files and how they become its rules (see the module's text). The
    rules class `build` makes is attrs-made, frozen, with the fields `ref`, `variants`,
    `warnings` and `cache` (a `LoadedRules`), which `load` fills."""

    game: str  # the `game = "..."` its files declare
    title: str  # the game as its errors name it
    spec: type[Any]  # the rules file's top section (a `@section` attrs class)
    build: Callable[[Any, dict[str, Any], Where], R | None]
    package: str  # the data package its shipped files lie in (errors name them within it)
    folder: Path | None = None  # where its shipped files lie, if not in `package`
    kept: dict[str, R] = attrs.field(factory=dict, init=False, repr=False)

    def load(self, ref: str | Path, variants: Iterable[str | Path] = ()) -> R:
        """The rules (a shipped name or a file) with `variants` layered on, in order;
        RulesError(s) naming file:line:col for every mistake."""
        variants = tuple(variants)
        key = str(ref)
        shipped = not variants and is_name(key)
        if shipped and key in self.kept:
            return self.kept[key]
        layers = [self.layer(self.path(ref, ""), "the rules")]
        layers += [self.layer(self.path(v, "variants"), "a variant") for v in variants]
        merged, w = layered(layers)
        spec = w.shape(merged, self.spec)
        rules = self.build(spec, merged, w) if spec is not None else None
        w.raise_errors()
        assert rules is not None  # (no error told: `build` built them)
        rules = attrs.evolve(rules, ref=key,  # type: ignore[misc]  # (an attrs class: above)
                             variants=tuple(str(v) for v in variants),
                             warnings=tuple(w.warnings))
        rules.cache["loaded"] = (_whole(ref), tuple(_whole(v) for v in variants))
        if shipped:
            self.kept[key] = rules
        return rules

    def shipped(self, folder: str = "") -> list[str]:
        """The game's files shipped in its data folder (`folder`: "variants"), by name."""
        d = self.home() / folder
        return sorted(p.stem for p in d.glob("*.toml") if game_of(p) == self.game)

    def home(self) -> Path:
        """The folder its shipped files lie in."""
        return self.folder if self.folder is not None else package_dir(self.package)

    def path(self, ref: str | Path, folder: str) -> Path:
        """The file `ref` names: a path as given, a name as the shipped file (in `folder`:
        "" for rules, "variants"); RulesError naming the shipped ones for a name that is
        not one of them."""
        if isinstance(ref, Path) or not is_name(ref):
            return Path(ref)
        path = self.home() / folder / f"{ref}.toml"
        if not ref or not exists(path) or game_of(path) != self.game:
            what = "variant" if folder else "rules"
            known = self.shipped(folder)
            raise RulesError(f"unknown {what} {shorten(str(ref))!r} of {self.title}"
                             f"{closest(str(ref)[:100], known)}; shipped: "
                             + (", ".join(known) or "none") + " (or give a file)")
        return path

    def layer(self, path: Path, what: str) -> Layer:
        """The file read (`what` it is, for the error: "the rules", "a variant"); a file of
        another game is refused at its `game` key."""
        doc, smap = read_toml(path, shipped_label(path, (self.package,)))
        if doc.get("game") != self.game:
            shown = doc.get("game")
            raise RulesError(f"a file of {'another game' if shown is None else repr(shown)}, "
                             f'not {what} of {self.title} (its files say game = '
                             f'"{self.game}")', smap.locate(("game",)))
        return Layer(doc, smap, path)


def _whole(x: str | Path) -> str:
    """A rules reference as a pickle keeps it: a name as it is, a path made absolute."""
    return str(x) if is_name(str(x)) else str(Path(x).resolve())
