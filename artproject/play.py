"""`artproject play`: the game at a terminal, for 1-6 people at one screen.

Each decision shows what the players need (the board, the van, the track, health, the clue
chain and the viewing player's hand, only theirs) and the legal actions, numbered. Type a
number or an action in the notation; `help` lists the commands. Works with a pipe for input,
so a scripted session can drive it; the end of the input saves the game and quits.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from .core.actions import parse_player
from .core.art.state import State
from .core.errors import ArtError
from .core.files import exists, fresh_name
from .core.saves import load_game, save_game

AUTOSAVE = "artproject-autosave.json"  # or -2, -3, ...: an autosave never replaces a file
HELP = f"""commands:
  NUMBER or ACTION   take a listed action (e.g. 3, or: move p1 kyoto)
  view pN            show pN's hand (pass the screen first)
  undo               take back the last decision, unless it revealed a card or a die
  save FILE          save the game (JSON, or TOML when FILE ends in .toml); a file this
                     session did not write is kept: save FILE --force replaces it
  load FILE          load a saved game
  help               this list
  quit               save to {AUTOSAVE} (or a fresh name) and stop"""


def _card_text(st: State, card: int) -> str:
    c = st.rules.cards[card]
    t = c.text
    clues = ", ".join(st.rules.symbols[s] for s in c.clues)
    return (f"[{card}] cost {t['cost']} | agents {t['agents']} | gain {t['gain']} | "
            f"clues {clues}")


def screen(st: State, viewer: int) -> str:
    """Everything the players need for this decision, with only `viewer`'s hand face up."""
    title = f"== {st.rules.title}: round {st.round}, {st.phase}"
    out = [title + (" (final round)" if st.final_round else ""), _counters(st), _track(st)]
    out += _cities(st) + _chains(st) + _battle(st) + _hands(st, viewer)
    return "\n".join(out)


def _counters(st: State) -> str:
    van = ", ".join(f"{n} {k}" for k, n in zip(st.rules.resources, st.van, strict=True))
    health = ", ".join(f"p{i + 1} {h}" for i, h in enumerate(st.health))
    return f"van: {van}   health: {health}   headquarters: {st.hq}"


def _track(st: State) -> str:
    r = st.rules
    extra = r.p("rules.threat_by_players")[st.players - 1]  # the team's size adds it (R15)
    track = " ".join(
        (f"[{st.track[i]}]" if i < len(st.track) else f"[{sp.threat + extra}/{sp.ally_cost}"
         + (f" {sp.symbol}" if sp.symbol else "") + "]")
        for i, sp in enumerate(r.track))
    return (f"track (threat/ally cost): {track}   threat {st.threat()}, "
            f"allies {st.allies}, deck {st.deck_size()}")


def _cities(st: State) -> list[str]:
    out = []
    for c, city in enumerate(st.rules.cities):
        pawns = [("ally" if i == st.players else f"p{i + 1}") for i, p in enumerate(st.pawns)
                 if p == c]
        marks = (["LOST"] if st.lost[c] else []) + (["artwork"] if st.artwork_at(c) else [])
        out.append(f"  {city.name:<14} {city.symbol or '-':<11} agents {st.agents[c]}"
                   + (f"  pawns {' '.join(pawns)}" if pawns else "")
                   + (f"  [{', '.join(marks)}]" if marks else ""))
    return out


def _backs(st: State, cards: list[int]) -> str:
    """Cards as their clue backs show them (what every player sees)."""
    r = st.rules
    return "; ".join(", ".join(r.symbols[s] for s in r.cards[c].clues) for c in cards)


def _chains(st: State) -> list[str]:
    out = []
    for i, ch in enumerate(st.chains):
        who = "clue chain" if len(st.chains) == 1 else f"p{i + 1}'s clue chain"
        out.append(f"{who}: {_backs(st, ch) or '(empty)'}")
    return out


def _battle(st: State) -> list[str]:
    if (b := st.battle) is None:
        return []
    dice = ", ".join(f"{lab}={d}" for lab, d in zip(b.labels, b.dice, strict=True))
    return [f"battle in {st.rules.cities[b.city].name}: {dice or '(not rolled)'}; "
            f"strength {st.strength()} against {st.agent_strength(b.city)}"]


