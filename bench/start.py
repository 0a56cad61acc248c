"""A fresh process's start: `artproject --help` and `artproject check FILE` against
`python -c pass`, and a cold load of all six shipped missions and of Art of War's rules, in
interleaved rounds.

    python bench/start.py [--rounds R] [--clock cpu|wall]

Each round starts, in turn, `python -c pass`, `artproject --help`, `artproject check` of
missions/japan.toml and of missions/art-of-war.toml, a process that loads all six shipped
missions and one that loads Art of War's rules and its shipped variant (each timing its
imports and its load apart, from inside; the second also says whether its imports brought
Lark and its loads built Lark's grammar); the ratios are to `python -c pass` in the same
round.
Times are CPU time (the children's user + system time) by default: on a shared machine the
wall clock also counts the time other processes hold the core. Medians and ranges.

The compiled-rules cache (core/cache.py) is used as a user would find it: warm (an earlier
run made its entries). `--cold-cache` points XDG_CACHE_HOME at an empty folder each time
instead, and `ARTPROJECT_CACHE=off` in the environment turns it off. The children run as an
installed package does, with its modules' bytecode kept (`__pycache__`, ignored by git) even
where the environment sets PYTHONDONTWRITEBYTECODE (where every start would compile every
module of the package from its source: about 1.3 times the figures below for --help and
check, 1.5 for the imports).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOAD = """
import time
t0 = time.perf_counter(); c0 = time.process_time()
from artproject import new_game
from artproject.core.art.loader import load_rules, shipped_missions
t1 = time.perf_counter(); c1 = time.process_time()
for m in shipped_missions():
    load_rules(m)
t2 = time.perf_counter(); c2 = time.process_time()
print(t1 - t0, t2 - t1, c1 - c0, c2 - c1)
"""
# Art of War's rules, base and its shipped variant: the imports a game of it needs, then
# the two loads; whether the imports brought lark, whether the loads built Lark's grammar
# (they parsed some text) and which packages they imported beyond the imports.
LOAD_WAR = """
import sys, time
t0 = time.perf_counter(); c0 = time.process_time()
from artproject.core.aow import new_game
from artproject.core.aow.loader import load_rules, shipped_variants
from artproject.core import cache
variants = shipped_variants()
t1 = time.perf_counter(); c1 = time.process_time()
before = set(sys.modules)
lark = "lark" in before
cache.code_digest()  # once a process, whichever game loads first (timed apart)
cd = time.process_time()
load_rules()
for v in variants:
    load_rules("art-of-war", [v])
t2 = time.perf_counter(); c2 = time.process_time()
new = sorted(m.split(".")[0] for m in set(sys.modules) - before)
parser = sys.modules.get("artproject.dsl.parser")
built = parser is not None and parser._lark.cache_info().currsize > 0
print(t1 - t0, t2 - t1, c1 - c0, c2 - c1, cd - c1, int(lark), int(built),
      ",".join(sorted(set(new))) or "-")
