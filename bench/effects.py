"""Compiled DSL against the same effects written by hand in Python (twins kept only here).

    python bench/effects.py

The target: compiled effects within 1.3x of the hand-written ones.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from artproject import load_rules, new_game
from artproject.core.art.loader import scope_of
from artproject.core.art.rules import Ctx, Road
from artproject.dsl.compiler import Compiler

N = 200_000


def timeit(fn: Callable[[Any, Ctx], Any], st: Any, ctx: Ctx) -> float:
    runs = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(N):
            fn(st, ctx)
        runs.append((time.perf_counter() - t) / N * 1e9)
    return statistics.median(runs)


def main() -> None:
    rules = load_rules("japan")
    st = new_game("japan", 2, "medium", 1)
    comp = Compiler(scope_of(rules))
    kyoto = rules.city_index["kyoto"]
    red = Road(0, kyoto, {"thread": "red"}, "south")
    cases: list[tuple[str, Callable[[Any, Ctx], Any], Callable[[Any, Ctx], Any], Ctx]] = []

    fn = comp.expr("van.fuel <= 4 and threat < 8")
    cases.append(("expr  van.fuel <= 4 and threat < 8", fn,  # type: ignore[arg-type]
                  lambda s, c: s.van[0] <= 4 and s.threat() < 8, Ctx()))
    fn = comp.expr("agents(kyoto) + hq >= 5 or lost(kyoto)")
    cases.append(("expr  agents(kyoto) + hq >= 5 or lost(kyoto)", fn,  # type: ignore[arg-type]
                  lambda s, c: s.agents[kyoto] + s.hq >= 5 or bool(s.lost[kyoto]), Ctx()))
    import attrs

    rcomp = Compiler(attrs.evolve(scope_of(rules), road_attrs={"thread": None}))
    cost = rcomp.cost('2 fuel if road.thread == "red" else 1 fuel')
    two, one = (("fuel", 2),), (("fuel", 1),)
    cases.append(("cost  2 fuel if road.thread == \"red\" else 1 fuel", cost,  # type: ignore[arg-type]
                  lambda s, c: two if c.road.attrs.get(  # type: ignore[union-attr]  # (it has a road)
                      "thread") == "red" else one,
                  Ctx(0, kyoto, red)))
    (op,) = comp.effect("gain 2 radio") or ()
    pairs = (("radio", 2),)
    cases.append(("stmt  gain 2 radio", op, lambda s, c: s.gain_all(pairs, c), Ctx(0)))
    (op,) = comp.effect("if threat > 2 then gain 1 weapon") or ()
    w = (("weapon", 1),)
    cases.append(("stmt  if threat > 2 then gain 1 weapon", op,
                  lambda s, c: s.gain_all(w, c) if s.threat() > 2 else None, Ctx(0)))
    assert not comp.errors and not rcomp.errors
    print(f"{'effect':52s} {'DSL ns':>8s} {'hand ns':>8s} {'ratio':>6s}")
    ratios = []
    for name, dsl, hand, ctx in cases:
        a, b = timeit(dsl, st, ctx), timeit(hand, st, ctx)
        ratios.append(a / b)
        print(f"{name:52s} {a:8.0f} {b:8.0f} {a / b:6.2f}")
    print(f"geometric mean ratio: {statistics.geometric_mean(ratios):.2f} (target <= 1.3)")


if __name__ == "__main__":
    main()
