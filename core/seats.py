"""Seats: a game as the players at its table see it, for search and learning libraries.

A game's decisions are the team's or a player's (the kernel's `actor`); the libraries want
seats, each with its own view and its own choices. Two seatings:

- `team`: one seat, the whole team deciding as one (the engine's bots): it sees every
  player's private facts (it hides nothing of the team from itself), takes every decision.
- `players`: a seat per player. An action a verb declares as one player's own (its
  `owner`: what the rules give that player alone to decide) is that player's seat's; every
  other action (a joint decision of the team) is taken by the game's joint seat
  (`joint_seat()`, the first player unless a game says otherwise). Where the joint seat
  must choose whose turn it is among players with their own choices, it *delegates* the
  decision (`turn pN`, a numbered action after the game's own), and that seat then
  chooses among its own actions: no seat ever sees another's own actions (they may name
  that player's private facts).

A seat sees what its players see (the game's `observation`, `information_state` and
tensors for each of its players), plus the delegations made so far, which the table sees. A
game cut at its maximum length (`max_decisions` seat decisions, delegations among them; by
default the game's `max_game_length()`) ends with its `limit_returns()`. Not run in play.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from . import checks
from .actions import CHANCE, TEAM, TERMINAL, Action
from .actions import PUBLIC as PUBLIC  # (a viewer who is no seat: read here too)
from .errors import GameError, IllegalActionError
from .outcomes import numbered
from .owners import known_of as _known
from .owners import owner as _owner
from .owners import owners as _owners
from .owners import split_of as _split_of
from .owners import split_reading as _split_reading
from .spaces import ActionSpace, action_space, ids_of
from .tensors import Layout, Segment, layout, one_hot

if TYPE_CHECKING:
    from .machine import Machine

TEAM_SEATS: Final = "team"
PLAYER_SEATS: Final = "players"
SEATINGS: Final = (TEAM_SEATS, PLAYER_SEATS)


class Seated:
    """A game and its seats (see the module's text). Ids: the game's numbered actions
    (spaces.py), then `turn pN` for each player N (`players` seating), and at a chance
    node the chance outcomes' ids."""

    __slots__ = ("_at", "_owners", "_space", "decisions", "game", "ids", "limit", "marks",
                 "seats", "steps", "team", "turn")
    game: Machine
    seats: str
    team: bool  # one seat, the whole team (`seats` is TEAM_SEATS)

    def __init__(self, game: Machine, seats: str = TEAM_SEATS,
                 max_decisions: int | None = None, like: Seated | None = None) -> None:
        """`like`: a seated game of the same rules, player count and seating, whose tables
        (numbered actions, owners) this one shares (an adapter's next game)."""
        if like is not None and like.game.derived() is game.derived() and \
                like.seats == seats and like.game.num_players() == game.num_players():
            self._again(game, like, max_decisions)
            return
        if seats not in game.SEATINGS:
            raise GameError(f"seats must be one of {', '.join(game.SEATINGS)} for the "
                            f"{game.game} game, not {seats!r}")
        self.game, self.seats, self.team = game, seats, seats == TEAM_SEATS
        self.limit = game.max_game_length() if max_decisions is None else max_decisions
        if self.limit < 1:
            raise GameError(f"max_decisions must be at least 1, not {self.limit}")
        self.turn: int | None = None  # the seat the decision was delegated to, if any
        self.marks: tuple[tuple[int, int], ...] = ()  # (decisions taken, seat) delegated to
        self.steps = 0  # seat decisions taken (delegations too: what the limit counts)
        self.decisions = 0  # the game's decisions taken
        self._at: tuple[Any, ...] | None = None  # the position's record (see `now`)
        self._space = action_space(game)  # the numbered actions (the rules' and count's)
        n = self._space.size  # the ids: the actions', then a delegation to each player
        self.ids = n if self.team else n + game.num_players()  # (num_distinct_actions())
        # the rules' owners table (owners.py `owners`), read by constant index on the hot
        # path: [0] verbs a named player owns, [1] each numbered action's owner where it
        # reads no state, [2] the joint seat when fixed, [3] what the legal lists give,
        # kept, [4] each numbered action's id by its object, [5] the numbered
        # actions themselves
        self._owners = _owners(game, self._space)

    def _again(self, game: Machine, like: Seated, max_decisions: int | None) -> None:
        """`__init__` for a game like `like`'s: its tables shared, the rest new."""
        self.game, self.seats, self.team = game, like.seats, like.team
        self.limit = game.max_game_length() if max_decisions is None else max_decisions
        if self.limit < 1:
            raise GameError(f"max_decisions must be at least 1, not {self.limit}")
        self.turn, self.marks, self.steps, self.decisions, self._at = None, (), 0, 0, None
        self._space, self.ids, self._owners = like._space, like.ids, like._owners

    # ---------------------------------------------------------------- the table
    @property
    def space(self) -> ActionSpace:  # the numbered actions (one for the rules and count)
        return self._space

    def num_seats(self) -> int:
        return 1 if self.team else self.game.num_players()

    def check_seat(self, seat: Any) -> int:
        """`seat` as an int (numpy's integers too) when it is a seat of this game (0 to
        num_seats() - 1) or PUBLIC; GameError naming it otherwise."""
        if seat.__class__ is int and 0 <= seat < self.num_seats():
            return seat  # (the usual: a seat of the game, an int: no conversion)
        n = checks.index(seat, "seat")
        if not (0 <= n < self.num_seats() or n == PUBLIC):
            raise GameError(f"seat {n!r}: not a seat of this game (0 to "
                            f"{self.num_seats() - 1}, or PUBLIC, {PUBLIC})")
        return n

    def players_of(self, seat: int) -> tuple[int, ...]:
        """The game's players a seat holds (the team seat: all; PUBLIC: no player, the
        table's view); GameError for no seat of the game."""
        seat = self.check_seat(seat)
        if seat == PUBLIC:
            return (PUBLIC,)
        return tuple(range(self.game.num_players())) if self.team else (seat,)

    def viewer(self, seat: int) -> int:
        """Whose eyes a seat's tensors are written with (TEAM: the whole team's; PUBLIC:
        no player's)."""
        return TEAM if self.team and seat != PUBLIC else seat

    def num_distinct_actions(self) -> int:
        return self.ids

    def max_chance_outcomes(self) -> int:
        return self._space.chance.size

    def max_game_length(self) -> int:
        """The most seat decisions a game takes: it is cut there."""
        return self.limit

    # ---------------------------------------------------------------- whose turn
    def truncated(self) -> bool:
        """The game was cut at its maximum length."""
        return self.steps >= self.limit and not self.game.is_terminal()

    def is_terminal(self) -> bool:
        return self.game.outcome is not None or self.steps >= self.limit

    def current(self) -> int:
        """The seat to act, CHANCE at a chance node, TERMINAL at the end."""
        r = self._at
        g = self.game
        if r is None or r[1] is not g or r[0] != len(g.history):  # (see `now`)
            r = self.now()
        cur: int = r[2]
        return cur

    def legal(self, seat: int | None = None) -> list[int]:
        """The sorted ids the seat may take now (the current one's by default; none for a
        seat that is not to act); at a chance node, the outcomes' ids."""
        r = self.now()
        cur = r[2]
        if cur == TERMINAL or (seat is not None and seat != cur):
            return []
        if cur == CHANCE:
            return ids_of(self._space.chance, self.game.legal_actions(), "chance outcomes")
        return list(r[3])

    def legal_ids(self, seat: int) -> tuple[int, ...]:
        """`legal(seat)` of a seat as the position's own tuple (no copy): `check_seat`'s."""
        r = self.now()
        if r[2] == seat and seat.__class__ is int:  # (the usual: the seat to act, an int)
            return r[3]  # type: ignore[no-any-return]  # (the record's ids: see `now`)
        return r[3] if r[2] == self.check_seat(seat) else ()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, (id, probability) of each outcome, by id (worked out once a
        position: OpenSpiel asks for them, then for their ids, then applies one)."""
        made = self.now()[4]
        got = made.get("chance outcomes")
        return list((got or self._outcomes(made))[0])

    def now(self) -> tuple[Any, ...]:
        """The position's record, worked out once a position: ([0] the history's length
        and [1] the game: which position it is; [2] the seat to act, [3] its sorted ids
        (none at a chance node or the end), [4] a dict for what an adapter makes at the
        position (its arrays), shared by a copy made there). The delegation and the seat
        decisions taken change only by `apply`, which forgets the record: the game and its
        history's length tell whether it still holds."""
        r = self._at
        g = self.game
        n = len(g.history)
        if r is not None and r[1] is g and r[0] == n:
            return r
        ids: tuple[int, ...] = ()
        if g.outcome is not None or self.steps >= self.limit:
            cur = TERMINAL
        elif g.wait is not None and g.wait.chance:
            cur = CHANCE
        else:
            cur, ids = self._work_out()
        r = self._at = (n, g, cur, ids, {})
        return r

    def _work_out(self) -> tuple[int, tuple[int, ...]]:
        st = self.game
        legal = st.legal_cache  # (read, never changed: legal_actions() would copy it)
        if legal is None:
            legal = st.legal_actions()
        owners = self._owners
        key = tuple(legal)  # (the same actions come round again: what they give is kept)
        got = owners[3].get(key)
        if got is None:
            got = _known(owners[3], key, owners, self._space.decisions)
        who, ids, splits, own = got
        if self.team:
            return 0, ids
        if who is not None:  # (one player's own actions)
            turn = self.turn
            return (who, ids) if turn is None or turn == who else (turn, ())
        lead = owners[2]
        if lead is None:  # (the game's own joint seat: asked)
            lead = st.joint_seat()
            at: Any = (self.turn, lead)
        else:
            at = self.turn
        if splits is None:  # an owner that reads the state: split each time
            return _split_reading(st, legal, self.turn, lead, self._owners[0],
                                  self._space.decisions)
        split: tuple[int, tuple[int, ...]] | None = splits.get(at)
        if split is None:  # (else the same actions split alike: kept)
            split = splits[at] = _split_of(ids, own, self.turn, lead, self._space.size)
        return split

    # ---------------------------------------------------------------- acting
    def apply(self, i: int, now: tuple[Any, ...] | None = None, seat: int | None = None) -> None:
        """Take id `i` for the seat to act (or, at a chance node, an outcome); an id out of
        range or not legal now raises IllegalActionError and changes nothing, and so does
        `seat`, the seat taking it, when another is to act; so does an id that is not a
        whole number (numpy's integers are taken as theirs). `now`: the position's record
        (`now()`), for a caller that has just read it."""
        if i.__class__ is not int:  # (numpy's integers, or no id: checked off the hot path)
            i = checks.index(i, "action", error=IllegalActionError)
        r = now
        if r is None:  # (`now`'s check without its call, as `current`)
            r = self._at
            g = self.game
            if r is None or r[1] is not g or r[0] != len(g.history):
                r = self.now()
        cur = r[2]
        if cur < 0 and (seat is None or cur == TERMINAL):  # (the end, or a chance node)
            self._apply_other(i, cur)
            return
        legal = r[3] if seat is None or seat == cur else ()
        if i not in legal:
            raise IllegalActionError(self._why(i, cur if seat is None else seat, legal))
        self.steps += 1
        self._at = None  # (another position: `now` works it out again)
        acts = self._owners[5]  # (the game's numbered actions, the space's own objects)
        if i >= len(acts):
            self.turn = i - len(acts)
            self.marks = (*self.marks, (self.decisions, self.turn))
            return
        self.game.apply(acts[i])
        self.turn = None
        self.decisions += 1

    def _apply_other(self, i: int, cur: int) -> None:
        """`apply` at the end (IllegalActionError) or at a chance node (outcome `i`)."""
        if cur == TERMINAL:
            raise IllegalActionError(f"action {i}: {self._end_text()}")
        made = self.now()[4]  # (the outcomes worked out here: OpenSpiel asked for them)
        a = (made.get("chance outcomes") or self._outcomes(made))[1].get(i)
        if a is None:
            raise IllegalActionError(f"chance outcome {i}: not an outcome now; outcomes: "
                                     f"{self.legal()}")
        self.game.apply(a)

    def _outcomes(self, made: dict[Any, Any]) -> tuple[list[tuple[int, float]],
                                                        dict[int, Action]]:
        """The chance node's outcomes by id and each id's action (outcomes.py), kept in its
        record (`made`)."""
        got = made["chance outcomes"] = numbered(self.game, self._space.chance)
        return got

    def seat_id_for(self, action: Action) -> int:
        """The id the seat to act takes toward the game's `action` (a policy's choice for the
        whole team): the action's own id when it is the seat's, else the delegation to the
        player whose own action it is; IllegalActionError when neither is legal now."""
        space, r = self._space, self.now()
        if r[2] == CHANCE:
            i = space.chance.id(action)
            if i is not None and i in self.legal():
                return i
        else:
            legal = r[3]
            i = self._owners[4].get(action)  # (the space's own objects' ids: owners.py)
            if i is None:  # (an action written another way: its verb as text)
                i = space.decisions.id(action)
            if i is not None and i in legal:
                return i
            who = _owner(self.game, action)
            if who is not None and not self.team and space.size + who in legal:
                return space.size + who
        raise IllegalActionError(f"{action}: not an action the seat to act may take now")

    def policy_id(self, policy: Callable[[Any], Action]) -> int | None:
        """The id the seat to act takes for `policy`, a policy of the whole game (the
        engine's bots): asked on the game as the seat's choices are (after a delegation to
        pN, a copy listing only pN's own actions), its answer taken by `seat_id_for`; None
        when it answers an action the seat may not take now (a policy that lists the
        actions afresh, as a search does on its copies)."""
        game = self.game
        if self.turn is not None and self.current() >= 0:
            game = game.clone()
            game.legal_cache = [a for a in self.game.legal_actions()
                                if _owner(self.game, a) == self.turn]
        try:
            return self.seat_id_for(policy(game))
        except IllegalActionError:
            return None

    def _why(self, i: int, seat: int, legal: tuple[int, ...]) -> str:
        n = self.num_distinct_actions()
        if not 0 <= i < n:
            return f"action {i}: out of range (ids are 0 to {n - 1})"
        return (f"action {i} ({self.action_text(i)}): not legal for seat {seat} now; legal: "
                f"{list(legal)[:16]}")

    def _end_text(self) -> str:  # (the game's own sentence: "the game is over (...)")
        if self.game.is_terminal():
            return self.game.over_text()
        return f"the game is over (cut at its maximum length, {self.limit} seat decisions)"

    def action_text(self, i: int, chance: bool = False) -> str:
        """An id's text: the game's notation, or `turn pN` for a delegation."""
        space = self._space
        if chance:
            if not 0 <= i < space.chance.size:
                raise GameError(f"chance outcome {i}: out of range")
            return str(space.chance.action(i))
        if 0 <= i < space.size:
            return str(space.decisions.action(i))
        if not self.team and space.size <= i < self.num_distinct_actions():
            return f"turn p{i - space.size + 1}"
        raise GameError(f"action {i}: out of range (ids are 0 to "
                        f"{self.num_distinct_actions() - 1})")

    # ---------------------------------------------------------------- the outcome
    def _per_seat(self, values: list[float]) -> list[float]:
        return [values[0] if values else 0.0] if self.seats == TEAM_SEATS else list(values)

    def returns(self) -> list[float]:
        """Each seat's return: the game's (+1 won, -1 lost), or its `limit_returns()` when
        cut at the maximum length; 0 while it goes on."""
        if self.truncated():
            return self._per_seat(self.game.limit_returns())
        return self._per_seat(self.game.returns())

    def shaped(self) -> list[float]:
        """Each seat's shaped score (the game's `shaped_score()`): its returns at the end,
        a documented estimate in between."""
        g = self.game
        if g.outcome is not None or self.steps >= self.limit:  # (is_terminal)
            return self.returns()
        values = g.shaped_score()
        return self._per_seat(values) if self.team else list(values)

    # ---------------------------------------------------------------- what a seat sees
    def observation(self, seat: int) -> dict[str, Any]:
        """What the seat sees now: each of its players' observation (without the game's
        own `legal`), the delegations, and its own legal actions."""
        seat = self.check_seat(seat)
        views = []
        for p in self.players_of(seat):
            view = dict(self.game.observation(p))
            view.pop("legal", None)
            views.append(view)
        return {"seat": seat, "views": views, "turn": self.turn,
                "legal": [self.action_text(i) for i in self.legal(seat)]
                if self.current() >= 0 else []}

    def observation_string(self, seat: int) -> str:
        return json.dumps(self.observation(seat), sort_keys=True, default=str)

    def information_state(self, seat: int) -> tuple[Any, ...]:
        """What the seat knows (hashable): its players' information states, what they see
        now, and the delegations so far and now (the table sees them). The game's
        information state is its history as each player saw it; what a player sees now is
        there too (the game's `shown`): a game may show a fact no action or chance event
        carries (private facts turned public by a rule's own step), so two states a seat
        can tell apart never share it, and what is shown stays shown (perfect recall)."""
        seat = self.check_seat(seat)
        players = self.players_of(seat)
        return (seat, tuple(self.game.information_state(p) for p in players),
                tuple(self.game.shown(p) for p in players), self.marks, self.turn)

    def information_state_string(self, seat: int) -> str:
        return repr(self.information_state(seat))

    def layout(self, kind: str) -> Layout:
        """The seat's `kind` layout: the game's, then the seat's own segments (seat, turn)."""
        return Layout(kind, (*layout(self.game, kind).segments, *self._own_layout().segments))

    def _own_layout(self) -> Layout:
        key = ("seat-tensor", self.seats, self.game.num_players())
        cache = self.game.derived()
        out = cache.get(key)
        if out is None:
            out = cache[key] = Layout("seat", (
                Segment("seat", (self.num_seats(),), "which seat this is (one-hot)",
                        _write_seat),
                Segment("turn", (self.game.num_players(),),
                        "the player the decision was delegated to (one-hot)", _write_turn)))
        assert isinstance(out, Layout)
        return out

    def tensor(self, seat: int, kind: str, raw: bool = False) -> list[float]:
        """The seat's `kind` tensor (see `layout`): the game's, written for the seat's
        players, then the seat's own segments (`_own_layout`, written here at once).
        PUBLIC: what the whole table sees. Floats; `raw=True` leaves counts and flags as
        the game keeps them (ints, bools: for numpy, which converts them at once).
        GameError for no seat of the game."""
        seat = self.check_seat(seat)
        team = self.seats == TEAM_SEATS
        out = layout(self.game, kind).tensor(self.game, TEAM if team and seat != PUBLIC
                                             else seat)
        n = self.game.num_players()
        seats = 1 if team else n
        own = [0.0] * (seats + n)
        if seat >= 0:
            own[0 if team else seat] = 1.0
        if self.turn is not None:
            own[seats + self.turn] = 1.0
        out += own
        return out if raw else [*map(float, out)]

    # ---------------------------------------------------------------- every seat at once
    def all_layout(self, kind: str) -> Layout:
        """The layout of `all_tensor`: each seat's layout in turn, its segments' names
        prefixed `pN.` (seat N + 1)."""
        key = ("all-seats-tensor", kind, self.seats, self.game.num_players())
        cache = self.game.derived()
        out = cache.get(key)
        if out is None:
            one = self.layout(kind).segments
            out = cache[key] = Layout(kind, [s._replace(name=f"p{i + 1}.{s.name}")
                                             for i in range(self.num_seats()) for s in one])
        assert isinstance(out, Layout)
        return out

    def all_tensor(self, kind: str, raw: bool = False) -> list[float]:
        """Every seat's `kind` tensor, one after the other: all the players' private facts
        and the public ones (a perfect-information view, for a critic or a state)."""
        out: list[float] = []
        for seat in range(self.num_seats()):
            out += self.tensor(seat, kind, raw)
        return out

    def all_string(self, kind: str) -> str:
        """Every seat's `kind` string (`observation` or `information_state`), as JSON."""
        read = self.observation_string if kind == "observation" else \
            self.information_state_string
        return json.dumps([read(seat) for seat in range(self.num_seats())])

    # ---------------------------------------------------------------- copies
    def clone(self) -> Seated:
        c = Seated.__new__(Seated)
        c.game, c.seats, c.team, c.limit = self.game.clone(), self.seats, self.team, self.limit
        c.turn, c.marks, c.steps, c.decisions = self.turn, self.marks, self.steps, self.decisions
        r = self._at  # the same position: the same seat, ids and arrays (`made`: what is
        # kept there is the position's alone, and each copy moving on makes its own)
        c._at = None if r is None or r[1] is not self.game else (r[0], c.game, *r[2:])
        c._space, c.ids, c._owners = self._space, self.ids, self._owners
        return c

    __copy__ = clone

    def __deepcopy__(self, memo: dict[int, Any]) -> Seated:
        return self.clone()  # what a clone shares is immutable or the rules

    def resample(self, seat: int, seed: int) -> Seated:
        """A copy the seat cannot tell from this one: what its players cannot see drawn anew
        (the game's `resample`), and a future of its own (reseeded)."""
        c = self.clone()
        c.game = self.game.resample(self.players_of(seat), seed)
        c._at = None  # (other private facts: other ids, maybe another seat to act)
        return c


# the seat's own segments are written with the Seated as the state and the seat as viewer
def _write_seat(seated: Seated, seat: int, out: list[float], at: int) -> None:
    if seat >= 0:  # (PUBLIC is no seat)
        one_hot(out, at, 0 if seated.team else seat)


def _write_turn(seated: Seated, seat: int, out: list[float], at: int) -> None:
    if seated.turn is not None:
        one_hot(out, at, seated.turn)
