"""The server's games: creating them, seats and their tokens, moves (checked by the engine,
stored, then announced), the bots, and rebuilding every game from the database at start.

The server holds each game's whole state; a connection is told of it only through
`frames.frame`. Every accepted move is committed to the database before anyone hears of
it, with the client's id, so a resend is applied once; a move that cannot be stored is not
applied. A move is made on a copy of the game, which becomes the game once it is stored: no
one (a welcome, the lobby, the replay viewer) sees a move that is not stored. A game's moves,
joins and leaves hold its lock from their checks until they are applied, so each is checked
against the game as the one before it left it and applied in the order they are stored: a
move of a seat given up while it waited is refused, never applied under the seat's next
holder. A game being served and its pieces (seats, connections, refusals) are live.py's.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import secrets
import sqlite3
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

from ..core.actions import Action, players_named
from ..core.errors import ArtError, GameError, MalformedActionError
from ..core.games import game_class, game_names
from ..core.hooks import NOBODY
from ..core.machine import Machine
from ..core.saves import FORMAT as SAVE_FORMAT
from ..core.saves import VERSION as SAVE_VERSION
from ..core.saves import digest, from_dict
from ..web.views import table
from .frames import frame
from .live import Conn, Live, P, Refused, Seat, last_seen, now_text, token_hash
from .options import read_options, read_seats
from .store import Op, Store

DIGEST_EVERY: Final = 16  # a move stores the game's digest every this many, and at the end
SLOW_BOTS: Final = frozenset({"ismcts"})  # bots that think in a thread, off the event loop
NAME_LIMIT: Final = 60
GAMES_LIMIT: Final = 5000  # unfinished games at once: a lobby flood fills no disk
RETRY_FIRST: Final = 0.1  # seconds before a bot's move that could not be stored is tried again
RETRY_MOST: Final = 10.0  # ...doubling each time, up to this


class Lobby:
    """Every game of the server, its database and its bots' thread."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.games: dict[str, Live] = {}
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="artproject-bot")
        self.stopping = False

    # ================================================================ the catalog
    @staticmethod
    def catalog() -> dict[str, Any]:
        from ..policies import policies_of

        out = []
        for name in game_names():
            cls = game_class(name)
            ch = cls.choices()
            out.append({"game": name, "title": cls.TITLE, "players": ch["players"],
                        "options": {k: {"values": v["values"], "default": v["default"]}
                                    for k, v in ch["options"].items()},
                        "variants": ch["variants"],
                        "bots": sorted(b for b in policies_of(name) if b != "cautious")})
        return {"games": out}

    # ================================================================ creating
    async def create(self, body: dict[str, Any]) -> Live:
        if sum(1 for g in self.games.values() if g.state.outcome is None) >= GAMES_LIMIT:
            raise Refused("too-many-games", f"{GAMES_LIMIT} games are under way: finish "
                          "some first", 503)
        name = body.get("game")
        if not isinstance(name, str) or name not in game_names():
            raise Refused("bad-game", f"game must be one of {', '.join(game_names())}")
        cls = game_class(name)
        ch = cls.choices()
        seats = read_seats(body.get("seats"), ch["players"], name)
        options, create, variants = read_options(ch, body)
        title = body.get("name", "")
        if not isinstance(title, str) or len(title) > NAME_LIMIT:
            raise Refused("bad-option", f"name must be text of at most {NAME_LIMIT} characters")
        try:
            st = cls.create(players=len(seats), seed=secrets.randbits(63),
                            variants=tuple(variants), **create)
        except ArtError as err:
            raise Refused("bad-option", str(err)) from None
        gid = secrets.token_urlsafe(8)
        live = Live(gid, st, title, seats, secrets.randbits(62), "waiting", now_text(), options)
        if not live.open_seats():
            live.status = "playing"
        header = {"options": options, "save": st.save_header(None)}
        ops: list[Op] = [("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, NULL, '', ?, ?)",
                (gid, name, title, json.dumps(header), live.bot_seed, live.status,
                 live.created, digest(st)))]
        ops += [("INSERT INTO seats (game, seat, kind, bot, name) VALUES (?, ?, ?, ?, ?)",
                 (gid, s.index, s.kind, s.bot, s.name)) for s in seats]
        await self._write(ops, "the game could not be stored")
        self.games[gid] = live
        self._policies(live)
        self.poke(live)
        return live

    def _policies(self, live: Live) -> None:
        from ..policies import make_policy, policies_of

        known = policies_of(live.state.game)
        for s in live.seats:
            if s.kind == "bot":
                s.policy = make_policy(s.bot, live.bot_seed + s.index, known)

    # ================================================================ seats
    def get(self, gid: str) -> Live:
        live = self.games.get(gid)
        if live is None:
            raise Refused("no-such-game", f"no game {gid[:40]!r}", 404)
        return live

    async def join(self, live: Live, body: dict[str, Any]) -> tuple[Seat, str]:
        name = body.get("name", "")
        if not isinstance(name, str) or len(name) > NAME_LIMIT:
            raise Refused("bad-message", f"name must be text of at most {NAME_LIMIT} characters")
        async with live.lock:  # after the move, join or leave being stored: the game it made
            seat = self._joinable(live, body.get("seat"))
            token = secrets.token_urlsafe(24)
            hashed = token_hash(token)
            starts = live.status == "waiting" and len(live.open_seats()) == 1
            ops: list[Op] = [("UPDATE seats SET token = ?, name = ?, holder = ? WHERE game = ? "
                              "AND seat = ?", (hashed, name, seat.holder + 1, live.id,
                                               seat.index))]
            if starts:
                ops.append(("UPDATE games SET status = 'playing' WHERE id = ?", (live.id,)))
            seat.claimed = True  # while it is stored the lobby lists it as no one's to take
            try:
                await self._write(ops, "the seat could not be stored")
            finally:
                seat.claimed = False
            seat.token, seat.name, seat.holder = hashed, name, seat.holder + 1
            if starts:
                live.status = "playing"
                self.announce(live)
            self.seats_changed(live)
        if starts:
            self.poke(live)
        return seat, token

    @staticmethod
    def _joinable(live: Live, want: Any) -> Seat:
        """The seat a join asks for (`want`, or the first open one), if it may be taken now;
        Refused saying why not."""
        if live.state.outcome is not None:
            raise Refused("game-over", "the game is over", 409)
        if want is None:
            free = live.open_seats()
            if not free:
                raise Refused("seat-taken", "no open seat in this game", 409)
            return free[0]
        index = P.index(want) if want in P[: len(live.seats)] else -1
        if index < 0:
            raise Refused("no-such-seat", f"seat must be one of "
                          f"{', '.join(P[: len(live.seats)])}", 404)
        seat = live.seats[index]
        if seat.kind != "person":
            raise Refused("not-a-person-seat", f"{want} is a bot's seat", 409)
        if seat.token is not None or seat.claimed:
            raise Refused("seat-taken", f"{want} is taken", 409)
        return seat

    def seat_of_token(self, live: Live, token: Any) -> Seat | None:
        """The seat a token holds, compared in constant time with every seat's."""
        if not isinstance(token, str) or not 0 < len(token) <= 200:
            return None
        hashed = token_hash(token)
        found = None
        for s in live.seats:
            if s.token is not None and hmac.compare_digest(s.token, hashed):
                found = s
        return found

    async def leave(self, live: Live, token: Any) -> Seat:
        """Give up `token`'s seat, after the move being stored (its ack goes out before the
        seat's connections close); the seat's moves waiting behind it are refused."""
        async with live.lock:
            seat = self.seat_of_token(live, token)
            if seat is None:
                raise Refused("bad-token", "that token holds no seat of this game", 403)
            await self._write([("UPDATE seats SET token = NULL WHERE game = ? AND seat = ?",
                                (live.id, seat.index))], "the seat could not be given up")
            seat.token = None
            for c in list(seat.conns):
                c.close(1001)
            self.seats_changed(live)
        return seat

    async def _write(self, ops: list[Op], what: str) -> None:
        """`ops` stored; Refused 503 `storage` (nothing stored) if the database cannot."""
        try:
            await self.store.write(ops)
        except sqlite3.Error:
            raise Refused("storage", f"{what}: the database is busy or failing; nothing "
                          "changed, try again", 503) from None

    # ================================================================ moves
    async def move(self, live: Live, seat: int, text: str, client: str | None,
                   version: int | None, stored: Callable[[int], None] | None = None,
                   holder: int | None = None) -> tuple[int, bool]:
        """Apply `seat`'s move (stored, then announced): (the version it made, whether it was
        a resend already applied); Refused with the reason, the game unchanged. `stored(n)`
        is called once it is stored, before it is announced. A person's move is its seat
        `holder`'s (whom its connection said hello as): refused `left` unless that one holds
        the seat still. A client's ids are its seat holder's: the next starts afresh."""
        async with live.lock:
            if holder is not None and not _holds(live, seat, holder):
                raise Refused("left", "this connection's seat was given up (left) before "
                              "the move could be applied, so it was not", 409)
            key = _client_key(live, seat, client, holder)
            if key is not None and key in live.clients:
                return live.clients[key], True
            self._may_move(live, seat)
            action = self._checked(live, seat, text, version)
            st = live.state.clone()  # the game until it is stored: seen by no one
            st.apply(action)
            n = len(st.history)
            mark = digest(st) if n % DIGEST_EVERY == 0 or st.outcome is not None else None
            ops: list[Op] = [("INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                              (live.id, n, seat, str(action), client, now_text(), mark,
                               key[1] if key is not None else None))]
            if st.outcome is not None:
                ops.append(("UPDATE games SET status = 'over', outcome = ?, reason = ? "
                            "WHERE id = ?", (str(st.outcome), st.reason, live.id)))
            try:
                await self.store.write(ops)
            except sqlite3.Error:  # not stored: not applied, and no one saw it
                raise Refused("storage", "the move could not be stored, so it was not "
                              "applied; send it again") from None
            live.state = st
            live.decided(seat)
            if st.outcome is not None:
                live.status = "over"
            if key is not None:
                live.clients[key] = n
            live.last = seat, action
            if stored is not None:
                stored(n)
            self.announce(live)
        self.poke(live)
        return n, False

    @staticmethod
    def _may_move(live: Live, seat: int) -> None:
        if seat == NOBODY:
            raise Refused("spectator", "a spectator cannot move")
        if live.state.outcome is not None:
            raise Refused("game-over", live.state.over_text())
        if live.status == "waiting":
            raise Refused("not-started", "the game has not started: waiting for "
                          + ", ".join(P[s.index] for s in live.open_seats()))

    @staticmethod
    def _checked(live: Live, seat: int, text: str, version: int | None) -> Action:
        """The action `text` names, if `seat` may take it now, chosen at `version` (Refused
        otherwise, saying why, naming nothing the seat may not see)."""
        st = live.state
        try:
            players_named(st, text)
            action = st.registry.parse(text)
        except MalformedActionError as err:
            raise Refused("malformed", str(err)) from None
        try:
            whose = st.seat_of(action)
        except ArtError as err:
            raise Refused("illegal", str(err)) from None
        if not 0 <= whose < st.num_players():
            raise Refused("illegal", f"{action}: there is no such player in this game")
        if whose != seat:  # asked before the engine: its reasons may name that seat's cards
            raise Refused("foreign", f"{action}: that is {P[whose]}'s to decide, not "
                          f"{P[seat]}'s")
        why = live.stale(seat, version, action) if version is not None else None
        if why is not None:  # (the seat's own decision: nothing of another seat's is said)
            raise Refused("stale", f"{text[:60]}: chosen at version {version}, but {why}")
        mine = st.seat_actions(seat)
        if action in mine:
            return action
        reason = st.why_illegal(action)
        for cut in ("; allowed:", " and may:"):
            if cut in reason:  # the engine lists every seat's actions: list the seat's own
                same = [str(a) for a in mine if a.verb == action.verb] or [str(a) for a in mine]
                reason = reason[: reason.index(cut)] + (
                    "; you may: " + ", ".join(same[:12]) if same else "; nothing is yours "
                    "to decide now")
        raise Refused("illegal", reason)

    # ================================================================ telling
    def announce(self, live: Live) -> None:
        """Each connection's frame of the game as it is now."""
        status = live.status
        for c in live.conns():
            f, c.sent = frame(live.state, c.seat, c.sent)
            c.put({"type": "state", "status": status, "last": last_seen(live, c.seat), **f})

    def welcome(self, live: Live, conn: Conn) -> dict[str, Any]:
        f, conn.sent = frame(live.state, conn.seat, (0, 0, 0))
        return {"type": "welcome", "game": live.id,
                "seat": P[conn.seat] if conn.seat != NOBODY else None,
                "status": live.status, "seats": [s.summary() for s in live.seats],
                "table": table(live.state), "last": last_seen(live, conn.seat), **f}

    def seats_changed(self, live: Live, but: Conn | None = None) -> None:
        """Every connection told the seats as they are now (but `but`: one just welcomed,
        whose welcome holds them)."""
        msg = {"type": "seats", "seats": [s.summary() for s in live.seats]}
        for c in live.conns():
            if c is not but:
                c.put(msg)

    # ================================================================ bots
    def poke(self, live: Live) -> None:
        """Let the bots look at the game (after any change)."""
        if self.stopping or live.status != "playing" or live.state.outcome is not None:
            return
        if not any(s.kind == "bot" for s in live.seats):
            return
        if live.bots is None or live.bots.done():
            live.bots = asyncio.get_running_loop().create_task(self._bots_safely(live))

    async def _bots_safely(self, live: Live) -> None:
        try:
            await self._bots(live)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # a bot's failure stops its game's bots, no one else
            print(f"artproject serve: game {live.id}: a bot failed: "
                  f"{type(err).__name__}: {err}", file=sys.stderr, flush=True)

    async def _bots(self, live: Live) -> None:
        """Bots' moves until none of them has one: each bot seat with a decision asks its bot;
        a move that is a bot seat's is played like anyone's (a team bot's choice that is a
        person's decision waits for that person)."""
        loop = asyncio.get_running_loop()
        while not self.stopping and live.state.outcome is None:
            st = live.state
            version = len(st.history)
            chosen = None
            for s in live.seats:
                if s.kind != "bot" or s.policy is None or not st.seat_actions(s.index):
                    continue
                copy = st.clone()
                if s.bot.partition(":")[0] in SLOW_BOTS:
                    action = await loop.run_in_executor(self.pool, s.policy, copy)
                else:
                    action = s.policy(copy)
                if len(live.state.history) != version:
                    break  # someone moved while it thought: look again
                who = st.seat_of(action)
                if live.seats[who].kind == "bot":
                    chosen = (who, action)
                    break
            if len(live.state.history) != version:
                continue
            if chosen is None or not await self._bot_move(live, *chosen, version):
                return
            await asyncio.sleep(0)  # let the announcement go out before the next

    async def _bot_move(self, live: Live, seat: int, action: Action, version: int) -> bool:
        """Play a bot's move: True once it is stored or overtaken by another (stale); a move
        the database could not store is tried again, waiting longer each time (up to
        RETRY_MOST seconds); False (said in the log) if it is refused otherwise."""
        wait = RETRY_FIRST
        while True:
            try:
                await self.move(live, seat, str(action), None, version)
                return True
            except Refused as err:
                if err.code == "stale":
                    return True
                if err.code != "storage":  # a bot's move refused: say so, play no further
                    print(f"artproject serve: game {live.id}: bot {P[seat]}: "
                          f"{err.message}", file=sys.stderr, flush=True)
                    return False
                if wait == RETRY_FIRST:
                    print(f"artproject serve: game {live.id}: bot {P[seat]}: its move could "
                          "not be stored; trying again", file=sys.stderr, flush=True)
            await asyncio.sleep(wait)
            if self.stopping:
                return False
            wait = min(wait * 2, RETRY_MOST)

    # ================================================================ at start
    def load(self) -> int:
        """Rebuild every game from the database: its moves replayed through the engine's save
        machinery with its digest checked. GameError naming the game that cannot be."""
        rows = self.store.rows("SELECT id, game, name, header, bot_seed, status, created, "
                               "digest FROM games ORDER BY created, id")
        for gid, game, name, header, bot_seed, status, created, start in rows:
            head = json.loads(header)
            moves = self.store.rows("SELECT seat, action, client, digest, holder FROM moves "
                                    "WHERE game = ? ORDER BY n", (gid,))
            st = _rebuilt(gid, game, head["save"], start, moves)
            seats = [Seat(i, kind, bot, sname, token, holder)
                     for i, kind, bot, sname, token, holder in
                     self.store.rows("SELECT seat, kind, bot, name, token, holder FROM seats "
                                     "WHERE game = ? ORDER BY seat", (gid,))]
            live = Live(gid, st, name, seats, bot_seed, status, created, head["options"])
            for n, (seat, action, client, _, holder) in enumerate(moves, start=1):
                if client is not None:
                    live.clients[seat, holder, client] = n
                live.last = seat, st.registry.parse(action)
            self.games[gid] = live
            self._policies(live)
        return len(rows)

    def start_bots(self) -> None:
        for live in self.games.values():
            self.poke(live)

    async def stop(self) -> None:
        self.stopping = True
        for live in self.games.values():
            if live.bots is not None:
                live.bots.cancel()
            for c in live.conns():
                c.close(1001)
        self.pool.shutdown(wait=False, cancel_futures=True)


