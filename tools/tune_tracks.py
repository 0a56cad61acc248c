"""Search artwork-track values for a board by simulation (how the shipped tracks were tuned).

    python tools/tune_tracks.py japan egypt --games 60

For each board, tries track lengths (6, 7; a board whose track names symbols keeps its
length), threat ramps (first space 2-4, last 10-14) and two ally-cost ramps, plays the
heuristic bot at Easy and at the top difficulty with 2 and 4 players, and prints the three
best: high Easy win rates (at least 55%), low top-difficulty ones (at most 20%). It writes
nothing into the project; copy the values you choose into the mission file.
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
import tomllib
from pathlib import Path

from artproject.core.art.loader import package_dir
from artproject.simulate import simulate_grid

ALLIES = {"steep": [5, 4, 3, 3, 2, 2, 1], "gentle": [4, 3, 3, 2, 2, 1, 1]}


def track(length: int, first: int, last: int, allies: list[int]) -> list[tuple[int, int]]:
    threats = [round(first + (last - first) * i / (length - 1)) for i in range(length)]
    costs = allies[:length] if length == 7 else allies[:3] + allies[4:]
    return list(zip(threats, costs, strict=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards", nargs="+")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tune-"))
    for board in args.boards:
        doc = tomllib.loads((package_dir("missions") / f"{board}.toml").read_text())
        symbols = [t.get("symbol") for t in doc["track"]]
        results = []
        for length, first, last, ramp in itertools.product((6, 7), (2, 3, 4), (10, 12, 14),
                                                           ALLIES):
            if symbols[0] and length != len(symbols):
                continue
            spaces = track(length, first, last, ALLIES[ramp])
            m = tmp / f"{board}-{length}-{first}-{last}-{ramp}.toml"
            m.write_text(f'name = "{board}"\nextends = "{board}"\n' + "".join(
                f"[[track]]\nthreat = {t}\nally_cost = {a}\n"
                + (f'symbol = "{symbols[i]}"\n' if symbols[0] else "")
                for i, (t, a) in enumerate(spaces)))
            cells = simulate_grid([str(m)], ["easy", "impossible"], [2, 4], args.games, 1,
                                  policy="heuristic", workers=args.workers)
            w = {(c["difficulty"], c["players"]): c["win_rate"] for c in cells}
            easy = min(w["easy", 2], w["easy", 4])
            top = max(w["impossible", 2], w["impossible", 4])
            score = easy - top - 2 * max(0, 0.55 - easy) - 2 * max(0, top - 0.2)
            results.append((score, spaces, w))
        results.sort(key=lambda r: -r[0])
        for score, spaces, w in results[:3]:
            rates = ", ".join(f"{d} {p}p {100 * v:.0f}%" for (d, p), v in w.items())
            print(f"{board}: score {score:+.2f}  track {spaces}  ({rates})", flush=True)


if __name__ == "__main__":
    main()
