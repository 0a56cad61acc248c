"""Decisions declared once: a game's verbs and decision kinds, in one registry per game.

A *verb* is declared with its notation (the words after it), its help text, whether the
action's player is the one who takes it, what it pays (for the invariants), and the
function that applies it. A decision *kind* is declared with the function that lists its
legal actions and the verbs it offers; a chance kind also lists its outcomes with their
probabilities. Everything that reads actions (legal actions, apply, the reasons for a
refusal, the notation and its help, the invariants, the bots) reads these declarations,
never a table of verb names kept in step manually.

A `Verb` is a `str` subclass equal to its name and a `Kind` compares equal to its name, so
that the notation, logs, scenario texts (`wait == "losing"`) and saves read as before; the
engine itself never compares them as text: it calls what they declare.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from .actions import CHANCE, TEAM, Action, read_player, seat_of
from .errors import MalformedActionError, closest

if TYPE_CHECKING:
    from .machine import Machine

Apply = Callable[[Any, Action], None]  # (state, action): the action's step
Legal = Callable[[Any], list[Action]]  # state -> its legal actions, in a stable order
Check = Callable[[Any, Action], "str | None"]  # state, action -> why it is refused, or None
Outcomes = Callable[[Any], "list[tuple[Any, float]]"]  # state -> (value, probability), ...
Sample = Callable[[Any], Any]  # state -> the value the seeded generator picks (advancing it)
Certain = Callable[[Any], bool]  # state -> whether the outcome is known without the generator
View = Callable[[Any, int, Any, int], str]  # state, who, value, viewer -> what viewer sees
Values = Callable[[Any], "Sequence[Any]"]  # state -> every value a slot may take (spaces.py)
Owner = Callable[[Any, Action], "int | None"]  # state, action -> whose own decision, or None


class Slot:
    """One word of a verb's notation: its name (shown in usage), how it reads, whether it
    sets the action's player or its argument, and every value it may take in a game
    (`values(state)`, from the game's rules and player count only: the numeric action
    space of spaces.py reads it once per game, never during play)."""

    __slots__ = ("name", "optional", "read", "sets_player", "values")

    def __init__(self, name: str, read: Callable[[str, str], Any], sets_player: bool = False,
                 optional: bool = False, values: Values | None = None) -> None:
        self.name, self.read, self.sets_player, self.optional = name, read, sets_player, optional
        self.values = values

    def maybe(self) -> Slot:
        """The same word, optional (shown as `[player]`)."""
        return Slot(self.name, self.read, self.sets_player, True, self.values)


_seat = seat_of  # the notation's seats are the lowest layer's (actions.py)
_read_player = read_player


def parse_player(word: str, text: str = "", seats: int = 6) -> int:
    """`p2` to 1, for a game of at most `seats` seats; MalformedActionError otherwise."""
    return _read_player(word, text or word, seats)


def number(name: str, values: Values | None = None) -> Slot:
    """A whole number naming a `name` (shown as `NAME`); `values(state)` lists those a game
    may name."""
    def read(word: str, text: str) -> int:
        if not word.isdigit():
            raise MalformedActionError(f"{text.strip()!r}: {word!r} is not a {name} number")
        return int(word)
    return Slot(name, read, values=values)


def word(name: str, values: Values | None = None) -> Slot:
    """A word naming a `name`, read in lower case; `values(state)` lists those a game may
    name."""
    def read(w: str, text: str) -> str:
        return w.lower()
    return Slot(name, read, values=values)


def _every_player(st: Machine) -> Sequence[int]:
    return range(st.num_players())


PLAYER: Final = Slot("player", _read_player, sets_player=True, values=_every_player)


def named_player(st: Any, a: Action) -> int | None:
    """A verb's `owner` when the decision is the player's the action names (what the rules
    give that player alone to decide): seats.py gives it to that player's seat."""
    return a.player if a.player >= 0 else None


