"""Search a board's track and the house rule team-threat's numbers for it, by simulation.

    python tools/tune_tracks.py japan --threat-on-track 10 --games 200 --workers 2
    python tools/tune_tracks.py egypt usa --games 200 --workers 2

How the tracks and the threat by team size were tuned before issue 22, when that threat
was the default (it is now the house rule team-threat, `[rules] team_threat_by_players`,
played only when a variant switches it on: docs/missions.md); with --house, how the house
rule's numbers are found now, on the printed tracks as shipped (docs/balance.md). For each
board, on its own map, deck and track length (a track that names symbols keeps them):

1. a threat ramp for the printed track (each SLOPE: the last space SLOPE above the first)
   and an ally-cost ramp (steep or gentle);
2. the printed track's level is stepped, one threat at a time, until Easy and the top
   difficulty ("impossible") balance around their targets with 2 players: Easy at least
   40%, the top difficulty at most 15% (the score of a cell is the smaller of its two
   margins);
3. for every other team size the threat the house rule adds (one number each, 0 for 2
   players: the printed track is the two-player track) is stepped the same way;
4. the ramp whose worst team size scores best wins.

With --house the shipped track stays: each team size's number (0 for two players) is
stepped from 0 as in step 3; the shipped numbers were found so with --games 200.

With --refine there is no search: each team size's shipped house-rule number is tried again
one either side, on more games (say 600), and the best of the three kept. The shipped
numbers were searched with --games 200, then refined with --refine --games 600, on the
boards and deck before issue 22 (docs/balance.md).

The heuristic bot plays (simulate's default policy). Every candidate plays the same seeds
(1..GAMES), so that candidates differ by their numbers and not by their luck; a candidate
whose games do not end (the bot can walk a pawn to and fro on a free road forever:
docs/balance.md) is reported and scores as the worst. The best of each board is printed as
TOML to copy into its mission file: the tool writes nothing into the project (its
candidates are temporary files).
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from artproject.core.errors import GameError
from artproject.core.sources import package_dir
from artproject.simulate import simulate_grid

ALLIES = {"steep": [5, 4, 3, 3, 2, 2, 1], "gentle": [4, 3, 3, 2, 2, 1, 1]}
SLOPES = (6, 10)
EASY_AT_LEAST, TOP_AT_MOST = 0.40, 0.15
TEAMS = (1, 2, 3, 4, 5, 6)
REFERENCE = 2  # the printed track is the two-player track: it adds nothing


class Board:
    """One board's candidates: temporary mission files that extend it, and their results."""

    def __init__(self, name: str, tmp: Path, games: int, workers: int) -> None:
        self.name, self.tmp, self.games, self.workers = name, tmp, games, workers
        doc = tomllib.loads((package_dir("missions") / f"{name}.toml").read_text())
        self.symbols = [t.get("symbol") for t in doc["track"]]
        self.length = len(doc["track"])
        self.shipped = [(int(t["threat"]), int(t["ally_cost"])) for t in doc["track"]]
        self.shipped_extras = list(doc.get("rules", {}).get("team_threat_by_players", [0] * 6))
        self.cache: dict[tuple[Any, ...], tuple[float, float]] = {}
        self.played = 0

    def track(self, slope: int, ramp: str, level: int) -> list[tuple[int, int]]:
        """A printed track: threats from `level` rising by `slope` in all; ally costs."""
        n = self.length
        threats = [level + round(slope * i / (n - 1)) for i in range(n)]
        allies = ALLIES[ramp] if n == 7 else ALLIES[ramp][:3] + ALLIES[ramp][4:]
        return list(zip(threats, allies, strict=True))

    def rates(self, spaces: list[tuple[int, int]], extra: int, team: int) -> tuple[float, float]:
        """(Easy, top difficulty) win rates with `team` players, `extra` threat added."""
        key = (tuple(spaces), extra, team)
        if key not in self.cache:
            m = self.tmp / f"{self.name}-{len(self.cache)}.toml"
            body = "".join(
                f"[[track]]\nthreat = {t}\nally_cost = {a}\n"
                + (f'symbol = "{self.symbols[i]}"\n' if self.symbols[0] else "")
                for i, (t, a) in enumerate(spaces))
            m.write_text(f'name = "{self.name}"\nextends = "{self.name}"\n[rules]\n'
                         f"threat_by_players = {[extra] * len(TEAMS)}\n" + body)
            try:
                cells = simulate_grid([str(m)], ["easy", "impossible"], [team], self.games, 1,
                                      policy="heuristic", workers=self.workers)
            except GameError as e:  # the bot circling between two districts (docs/balance.md)
                print(f"  {self.name} {spaces} +{extra}, {team} players: skipped: {e}")
                self.cache[key] = (0.0, 1.0)
                return self.cache[key]
            self.cache[key] = (cells[0]["win_rate"], cells[1]["win_rate"])
            self.played += 2 * self.games
        return self.cache[key]

    def balance(self, spaces: list[tuple[int, int]], team: int, start: int,
                allowed: Callable[[int], bool] = lambda extra: True,
                ) -> tuple[float, int, tuple[float, float]]:
        """The threat `team` adds that balances its two margins: (score, extra, rates),
        stepping from `start` while the score improves, never below a threat of 0 and only
        through `allowed` values."""
        low = -min(t for t, _ in spaces)
        best: tuple[float, int, tuple[float, float]] | None = None
        extra = max(start, low)
        while not allowed(extra):
            extra += 1
        while True:
            easy, top = self.rates(spaces, extra, team)
            score = min(easy - EASY_AT_LEAST, TOP_AT_MOST - top)
            if best is not None and score <= best[0]:
                return best
            best = (score, extra, (easy, top))
            step = 1 if easy - EASY_AT_LEAST > TOP_AT_MOST - top else -1
            nxt = extra + step
            while low <= nxt <= low + 40 and not allowed(nxt):
                nxt += step
            if not low <= nxt <= low + 40 or (nxt, team) in self.tried(spaces):
                return best
            extra = nxt

    def tried(self, spaces: list[tuple[int, int]]) -> set[tuple[int, int]]:
        return {(k[1], k[2]) for k in self.cache if k[0] == tuple(spaces)}


