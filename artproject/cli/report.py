"""`artproject report`: every game's games in a results store, told by the game, and the
plots the games declare (artproject/report.py)."""

from __future__ import annotations

import argparse
from pathlib import Path


def _report(args: argparse.Namespace) -> int:
    from ..report import plots_of, report_text, respelt, write_plots
    from ..store import Store
    from .options import _paths_given

    _paths_given(args, store="report FILE", output="-o/--output")
    with Store.read(args.store) as store:
        rows = respelt(list(store.rows()))  # one policy spelt two ways: one
    written = []
    if args.output is not None and (plots_of(rows) or not rows):
        written = write_plots(rows, Path(args.output), args.force)  # before any output
    print(report_text(rows, args.store))
    if args.output is not None:
        print(f"\nwrote {len(written)} plots in {args.output}: "
              + ", ".join(p.name for p in written) if written else
              "\nno plots: no game in the store draws any")
    return 0
