"""A game registered only by the tests that ask for it: Nim (take counters from heaps; the
last to take wins), a perfect-information game after core/kuhn/ (the walkthrough in
docs/architecture.md, "Adding a game"), named `test-nim`. No screen of its own in
artproject/web/static/js/games/, no chance node but with its coin (variant `nim-coin`).

    with registered():  # the kernel knows the game only inside
        ...
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from artproject.core import games

from .rules import GAME
from .state import Nim


@contextmanager
def registered() -> Iterator[type[Nim]]:
    """The game registered for the block (removed after, so that the other tests, which
    go through every game, see the shipped ones only)."""
    games.register_game(Nim)
    try:
        yield Nim
    finally:
        games._GAMES.pop(GAME, None)


__all__ = ["GAME", "Nim", "registered"]
