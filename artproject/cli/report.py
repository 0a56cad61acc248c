"""`artproject report`: the Hall of Fame and its plots from a results store."""

from __future__ import annotations

import argparse
from pathlib import Path


def _report(args: argparse.Namespace) -> int:
    from ..report import WAR, hall_of_fame, war_report, write_plots
    from ..store import Store

    with Store.read(args.store) as store:
        rows = list(store.rows())
    team = [r for r in rows if r.game != WAR]  # Art of War's games: their own table
    war = [r for r in rows if r.game == WAR]
    written = []
    if args.output and (team or not war):
        written = write_plots(team, Path(args.output), args.force)  # before any output
    if team or not war:
        print(hall_of_fame(team, args.store))
    if war:
        print(("\n" if team else "") + war_report(war))
    if args.output:
        print(f"\nwrote {len(written)} plots in {args.output}: "
              + ", ".join(p.name for p in written) if written else
              "\nno plots: they are drawn for The A.R.T. Project's games only")
    return 0