class Verb(str):
    """A verb's declaration (see the module's text); equal to its name."""

    shape: tuple[Slot, ...]
    help: str
    apply: Apply | None  # None: nothing to do (the machine goes on)
    actor: bool  # the action's player takes it (False: the team takes it, naming that player)
    pays: bool  # only the player it names may pay for it (R5 in the first game)
    golden: bool  # what it costs follows the first game's golden rule (R4): checked by invariants
    private: bool  # it shows its player's private information (another's view leaves it out)
    check: Check | None
    # whose own decision an action of this verb is, when the rules give it to one player
    # (what the rules give them alone): owner(state, action) -> player, or None for a joint
    # decision of the team; None here: every action of the verb is joint (seats.py)
    owner: Owner | None
    # what another player learns of the action (its information state's entry), where that is
    # less than the action itself: a secret choice (None: every action is public)
    seen: Callable[[Action, int], str] | None
    registry: Registry

    def __new__(cls, name: str, shape: Sequence[Slot], help: str, apply: Apply | None, *,
                actor: bool = True, pays: bool = False, golden: bool = False,
                private: bool = False, check: Check | None = None,
                owner: Owner | None = None,
                seen: Callable[[Action, int], str] | None = None) -> Verb:
        v = super().__new__(cls, name)
        v.shape, v.help, v.apply, v.actor = tuple(shape), help, apply, actor
        v.pays, v.golden, v.private, v.check = pays, golden, private, check
        v.owner, v.seen = owner, seen
        return v

    def __reduce__(self) -> tuple[Any, ...]:
        return (str, (str(self),))  # a pickled action carries its verb as text

    def usage(self) -> str:
        return " ".join([self, *(f"[{s.name}]" if s.optional else s.name.upper()
                                 for s in self.shape)])


