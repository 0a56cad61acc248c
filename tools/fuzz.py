"""The fuzz harness at length: hostile copies of every shipped file and of saves.

    python tools/fuzz.py                          # 20,000 mutated rule files, 2,000 saves
    python tools/fuzz.py --files 500 --saves 100 --seed 7 --keep findings/
    python tools/fuzz.py --only harbour-tunable --files 3000 --saves 0   # one file's mutants
    python tools/fuzz.py --files 0 --saves 0 --devices 500 --stores 3000 --prompts 500 \
        --calls 20000                             # issue 27's classes alone

Only the project's own errors may come out of loading a mutant (tests/fuzzing.py says how
mutants are made); anything else is printed with the seed that makes it again, and with
--keep written to DIR. Exit status 1 when something else came out.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fuzzing import Tally, run, run_hardening  # (after the repository root joins the path)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--files", type=int, default=20_000, help="mutated rule files")
    p.add_argument("--saves", type=int, default=2_000, help="mutated saves")
    p.add_argument("--devices", type=int, default=200,
                   help="writers aimed at a device, FIFO, folder or dangling link")
    p.add_argument("--stores", type=int, default=1_000, help="damaged results stores")
    p.add_argument("--prompts", type=int, default=200,
                   help="play sessions given the other game's and mutated saves")
    p.add_argument("--calls", type=int, default=5_000,
                   help="public functions called with a hostile argument")
    p.add_argument("--seed", type=int, default=0, help="the run's seed")
    p.add_argument("--keep", type=Path, metavar="DIR", help="write each finding's input here")
    p.add_argument("--only", default="", metavar="TEXT",
                   help="mutate only the files whose path holds TEXT (harbour-tunable: the "
                        "mission with a [tune] section)")
    args = p.parse_args()
    start = time.monotonic()

    def progress(t: Tally) -> None:
        print(f"  {t.files} files, {t.saves} saves, {t.devices} odd paths, {t.stores} stores, "
              f"{t.prompts} prompts, {t.calls} calls: {t.refused} refused with our errors, "
              f"{t.accepted} accepted, {len(t.findings)} other exceptions "
              f"({time.monotonic() - start:.0f} s)", file=sys.stderr, flush=True)

    tally = run(args.files, args.saves, args.seed, progress, args.only)
    run_hardening(args.devices, args.stores, args.prompts, args.calls, args.seed, progress,
                  tally)
    for f in tally.findings:
        print(f"{f.kind} seed {f.seed} ({f.source}; {f.mutation}): {f.error} at {f.where}")
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
            (args.keep / f"{f.kind}-{f.seed}.txt").write_bytes(f.text)
    print(f"{tally.files} mutated rule files and {tally.saves} mutated saves in "
          f"{time.monotonic() - start:.0f} s: {tally.refused} refused with the project's own "
          f"errors, {tally.accepted} accepted (and played; {tally.tuned} with a [tune] section, "
          f"their tuned variants played too), {len(tally.findings)} other exceptions")
    print(f"issue 27's classes: {tally.devices} writes aimed at a device, FIFO, folder or "
          f"dangling link; {tally.stores} damaged stores; {tally.prompts} play sessions given "
          f"the other game's and mutated saves; {tally.calls} public calls with a hostile "
          "argument (counted in the totals above)")
    return 1 if tally.findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