def tune(board: Board, keep: int | None) -> dict[str, Any]:
    """The best ramp of `board`: its printed track, the threat each team size adds, the rates.
    With `keep`, only printed tracks that show that threat on some space."""
    best: dict[str, Any] | None = None
    for slope in SLOPES:
        for ramp in ALLIES:
            # the printed track's level: step it as one more team-size threat, with 2 players
            flat = board.track(slope, ramp, 0)

            def shows(level: int, flat: list[tuple[int, int]] = flat) -> bool:
                return keep is None or any(t + level == keep for t, _ in flat)
            score, level, rates = board.balance(flat, REFERENCE, 3, shows)
            spaces = board.track(slope, ramp, level)
            extras, cells = {REFERENCE: 0}, {REFERENCE: (score, rates)}
            start = 0
            for team in TEAMS:
                if team == REFERENCE:
                    continue
                score, extra, rates = board.balance(spaces, team, start)
                extras[team], cells[team] = extra, (score, rates)
                start = extra
            worst = min(s for s, _ in cells.values())
            total = sum(s for s, _ in cells.values())
            print(f"  {board.name} slope {slope} {ramp}: worst {worst:+.2f}, printed "
                  f"{[t for t, _ in spaces]}, adds {[extras[t] for t in TEAMS]}", flush=True)
            if best is None or (worst, total) > (best["worst"], best["total"]):
                best = {"worst": worst, "total": total, "spaces": spaces,
                        "extras": [extras[t] for t in TEAMS], "cells": cells}
    assert best is not None
    return best