def _hands(st: State, viewer: int) -> list[str]:
    """The viewer's hand face up; the others' as their clue backs."""
    if not 0 <= viewer < st.players:
        return []
    out = [f"p{viewer + 1}'s hand:"]
    out += [f"  {_card_text(st, c)}" for c in st.hands[viewer]] or ["  (empty)"]
    out += [f"p{i + 1}'s hand (clue backs): {_backs(st, h)}"
            for i, h in enumerate(st.hands) if i != viewer and h]
    return out


class Session:
    """One terminal game: the state, the undo stack, whose hand is shown."""

    def __init__(self, st: State, write: Callable[[str], None]) -> None:
        self.st = st
        self.write = write
        self.undo_stack: list[State] = []
        self.viewer = 0
        self.written: set[Path] = set()  # files this session saved: it may save over them
        self.whole: Any = None  # the state before the decision being taken (any game's)

    def save(self, name: str, force: bool = False) -> None:
        """Save to `name`: never over a file this session did not write, unless forced."""
        path = Path(name)
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

    def show(self) -> None:
        st = self.st
        legal = st.legal_actions()
        actors = {a.player for a in legal if a.player >= 0}
        if len(actors) == 1:
            self.viewer = actors.pop()
        self.write(screen(st, self.viewer))
        self.write(f"-- decide: {st.wait}")
        for i, a in enumerate(legal, 1):
            extra = ""
            if a.verb == "play" and a.player == self.viewer:  # only the viewer's faces
                extra = "   " + _card_text(st, int(a.arg or 0)).split("] ", 1)[1]
            self.write(f"  {i:3d}. {a}{extra}")

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
        if self.whole is not None and self._torn():
            self.st = self.whole  # the decision that failed half-way is undone
        try:
            where = f"the game was saved to {self.autosave()} first"
        except Exception as save_err:  # told, not raised: the game goes on
            where = f"it could not be saved ({save_err})"
        self.write(f"! an unexpected error ({what[:200]}); {where}; please report it")

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
        if cmd == "save" and len(words) == 3 and "--force" in words[1:]:
            self.save(next(w for w in words[1:] if w != "--force"), force=True)
        elif cmd == "save" and len(words) == 2:
            self.save(words[1])
        elif cmd == "load" and len(words) == 2:
            self.st, self.undo_stack = self._loaded(words[1]), []
            self.write(f"loaded {words[1]}")
            self.show()
        elif cmd == "view" and len(words) == 2:
            p = parse_player(words[1])
            if p >= self.st.players:
                raise ArtError(f"there is no {words[1]} in this game")
            self.viewer = p
            self.write(screen(self.st, p))
        elif cmd == "undo":
            self._undo()
        else:
            self._act(text)

    def _loaded(self, name: str) -> State:
        """A save of this session's game (another game's is refused: the game goes on)."""
        st = load_game(name)
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
        prev = self.undo_stack[-1]
        if prev.rng != self.st.rng or prev.deck_size() != self.st.deck_size():
            self.write("! the last decision revealed a card or a die: it cannot be undone")
            return
        self.st = self.undo_stack.pop()
        self.write("undone")
        self.show()

    def _act(self, text: str) -> None:
        legal = self.st.legal_actions()
        action = legal[int(text) - 1] if text.isdigit() and 0 < int(text) <= len(legal) else None
        if text.isdigit() and action is None:
            raise ArtError(f"no action numbered {text}; choose 1 to {len(legal)}")
        before = self.whole = self.st.clone()
        self.st.apply(action or text)
        self.undo_stack.append(before)
        if self.st.is_over():
            self.write(f"== the team {self.st.outcome}: {self.st.reason}"
                       + (" (rulings: docs/rulings.md)" if "(R" in self.st.reason else ""))
        else:
            self.show()


def _real(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def run(st: State, stdin: IO[str], stdout: IO[str]) -> int:
    """Play until the game ends, `quit`, or the end of the input (which saves and quits)."""
    return run_session(lambda write: Session(st, write), stdin, stdout)


def run_session(make: Callable[[Callable[[str], None]], Session], stdin: IO[str],
                stdout: IO[str]) -> int:
    """Play a session (any game's: `make` opens it with the way it writes a line) until its
    game ends, `quit`, or the end of the input (which saves and quits)."""
    def write(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    s = make(write)
    s.show()
    while not s.st.is_over():
        stdout.write("> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            write(f"\nend of input: saved to {s.autosave()}")
            return 0
        if not s.handle(line):
            return 0
    return 0