"""


def _cmds() -> dict[str, list[str]]:
    py = sys.executable
    script = Path(py).with_name("artproject")  # the console script, as a user starts it
    art = [str(script)] if script.exists() else [py, "-m", "artproject"]
    # -P: the working folder is not put on the path (the checkout's artproject/ is not the
    # installed package)
    return {"python -c pass": [py, "-c", "pass"],
            "artproject --help": [*art, "--help"],
            "artproject check missions/japan.toml": [*art, "check", "missions/japan.toml"],
            "artproject check missions/art-of-war.toml": [*art, "check",
                                                          "missions/art-of-war.toml"]}


COLD_PREFIX = "artproject-bench-"  # an empty cache folder's, one a process (--cold-cache)


def _run(cmd: list[str], env: dict[str, str], cpu: bool) -> tuple[float, str]:
    """`cmd` run in `env`: its CPU time (or wall clock) and its output. An empty cache
    folder `_env` made for it (`--cold-cache`) is removed after it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    try:
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT,
                             env=env)
        wall = time.perf_counter() - t
    finally:  # (after the time is taken)
        cold = env.get("XDG_CACHE_HOME", "")
        if Path(cold).name.startswith(COLD_PREFIX):
            shutil.rmtree(cold, ignore_errors=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (used if cpu else wall), out.stdout


def _env(cold: bool) -> dict[str, str]:
    env = dict(os.environ)
    # as an installed package runs: its modules' bytecode kept (__pycache__)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cold:
        env["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix=COLD_PREFIX)  # (`_run` removes it)
    return env


def _fmt(xs: list[float], scale: float = 1e3, unit: str = " ms") -> str:
    return (f"{statistics.median(xs) * scale:.1f}{unit} "
            f"({min(xs) * scale:.1f}-{max(xs) * scale:.1f})")


@dataclass
class Figures:
    """What the rounds measured: each measure's figures, one a round, in seconds (CPU time or
    the wall clock, as asked; the digests always CPU time), and what Art of War's loads did."""

    times: dict[str, list[float]]  # each command's
    ratios: dict[str, list[float]]  # each command's time over `python -c pass`'s, same round
    imports: list[float] = field(default_factory=list)  # the six missions' process: imports
    loads: list[float] = field(default_factory=list)  # the six missions' process: loads
    war_imports: list[float] = field(default_factory=list)  # Art of War's process: imports
    war_loads: list[float] = field(default_factory=list)  # Art of War's process: loads
    # Art of War's process: hashing the engine's code (core/cache.py's key)
    digests: list[float] = field(default_factory=list)
    # whether Art of War's load built the grammar; what it imported
    grammar: set[str] = field(default_factory=set)


def _warm_up(cmds: dict[str, list[str]], cpu: bool) -> None:
    """Each process once, its times not kept: it warms the OS's file cache, the .pyc files and
    the compiled-rules cache."""
    for cmd in cmds.values():
        _run(cmd, _env(False), cpu)
    _run([sys.executable, "-P", "-c", LOAD], _env(False), cpu)
    _run([sys.executable, "-P", "-c", LOAD_WAR], _env(False), cpu)


def _commands_round(cmds: dict[str, list[str]], r: int, cold: bool, cpu: bool,
                    figs: Figures) -> None:
    """Round `r` of the commands, each going first by turns: their times, and their ratios
    to `python -c pass`'s."""
    got: dict[str, float] = {}
    order = list(cmds)
    order = order[r % len(order):] + order[:r % len(order)]  # each goes first by turns
    for name in order:
        got[name] = _run(cmds[name], _env(cold), cpu)[0]
    for name in cmds:
        figs.times[name].append(got[name])
        figs.ratios[name].append(got[name] / got["python -c pass"])


def _loads_round(cold: bool, cpu: bool, figs: Figures) -> None:
    """A round of the two loading processes, the six missions' then Art of War's, each
    timing its imports and its loads from inside."""
    out = _run([sys.executable, "-P", "-c", LOAD], _env(cold), cpu)[1].split()
    wall_i, wall_l, cpu_i, cpu_l = map(float, out)
    figs.imports.append(cpu_i if cpu else wall_i)
    figs.loads.append(cpu_l if cpu else wall_l)
    out = _run([sys.executable, "-P", "-c", LOAD_WAR], _env(cold), cpu)[1].split()
    wall_i, wall_l, cpu_i, cpu_l, cpu_digest = map(float, out[:5])
    figs.war_imports.append(cpu_i if cpu else wall_i)
    figs.war_loads.append(cpu_l if cpu else wall_l)
    figs.digests.append(cpu_digest)
    figs.grammar.add(f"lark {'imported' if out[5] == '1' else 'not imported'} by the imports, "
                     f"Lark's grammar {'built' if out[6] == '1' else 'not built'} by the loads, "
                     f"which imported {out[7]}")


def _measure(cmds: dict[str, list[str]], rounds: int, cold: bool, cpu: bool) -> Figures:
    """Every process once to warm up, then `rounds` interleaved rounds: the commands, then
    the two loading processes."""
    figs = Figures({k: [] for k in cmds}, {k: [] for k in cmds})
    _warm_up(cmds, cpu)
    for r in range(rounds):
        _commands_round(cmds, r, cold, cpu, figs)
        _loads_round(cold, cpu, figs)
    return figs


def _report(cmds: dict[str, list[str]], figs: Figures, rounds: int, cold: bool,
            cpu: bool) -> None:
    """Print the figures: a table of the commands, then a line for each loading process."""
    clock = "CPU time" if cpu else "wall clock"
    state = ("off" if os.environ.get("ARTPROJECT_CACHE", "").lower() in ("off", "0", "no", "false")
             else "cold (empty)" if cold else "warm")
    print(f"fresh processes, {rounds} interleaved rounds, {clock}, median (range); "
          f"compiled-rules cache {state}; bytecode kept in __pycache__:")
    print("| command | time | x python -c pass (same round) |")
    print("| --- | --- | --- |")
    for name in cmds:
        print(f"| `{name}` | {_fmt(figs.times[name])} | {_fmt(figs.ratios[name], 1, 'x')} |")
    print(f"a fresh process loading all six shipped missions: imports (artproject.new_game, the "
          f"loader) {_fmt(figs.imports)}, then the six loads {_fmt(figs.loads)}")
    print(f"a fresh process loading Art of War's rules and its shipped variant: imports (its "
          f"new_game, the loader) {_fmt(figs.war_imports)}, then the two loads "
          f"{_fmt(figs.war_loads)}, of which hashing the engine's code (the cache's key, once a "
          f"process, CPU time) {_fmt(figs.digests)} ({'; '.join(sorted(figs.grammar))})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--cold-cache", action="store_true",
                    help="an empty cache folder for every process (the first load ever)")
    args = ap.parse_args()
    cpu = args.clock == "cpu"
    cmds = _cmds()
    figs = _measure(cmds, args.rounds, args.cold_cache, cpu)
    _report(cmds, figs, args.rounds, args.cold_cache, cpu)


if __name__ == "__main__":
    main()
