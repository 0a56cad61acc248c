"""`artproject play`: any game at a terminal, for the people at one screen.

Each decision shows what the players need (the game's screen: its tools' `run` opens a
`Session` of the game's own, which draws it) and the legal actions, numbered. Type a
number or an action in the notation; `help` lists the commands. Works with a pipe for input,
so a scripted session can drive it; the end of the input saves the game and quits.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Final

from .core.actions import Action, players_named, read_player
from .core.errors import ArtError, SaveError
from .core.files import exists, fresh_name
from .core.games import game_tools
from .core.saves import command_line_words, load_game, save_game

AUTOSAVE = "artproject-autosave.json"  # or -2, -3, ...: an autosave never replaces a file
HELP = f"""commands:
  NUMBER or ACTION   take a listed action (its number, or its text as listed)
  view pN            show pN's hand, once the screen is passed to pN (press Enter)
  undo               take back the last decision, unless it revealed what chance drew
  save FILE          save the game (JSON, or TOML when FILE ends in .toml); a file this
                     session did not write is kept: save FILE --force replaces it
                     (never a device or folder); quote a name with spaces: save "a b.json"
  load FILE          load a saved game
  help               this list
  quit               save to {AUTOSAVE} (or a fresh name) and stop (so do Ctrl-D, Ctrl-C)"""


class Session:
    """One terminal game: the state, the undo stack, whose hand is shown. A game's own
    session draws its screen (`screen`), notes an action (`note`), tells what an undo may
    not take back (`revealed`) and how the game ended (`ended`)."""

    def __init__(self, st: Any, write: Callable[[str], None]) -> None:
        self.st = st
        self.write = write
        self.undo_stack: list[Any] = []
        self.viewer = 0
        self.written: set[Path] = set()  # files this session saved: it may save over them
        self.whole: Any = None  # the state before the decision being taken (any game's)
        self.stopped = False  # the session ended outside its prompt (a hot seat's pass)

    def save(self, name: str, force: bool = False) -> None:
        """Save to `name`: never over a file this session did not write, unless forced."""
        from .core.files import refuse_odd

        path = Path(name)
        refuse_odd(path)  # a device or folder: said first, --force or not (it never helps)
        mine = _real(path) in self.written
        if exists(path) and not (mine or force):
            raise ArtError(f"{name} already exists and this session did not write it; nothing "
                           f"was written (save {name} --force replaces it)")
        save_game(self.st, path, replace=mine or force)
        self.written.add(_real(path))
        self.write(f"saved to {name}")

    def autosave(self) -> str:
        """Save under a fresh name (never over an earlier game's autosave); the name."""
        path = fresh_name(AUTOSAVE)
        save_game(self.st, path, replace=False)
        return str(path)

    # ---------------------------------------------------------------- the game's own
    def screen(self, viewer: int) -> str:
        """What the players need for this decision, `viewer`'s private part face up (by
        default the game's view of it, as JSON)."""
        import json

        return json.dumps(self.st.view(viewer), indent=1)

    def note(self, action: Action) -> str:
        """What to show beside a listed action (nothing by default)."""
        return ""

    def legal(self) -> list[Action]:
        """The actions listed, numbered from 1 (by default every legal action)."""
        return list(self.st.legal_actions())

    def prompt(self) -> str:
        """What the decision is, after `-- decide:` (by default its name)."""
        return str(self.st.wait)

    def view(self, who: int) -> None:
        """`view pN`: `who`'s screen (a game whose screen is passed waits for them first)."""
        self.viewer = who
        self.write(self.screen(who))

    def revealed(self, before: Any) -> str:
        """What the last decision, from `before`, revealed of chance ("" for nothing: then
        it may be undone): by default, what the generator drew if it moved."""
        moved = getattr(before, "rng", None) != getattr(self.st, "rng", None)
        return "what chance drew" if moved else ""

    def ended(self) -> str:
        """The line that tells how the game ended."""
        return f"== {self.st.outcome}: {self.st.reason}"

    # ---------------------------------------------------------------- the session
    def show(self) -> None:
        st = self.st
        if st.is_over():  # (a finished game, loaded: how it ended, not a decision)
            self.write(self.screen(self.viewer))
            self.write(self.ended())
            return
        self.write(self.screen(self.viewer))  # (whose hand: `view`'s, never the actor's unasked)
        self.write(f"-- decide: {self.prompt()}")
        for i, a in enumerate(self.legal(), 1):
            self.write(f"  {i:3d}. {a}{self.note(a)}")

    def handle(self, line: str) -> bool:
        """Take one line of input; False when the session should end."""
        words = line.split()
        if not words:
            return True
        cmd = words[0].lower()
        if cmd == "quit":
            return self._quit()
        if cmd == "help":
            self.write(HELP + "\nactions:\n" + "\n".join(
                f"  {usage:<18} {text}" for usage, text in self.st.registry.help_lines()))
            return True
        try:
            self._command(cmd, words, line.strip())
        except ArtError as err:
            self.write(f"! {err}")
        except Exception as err:  # a bug of ours must not lose the game
            self._unexpected(err)
        return True

    def _unexpected(self, err: Exception) -> None:
        """An error the engine did not expect: the game is saved first, then told in one
        line, and play goes on from the last decision that was whole."""
        what = f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"
        self._restore_whole()  # the decision that failed half-way is undone
        try:
            where = f"the game was saved to {self.autosave()} first"
        except Exception as save_err:  # told, not raised: the game goes on
            where = f"it could not be saved ({save_err})"
        self.write(f"! an unexpected error ({what[:200]}); {where}; please report it")

    def interrupted(self) -> str:
        """Ctrl-C: autosave the game as it stood after its last whole decision (the Ctrl-C
        may come half-way through one), a second Ctrl-C held off until the file is written
        (it never leaves half a file either: saves are atomic); says where."""
        import signal
        import threading

        main = threading.current_thread() is threading.main_thread()  # signals are its alone
        before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            self._restore_whole()
            return f"saved to {self.autosave()}"
        except Exception as err:  # told, not raised: the status stays Ctrl-C's
            return f"the game could not be saved ({err})"
        finally:
            if before is not None:
                signal.signal(signal.SIGINT, before)

    def _restore_whole(self) -> None:
        """Undo a decision that failed half-way (the state its history does not make)."""
        if self.whole is not None and self._torn():
            self.st = self.whole

    def _torn(self) -> bool:
        """Whether the state is not one its own history makes (an apply that failed half-way)."""
        try:
            from .core.saves import dumps as save_text
            from .core.saves import loads

            loads(save_text(self.st), "<this game>")
        except Exception:  # any failure: not whole
            return True
        return False

    def _quit(self) -> bool:
        """Save and end; False (end the session) unless nothing could be saved."""
        try:
            self.write(f"saved to {self.autosave()}; bye")
        except ArtError as err:
            self.write(f"! {err}")
            return True  # nothing saved: the game stays open
        return False

    def _command(self, cmd: str, words: list[str], text: str) -> None:
        """save, load, view, undo, or else an action (its number or its text)."""
        if cmd == "save":
            name, force = _save_words(text)
            self.save(name, force=force)
        elif cmd == "load":
            name = _load_word(text)
            self.st, self.undo_stack = self._loaded(name), []
            self.write(f"loaded {name}")
            self.show()
        elif cmd == "view":
            if len(words) != 2:
                raise ArtError(f"view takes a player: view pN ({self._seats()})")
            self.view(self._player(words[1], text))
        elif cmd == "undo":
            self._undo()
        else:
            self._act(text)

    def _seats(self) -> str:
        """This game's players, as the notation writes them: `p1..p3` (`p1` alone)."""
        n = self.st.num_players()
        return "p1" if n == 1 else f"p1..p{n}"

    def _player(self, word: str, text: str) -> int:
        """`word` as one of this game's players (not the most any game of its kind seats):
        MalformedActionError naming this game's, as `view` and an action both say."""
        return read_player(word, text, self.st.num_players())

    def _loaded(self, name: str) -> Any:
        """A save of this session's game (another game's is refused: the game goes on)."""
        try:
            st = load_game(name)
        except SaveError as err:  # (on trust: at the command line, never at this prompt)
            raise SaveError(command_line_words(str(err), "artproject play --load FILE --trust "
                                               "loads it anyway")) from None
        if type(st) is not type(self.st) or st.game != self.st.game:
            from .core.files import shorten

            raise ArtError(f"{shorten(name)}: a save of {st.game}, not of {self.st.game} "
                           "being played here; nothing was loaded (artproject play --load "
                           f"{shorten(name, 60)} plays it)")
        return st

    def _undo(self) -> None:
        if not self.undo_stack:
            self.write("! nothing to undo")
            return
        what = self.revealed(self.undo_stack[-1])
        if what:
            self.write(f"! the last decision revealed {what}: it cannot be undone")
            return
        self.st = self.undo_stack.pop()
        self.write("undone")
        self.show()

    def chosen(self, text: str) -> Action | str:
        """The action `text` chooses: its number in the list, or its words. Words naming
        another player's action that this screen does not list are refused here, without
        asking the engine, whose reason could tell what that player holds ("card 1 is not
        in p2's hand"), and whose yes would play it."""
        legal = self.legal()
        if text.isdigit():
            if not 0 < int(text) <= len(legal):
                raise ArtError(f"no action numbered {text}; choose 1 to {len(legal)}")
            return legal[int(text) - 1]
        players_named(self.st, text)
        try:
            action: Action = self.st.registry.parse(text)
        except ArtError:
            return text  # (the engine tells what is wrong with the words)
        who = action.player
        if 0 <= who != self.viewer and action not in legal:
            raise ArtError(f"{text}: that is p{who + 1}'s to choose, on p{who + 1}'s own "
                           f"screen (view p{who + 1})")
        return action

    def _act(self, text: str) -> None:
        action = self.chosen(text)
        before = self.whole = self.st.clone()
        self.st.apply(action)
        self.undo_stack.append(before)
        if self.st.is_over():
            self.write(self.ended())
        else:
            self.show()


def _load_word(text: str) -> str:
    """`load FILE` (a name with spaces quoted, as for `save`): the file; ArtError saying what
    `load` takes otherwise."""
    names = _quoted_words(text)
    if len(names) != 1:
        raise ArtError('load takes one file name: load FILE (quote a name with spaces: '
                       'load "my game.json")')
    return names[0]


def _quoted_words(text: str) -> list[str]:
    """The words after a command, as a shell splits them (none when a quote is not closed)."""
    import shlex

    try:
        return shlex.split(text)[1:]
    except ValueError:  # a quote not closed
        return []


def _save_words(text: str) -> tuple[str, bool]:
    """`save FILE` or `save FILE --force` (a name with spaces quoted, as a shell quotes it):
    the file and whether to force; ArtError saying what `save` takes otherwise."""
    words = _quoted_words(text)
    names = [w for w in words if w != "--force"]
    if len(names) != 1 or len(words) - len(names) > 1:
        raise ArtError("save takes one file name: save FILE (save FILE --force replaces a "
                       "file this session did not write; quote a name with spaces: "
                       'save "my game.json")')
    return names[0], len(words) > 1


def _real(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def run(st: Any, stdin: IO[str], stdout: IO[str]) -> int:
    """Play any game until it ends, `quit`, or the end of the input (which saves and
    quits; so does Ctrl-C, status 130): its tools' `run`, which opens its own session."""
    return int(game_tools(st.game).run(st, stdin, stdout))


# a terminal's clear screen: the screen, then its scrollback (xterm's and those like it), so
# that a hand is not left above the next player's screen; a pipe gets blank lines instead
CLEAR: Final = "\x1b[H\x1b[2J\x1b[3J"


def run_session(make: Callable[[Callable[[str], None]], Session], stdin: IO[str],
                stdout: IO[str]) -> int:
    """Play a session (any game's: `make` opens it with the way it writes a line) until its
    game ends, `quit`, or the end of the input (which saves and quits; so does Ctrl-C, which
    returns 130, the status of a command it ended)."""
    def write(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    s = make(write)
    try:
        s.show()
        while not (s.st.is_over() or s.stopped):
            stdout.write("> ")
            stdout.flush()
            line = stdin.readline()
            if not line:
                write(f"\nend of input: saved to {s.autosave()}")
                return 0
            if not s.handle(line):
                return 0
    except KeyboardInterrupt:  # Ctrl-C: saved as the end of the input is, then status 130
        write(f"\ninterrupted: {s.interrupted()}")
        return INTERRUPTED
    return 0


INTERRUPTED: Final = 130  # the status of a command Ctrl-C ended, as the shell gives it