class Kind:
    """A decision kind's declaration (see the module's text), with its `name`; it compares
    equal to its name (`game.wait == "plan"`) and prints as it.

    `legal(state)` lists its actions. A chance kind (`chance=True`) is decided by chance:
    `outcomes(state)` gives each value with its probability, `sample(state)` the value the
    seeded generator picks (or the known one), `certain(state)` whether the outcome is known
    without the generator (a chance node is then no node at all), `view(state, who, value,
    viewer)` what a player sees of it, and `verb` the verb its outcome actions carry
    (`chance VERB VALUE`).
    """

    __slots__ = ("certain", "chance", "game", "help", "legal", "name", "outcomes", "sample",
                 "verb", "verbs", "view")

    def __init__(self, name: str, legal: Legal, verbs: Sequence[Verb], help: str, game: str, *,
                 chance: bool = False, outcomes: Outcomes | None = None,
                 sample: Sample | None = None, certain: Certain | None = None,
                 view: View | None = None) -> None:
        self.name, self.legal, self.verbs, self.help, self.game = (
            name, legal, tuple(verbs), help, game)
        self.chance, self.outcomes, self.sample, self.view = chance, outcomes, sample, view
        self.certain = certain
        self.verb: Verb | None = verbs[0] if chance and verbs else None

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, str) and other == self.name)

    def __hash__(self) -> int:
        return hash(self.name)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Kind({self.name!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_kind, (self.game, self.name))


def _kind(game: str, name: str) -> Kind:
    from .games import game_class

    return game_class(game).registry.kinds[name]


class Registry:
    """The verbs and kinds of one game, and its interned actions; `seats`: the most players
    its notation names (p1..p6 for the first game); `owner`: every verb's owner unless it
    declares its own (`named_player` for a game whose every decision is one player's)."""

    def __init__(self, game: str, seats: int = 6, owner: Owner | None = None) -> None:
        self.game, self.seats, self.owner = game, seats, owner
        self.verbs: dict[str, Verb] = {}
        self.kinds: dict[str, Kind] = {}
        self._intern: dict[tuple[str, int, str | int | None], Action] = {}

    # ---------------------------------------------------------------- declaring
    def verb(self, name: str, *shape: Slot, help: str, apply: Apply | None,
             **flags: Any) -> Verb:
        """Declare a verb (see `Verb`); its name must be new."""
        assert name not in self.verbs, name
        flags.setdefault("owner", self.owner)
        v = self.verbs[name] = Verb(name, shape, help, apply, **flags)
        v.registry = self
        return v

    def kind(self, name: str, legal: Legal, verbs: Sequence[Verb], help: str,
             **chance: Any) -> Kind:
        """Declare a decision kind (see `Kind`); its name must be new."""
        assert name not in self.kinds, name
        k = self.kinds[name] = Kind(name, legal, verbs, help, self.game, **chance)
        return k

    def choice(self, name: str, verb: Verb, help: str, show: Callable[[Any, Any], Any] | None
               = None) -> Kind:
        """A kind whose actions are the options its pause named: `verb pN` when the verb's
        notation names a player, `verb OPTION` otherwise (`show` writes an option)."""
        names_player = any(s.sets_player for s in verb.shape)
        act = self.act
        def listed(st: Machine, opts: tuple[Any, ...]) -> list[Action]:
            if names_player:
                return [act(verb, p) for p in opts]
            if show is None:
                return [act(verb, TEAM, o) for o in opts]
            return [act(verb, TEAM, show(st, o)) for o in opts]
        def shown(st: Machine) -> list[Action]:
            return listed(st, st.options)
        # the same options give the same actions: remembered, unless `show` (which reads the
        # state) writes them
        return self.kind(name, shown if show is not None else _remembered(listed), (verb,),
                         help)

    def chance_kind(self, name: str, verb: Verb, help: str, outcomes: Outcomes,
                    sample: Sample, certain: Certain, view: View) -> Kind:
        """A chance kind: its actions are its outcomes (`chance VERB VALUE`), the values its
        pause named; `verb` applies one (see `Kind`)."""
        act = self.act

        def listed(st: Machine, opts: tuple[Any, ...]) -> list[Action]:
            return [act(verb, CHANCE, v) for v in opts]
        return self.kind(name, _remembered(listed), (verb,), help, chance=True, outcomes=outcomes,
                         sample=sample, certain=certain, view=view)

    # ---------------------------------------------------------------- actions
    def act(self, verb: str, player: int = TEAM, arg: str | int | None = None) -> Action:
        """An interned action of this game, its verb the declared one (building a NamedTuple
        costs more than finding the one made before)."""
        key = (verb, player, arg)
        a = self._intern.get(key)
        if a is None:
            a = self._intern[key] = Action(self.verbs[verb], player, arg)
        return a

    def parse(self, text: str) -> Action:
        """Read the text notation; raise MalformedActionError saying what was expected."""
        words = text.split()
        if not words:
            raise MalformedActionError("empty action; expected a verb such as 'done'")
        head = words[0].lower()
        if head == "chance":
            return self._parse_chance(text, words[1:])
        verb = self.verbs.get(head)
        if verb is None or _is_chance_verb(self, verb):
            known = [v for v in self.verbs if not _is_chance_verb(self, self.verbs[v])]
            raise MalformedActionError(
                f"unknown verb {head!r}{closest(head, known)}; verbs are: " + ", ".join(known))
        return self._read(verb, words[1:], text, TEAM)

    def _parse_chance(self, text: str, rest: list[str]) -> Action:
        verbs = {k.verb for k in self.kinds.values() if k.verb is not None}
        if not rest or rest[0].lower() not in verbs:
            raise MalformedActionError(f"{text.strip()!r}: expected 'chance "
                                       f"{'|'.join(sorted(verbs)) or 'OUTCOME'} VALUE'")
        return self._read(self.verbs[rest[0].lower()], rest[1:], text, CHANCE)

    def _read(self, verb: Verb, rest: list[str], text: str, player: int) -> Action:
        need = [s for s in verb.shape if not s.optional]
        if not len(need) <= len(rest) <= len(verb.shape):
            usage = verb.usage() if player != CHANCE else f"chance {verb.usage()}"
            raise MalformedActionError(f"{text.strip()!r}: expected '{usage}'")
        arg: str | int | None = None
        for slot, w in zip(verb.shape, rest, strict=False):
            if slot.read is _read_player:  # a seat: this game's own number of them
                player = _read_player(w, text, self.seats)
                continue
            value = slot.read(w, text)
            if slot.sets_player:
                player = value
            else:
                arg = value
        return Action(verb, player, arg)

    def help_lines(self) -> list[tuple[str, str]]:
        """(usage, help) of every verb a player may take, in declaration order."""
        return [(v.usage(), v.help) for v in self.verbs.values()
                if not _is_chance_verb(self, v)]


CHOICES_KEPT: Final = 4096  # option lists a choice kind remembers (a bound on its memory)


def _remembered(listed: Callable[[Any, tuple[Any, ...]], list[Action]]) -> Legal:
    """The legal function of a choice whose actions depend on its options alone: each list
    made once per options and shared (the machine gives out copies, never the list)."""
    made: dict[tuple[Any, ...], list[Action]] = {}

    def legal(st: Machine) -> list[Action]:
        opts = st.options
        try:
            out = made.get(opts)
        except TypeError:  # options that do not hash: listed afresh
            return listed(st, opts)
        if out is None:
            if len(made) >= CHOICES_KEPT:
                made.clear()
            out = made[opts] = listed(st, opts)
        return out
    return legal


def _is_chance_verb(reg: Registry, verb: Verb) -> bool:
    return any(k.verb is verb for k in reg.kinds.values())
