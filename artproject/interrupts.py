"""Ctrl-C where the code chooses, and never lost: a sweep's workers ignore it and leave it
to the parent, which holds it (notes it) wherever raising it could break a lock, a pool or
a cluster's callback, and acts on it between steps.

A process started with SIGINT ignored (`nohup`, a script's `command &`) keeps ignoring it,
as Python itself does.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any


def ignore_sigint() -> None:
    """A worker's first step: Ctrl-C reaches every process of the terminal's group, and the
    workers leave it to the parent, which stops them, so that none prints a traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def sigint_deferred() -> Iterator[list[int]]:
    """While inside, a SIGINT is only noted (in the list given): the code decides where the
    KeyboardInterrupt is raised, never in the middle of a lock that a pool's thread needs,
    and never in a worker forked meanwhile. Outside the main thread: nothing (signals reach
    only the main thread)."""
    import signal
    import threading

    came: list[int] = []
    if threading.current_thread() is not threading.main_thread() or _ignored():
        yield came
        return
    old = signal.signal(signal.SIGINT, lambda *_: came.append(1))
    try:
        yield came
    finally:
        signal.signal(signal.SIGINT, old)


def _ignored() -> bool:
    """Whether this process was started with SIGINT ignored (a background job of a script,
    `nohup`): the holds above then leave it ignored, as Python itself does, instead of
    turning a Ctrl-C meant for others into an interruption in some moments and not others."""
    import signal

    return bool(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)


@contextlib.contextmanager
def sigint_raised() -> Iterator[list[int]]:
    """While inside, Ctrl-C raises KeyboardInterrupt at once, even where a caller holds it:
    the games played in this process, cut anywhere. It is noted too (in the list given):
    Python swallows an exception raised inside a garbage collector's callback (Hypothesis
    installs one), so the caller checks the note between games and none is ever lost."""
    import signal
    import threading

    came: list[int] = []
    if threading.current_thread() is not threading.main_thread() or _ignored():
        yield came
        return

    def interrupt(signum: int, frame: Any) -> None:
        came.append(1)
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGINT, interrupt)
    try:
        yield came
    finally:
        signal.signal(signal.SIGINT, old)


@contextlib.contextmanager
def sigint_held() -> Iterator[None]:
    """Hold a SIGINT for a moment that must not be cut short (workers being ended, which a
    second Ctrl-C must not leave half-done), then raise KeyboardInterrupt if one came."""
    with sigint_deferred() as came:
        yield
    if came:
        raise KeyboardInterrupt
