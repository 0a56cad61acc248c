"""The `artproject` command: check rule files, run scenarios, simulate games.

Exit status: 0 success, 1 a failed check (a scenario or property that does not hold),
2 bad input (a wrong file, name or option), 130 interrupted (Ctrl-C). Errors print as one
clear message, never a traceback; the status stands even when the reader of the output has
gone (`artproject verify ... | head -1`).

Each command's code is in the module of its name (`cli/simulate.py`, `cli/check.py`, ...),
imported only when that command runs; the arguments of them all in `cli/parser.py`; what
several share in `cli/options.py` (checks of options) and `cli/output.py` (the output).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .options import _players as _players  # tests read team sizes as the options do
from .output import _Interrupted, _PipeGuard, _say
from .parser import _parser


def command() -> int:
    """The console command (`artproject`, `python -m artproject`): `main` for a process that
    ends with its status, so after a Ctrl-C it leaves SIGINT ignored (a second one while the
    process exits cannot break the exit)."""
    return main(exiting=True)


def main(argv: Sequence[str] | None = None, *, exiting: bool = False) -> int:
    """Run the command line `argv` (default: sys.argv's) and return its exit status. In a
    program that goes on afterwards, Ctrl-C's handling is left as it was found; `exiting`:
    the process ends with the status (see `command`)."""
    guard, errors = _PipeGuard(sys.stdout), _PipeGuard(sys.stderr)
    # stderr too: a reader gone from `2>&1 | head -1` is no error of the command's, which
    # goes on to its own status (a write to stderr that fails otherwise is lost, not told)
    sys.stdout, sys.stderr = guard, errors
    try:
        status = _main(argv)
        guard.flush()
        if guard.failed:  # a full disk, an I/O error: the output is not all there
            _say(f"artproject: cannot write the output: {guard.failed}")
            return status or 2  # a failed check's 1 stands
        return status
    except KeyboardInterrupt as err:  # Ctrl-C: one line, status 130, whatever was running
        import signal

        before = signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C meanwhile
        _say(f"artproject: {err}" if isinstance(err, _Interrupted) else "artproject: interrupted")
        if not exiting:
            signal.signal(signal.SIGINT, before)
        return 130
    finally:
        guard.flush()
        errors.flush()
        sys.stdout, sys.stderr = guard.stream, errors.stream


def _main(argv: Sequence[str] | None) -> int:
    # --help and --version (0) and a usage error (2) stop the parser: their status is
    # returned, not raised, so that main can still tell an output it could not write
    try:
        args = _parser().parse_args(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 0
    if args.command is None:
        _parser().print_help()
        return 0
    import warnings

    from ..core.errors import ArtError, SaveWarning

    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", SaveWarning)
            try:
                return _run(args)
            finally:
                for w in seen:
                    _say(f"artproject: warning: {w.message}")
    except ArtError as err:
        from ..core.saves import command_line_words  # (the flags, not the library's words)

        said = command_line_words(str(err))
        _say(f"artproject: {said}" if "\n" not in said else said)
        return 2


def _run(args: argparse.Namespace) -> int:
    from .check import _check_variants
    from .options import variant_boards

    _check_variants(getattr(args, "variant", None) or [], variant_boards(args))
    if args.command == "simulate":
        from .simulate import _simulate

        return _simulate(args)
    if args.command == "check":
        from .check import _check

        return _check(args.paths, args.mission)
    if args.command == "report":
        from .report import _report

        return _report(args)
    if args.command == "tune":
        from .tune import _tune

        return _tune(args)
    if args.command == "verify":
        from .verify import _verify

        return _verify(args)
    if args.command == "render":
        from .render import _render

        return _render(args)
    if args.command == "play":
        from .play import _play

        return _play(args)
    if args.command == "new":
        from .new import _new

        return _new(args)
    if args.command == "serve":
        from .serve import _serve

        return _serve(args)
    from .scenario import _scenario

    return _scenario(args.paths, args.variant, args.verbose)