def _holds(live: Live, seat: int, holder: int) -> bool:
    """Whether the seat's `holder`-th holder holds it still (has not left it)."""
    return (0 <= seat < len(live.seats) and live.seats[seat].token is not None
            and live.seats[seat].holder == holder)


def _client_key(live: Live, seat: int, client: str | None, holder: int | None,
                ) -> tuple[int, int, str] | None:
    """A move id's key among the game's applied moves: the seat, its holder (the count of
    those who have joined it: `holder`, else the present one), the id; None without an id or
    a seat."""
    if client is None or not 0 <= seat < len(live.seats):
        return None
    return seat, live.seats[seat].holder if holder is None else holder, client


def _rebuilt(gid: str, game: str, save: dict[str, Any], start: str,
             moves: list[tuple[Any, ...]]) -> Machine:
    """A stored game rebuilt: replayed as a save (core/saves.py) up to its last move that
    stored a digest, the digest checked, then its later moves applied (each checked legal)."""
    marked = max((i + 1 for i, m in enumerate(moves) if m[3] is not None), default=0)
    doc = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": game, **save,
           "actions": [m[1] for m in moves[:marked]],
           "digest": moves[marked - 1][3] if marked else start}
    try:
        st: Machine = from_dict(doc, f"game {gid}")
        for i, m in enumerate(moves[marked:], start=marked + 1):
            try:
                st.apply(st.registry.parse(m[1]))
            except GameError as err:
                raise GameError(f"game {gid}: move {i} ({m[1][:60]!r}) does not replay: "
                                f"{err}") from None
    except ArtError as err:
        raise GameError(f"the database's {err}") from None
    return st
