"""The shape of the house (docs/architecture.md): no import circles in what ships, the tools
name no game they need not, and every function reads at complexity 15 or less in modules of
about 500 lines at most.

The import graph is read from the source (ast), not by importing it. An edge is every
import a module can execute: at its top and inside its functions (an import deferred into a
function is still a dependency; deferring it is how a circle hides), resolved to the
project's modules. Imports under `if TYPE_CHECKING:` are not edges: they never run, and a
lower layer may name a higher one's type in an annotation. `from PKG import name` is an
edge to the module PKG.name when there is one, else to PKG; a module's own enclosing
packages are not edges (Python imports them first whatever the module says).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from .test_kernel import AOW_NOUNS, KUHN_NOUNS, _art_nouns, _forms

ROOT = Path(__file__).resolve().parent.parent
# the folders that ship, and the import name setuptools gives each (pyproject.toml)
SHIPPED = {"artproject": "artproject", "core": "artproject.core", "dsl": "artproject.dsl",
           "missions": "artproject.missions", "cards": "artproject.cards"}

# Circles left, each with why and where it is to be broken; the test fails on any other
# circle, and on one of these once it is gone (then strike it from here).
# (none left: simulate/sweep and Art of War's fight/settle were the last two)
KNOWN_CIRCLES: set[frozenset[str]] = set()


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every shipped module by its import name: (file, whether it is a package)."""
    out = {}
    for folder, top in SHIPPED.items():
        for p in (ROOT / folder).rglob("*.py"):
            parts = list(p.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([top, *parts])] = (p, p.name == "__init__.py")
    return out


def _type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imported(name: str, package: bool, tree: ast.AST, mods: set[str]) -> list[str]:
    """The modules (dotted names) `tree` may import when run."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for stmt in child.orelse:
                    visit_one(stmt)
            else:
                visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if package else name.split(".")[:-1]
                here = here[:len(here) - node.level + 1]
                base = ".".join([*here, *([node.module] if node.module else [])])
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in mods]
            found.extend(subs)
            if len(subs) < len(node.names):  # a name of the package's own
                found.append(base)
        else:
            visit(node)

    visit(tree)
    return found


def import_graph() -> dict[str, set[str]]:
    """Each shipped module -> the shipped modules it may import (see the module's text)."""
    mods = _modules()
    graph: dict[str, set[str]] = {}
    for name, (path, package) in mods.items():
        edges = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for target in _imported(name, package, tree, set(mods)):
            while target and target not in mods:  # a name inside a module: the module
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                edges.add(target)
        graph[name] = edges
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                on.discard(w)
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(frozenset(part))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


def test_the_graph_sees_imports_inside_functions_and_not_type_checking_ones() -> None:
    graph = import_graph()
    assert "artproject.core.errors" in graph["artproject.core.actions"]
    assert "artproject.core.machine" not in graph["artproject.core.hooks"]  # TYPE_CHECKING
    assert "artproject.core.kuhn.views" in graph["artproject.core.kuhn.state"]  # in a method
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        frozenset({"a", "b", "c"})]


def test_no_import_circles() -> None:
    found = set(circles(import_graph()))
    new = found - KNOWN_CIRCLES
    assert not new, "import circles: " + "; ".join(" <-> ".join(sorted(c)) for c in new)
    gone = KNOWN_CIRCLES - found
    assert not gone, f"strike from KNOWN_CIRCLES, broken now: {sorted(map(sorted, gone))}"


LOWEST = ("artproject.core.actions", "artproject.core.errors", "artproject.core.fields")


def test_the_lowest_layer_imports_nothing_above_it() -> None:
    """actions, errors and fields import only one another and the schema's declarations
    (fields declare position entries with core/schema.py, which imports neither)."""
    graph = import_graph()
    allowed = {*LOWEST, "artproject.core.schema"}
    for name in LOWEST:
        assert graph[name] <= allowed, (name, graph[name] - allowed)
    assert not graph["artproject.core.schema"] & {"artproject.core.machine",
                                                  "artproject.core.games"}


# ====================================================================== the tools' words
# Kuhn poker's nouns (KUHN_NOUNS, beside the kernel's own grep in test_kernel.py): no tool
# names them. `check`, `call`, `fold` (a constant folded) and `bet` (Art of War's) are
# everyday words of the tools.
TOOLS = sorted((ROOT / "artproject").rglob("*.py")) + sorted((ROOT / "dsl").glob("*.py"))


@pytest.mark.parametrize("path", TOOLS, ids=[str(p.relative_to(ROOT)) for p in TOOLS])
def test_the_tools_name_no_noun_of_the_third_game(path: Path) -> None:
    """Adding Kuhn poker touched no tool: they ask a game for what differs (its TOOLS)."""
    words = set(re.findall(r"[a-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2",
                                             path.read_text(encoding="utf-8")).lower()))
    for noun in KUHN_NOUNS:
        assert not {noun, noun + "s", noun + "es"} & words, (noun, path.name)


