"""`artproject play --game art-of-war`: Art of War at a terminal, hot-seat for 2-7 people at
one screen, never showing a hand to the wrong player.

Each decision is one player's. When the player to decide changes, the screen is cleared,
says whose turn it is and waits ("pass the screen to p3, then press Enter"), and clears
again before it shows anything of theirs: the table as everyone sees it (tokens, hand
sizes, the centre pile, the discard pile, the deck, the bets, face-down cards as `?` until
revealed, W19), then that player's own hand and their actions, numbered. There is no
`view` of another's hand and no `undo` (it would show what was hidden). `save FILE`,
`load FILE`, `help` and `quit` are as in the first game's terminal game; the end of the
input saves the game and quits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, Any, cast

from ...play import Session, run_session
from ..errors import ArtError
from .info import observation
from .registry import P
from .state import War

CLEAR = "\x1b[2J\x1b[H"  # a terminal's clear screen; a pipe gets blank lines instead
HELP = """commands:
  NUMBER or ACTION   take a listed action (e.g. 3, or: challenge p1 p3)
  save FILE          save the game (JSON, or TOML when FILE ends in .toml); a file this
                     session did not write is kept: save FILE --force replaces it
  load FILE          load a saved game
  help               this list
  quit               save to artproject-autosave.json (or a fresh name) and stop
(no view of another's hand and no undo: each would show what is hidden)"""


def screen(st: War, viewer: int) -> str:
    """The table as `viewer` may see it, with their own hand (W19)."""
    obs = observation(st, viewer)
    out = [f"== {st.rules.title}: turn {obs['turn']}, {obs['current']} to play"
           + (f", {obs['deciding']} deciding {obs['wait']}" if obs["deciding"] else "")]
    seats = []
    for s in P[: st.players]:
        if s in obs["alive"]:
            seats.append(f"{s}: {obs['tokens'][s]} tokens, {obs['hand_sizes'][s]} cards")
        else:
            seats.append(f"{s}: dead")
    out.append("   ".join(seats))
    out.append(f"centre pile {obs['centre']} tokens, deck {obs['deck']} cards, "
               f"{obs['out']} tokens out of the game")
    discard = ", ".join(f"{n} {k}" for k, n in obs["discard"].items()) or "(empty)"
    out.append(f"discard pile (face up): {discard}")
    t = obs["table"]
    if t is not None:
        who = f"{t['attacker']} against {t['defender']}" if t["defender"] else (
            f"{t['attacker']}'s {t['kind']} challenge")
        cards = ", ".join(f"{p} {c}" for p, c in t["cards"].items()) or "none yet"
        stakes = ", ".join(f"{p} {n}" for p, n in t["stakes"].items())
        out.append(f"on the table: {who}; bet {t['bet']}"
                   + (f", raised {t['raise']}" if t["raise"] else "")
                   + f"; stakes {stakes or 'none'}; cards {cards}")
        if t["added"]:
            out.append("  Wise Men added: " + ", ".join(f"{p} {' '.join(ks)}"
                                                        for p, ks in t["added"].items()))
    if 0 <= viewer < st.players:
        out.append(f"{P[viewer]}'s hand: " + (", ".join(obs["hand"]) or "(empty)"))
    return "\n".join(out)


class WarSession(Session):
    """One hot-seat game: the state, whose screen is up, and the wait between players."""

    def __init__(self, st: Any, write: Callable[[str], None], read: Callable[[], str],
                 tty: bool) -> None:
        super().__init__(st, write)
        self.read, self.tty = read, tty
        self.viewer = -1  # nobody's hand is on the screen yet

    def show(self) -> None:
        st = cast(War, self.st)
        who = st.current_player()
        if who >= 0 and who != self.viewer:
            # cleared before the wait too: the next player sits down to no one's hand
            self.write((CLEAR if self.tty else "") + f"-- pass the screen to {P[who]}, then "
                       "press Enter")
            self.read()
            self.write(CLEAR if self.tty else "\n" * 3)
            self.viewer = who
        self.write(screen(st, self.viewer))
        legal = [a for a in st.legal_actions() if a.player == self.viewer]
        self.write(f"-- {P[self.viewer]} decides: {st.wait}")
        for i, a in enumerate(legal, 1):
            self.write(f"  {i:3d}. {a}")

    def handle(self, line: str) -> bool:
        words = line.split()
        if words and words[0].lower() in ("view", "undo"):
            self.write(f"! no {words[0].lower()} in Art of War: it would show what is hidden")
            return True
        if words and words[0].lower() == "help":
            self.write(HELP + "\nactions:\n" + "\n".join(
                f"  {usage:<22} {text}" for usage, text in self.st.registry.help_lines()))
            return True
        return bool(super().handle(line))

    def _act(self, text: str) -> None:
        st = cast(War, self.st)
        legal = [a for a in st.legal_actions() if a.player == self.viewer]
        action = legal[int(text) - 1] if text.isdigit() and 0 < int(text) <= len(legal) else None
        if text.isdigit() and action is None:
            raise ArtError(f"no action numbered {text}; choose 1 to {len(legal)}")
        self.whole = st.clone()  # kept should the engine fail half-way (Session._unexpected)
        st.apply(action or text)
        if st.is_over():
            self.write(f"== {st.reason}")
            for s in st.standing():
                how = f", died turn {s['turn']} ({s['cause']}" + (
                    f", killed by {' '.join(s['killers'])})" if s["killers"] else ")") if (
                    s["turn"] is not None) else ""
                self.write(f"  {s['place']}. {s['player']}{how}")
        else:
            self.show()


def run(st: War, stdin: IO[str], stdout: IO[str]) -> int:
    """Play until the game ends, `quit`, or the end of the input (which saves and quits)."""
    tty = bool(getattr(stdout, "isatty", lambda: False)())
    return run_session(lambda write: WarSession(st, write, stdin.readline, tty), stdin, stdout)
