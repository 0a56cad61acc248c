"""`artproject play` at its prompt: Ctrl-C saves the game as the end of the input does, `view`
and `load` alone say what they take, and a player is one of this game's, not of the most
its kind seats (review of the play command)."""

from __future__ import annotations

import io
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from artproject import load_game
from artproject.core.games import new_game
from artproject.play import Session, run

ROOT = Path(__file__).resolve().parent.parent

# each game's command line, and what to type for one decision at its first prompt (a
# hot-seat game waits for Enter before each player's screen)
GAMES = {
    "art-project": (["--mission", "japan", "--players", "2"], "1\n"),
    "art-of-war": (["--game", "art-of-war", "--players", "3"], "\n1\n\n"),
    "kuhn": (["--game", "kuhn"], "\n1\n\n"),
}


def _play(game: str, typed: str) -> str:
    """A session of `game` (2 players, seed 4, 3 for Art of War) run to the end of `typed`, in
    the current folder."""
    options = {"art-project": {"mission": "japan", "players": 2},
               "art-of-war": {"players": 3}, "kuhn": {}}[game]
    out = io.StringIO()
    assert run(new_game(game, seed=4, **options), io.StringIO(typed), out) == 0
    return out.getvalue()


def _until_prompts(p: subprocess.Popen[bytes], count: int) -> bytes:
    """Read `p`'s output until it has shown `count` prompts (and waits at the last)."""
    assert p.stdout is not None
    seen, deadline = b"", time.monotonic() + 60  # a loaded machine starts slowly
    while seen.count(b"\n> ") < count:
        assert time.monotonic() < deadline and p.poll() is None, seen[-2000:]
        if select.select([p.stdout], [], [], 0.5)[0]:
            seen += os.read(p.stdout.fileno(), 65536)
    return seen