# Every game's nouns, grepped in every tool module: `artproject/` outside the game packages
# (a game's package is in `core/`). Words every game or tool shares are no game's: `card`,
# `deck`, `hand` (every card game's: Kuhn poker's and Art of War's hands too), `mission`
# (the house's word for a rules file of any game: the `missions/` folder every game's rules
# lie in, `--mission`, the results store's column), `die`/`dice` (chance's), `agent`
# (PettingZoo's word for a seat), `token` (a seat's token on the server), `legend` (a
# plot's) and `general` (everyday English).
SHARED_WORDS = {"card", "deck", "hand", "mission", "die", "dice", "agent", "token", "legend",
                "general"}


def _nouns() -> dict[str, set[str]]:
    return {"art-project": (_art_nouns() | {"art-project"}) - SHARED_WORDS,
            "art-of-war": (AOW_NOUNS | {"art-of-war"}) - SHARED_WORDS,
            "kuhn": KUHN_NOUNS}


# Modules the grep leaves alone, each with why: the public face is the default game's
# (`import artproject`: its docstring's example and names are The A.R.T. Project's), and
# the command line's help names the shipped games and boards as examples a user types.
NOT_TOOLS = {"artproject/__init__.py", "artproject/_checked.py", "artproject/cli/parser.py"}
# Tools that still name a game, each with why and where it goes; the test fails on any
# other, and on one of these once it names none (then strike it from here).
STILL_NAMING: set[str] = set()
GAME_TOOLS = sorted(p for p in (ROOT / "artproject").rglob("*.py")
                    if str(p.relative_to(ROOT)) not in NOT_TOOLS)


def _named(path: Path) -> list[tuple[str, str]]:
    """The (game, noun) pairs a module names (a noun in any of its forms; a compound one,
    `great dragon`, `los_angeles`, as words in a row)."""
    # (Hypothesis's HealthCheck names no game's health, nor a cairosvg surface's `.cairo`,
    # its libcairo surface, the city of Cairo)
    text = re.sub(r"HealthCheck|health_check|\.cairo\b", "", path.read_text(encoding="utf-8"))
    words = re.findall(r"[a-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", text).lower())
    found, phrase = set(words), " " + " ".join(words) + " "
    out = []
    for game, nouns in _nouns().items():
        for noun in sorted(nouns):
            if "-" in noun:
                hit = noun in text
            elif " " in noun or "_" in noun:
                hit = f" {noun.replace('_', ' ')} " in phrase
            else:
                hit = bool(_forms(noun) & found)
            if hit:
                out.append((game, noun))
    return out


def test_the_tools_name_no_game() -> None:
    """No tool names a game's noun or name: a tool asks the game (core/games.py
    `game_tools`, a kernel hook), so adding a game touches no tool."""
    naming = {str(p.relative_to(ROOT)): _named(p) for p in GAME_TOOLS}
    naming = {k: v for k, v in naming.items() if v}
    new = {k: v for k, v in naming.items() if k not in STILL_NAMING}
    assert not new, new
    gone = STILL_NAMING - set(naming)
    assert not gone, f"strike from STILL_NAMING, naming no game now: {sorted(gone)}"


def test_the_grep_finds_a_games_noun(tmp_path: Path) -> None:
    f = tmp_path / "t.py"
    f.write_text('GAME = "art-of-war"\nx = kyoto_roads  # the Great Dragon\nPawnMoves = 1\n')
    assert {("art-of-war", "art-of-war"), ("art-project", "kyoto"),
            ("art-of-war", "great dragon"), ("art-project", "pawn")} <= set(_named(f))


# ====================================================================== readable code
MAX_COMPLEXITY = 15
MAX_LINES = 500
# Modules over MAX_LINES, each with why (none now).
LONG_MODULES: set[str] = set()


# Functions over MAX_COMPLEXITY, each with why; the test fails on any other, and on one of
# these once it reads simply (then strike it from here).
TANGLED: set[str] = set()


def _shipped_files() -> list[Path]:
    return sorted(p for folder in ("core", "dsl", "artproject")
                  for p in (ROOT / folder).rglob("*.py"))


def test_no_function_is_over_complexity_15() -> None:
    """radon's cyclomatic complexity of every function, method and class that ships (a
    class's is its methods' mean plus one: a class of one method reaches the bound first)."""
    from radon.complexity import cc_visit

    over = set()
    for p in _shipped_files():
        for block in cc_visit(p.read_text(encoding="utf-8")):
            for b in (block, *getattr(block, "methods", ())):
                if b.complexity > MAX_COMPLEXITY:
                    over.add(f"{p.relative_to(ROOT)} {b.fullname}")
    assert over <= TANGLED, sorted(over - TANGLED)
    assert over >= TANGLED, f"strike from TANGLED: {sorted(TANGLED - over)}"


def test_no_module_is_over_about_500_lines() -> None:
    long = {str(p.relative_to(ROOT)) for p in _shipped_files()
            if len(p.read_text(encoding="utf-8").splitlines()) > MAX_LINES}
    assert long <= LONG_MODULES, sorted(long - LONG_MODULES)
    assert long >= LONG_MODULES, f"strike from LONG_MODULES: {sorted(LONG_MODULES - long)}"
