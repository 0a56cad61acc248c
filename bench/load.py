"""Loading and compiling every shipped rule file in a warm process; a fresh `--help`.

    python bench/load.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from artproject.core.art.loader import _load, shipped_missions

FIRST = """
import time
from artproject.core.art.loader import _load, shipped_missions
import artproject.dsl.parser as p
p._lark()  # the grammar, from Lark's cache
t = time.perf_counter()
for m in shipped_missions():
    _load(m, ())
print(time.perf_counter() - t)
"""


def main() -> None:
    firsts = [float(subprocess.run([sys.executable, "-c", FIRST], check=True, capture_output=True,
                                   text=True).stdout) for _ in range(5)]
    print(f"first load + compile of all shipped missions in a fresh process (imports done): "
          f"median {statistics.median(firsts) * 1e3:.1f} ms over 5 processes")
    missions = shipped_missions()
    for m in missions:  # warm: imports done, grammar cache on disk, files in the OS cache
        _load(m, ())
    times = []
    for _ in range(20):
        t = time.perf_counter()
        for m in missions:
            _load(m, ())
        times.append(time.perf_counter() - t)
    print(f"load + compile all shipped missions ({', '.join(missions)}) with their cards, "
          f"warm: median {statistics.median(times) * 1e3:.1f} ms over 20 runs")
    helps = []
    for _ in range(10):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "artproject", "--help"], check=True,
                       capture_output=True)
        helps.append(time.perf_counter() - t)
    print(f"fresh `python -m artproject --help`: median {statistics.median(helps) * 1e3:.0f} ms "
          "over 10 runs")


if __name__ == "__main__":
    main()