# ---------------------------------------------------------------- Ctrl-C
@pytest.mark.parametrize("game", sorted(GAMES))
def test_ctrl_c_at_the_prompt_saves_the_game_and_exits_130(tmp_path: Path, game: str) -> None:
    """Ctrl-C lost the game (`artproject: interrupted`, nothing written); it saves as the end
    of the input does, says where, and the status stays Ctrl-C's."""
    args, typed = GAMES[game]
    (tmp_path / "artproject-autosave.json").write_text("an earlier game's\n")
    # its own session: a SIGINT to its process group reaches no one else (not pytest)
    p = subprocess.Popen([sys.executable, "-m", "artproject", "play", *args, "--seed", "4"],
                         cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert p.stdin is not None
        p.stdin.write(typed.encode())
        p.stdin.flush()  # (kept open: the game waits at its prompt for more)
        _until_prompts(p, 2)  # one decision taken, waiting for the next
        os.killpg(p.pid, signal.SIGINT)  # Ctrl-C at a terminal: the foreground group
        status = p.wait(timeout=30)
        out, err = p.communicate()
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert status == 130, err
    assert out.decode().endswith("\ninterrupted: saved to artproject-autosave-2.json\n")
    assert err == b""  # one line, on stdout as the end of the input's, no traceback
    assert (tmp_path / "artproject-autosave.json").read_text() == "an earlier game's\n"
    saved = load_game(tmp_path / "artproject-autosave-2.json")
    assert saved.game == game and len(saved.history) >= 1  # the decision taken is kept


def _run_to_ctrl_c(st: Any, first: str = "") -> str:
    """Play `st` with `first` typed, then Ctrl-C: status 130 (never the KeyboardInterrupt,
    which would stop pytest itself); the output."""
    out = io.StringIO()
    try:
        status = run(st, _CtrlC(first), out)  # type: ignore[arg-type]
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C got out of the session: " + out.getvalue()[-300:])
    assert status == 130
    return out.getvalue()


class _CtrlC:
    """Input that is one line (`first`), then Ctrl-C at the prompt."""

    def __init__(self, first: str = "") -> None:
        self.lines = [first] if first else []

    def readline(self) -> str:
        if self.lines:
            return self.lines.pop()
        raise KeyboardInterrupt


def test_a_second_ctrl_c_while_saving_waits_for_the_save(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C pressed again during the autosave neither stops it nor leaves half a file."""
    monkeypatch.chdir(tmp_path)
    save = Session.autosave

    def pressed_again(self: Session) -> str:
        os.kill(os.getpid(), signal.SIGINT)  # delivered now, in the middle of the save
        return save(self)

    monkeypatch.setattr(Session, "autosave", pressed_again)
    out = _run_to_ctrl_c(new_game("art-project", mission="japan", players=2, seed=4))
    assert out.endswith("\ninterrupted: saved to artproject-autosave.json\n")
    assert load_game(tmp_path / "artproject-autosave.json").game == "art-project"
    assert [f.name for f in tmp_path.iterdir()] == ["artproject-autosave.json"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # as it was


def test_a_ctrl_c_half_way_through_a_decision_saves_the_game_before_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C inside the engine's apply leaves a state its history does not make: the save
    is of the game after its last whole decision, which loads."""
    monkeypatch.chdir(tmp_path)
    st = new_game("art-project", mission="japan", players=2, seed=4)
    apply = type(st).apply

    def torn(self: Any, action: Any) -> None:
        apply(self, action)
        if self is st:  # the game played (not a replay of it while saving)
            self.hq += 3  # half-way: changed, then Ctrl-C
            raise KeyboardInterrupt

    hq = st.hq
    monkeypatch.setattr(type(st), "apply", torn)
    out = _run_to_ctrl_c(st, "1\n")
    monkeypatch.undo()
    assert "interrupted: saved to artproject-autosave.json" in out
    saved = load_game(tmp_path / "artproject-autosave.json")
    assert saved.history == [] and saved.hq == hq


# ---------------------------------------------------------------- view and load alone
@pytest.mark.parametrize("game", sorted(GAMES))
def test_load_alone_says_what_it_takes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       game: str) -> None:
    """`load` alone was read as an action (`unknown verb 'load'`)."""
    monkeypatch.chdir(tmp_path)
    out = _play(game, "\nload\nquit\n" if game != "art-project" else "load\nquit\n")
    assert "! load takes one file name: load FILE" in out
    assert "unknown verb" not in out


def test_view_alone_says_what_it_takes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`view` alone (or with two players) was read as an action (`unknown verb 'view'`)."""
    monkeypatch.chdir(tmp_path)
    out = _play("art-project", "view\nview p1 p2\nquit\n")
    assert out.count("! view takes a player: view pN (p1..p2)") == 2
    assert "unknown verb" not in out


def test_load_takes_a_quoted_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`load "a b.json"`, as `save` writes it."""
    monkeypatch.chdir(tmp_path)
    out = _play("art-project", 'save "a b.json"\nload "a b.json"\nquit\n')
    assert "saved to a b.json" in out and "loaded a b.json" in out


# ---------------------------------------------------------------- this game's players
def test_view_names_this_games_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a 2-player game `view p9` said `expected p1..p6` and `view p3` another message:
    both now name this game's players."""
    monkeypatch.chdir(tmp_path)
    out = _play("art-project", "view p9\nview p3\nview p2\n\nquit\n")
    assert "! 'view p9': 'p9' is not a player; expected p1..p2" in out
    assert "! 'view p3': 'p3' is not a player; expected p1..p2" in out
    assert "p2's hand:" in out


@pytest.mark.parametrize(("game", "typed", "seats"), [
    ("art-project", "draw p9 x\nmove p3 kyoto\n", "p1..p2"),
    ("art-of-war", "\ndraw p9\ndraw p4\n", "p1..p3"),
    ("kuhn", "\nbet p9\nbet p3\n", "p1..p2"),
])
def test_an_action_names_this_games_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            game: str, typed: str, seats: str) -> None:
    """An action naming a player past this game's said the most its kind seats (p1..p7)."""
    monkeypatch.chdir(tmp_path)
    out = _play(game, typed + "quit\n")
    for line in typed.split("\n"):
        if line:
            word = line.split()[1]
            assert f"! {line!r}: {word!r} is not a player; expected {seats}" in out


def test_a_solo_game_has_one_player(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A solo game names its one player (not `p1..p1`)."""
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    st = new_game("art-project", mission="japan", players=1, seed=4)
    run(st, io.StringIO("view p2\nview\nquit\n"), out)
    assert "'p2' is not a player; expected p1\n" in out.getvalue()
    assert "view takes a player: view pN (p1)" in out.getvalue()
