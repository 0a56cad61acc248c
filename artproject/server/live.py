"""A game being served and its pieces: its seats (a person's, with the hash of its token, or
a bot's), its connections and their queues of frames, the last move as each seat saw it, what
each seat's decision has been since when (what makes a move stale), and the refusal a request
or message gets (docs/server.md's codes). The lobby (lobby.py) holds every game."""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable
from typing import Any, Final

from ..core.actions import Action
from ..core.machine import Machine
from .frames import Seen

QUEUE_LIMIT: Final = 512  # frames waiting for a slow connection before it is closed
P: Final = tuple(f"p{i + 1}" for i in range(9))


class Refused(Exception):
    """A request or message refused: `code` (docs/server.md's table), `message`, the HTTP
    status a lobby request answers with."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def now_text() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Conn:
    """One WebSocket connection's place in a game: its seat (NOBODY: a spectator) and the
    seat's holder it said hello as (its moves are that holder's; None: a spectator), the
    events it has been sent, and its queue of frames (sent in order by its own task)."""

    def __init__(self, seat: int, holder: int | None = None) -> None:
        self.seat, self.holder = seat, holder
        self.sent: Seen = (0, 0, 0)  # its place in the seat's events (frames.frame)
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1000

    def put(self, msg: dict[str, Any] | None) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:  # a client that does not read: let it go
            self.close(1008)
            return
        self.queue.put_nowait(msg)

    def close(self, code: int) -> None:
        if not self.closed:
            self.closed, self.close_code = True, code
            self.queue.put_nowait(None)


class Seat:
    """A seat: a person's (with the hash of its token, when taken, and how many people have
    taken it: `holder`, the current one's number; `claimed` while a join is being stored) or
    a bot's."""

    def __init__(self, index: int, kind: str, bot: str = "", name: str = "",
                 token: str | None = None, holder: int = 0) -> None:
        self.index, self.kind, self.bot, self.name, self.token = index, kind, bot, name, token
        self.holder, self.claimed = holder, False
        self.conns: set[Conn] = set()
        self.policy: Callable[[Machine], Action] | None = None

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": P[self.index], "kind": self.kind, "name": self.name,
                               "taken": self.kind == "bot" or self.token is not None,
                               "connected": self.kind == "bot" or bool(self.conns)}
        if self.kind == "bot":
            out["bot"] = self.bot
        return out


def last_seen(live: Live, seat: int) -> dict[str, str] | None:
    """The last move as `seat` saw it (a card laid face down stays down for the others: the
    game's `action_seen`, as in the seat's events), or None before the first."""
    if live.last is None:
        return None
    whose, action = live.last
    return {"seat": P[whose], "action": live.state.action_seen(action, seat)}


class Live:
    """A game being served: its state (the server's alone), seats, connections, the ids of
    the moves applied, each seat's decision (`offered`: its actions now; `since`: the version
    its decision stands from; `opened`: its actions then), and a lock that keeps its moves,
    joins and leaves in order (each checked, stored and applied while it holds it)."""

    def __init__(self, gid: str, state: Machine, name: str, seats: list[Seat], bot_seed: int,
                 status: str, created: str, options: dict[str, Any]) -> None:
        self.id, self.state, self.name, self.seats = gid, state, name, seats
        self.bot_seed, self.status, self.created, self.options = bot_seed, status, created, options
        self.spectators: set[Conn] = set()
        self.clients: dict[tuple[int, int, str], int] = {}  # (seat, holder, id) -> version
        self.lock = asyncio.Lock()
        self.last: tuple[int, Action] | None = None  # the last move: its seat and action
        self.bots: asyncio.Task[None] | None = None
        n = len(state.history)  # (a game rebuilt at start: a move chosen before is stale)
        self.offered = [frozenset(state.seat_actions(s.index)) for s in seats]
        self.opened = list(self.offered)
        self.since = [n] * len(seats)

    def decided(self, mover: int) -> None:
        """Note each seat's decision after a move of `mover`'s (the state's newest). A seat's
        decision stands from the version since which it has not moved and its actions have
        only narrowed: another seat's move may close some of them (the first card played
        ends every player's planning draws, R6) but cannot take its decision (each action is
        one seat's, `seat_of`). Its own move (which took it), no action left, or an action
        it did not have (a new decision) makes it a new one, from this version."""
        st = self.state
        n = len(st.history)
        for s in range(len(self.seats)):
            now = frozenset(st.seat_actions(s))
            if s == mover or not now or not now <= self.offered[s]:
                self.since[s], self.opened[s] = n, now
            self.offered[s] = now

    def stale(self, seat: int, version: int, action: Action) -> str | None:
        """Why `seat`'s `action`, chosen at `version`, answers a decision no longer pending
        (docs/server.md, "stale"), said after "chosen at version N, but"; None when it
        answers the one pending (or was never one of the seat's actions: the engine then
        says why it is illegal)."""
        now = len(self.state.history)
        if version == now:
            return None
        if version > now:
            return f"the game is at version {now}: there is no version {version} yet"
        if version < self.since[seat]:
            return (f"your decision was taken or changed at version {self.since[seat]} (the "
                    f"game is at version {now}): that decision was already taken")
        if action not in self.offered[seat] and action in self.opened[seat]:
            return (f"a move since closed that choice (the game is at version {now}): that "
                    "decision has changed")
        return None

    def conns(self) -> list[Conn]:
        return [c for s in self.seats for c in s.conns] + list(self.spectators)

    def summary(self) -> dict[str, Any]:
        st = self.state
        return {"id": self.id, "game": st.game, "title": st.TITLE, "name": self.name,
                **self.options, "players": len(self.seats), "status": self.status,
                "moves": len(st.history), "created": self.created,
                "seats": [s.summary() for s in self.seats],
                "outcome": st.outcome, "reason": st.reason}

    def open_seats(self) -> list[Seat]:
        return [s for s in self.seats if s.kind == "person" and s.token is None
                and not s.claimed]