def refine(board: Board, keep: int | None) -> dict[str, Any]:
    """The board's shipped numbers, each team size's threat tried again one either side on
    more games; the best of the three kept. The two-player team's change moves the printed
    track (and every other team's number the other way), so that it still adds nothing."""
    spaces, extras = board.shipped, dict(zip(TEAMS, board.shipped_extras, strict=True))
    low = -min(t for t, _ in spaces)
    cells: dict[int, tuple[float, tuple[float, float]]] = {}
    for team in TEAMS:
        tried = []
        for extra in (extras[team] - 1, extras[team], extras[team] + 1):
            shown = keep is None or team != REFERENCE or any(t + extra == keep for t, _ in spaces)
            if extra < low or not shown:
                continue
            easy, top = board.rates(spaces, extra, team)
            tried.append((min(easy - EASY_AT_LEAST, TOP_AT_MOST - top), extra, (easy, top)))
        score, extras[team], rates = max(tried, key=lambda x: (x[0], x[1] == extras[team]))
        cells[team] = (score, rates)
        print(f"  {board.name} {team} players: "
              + ", ".join(f"{e:+d} {100 * r[0]:.1f}/{100 * r[1]:.1f}%" for _, e, r in tried),
              flush=True)
    shift = extras[REFERENCE]
    worst = min(sc for sc, _ in cells.values())
    return {"worst": worst, "spaces": [(t + shift, a) for t, a in spaces],
            "extras": [extras[t] - shift for t in TEAMS], "cells": cells}


def house(board: Board, keep: int | None) -> dict[str, Any]:
    """The house rule's numbers on the board's shipped (printed) track: each team size's
    stepped from 0 while its score grows; two players keep 0, the printed track."""
    del keep  # the printed track is kept as shipped
    extras, cells = [0] * len(TEAMS), {}
    for team in TEAMS:
        if team == REFERENCE:
            cells[team] = (0.0, board.rates(board.shipped, 0, team))
            continue
        score, extras[team - 1], rates = board.balance(board.shipped, team, 0)
        cells[team] = (score, rates)
        print(f"  {board.name} {team} players: {extras[team - 1]:+d}, "
              f"{100 * rates[0]:.1f}/{100 * rates[1]:.1f}%", flush=True)
    worst = min(sc for t, (sc, _) in cells.items() if t != REFERENCE)
    return {"worst": worst, "spaces": board.shipped, "extras": extras, "cells": cells}


def report(board: Board, best: dict[str, Any]) -> str:
    lines = [f"# {board.name}: worst margin {best['worst']:+.2f}; easy/top by team size: "
             + ", ".join(f"{t}p {100 * e:.0f}/{100 * p:.0f}%"
                         for t, (_, (e, p)) in sorted(best["cells"].items())),
             "[rules]", f"team_threat_by_players = {best['extras']}"]
    for i, (t, a) in enumerate(best["spaces"]):
        lines += ["", "[[track]]"]
        if board.symbols[0]:
            lines.append(f'symbol = "{board.symbols[i]}"')
        lines += [f"threat = {t}", f"ally_cost = {a}"]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards", nargs="+")
    ap.add_argument("--games", type=int, default=150, help="games a cell (default: 150)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threat-on-track", type=int, metavar="N",
                    help="keep N among the printed threats (Japan: the rulebook's example, 10)")
    ap.add_argument("--refine", action="store_true",
                    help="no search: try each team size's shipped threat one either side")
    ap.add_argument("--house", action="store_true",
                    help="the printed track kept: each team size's house-rule number stepped "
                         "from 0 (how the shipped numbers were found, docs/balance.md)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="tune-") as tmp:
        for name in args.boards:
            t0 = time.perf_counter()
            board = Board(name, Path(tmp), args.games, args.workers)
            search = house if args.house else refine if args.refine else tune
            best = search(board, args.threat_on_track)
            print(report(board, best))
            print(f"# {board.played} games in {time.perf_counter() - t0:.0f} s\n", flush=True)


if __name__ == "__main__":
    main()
