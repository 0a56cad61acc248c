"""The command's output: stdout that outlives its reader, one-line notes on stderr, and
the interrupt that tells what was kept."""

from __future__ import annotations

import contextlib
import os
import sys

TYPE_CHECKING = False  # typing itself is not imported: the command starts the sooner
if TYPE_CHECKING:
    from typing import Any


def _say(line: str) -> None:
    """One line on stderr (which may be gone too: then nowhere)."""
    with contextlib.suppress(OSError):
        print(line, file=sys.stderr, flush=True)


class _PipeGuard:
    """stdout that outlives its reader: once the pipe closes (`| head -1`), output goes
    nowhere and the command runs on to its own exit status, instead of dying on the write.
    Any other failure to write (a full disk: `> /dev/full`) is kept in `failed` and told as
    one line at the end, with status 2 (main)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.gone = False
        self.failed = ""

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return int(self.stream.write(text))
            except BrokenPipeError:
                self._gone()
            except OSError as err:
                self._gone(err)
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._gone()
            except OSError as err:
                self._gone(err)

    def _gone(self, err: OSError | None = None) -> None:
        self.gone = True
        if err is not None:
            self.failed = err.strerror or str(err)
        # what the stream still holds is flushed at exit: into nothing, quietly
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), self.stream.fileno())

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding...
        return getattr(self.stream, name)


class _Interrupted(KeyboardInterrupt):
    """Ctrl-C during a sweep, with the one line to print."""
