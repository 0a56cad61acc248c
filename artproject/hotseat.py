"""The screen passed between the people at one terminal (`artproject play`): before a screen
shows a player's private part, it is cleared (its scrollback too), says whose it is and waits
("pass the screen to p3, then press Enter"), and is cleared again once they sit down
(`Passed`); the hot seat of games of hidden hands, where every screen is one player's
(`HotSeat`, `run_hot_seat`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import IO, Any

from .core.actions import NOBODY, Action
from .core.errors import ArtError
from .play import CLEAR, Session, _save_words, run_session


class Passed(Session):
    """A session at one screen that is passed between players: `sit(who)` clears the screen,
    says whose turn it is and waits ("pass the screen to p3, then press Enter"), and clears
    again before `who`'s screen; `hide()` takes a hand off the screen. The wait takes Enter,
    `save FILE` and `quit` (any other input is the player's own prompt's: it is refused there,
    no hand shown); the end of the input there saves and quits (`stopped`). What happened
    since a screen (the game's `told`, when it `tells`) is told before the next: since the
    last screen (`news(-1)`), or since that player last saw the game (`news(p)`)."""

    tells = False  # whether `told` says anything: the game's events are recorded for it
    # the seats a bot plays, by seat (a hot seat's, where each decision is one seat's)
    bots: Mapping[int, Callable[[Any], Action]] = {}

    def __init__(self, st: Any, write: Callable[[str], None], read: Callable[[], str],
                 tty: bool) -> None:
        super().__init__(st, write)
        self.read, self.tty = read, tty
        self.viewer = -1  # nobody's hand is on the screen yet
        self.seen: dict[int, int] = {}  # each viewer's place in the event log, last shown
        self.last = 0  # the event log's length at the last screen, whoever's it was

    def told(self, events: list[Any], viewer: int) -> list[str]:
        """The events in words as `viewer` may see them (-1: anyone); a game's own."""
        return []

    def sit(self, who: int) -> bool:
        """Pass the screen to `who`: True once they sit down (their screen may follow);
        False when the session ends at the wait (`quit`, the end of the input: saved)."""
        # cleared before the wait too: the next player sits down to no one's hand
        self.write((CLEAR if self.tty else "") + self._pass_line(who))
        if not self._sits_down(who):
            return False
        self.write(CLEAR if self.tty else "\n" * 3)
        self.viewer = who
        return True

    def hide(self) -> None:
        """Take the hand on the screen off it (the next screen shows nobody's)."""
        if self.viewer >= 0:
            self.write(CLEAR if self.tty else "\n" * 3)
        self.viewer = -1

    def watch(self) -> None:
        """Record the game's events for `told` (a game loaded or new records none yet:
        nobody has seen any of its events)."""
        if self.tells and not self.st.logging:
            self.st.logging = True
            self.seen, self.last = {}, len(self.st.log)

    def news(self, viewer: int) -> None:
        """Write what happened since `viewer` last saw the game (-1: since the last
        screen, as anyone may see it)."""
        if not self.tells:
            return
        log = self.st.log
        start = self.seen.get(viewer, 0) if viewer >= 0 else self.last
        lines = self.told(list(log[start:]), viewer)
        if viewer >= 0:
            self.seen[viewer] = len(log)
        self.last = len(log)
        if lines:
            who = "since you last saw the game" if viewer >= 0 else "what happened"
            self.write(f"-- {who}:\n" + "\n".join(f"   {line}" for line in lines))

    @staticmethod
    def _pass_line(who: int) -> str:
        return f"-- pass the screen to p{who + 1}, then press Enter"

    def _sits_down(self, who: int) -> bool:
        """Wait for Enter before `who`'s screen: True when they sit down; False when the
        session ends here (`quit`, or the end of the input: saved, no hand shown)."""
        while True:
            line = self.read()
            if not line:
                self.write(f"\nend of input: saved to {self.autosave()}")
                self.stopped = True
                return False
            words = line.split()
            if not words:
                return True
            cmd = words[0].lower()
            if cmd == "quit" and not self._quit():
                self.stopped = True
                return False
            if cmd == "save":
                self._save_here(line.strip())
            elif cmd != "quit":
                self.write(f"! {words[0]!r} is taken at p{who + 1}'s own prompt, once the "
                           "screen is passed: press Enter first (here: Enter, save FILE, "
                           "quit)")
            self.write(self._pass_line(who))

    def _save_here(self, text: str) -> None:
        try:
            name, force = _save_words(text)
            self.save(name, force=force)
        except ArtError as err:
            self.write(f"! {err}")


class HotSeat(Passed):
    """A game of hidden hands at one screen: when the player to decide changes, the screen
    is cleared, says whose turn it is and waits ("pass the screen to p3, then press Enter"),
    and clears again before it shows what happened since that player last saw the game
    (the game's `told`: only what they may know), that player's screen and their actions,
    numbered. The wait takes Enter, `save FILE` and `quit` (any other input is the player's
    own prompt's: it is refused there, no hand shown); the end of the input there saves and
    quits. No `view` of another's hand and no `undo` (each would show what was hidden). A
    game's own gives `title` (its name in messages), `to_act` (who decides now, or -1),
    `legal` (the viewer's actions, numbered from 1), `finished` (the lines that tell how it
    ended) and `told` (its events in words, as a player may see them; with none, nothing
    is told and no event is recorded)."""

    title = "this game"

    def to_act(self) -> int:
        return int(self.st.current_player())

    def legal(self) -> list[Action]:
        return [a for a in self.st.legal_actions() if a.player == self.viewer]

    def finished(self) -> list[str]:
        return [f"== {self.st.reason}"]

    def show(self) -> None:
        self.watch()
        if self.st.is_over():  # (a finished game, loaded: the table and how it ended)
            self.write(self.screen(self.viewer))
            self._end()
            return
        who = self._bots_play()
        if self.st.is_over():  # (a bot's move ended it)
            self.news(-1)
            self._end()
            return
        if who >= 0 and who != self.viewer:
            if self.st.num_players() - len(self.bots) <= 1:  # one person, the rest bots
                self.viewer = who  # (no one to pass the screen to)
            elif not self.sit(who):
                return
        self.news(self.viewer)
        self.write(self.screen(self.viewer))
        self.write(f"-- p{self.viewer + 1} decides: {self.st.wait}")
        for i, a in enumerate(self.legal(), 1):
            self.write(f"  {i:3d}. {a}")

    def _bots_play(self) -> int:
        """Each bot seat's decisions, until a person's (or the end): told as anyone's are
        (`told`), or, in a game that tells nothing, as the table saw each taken; who is to
        decide next."""
        who = self.to_act()
        while who in self.bots and not self.st.is_over():
            self.watch()
            action = self.bots[who](self.st.clone())
            self.st.apply(action)
            if not self.tells:
                self.write(f"-- p{who + 1} (bot): {self.st.action_seen(action, NOBODY)}")
            who = self.to_act()
        return who

    def handle(self, line: str) -> bool:
        words = line.split()
        if words and words[0].lower() in ("view", "undo"):
            self.write(f"! no {words[0].lower()} in {self.title}: it would show what is hidden")
            return True
        return bool(super().handle(line))

    def _act(self, text: str) -> None:
        action = self.chosen(text)
        self.watch()
        self.whole = self.st.clone()  # kept should the engine fail half-way (_unexpected)
        self.st.apply(action)
        if self.st.is_over():
            self.news(-1)
            self._end()
        else:
            self.show()

    def _end(self) -> None:
        """How the game ended (`finished`'s lines)."""
        for line in self.finished():
            self.write(line)


def run_hot_seat(make: Callable[..., Passed], st: Any, stdin: IO[str],
                 stdout: IO[str], bots: Mapping[int, str] | None = None) -> int:
    """Play a game at a screen passed between players (`make(st, write, read, tty)` opens its
    session: a hot seat's, or a game's own `Passed`) until it ends,
    `quit`, or the end of the input (which saves and quits)."""
    tty = bool(getattr(stdout, "isatty", lambda: False)())

    def session(write: Callable[[str], None]) -> Session:
        s = make(st, write, stdin.readline, tty)
        if bots:
            s.bots = seated_bots(st, bots)
        return s

    return run_session(session, stdin, stdout)


def seated_bots(st: Any, bots: Mapping[int, str]) -> dict[int, Callable[[Any], Action]]:
    """Each seat's bot, `bots` naming its policy (as `simulate --policy` and the server's
    `bot:NAME` seats name them) among the game's, seeded from the game's seed and the seat
    (as the server seeds its bots)."""
    from .policies import make_policy, policies_of

    known = policies_of(st.game)
    return {seat: make_policy(spec, int(getattr(st, "seed", 0) or 0) + seat, known)
            for seat, spec in bots.items()}


