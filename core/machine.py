"""The kernel's decision machine: the work stack, one pause primitive, chance, the event log,
the seeded generator (generator.py), copies, and the information a player has (what the
record tells is history.py's). It knows no game.

A game subclasses `Machine` (its state) and declares its fields (`FIELDS`, see fields.py)
and its decisions (`registry`, see registry.py). Every rule runs as a step on the work
stack (`queue`): a step may push more steps, or `pause` for a decision, and the machine
stops there until `apply()` receives one of `legal_actions()`. Chance is a decision too:
with `explicit` chance the machine stops at it (`is_chance_node()`), otherwise it draws
from the seeded generator at once. See docs/architecture.md for a decision's life.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Final, Self

from . import history
from .actions import CHANCE, TEAM, TERMINAL, Action
from .checks import action_arg, check_methods, not_action
from .checks import seed as check_seed
from .errors import GameError, IllegalActionError
from .fields import (
    LIST,
    MACHINE,
    PRIVATE,
    PUBLIC,
    RESET,
    SHARE,
    Entry,
    Field,
    entries,
    fingerprint_of,
    make_clone,
    pickled,
    position_section,
    write_position,
)
from .generator import LCG_A, LCG_C, MASK, rng_state
from .hooks import GameHooks
from .numeric import Numeric
from .registry import Kind, Registry

HOOK_LIMIT: Final = 10_000  # rule runs in one decision's work before it counts as a loop

# Queue items are (function, args): the function is called as function(state, *args). Only
# plain module-level functions (or rule steps the game can name, see `_op_ref`) go on the
# queue, never bound methods or closures, so that a clone shares them and a pickle names them.
Item = tuple[Callable[..., None], tuple[Any, ...]]
Resume = Callable[..., None]


def by_name(fn: Any) -> bool:
    """Whether pickle can name `fn` itself (a module-level function); a game's `_op_ref`
    names the other queued steps (its compiled rule texts) through its rules."""
    mod = sys.modules.get(getattr(fn, "__module__", None) or "")
    obj: Any = mod
    for part in getattr(fn, "__qualname__", "").split("."):
        obj = getattr(obj, part, None)
    return obj is fn


def _str_or_none(w: Any) -> str | None:
    return None if w is None else str(w)


def _texts(xs: Sequence[Any]) -> list[str]:
    return [str(x) for x in xs]


def _length(q: Sequence[Any]) -> int:
    return len(q)


# The machine's own fields (a game's table follows them; see fields.py).
MACHINE_FIELDS: Final = (
    Field("rules", SHARE, MACHINE),
    Field("seed", SHARE, MACHINE),
    Field("rng", SHARE, MACHINE, fp="rng"),
    Field("explicit", SHARE, MACHINE),  # chance stops the machine (explicit) or is drawn
    Field("queue", LIST, MACHINE, fp="queue", enc=_length),
    Field("wait", SHARE, PUBLIC, fp="wait", enc=_str_or_none),  # the decision pending
    Field("options", SHARE, PUBLIC, fp="options", enc=_texts),  # its options, if it has some
    Field("resume", SHARE, MACHINE),  # resume(st, answer, *wargs) takes the answer
    Field("wargs", SHARE, MACHINE),
    Field("outcome", SHARE, PUBLIC, fp="outcome"),
    Field("reason", SHARE, PUBLIC, fp="reason"),
    Field("history", LIST, PUBLIC),  # every action applied, in order
    Field("trail", LIST, PRIVATE),  # every chance event: (at, kind, who, value)
    Field("log", LIST, PUBLIC),  # the events, when recorded (`logging`)
    Field("logging", SHARE, MACHINE),
    Field("legal_cache", SHARE, MACHINE),  # legal_actions() until the state next changes
    # rule runs (a loop guard): counted from len(history) * (HOOK_LIMIT + 1), so a new decision
    # starts the count afresh without the machine resetting it at every step (see `count_run`)
    Field("hook_runs", RESET, MACHINE, reset=0),
    Field("start", SHARE, PUBLIC),  # the set position a game began from, if any
    Field("reseeds", SHARE, MACHINE),  # (decisions taken, seed) of each `reseed`
)


class Machine(Numeric, GameHooks):
    """A game in progress, of any game (see the module's text)."""

    __slots__ = tuple(f.name for f in MACHINE_FIELDS)

    game: ClassVar[str] = ""  # its name in the game registry
    registry: ClassVar[Registry]
    FIELDS: ClassVar[tuple[Field, ...]] = MACHINE_FIELDS
    ENTRIES: ClassVar[tuple[Entry, ...]] = ()
    POSITION_SPEC: ClassVar[type[Any]]  # the position's schema, made from ENTRIES

    rules: Any
    seed: int
    rng: int
    explicit: bool
    queue: list[Item]
    wait: Kind | None
    options: tuple[Any, ...]
    resume: Resume | None
    wargs: tuple[Any, ...]
    outcome: str | None
    reason: str
    history: list[Action]
    trail: list[tuple[int, Kind, int, Any]]
    log: list[tuple[Any, ...]]
    logging: bool
    legal_cache: list[Action] | None
    hook_runs: int
    start: dict[str, Any] | None
    reseeds: tuple[tuple[int, int], ...]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        check_methods(cls)  # the public methods' arguments checked on entry (core/checks.py)
        if "FIELDS" in cls.__dict__:
            setattr(cls, "clone", make_clone(cls, cls.FIELDS))  # noqa: B010 (generated)
            cls.ENTRIES = entries(cls.FIELDS)
            cls.POSITION_SPEC = position_section(f"{cls.__name__}Position", cls.ENTRIES,
                                                 cls.__module__)
        elif "clone" not in cls.__dict__:  # a game's subclass on its parent's fields: its
            # clones are of it (the parent's generated clone makes the parent's objects)
            setattr(cls, "clone", make_clone(cls, cls.FIELDS))  # noqa: B010 (generated)

    def init_machine(self, rules: Any, seed: int, log: bool, explicit: bool) -> None:
        """Set the machine's own fields for a new game."""
        self.rules, self.seed, self.rng, self.explicit = rules, seed, rng_state(seed), explicit
        self.queue, self.wait, self.options, self.resume, self.wargs = [], None, (), None, ()
        self.outcome, self.reason = None, ""
        self.history, self.trail, self.log, self.logging = [], [], [], log
        self.legal_cache, self.hook_runs, self.start, self.reseeds = None, 0, None, ()

    # ------------------------------------------------------------------ the work stack
    def push(self, fn: Callable[..., None], *args: Any) -> None:
        """Run fn(self, *args) next (before the work already queued)."""
        self.queue.append((fn, args))

    def push_ops(self, ops: Sequence[Callable[..., None]], ctx: Any) -> None:
        """Run `ops` next, in order, each as op(self, ctx)."""
        q = self.queue
        for op in reversed(ops):
            q.append((op, (ctx,)))

    def push_many(self, items: Sequence[tuple[Callable[..., None], Any]]) -> None:
        """Run each op(self, ctx) of `items` next, in order."""
        q = self.queue
        for op, ctx in reversed(items):
            q.append((op, (ctx,)))

    def pause(self, kind: Kind, options: Sequence[Any] = (), resume: Resume | None = None,
              args: tuple[Any, ...] = (), after: int = -1) -> None:
        """Stop the machine for decision `kind`: the one way a step asks for a decision.

        With `options` and `resume`, the answer is one of the options and is handed to
        resume(state, answer, *args); a single option is taken at once without asking (but
        for chance: see `chance`).
        Without, the kind lists its own actions and each applies itself.
        With `after` (the work stack's length, `len(queue)`, taken before the work that
        must come first: a step queues what must follow that work at that place), the pause
        waits until the work queued since the mark has
        run (at once when none was queued and nothing else is pending); otherwise it is now.
        `pause(kind)` of a kind that lists its own actions, now, only sets `wait`: hot steps
        write that out (`st.wait = KIND`), as they may.
        """
        if resume is None:
            if after < 0 or (len(self.queue) == after and self.wait is None):
                self.wait = kind  # options, resume and wargs are clear between choices
                return
        elif len(options) == 1 and not kind.chance:  # (a chance node of one outcome stays:
            resume(self, options[0], *args)        # the sampler draws there too)
            return
        opts = options if options.__class__ is tuple else tuple(options)
        if after >= 0 and (len(self.queue) != after or self.wait is not None):
            self.queue.insert(after, (_pause_step, (kind, opts, resume, args)))
            return
        self.wait, self.options, self.resume, self.wargs = kind, opts, resume, args

    def resolve(self, answer: Any) -> None:
        """Give the answer of the pending choice to its resume step."""
        resume, args = self.resume, self.wargs
        self.wait, self.options, self.resume, self.wargs = None, (), None, ()
        assert resume is not None
        resume(self, answer, *args)

    def _run(self) -> None:
        """Run the work stack to the next decision or the end of the game."""
        self.legal_cache = None
        q = self.queue
        if self.wait is None and self.outcome is None:
            while q:
                fn, args = q.pop()
                if len(args) == 1:  # most steps take one argument: a plain call costs a
                    fn(self, args[0])  # third of fn(self, *args)'s
                elif not args:
                    fn(self)
                else:
                    fn(self, *args)
                if self.wait is not None or self.outcome is not None:
                    break
        if self.outcome is not None:
            self._over()

    def _over(self) -> None:
        self.queue.clear()
        self.wait, self.options, self.resume, self.wargs = None, (), None, ()

    def count_run(self) -> bool:
        """Count one rule run in this decision's work; True once the runs pass HOOK_LIMIT (a rule
        that triggers itself). The count lives from len(history) * (HOOK_LIMIT + 1) on, so
        each decision starts afresh without the machine resetting it at every step."""
        at = len(self.history) * (HOOK_LIMIT + 1)
        runs = self.hook_runs
        self.hook_runs = runs = (runs if runs > at else at) + 1
        return runs - at > HOOK_LIMIT

    # ------------------------------------------------------------------ decisions
    def legal_actions(self) -> list[Action]:
        """Every action the rules allow now, in a stable order (a new list each call); at a
        chance node, its outcomes."""
        legal = self.legal_cache
        if legal is None:  # (a game over has no decision pending: `_over` clears `wait`)
            w = self.wait
            legal = self.legal_cache = [] if w is None else w.legal(self)
        return legal.copy()

    def compute_legal(self) -> list[Action]:
        """The legal actions worked out from the state, bypassing the cache."""
        w = self.wait
        if w is None or self.outcome is not None:
            return []
        return w.legal(self).copy()  # the tables' lists are shared: never give them out

    def apply(self, action: Action | str) -> None:
        """Take one decision (or, at a chance node, one outcome); an illegal one raises
        IllegalActionError with the reason and changes nothing."""
        legal = self.legal_cache
        if legal is None:
            w = self.wait
            legal = self.legal_cache = [] if w is None else w.legal(
                self)  # kept as the kind gave it (legal_actions() gives out copies)
        try:  # (costs nothing until it catches)
            if action not in legal:  # (text is never listed: it is read first, below)
                self._apply_unlisted(action)
                return
        except ValueError as err:  # numpy's values compare with an action as arrays (no truth
            raise not_action(action, err) from None  # value): MalformedActionError, unchanged
        try:
            do = action.verb.apply  # type: ignore[attr-defined]  # the declared verb (registry.py)
        except AttributeError:  # a verb written as text, or a plain tuple equal to a listed
            action = legal[legal.index(action)]  # action (numpy's numbers in it): the listed
            do = action[0].apply  # type: ignore[attr-defined]  # action, recorded as saved
        self.history.append(action)
        self.wait = None
        self.legal_cache = None
        if do is not None:
            do(self, action)
        if self.outcome is not None:
            self._over()
            return
        if self.wait is not None:  # the action's own step asked the next decision
            return
        q = self.queue  # the machine runs to the next decision (`_run`, written out: hot;
        while q:  # q.pop called as a method: binding it first costs more at one or two items)
            fn, args = q.pop()
            if len(args) == 1:
                fn(self, args[0])
            elif not args:
                fn(self)
            else:
                fn(self, *args)
            if self.wait is not None or self.outcome is not None:
                break
        if self.outcome is not None:
            self._over()

    def _apply_unlisted(self, action: Action | str) -> None:
        """`apply` of an action in text, or of one not listed (refused with the reason)."""
        action = action_arg(action)  # a wrong type: MalformedActionError (off the usual path)
        if isinstance(action, str):
            self.apply(self.registry.parse(action))
            return
        raise IllegalActionError(self.why_illegal(action))

    def why_illegal(self, action: Action) -> str:
        """A one-line reason why `action` is not allowed now."""
        if self.outcome is not None:
            return self.over_text()
        chance = self.is_chance_node()
        if action.player == CHANCE and not chance:
            return (f"{action}: a chance outcome, but no chance is pending: "
                    f"{self.deciding()} is deciding {self.wait}")
        if chance and action.player != CHANCE:
            return (f"{action}: chance decides now ({self.wait}), not a player: apply one of "
                    "chance_outcomes()")
        reason = self.refusal(action)
        if reason:
            return reason
        legal = self.legal_actions()
        same = [a for a in legal if a.verb == action.verb]
        if not same:
            verbs = sorted({a.verb for a in legal})
            return (f"{action}: not now; {self.deciding()} is deciding {self.wait}"
                    f" and may: {', '.join(verbs)}")
        return f"{action}: not allowed now; allowed: " + ", ".join(str(a) for a in same[:12])

    def refusal(self, action: Action) -> str | None:
        """The game's own reason to refuse `action` (an unknown name, a player not in the
        game), before the generic ones; None when it has none."""
        verb = self.registry.verbs.get(action.verb)
        return verb.check(self, action) if verb is not None and verb.check else None

    def over_text(self) -> str:
        return f"the game is over ({self.outcome}: {self.reason})"

    @property
    def actor(self) -> int:
        """The player whose decision it is, or TEAM (-1) when any player may act."""
        acts = {a.player for a in self.legal_actions()}
        return acts.pop() if len(acts) == 1 else TEAM

    def current_player(self) -> int:
        """TERMINAL when the game is over, CHANCE at a chance node, else `actor`."""
        if self.outcome is not None:
            return TERMINAL
        if self.is_chance_node():
            return CHANCE
        return self.actor

    def is_over(self) -> bool:
        return self.outcome is not None

    def is_terminal(self) -> bool:
        return self.outcome is not None

    # ------------------------------------------------------------------ chance
    def next(self) -> int:
        """The generator's next 32 bits. A 64-bit linear congruential generator (Knuth's
        MMIX constants) giving its high 32 bits: its whole state is one int, cheap to clone
        and save, and a step is three integer operations; `rng_state` scrambles the seed."""
        self.rng = z = (self.rng * LCG_A + LCG_C) & MASK
        return z >> 32

    def chance(self, node: Kind, resume: Resume, args: tuple[Any, ...] = ()) -> None:
        """A chance event of kind `node`, its value handed to resume(state, value, *args):
        drawn from the seeded generator at once, or (explicit chance) a pause at a chance
        node unless the outcome is known without the generator (`node.certain`)."""
        assert node.sample is not None and node.outcomes is not None
        if not self.explicit or (node.certain is not None and node.certain(self)):
            resume(self, node.sample(self), *args)
            return
        self.pause(node, tuple(v for v, _ in node.outcomes(self)), resume, args)

    def renew_chance(self) -> None:
        """At a chance node, its outcomes named again from the state as it is now (a
        determinization deals anew what chance draws from: the pause's options follow, so
        its legal outcomes are those `chance_outcomes()` lists); elsewhere nothing."""
        w = self.wait
        if w is not None and w.chance and self.outcome is None and w.outcomes is not None:
            self.options = tuple(v for v, _ in w.outcomes(self))
            self.legal_cache = None

    def is_chance_node(self) -> bool:
        """Whether chance decides next (only with explicit chance)."""
        w = self.wait
        return w is not None and w.chance and self.outcome is None

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node, each outcome's action with its probability (they sum to 1)."""
        w = self.wait
        if not self.is_chance_node() or w is None or w.outcomes is None or w.verb is None:
            raise GameError("not a chance node: " + (self.over_text() if self.outcome
                                                       else f"{self.deciding()} is deciding {w}"))
        act = self.registry.act
        return [(act(w.verb, CHANCE, v), p) for v, p in w.outcomes(self)]

    def sample_chance(self) -> Action:
        """At a chance node, the outcome the seeded generator picks (advancing it): the one a
        game with sampled chance would have drawn here."""
        w = self.wait
        if not self.is_chance_node() or w is None or w.sample is None or w.verb is None:
            raise GameError("not a chance node")
        return self.registry.act(w.verb, CHANCE, w.sample(self))

    def reseed(self, seed: int) -> None:
        """Draw the rest of the game's chance from `seed`: a clone reseeded has a future of its
        own. Saves and replays record where it happened."""
        self.rng = rng_state(check_seed(seed))
        self.reseeds = (*self.reseeds, (len(self.history), seed))

    def record(self, kind: Kind, who: int, value: Any) -> None:
        """Note a chance event in the trail (what the information rules read)."""
        self.trail.append((len(self.history), kind, who, value))

    # ------------------------------------------------------------------ the event log
    def note(self, *event: Any) -> None:
        """Record an event (when this game records them: `logging`)."""
        if self.logging:
            self.log.append(event)

    def events(self) -> list[str]:
        """The event log as text lines.

        A game that does not record its events (the default: recording costs every step
        time) replays its decisions from its seed, recording, to tell them.
        """
        return history.events(self)

    def replayed(self, log: bool = False) -> Machine:
        """The game played again from its start: every action and reseed at its place."""
        return history.replayed(self, log)

    # ------------------------------------------------------------------ copies
    def clone(self) -> Self:  # replaced per game by a generated copy (fields.make_clone)
        """An independent copy (lists copied; rules, steps and contexts are shared values)."""
        raise NotImplementedError

    def __copy__(self) -> Self:
        return self.clone()  # a shallow copy of a mutable game would share its lists

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.clone()  # everything a clone shares is immutable or the rules

    def __reduce__(self) -> tuple[Any, ...]:
        state = pickled(self, self.FIELDS)
        state["legal_cache"] = None
        state["queue"] = [(self._op_ref(fn), tuple(self._arg_ref(x) for x in args))
                          for fn, args in self.queue]
        state["resume"] = self._op_ref(self.resume) if self.resume is not None else None
        state["wargs"] = tuple(self._arg_ref(x) for x in self.wargs)
        return (_unpickle, (type(self), state))

    # ------------------------------------------------------------------ fingerprints
    def position(self) -> dict[str, Any]:
        """The state's position in the position format (every entry the table writes)."""
        return write_position(self, self.ENTRIES)

    def fingerprint(self) -> dict[str, Any]:
        """Every fact of the state as plain data: equal fingerprints mean equal games."""
        out = fingerprint_of(self, self.FIELDS)
        if self.explicit:  # chance comes from outside: the generator is no part of the game
            out["rng"] = None
        out["position"] = self.position()
        out["legal"] = [str(a) for a in self.legal_actions()]
        return out

    # ------------------------------------------------------------------ information
    def information_state(self, player: int) -> tuple[Any, ...]:
        """What `player` knows (hashable): the game's start as they know it, then, in order, every
        action taken (all public) and every chance event as that player saw it. Equal for
        two states the player cannot tell apart; perfect recall."""
        return history.information_state(self, player)

    def _view(self, event: tuple[int, Kind, int, Any], player: int) -> Any:
        """What `player` saw of a trail entry (hooks.py's `seen_events` reads it)."""
        return history.view(self, event, player)


def _pause_step(st: Machine, kind: Kind, options: tuple[Any, ...], resume: Resume | None,
                args: tuple[Any, ...]) -> None:
    st.pause(kind, options, resume, args)


def _unpickle(cls: type[Machine], state: dict[str, Any]) -> Machine:
    st = cls.__new__(cls)
    for k, v in state.items():
        setattr(st, k, v)
    st.hook_runs = 0
    st._after_unpickle()
    st.queue = [(st._op_from(fn), tuple(st._arg_from(x) for x in args)) for fn, args in
                st.queue]
    if st.resume is not None:
        st.resume = st._op_from(st.resume)
    st.wargs = tuple(st._arg_from(x) for x in st.wargs)
    return st


__all__ = ["HOOK_LIMIT", "LCG_A", "LCG_C", "MACHINE_FIELDS", "MASK", "Item", "Machine", "Resume",
           "by_name", "rng_state"]
