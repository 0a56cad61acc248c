"""The games the kernel plays, by name: a second game plugs in by registering its state class.

A game is a subclass of `Machine` (its state) that names itself (`game = "..."`), declares
its decisions in its own `Registry` and its state in its own table of fields, and gives the
hooks saves and scenarios need (see docs/architecture.md). The package of a shipped game
registers it when imported; `game_class(name)` imports it on first use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

from . import checks
from .actions import use_games
from .errors import GameError, closest

if TYPE_CHECKING:
    from .machine import Machine

DEFAULT: Final = "art-project"
# shipped games: name -> the module that registers it when imported
_SHIPPED: Final = {"art-project": "artproject.core.art", "art-of-war": "artproject.core.aow",
                   "kuhn": "artproject.core.kuhn"}
_GAMES: dict[str, type[Machine]] = {}
_TOOLS: dict[str, Tools] = {}  # each game's TOOLS module once imported and given to
_FIRST_USE: list[Callable[[ModuleType], None]] = []  # what the tools do with one (use_tools)


def register_game(cls: type[Machine]) -> type[Machine]:
    """Make a game's state class known by its name (`cls.game`); usable as a decorator."""
    _GAMES[cls.game] = cls
    return cls


def game_class(name: str | None = None) -> type[Machine]:
    """The state class of a game by name (the default game when None); GameError if unknown."""
    name = name or DEFAULT
    cls = _GAMES.get(name)
    if cls is None and name in _SHIPPED:
        had = set(_GAMES)
        import_module(_SHIPPED[name])
        cls = _GAMES.get(name)
        if cls is None:
            raise GameError(_registered_else(name, _SHIPPED[name], sorted(set(_GAMES) - had)))
    if cls is None:
        known = sorted({*_GAMES, *_SHIPPED})
        raise GameError(f"unknown game {name!r}{closest(name, known)}; games: "
                        + ", ".join(known))
    return cls


def _registered_else(name: str, package: str, new: list[str]) -> str:
    """The game `name`'s package was imported and registered no game of that name."""
    what = ("it registered " + ", ".join(repr(n) for n in new)
            + " (the state class's `game` must be the name it is found by)" if new else
            "it registered none (its __init__.py calls register_game(ITS STATE CLASS))")
    return (f"the package {package} was imported for the game {name!r} but registered no "
            f"game named {name!r}: {what} (docs/architecture.md, Adding a game, step 8)")


use_games(game_class)  # Action.parse finds games by name through this (actions.py)


def check_start(cls: type[Machine], game: str | None, ignored: Mapping[str, Any],
                passed_on: Mapping[str, Any], takes: str) -> None:
    """A game's `new_game` asked for another game, or given an option it does not take
    (`takes` names those it does): GameError. An option another game's `new_game` passes
    on at its default (`passed_on`: its name and that default) is no option of this game's
    and is let by."""
    if game is not None and game != cls.game:
        raise GameError(f"new_game of {cls.TITLE} asked for the game {game!r}")
    extra = [k for k, v in ignored.items() if k not in passed_on or v != passed_on[k]]
    if extra:
        raise GameError(f"{cls.TITLE} has no option {min(extra)!r}: it takes {takes}")


def new_game(game: str | None = None, **options: Any) -> Machine:
    """A new game of a registered game (the default game when None), from its options (a
    seed checked first: a whole number of 64 bits, what a save holds)."""
    if "seed" in options:
        checks.seed(options["seed"])
    return game_class(game).create(**options)


def is_game(name: str) -> bool:
    """Whether `name` is a game the kernel can play (a look-up: no import, no list)."""
    return name in _GAMES or name in _SHIPPED


def game_names() -> list[str]:
    """Every game the kernel can play."""
    return sorted({*_GAMES, *_SHIPPED})


# the names every game's TOOLS module gives the tools (docs/architecture.md, "Adding a
# game", step 7): a tool asking for one a module lacks is told which step gives it (`Tools`)
TOOLS_NAMES: Final = (
    "DEFAULT_RULES", "load_rules", "players", "POLICIES", "policy_names", "play_one",
    "rules_digest", "summary", "report_text", "report_csv", "verify",
    "counterexample_scenario", "HELD", "run", "check_file", "render", "reference",
    "play_game")


def use_tools(first_use: Callable[[ModuleType], None]) -> None:
    """The tools give here what they do with a game's TOOLS module when it is first used
    (and with each already in use): the policies give every game what every game's bots
    share, the search bot (artproject/policies). A higher layer gives it when imported,
    as `actions.use_games`: the kernel imports nothing above it."""
    _FIRST_USE.append(first_use)
    for tools in _TOOLS.values():
        first_use(tools.module)


class MissingTool(GameError, AttributeError):
    """A name a game's TOOLS module does not give, asked by a tool: a GameError (one line at
    the command line), and an AttributeError, so that `getattr(tools, name, default)` and
    `hasattr` read an optional name (`drawn`, `PLOTS`, `watch_game`) as absent."""


class Tools:
    """A game's TOOLS module as the tools read it: each name the module gives, and for one
    it lacks a MissingTool naming the game, the module and the name, where the tool asks
    for it. A game may give only some tools (a game played only in the browser gives its
    POLICIES): each tool it gives works."""

    __slots__ = ("game", "module")

    def __init__(self, game: str, module: ModuleType) -> None:
        self.game, self.module = game, module

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # (copy's and pickle's look-ups, before `module` is set)
            raise AttributeError(name)
        try:
            return getattr(self.module, name)
        except AttributeError:
            step = (": every game's TOOLS module gives the tools these names (docs/"
                    "architecture.md, Adding a game, step 7)" if name in TOOLS_NAMES else "")
            raise MissingTool(f"the {self.game} game's TOOLS module {self.module.__name__} "
                              f"gives no {name}{step}") from None


def game_tools(name: str) -> Tools:
    """What the tools ask of a game: its state class's `TOOLS` module, imported on first
    use, then given what every game's tools share (`use_tools`); GameError for a game that
    declares none, and for a name the module lacks where a tool asks for it (`Tools`)."""
    cls = game_class(name)
    if not cls.TOOLS:
        raise GameError(f"the {name} game gives the tools nothing (its TOOLS names no module)")
    tools = _TOOLS.get(cls.TOOLS)
    if tools is None:
        module = import_module(cls.TOOLS)
        for first_use in _FIRST_USE:
            first_use(module)
        tools = _TOOLS[cls.TOOLS] = Tools(cls.game, module)
    return tools
