"""What a game gives the kernel: the hooks its state class fills in (docs/architecture.md,
"A game"). The machine (machine.py) calls them; each stub says what it must do.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Final

from .actions import CHANCE
from .actions import NOBODY as NOBODY  # (the viewer without a seat: read here too)

if TYPE_CHECKING:
    from .actions import Action
    from .machine import Machine


_PARTS: dict[tuple[type, str, str], Any] = {}  # GameHooks._part's finds
_PARSED: dict[tuple[str, str], Any] = {}  # seat_actions' readings: (game, text) -> Action
PARSED_KEPT: Final = 1 << 16  # readings kept (a bound on their memory)


class GameHooks:
    """The game's part of a state class (`Machine` inherits it)."""

    __slots__ = ()

    # the scenario runner's (scenario.py) and the invariant framework's (invariants.py)
    NO_CONTEXT: ClassVar[Any] = None  # the context a scenario's facts are read in
    # the game's checks: state -> None, (before, action, after) -> None, state -> None;
    # each raises Violation
    INVARIANTS: ClassVar[tuple[Callable[..., None], ...]] = ()
    STEP_CHECKS: ClassVar[tuple[Callable[..., None], ...]] = ()
    PROPERTY_CHECKS: ClassVar[tuple[Callable[..., None], ...]] = ()

    # where the game keeps what the start, save and scenario hooks forward to, imported
    # only when one is first called: the package (its dotted name) whose `game` module
    # has new_game, SaveFile, save_header and from_header, and whose `scenarios` module has
    # ScenarioFile, setup and checker. A game without one overrides those hooks.
    PACKAGE: ClassVar[str] = ""
    # the module (its dotted name) of what the tools ask of the game, found by
    # `games.game_tools`: its bots (POLICIES), the rules the tools load, and its parts of
    # simulate, verify, play and check (docs/architecture.md, "Adding a game")
    TOOLS: ClassVar[str] = ""

    @classmethod
    def _part(cls, module: str, name: str) -> Any:
        """`name` from the game's `module` (a module of its PACKAGE), imported lazily, found
        once (a new game asks for its `new_game` every time)."""
        key = (cls, module, name)
        got = _PARTS.get(key)
        if got is None:
            if not cls.PACKAGE:
                raise NotImplementedError(
                    f"{cls.__name__} names no PACKAGE for its {module}.{name}")
            from importlib import import_module

            got = _PARTS[key] = getattr(import_module(f"{cls.PACKAGE}.{module}"), name)
        return got

    # ------------------------------------------------------------------ starting a game
    @classmethod
    def create(cls, **options: Any) -> Machine:
        """A new game of this game, from `new_game`'s options (players, seed, log, chance
        and the game's own); games.new_game calls it. By default PACKAGE's game.new_game."""
        made: Machine = cls._part("game", "new_game")(**options)
        return made

    def restart(self, log: bool) -> Machine:
        """The same game at its start (set-up and any set position), not yet played: what
        replays (events, saves) start from."""
        raise NotImplementedError(_lacks(self, "restart"))

    def returns(self) -> list[float]:
        """Each seat's return (0 for all while the game goes on)."""
        raise NotImplementedError(_lacks(self, "returns"))

    def start_view(self, player: int) -> tuple[Any, ...]:
        """What `player` knows of the game's start (its rules, the team, a set position):
        the head of their information state."""
        raise NotImplementedError(_lacks(self, "start_view"))

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` may see now, as plain data (their own private facts, the public
        ones); its `legal` lists the actions they may see."""
        raise NotImplementedError(_lacks(self, "observation"))

    def shown(self, player: int) -> Any:
        """What `player` sees now that their information state's history may not carry (a
        fact shown by no action or chance event), hashable: by default the whole
        observation as JSON (without `legal`); a game whose history carries everything it
        shows returns ()."""
        view = dict(self.observation(player))
        view.pop("legal", None)
        return json.dumps(view, sort_keys=True, default=str)

    # ------------------------------------------------------------------ search and learning
    # (numeric.py, seats.py and the adapters read these; never the hot path)
    SEATINGS: ClassVar[tuple[str, ...]] = ("team", "players")  # the seatings it offers
    # what search tools may assume (OpenSpiel's game type, docs/ai.md): whether every seat
    # sees the whole position (nothing hidden from anyone), and whether the game may have
    # chance nodes with any of its rules and variants (False: never a chance node)
    PERFECT_INFORMATION: ClassVar[bool] = False
    CHANCE_NODES: ClassVar[bool] = True
    TITLE: ClassVar[str] = ""  # its name for people
    # the options `create` takes that choose a game (the adapters' parameters), with their
    # defaults; seed, chance and log are the kernel's own
    OPTIONS: ClassVar[Mapping[str, Any]] = {"players": 2}
    # the one of OPTIONS that names the rules (a file, a shipped name, or rules loaded), so
    # that a tool making many games passes the rules loaded once; None where none does
    RULES_OPTION: ClassVar[str | None] = None
    # how the seats' returns relate: "shared" (a team: all share one), "zero_sum" (they sum
    # to 0) or "mixed" (neither)
    UTILITY: ClassVar[str] = "mixed"

    def utility(self) -> str:
        """How this game's returns relate, with its rules and players: `UTILITY` unless the
        game says otherwise (a game zero-sum between two players only)."""
        return self.UTILITY

    def num_players(self) -> int:
        """How many players the game has (seats are numbered 0 to this - 1)."""
        return len(self.returns())

    def derived(self) -> dict[Any, Any]:
        """A dict kept with the game's fixed rules for work derived from them once (the
        numbered actions, the tensors' layouts), keyed with the player count."""
        raise NotImplementedError(_lacks(self, "derived"))

    def tensor_segments(self, kind: str) -> tuple[Any, ...]:
        """The `observation` or `information_state` tensor's segments (tensors.Segment), in
        order: a fixed layout for the rules and player count."""
        raise NotImplementedError(_lacks(self, "tensor_segments"))

    def shaped_score(self) -> list[float]:
        """Each player's shaped score, in [-1, 1]: a signal for search and learning before
        the end (the returns once it is over)."""
        return self.returns()

    def shaped_scorer(self) -> Callable[[Any], list[float]]:
        """`shaped_score` as a function of a state, for every state of this game (its
        rules, player count and options: its positions, copies and determinizations), for
        a caller that asks at every step (the adapters' infos): a game may work out once
        what its score divides by. The same floats as `shaped_score`, to the bit."""
        return type(self).shaped_score

    def max_game_length(self) -> int:
        """The most decisions a game is played for by the adapters and the search bot: a
        game that reaches it is cut (`limit_returns`)."""
        raise NotImplementedError(_lacks(self, "max_game_length"))

    def return_range(self) -> tuple[float, float]:
        """The least and the most a seat's return can be in this game (its rules and player
        count): the adapters declare them (OpenSpiel's min and max utility)."""
        return -1.0, 1.0

    def limit_returns(self) -> list[float]:
        """Each player's return for a game cut at `max_game_length()` (a draw: 0)."""
        return [0.0] * self.num_players()

    def joint_seat(self) -> int:
        """The seat that takes the team's joint decisions with a seat per player (seats.py)."""
        return 0

    def resample(self, players: Sequence[int], seed: int) -> Machine:
        """A copy that `players` together cannot tell from this one, with what none of them
        can see (others' private facts, what is shuffled, future chance) drawn anew from `seed`:
        a determinization for search."""
        raise NotImplementedError(_lacks(self, "resample"))

    # ------------------------------------------------------------------ saves, scenarios
    # (by default each is PACKAGE's game or scenarios module's function of the same role)
    @classmethod
    def save_spec(cls) -> type[Any] | None:
        """The keys of this game's saves: saves.SaveSpec's and the game's own (a subclass,
        declared with core/schema.py): PACKAGE's game.SaveFile; None without one (saves.py
        then reads SaveSpec's keys alone)."""
        if cls.PACKAGE:
            spec: type[Any] = cls._part("game", "SaveFile")
            return spec
        return None

    def save_header(self, folder: Path | None) -> dict[str, Any]:
        """What a save records of how this game began (its rules, players, seed...); a rule
        file by its path relative to `folder`, where the save will lie."""
        header: dict[str, Any] = self._part("game", "save_header")(self, folder)
        return header

    @classmethod
    def from_header(cls, spec: Any, doc: Mapping[str, Any], name: str,
                    folder: Path | None) -> Machine:
        """The game a save began, not yet played: `spec` is the save structured by
        `save_spec()` (its chance: `spec.chance`), `doc` the save as read, `folder` where it
        lies (SaveError naming the key at fault)."""
        began: Machine = cls._part("game", "from_header")(spec, doc, name, folder)
        return began

    @classmethod
    def scenario_spec(cls) -> type[Any] | None:
        """The keys of this game's scenario files: scenario.ScenarioSpec's and the game's own
        (a subclass; its step keys in a subclass of StepSpec, each a `step_key`): PACKAGE's
        scenarios.ScenarioFile; None without one (scenario.py then reads ScenarioSpec's keys
        alone)."""
        if cls.PACKAGE:
            spec: type[Any] = cls._part("scenarios", "ScenarioFile")
            return spec
        return None

    @classmethod
    def scenario_setup(cls, spec: Any, doc: Mapping[str, Any], path: Path,
                       variants: tuple[str | Path, ...], locate: Any,
                       fail: Any) -> tuple[Machine, Callable[[], None]]:
        """The game a scenario file sets up from its keys (`spec`: the file structured by
        `scenario_spec()`), recording its events, and how it starts (the runner reports an
        engine failure there)."""
        made: tuple[Machine, Callable[[], None]] = cls._part("scenarios", "setup")(
            cls, spec, doc, path, variants, locate, fail)
        return made

    def scenario_checker(self) -> Any:
        """compile(text, origin) -> (fact, left, right, left text) for a scenario's facts."""
        return self._part("scenarios", "checker")(self)

    def deciding(self) -> str:
        """Who is deciding now, as a refusal says it ("the team"; a player: "p3")."""
        return "the team"

    def event_text(self, event: tuple[Any, ...]) -> str:
        """An event as a scenario's event checks read it."""
        return " ".join(str(x) for x in event)

    # ------------------------------------------------------------------ views
    # (what tools that show a game to people read: the server, a browser; docs/server.md)
    def view(self, player: int) -> dict[str, Any]:
        """What `player` sees now (NOBODY: a spectator) as plain JSON data, built only from
        their `observation`: PACKAGE's views.view."""
        made: dict[str, Any] = self._part("views", "view")(self, player)
        return made

    def picture(self) -> dict[str, Any]:
        """The game's fixed picture (what its rules show every player, and its seats) as
        plain JSON data, the same for every viewer: PACKAGE's views.picture."""
        made: dict[str, Any] = self._part("views", "picture")(self)
        return made

    @classmethod
    def choices(cls) -> dict[str, Any]:
        """What a lobby may offer for a new game, as plain data: `players` [fewest, most],
        `options` (each a request key: the `create` option it sets, its values, its
        default), `variants` (the shipped ones' names): PACKAGE's views.choices."""
        made: dict[str, Any] = cls._part("views", "choices")()
        return made

    def seat_of(self, action: Action) -> int:
        """The seat that takes `action` with a seat per player (seats.py): the player the
        rules give it to alone (its verb's `owner`), else the joint seat (the team's)."""
        own = getattr(action.verb, "owner", None)
        who = None if own is None else own(self, action)
        return self.joint_seat() if who is None else int(who)

    def seat_actions(self, player: int) -> list[Action]:
        """The legal actions that are `player`'s seat's to take now (`seat_of`), read from
        the player's own observation (none for NOBODY)."""
        if not 0 <= player < self.num_players():
            return []
        out = []
        for text in self.observation(player).get("legal", ()):
            key = (self.game, text)  # type: ignore[attr-defined]
            a = _PARSED.get(key)
            if a is None:  # an action's text reads the same in every game of its game
                if len(_PARSED) >= PARSED_KEPT:
                    _PARSED.clear()
                a = _PARSED[key] = self.registry.parse(text)  # type: ignore[attr-defined]
            if self.seat_of(a) == player:
                out.append(a)
        return out

    def deciding_seats(self) -> list[int]:
        """The seats with a decision now (who is to act is public), in order."""
        legal = self.legal_actions()  # type: ignore[attr-defined]
        return sorted({self.seat_of(a) for a in legal if a.player != CHANCE})

    def action_view(self, action: Action) -> dict[str, Any]:
        """An action as plain data for a client to draw: its text (which parses back), its
        verb, player, argument, each word of its notation by its slot's name, its help."""
        words = str(action).split()[1:]
        slots = {s.name: int(w) if w.isdigit() else w for s, w in
                 zip(action.verb.shape, words, strict=False)}  # type: ignore[attr-defined]
        arg = action.arg
        return {"text": str(action), "verb": str(action.verb),
                "player": f"p{action.player + 1}" if action.player >= 0 else None,
                "arg": arg if arg is None or isinstance(arg, int | str) else str(arg),
                "slots": slots, "help": getattr(action.verb, "help", "")}

    def seen_events(self, player: int, at: tuple[int, int] = (0, 0),
                    ) -> tuple[list[str], tuple[int, int]]:
        """The events `player` saw (NOBODY: as every player did), as text: the entries of
        their information state (machine.py) from the place `at` on, and the place after
        them. A place is (actions, chance events) read; the information state only grows
        (perfect recall), so a tool that keeps the place reads only what is new. The same
        entries, in the same order, as `information_state(player)[3]` (the server's leak
        test compares them over whole games)."""
        history, trail = self.history, self.trail  # type: ignore[attr-defined]
        verbs, view = self.registry.verbs, self._view  # type: ignore[attr-defined]
        i, j = at
        out: list[str] = []
        while i < len(history):
            if j < len(trail) and trail[j][0] <= i:  # what chance did before action i
                out.append(str(view(trail[j], player)))
                j += 1
                continue
            a = history[i]
            i += 1
            if a.player != CHANCE:
                out.append(self.action_seen(a, player, verbs))
        out += [str(view(e, player)) for e in trail[j:]]
        return out, (i, len(trail))

    def action_seen(self, action: Action, player: int, verbs: Any = None) -> str:
        """An action as `player` (NOBODY: a spectator) saw it taken: its text, or what its
        verb's `seen` lets the others learn of a secret one."""
        seen = (verbs or self.registry.verbs)[action.verb].seen  # type: ignore[attr-defined]
        return str(action) if seen is None or action.player == player else str(
            seen(action, player))

    # ------------------------------------------------------------------ pickling
    def _op_ref(self, fn: Any) -> Any:
        """A queued step as a pickle names it: a module-level function as itself; the game
        names its rule steps (compiled effects) through its rules."""
        return fn

    def _arg_ref(self, ref: Any) -> Any:
        return ref

    def _op_from(self, ref: Any) -> Any:
        return ref

    def _arg_from(self, ref: Any) -> Any:
        return ref

    def _after_unpickle(self) -> None:
        """Rebuild what a pickle leaves out (the fields derived from the rules)."""


# what each hook a game must give is for, told when a game lacks it
_HOOKS: Final = {
    "restart": "the same game at its start, what replays start from",
    "returns": "each seat's return",
    "start_view": "what a player knows of the game's start",
    "observation": "what a player may see now",
    "derived": ("the dict kept with the rules for work derived from them once (the numbered "
                "actions, the tensors' layouts)"),
    "tensor_segments": "the layout of the observation and information-state tensors",
    "max_game_length": "the most decisions a game is played for",
    "resample": "a determinization for search",
}


def _lacks(st: Any, hook: str) -> str:
    """What a hook's stub says when the game's state class does not define it: which class
    lacks which hook, what it is for, and where the walkthrough covers it."""
    return (f"{type(st).__name__} does not define {hook}(): {_HOOKS[hook]}; every game's "
            "state class gives it (docs/architecture.md, Adding a game, step 4)")
