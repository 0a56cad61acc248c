"""`artproject play` at one screen (a review of the terminal game): a hand is shown only
after the screen is passed to its owner, and is cleared with the terminal's scrollback, in
The A.R.T. Project as in the hot seat of Art of War; each screen of The A.R.T. Project tells
what happened since the last, as the whole table saw it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from artproject.core.games import new_game
from artproject.play import run


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _session(game: str, typed: str, tty: bool = False, **options: object) -> str:
    out = _Terminal() if tty else io.StringIO()
    assert run(new_game(game, **options), io.StringIO(typed), out) == 0  # type: ignore[arg-type]
    return out.getvalue()


# ---------------------------------------------------------------- the scrollback
def test_a_pass_clears_the_scrollback_too(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """`\\x1b[2J` clears what a terminal shows, not its scrollback: the last player's hand
    stayed a scroll away. Each clear of the pass clears the scrollback too (`\\x1b[3J`)."""
    monkeypatch.chdir(tmp_path)
    out = _session("art-of-war", "\n3\n1\n3\n\nquit\n", tty=True, players=2, seed=5)
    passes = out.count("-- pass the screen to ")
    assert passes >= 2
    assert out.count("\x1b[2J\x1b[3J") == 2 * passes  # before the wait and after it
    assert "\x1b[2J\x1b[H" not in out  # no clear that leaves the scrollback
