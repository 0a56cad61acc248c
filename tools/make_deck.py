"""Regenerate cards/mission-cards.toml: the project's reconstruction of the 72-card deck.

    python tools/make_deck.py [--seed 2024] [--doubles 36] [--gain 0.6] [--out FILE]

The printed card texts are not in our sources. This script spreads costs, agents, gains and
clue symbols so that the deck plays as the rulebook describes, with knobs that the balance
runs (docs/balance.md) tune: how many cards bear two clue symbols, and how generous gains
are against the agents a card places. The TOML it writes is the source of truth; the
script is how it was made.

Whatever the knobs, the deck keeps what the rulebook states about mission cards (72 and the
final card; the four sections; "Some mission cards require placing 2 or 3 agents in a single
city, others require placing no agents at all"): `--three N` keeps N cards that place 3
agents in one city, whatever `--lighter` takes away (tests/test_deck.py checks the facts).
"""

from __future__ import annotations

import argparse
import itertools
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

SYMBOLS = ["films", "sculptures", "books", "paintings", "artifacts", "music"]
RESOURCES = ["fuel", "radio", "weapon"]


def clue_backs(rng: random.Random, doubles: int) -> list[list[str]]:
    """72 backs, `doubles` of them with two symbols, each symbol as often as the others."""
    pairs = [list(p) for p in itertools.combinations(SYMBOLS, 2)]
    dbl = [pairs[i % len(pairs)] for i in range(doubles)]
    singles_n = 72 - doubles
    count = Counter(s for p in dbl for s in p)
    singles: list[list[str]] = []
    while len(singles) < singles_n:  # top up the rarest symbol first: balanced backs (R9)
        s = min(SYMBOLS, key=lambda x: (count[x], SYMBOLS.index(x)))
        singles.append([s])
        count[s] += 1
    backs = dbl + singles
    rng.shuffle(backs)
    return backs


def fmt(d: dict[str, int]) -> str:
    return ", ".join(f"{v} {k}" for k, v in d.items()) or "nothing"


def placements(rng: random.Random, cycle: Iterator[str], n: int, one_city: bool,
               lighter: bool) -> dict[str, int]:
    """A card's `n` agents by symbol: spread at random, or all in the first city named
    (`one_city`, the draws made as for the others); `lighter`: one fewer, from the city
    given most."""
    placed: dict[str, int] = {}
    k = 0
    while k < n:
        s = next(cycle)
        take = 1 if n == 1 else rng.choice([1, n - k])
        placed[s] = placed.get(s, 0) + take
        k += take
    if one_city:
        placed = {next(iter(placed)): n}
    if lighter:
        top = max(placed, key=lambda x: placed[x])
        placed[top] -= 1
        placed = {x: v for x, v in placed.items() if v}
    return placed


def make(seed: int, doubles: int, gain_rate: float, health_cards: int = 10,
         costly: int = 1, lighter: int = 0, three: int = 0) -> str:
    rng = random.Random(seed)
    backs = clue_backs(rng, doubles)
    agent_counts = [0] * 8 + [1] * 24 + [2] * 28 + [3] * 12
    rng.shuffle(agent_counts)
    # `three` of the 3-agent cards (the first) place their 3 agents in one city, and keep
    # them: the rulebook's "placing 2 or 3 agents in a single city"
    threes = [i for i in range(72) if agent_counts[i] == 3][:three]
    # the `lighter` other cards that place the most agents (the first of equals) place one
    # fewer
    light = set(sorted((i for i in range(72) if agent_counts[i] and i not in threes),
                       key=lambda i: (-agent_counts[i], i))[:lighter])
    health_at = set(rng.sample(range(72), health_cards))
    cycle = itertools.cycle(SYMBOLS)
    command = (f"python tools/make_deck.py --seed {seed} --doubles {doubles} --gain {gain_rate} "
               f"--health {health_cards} --costly {costly} --lighter {lighter}")
    if three:
        command += f" --three {three}"
    out = [f'''# The 72 mission cards and the final card of The A.R.T. Project.
# The printed card texts are not in our sources: this deck is the project's own
# reconstruction, tuned by simulation (docs/balance.md): costs, agents and gains trade
# against each other, and the clue symbols on the backs are balanced (each artwork type as
# often as the others; every card bears 1 or 2 distinct symbols, R9). Made by
#     {command}
# Each section is effect DSL (docs/dsl.md): cost and gain are amounts, agents are
# placements by artwork symbol (x2 for two agents), clues are the symbols on the back.
about = "Mission cards: the project's reconstruction of the printed deck."

[final]
id = 0
title = "Final card"
''']
    for i in range(72):
        n = agent_counts[i]
        placed = placements(rng, cycle, n, i in threes, i in light)
        cost_n = rng.choice([0, 0, 0, 1, 1, *[2] * costly]) if n < 3 else rng.choice([0, 1])
        gain_n = max(0, min(3, round(n * gain_rate + rng.choice([0.4, 0.8, 1.2])) + cost_n))
        if n == 0:
            gain_n = max(1, min(gain_n, cost_n + rng.choice([0, 1])))
        cost: dict[str, int] = {}
        for _ in range(cost_n):
            r = rng.choice(RESOURCES)
            cost[r] = cost.get(r, 0) + 1
        gain: dict[str, int] = {}
        if i in health_at and gain_n:
            gain["health"] = 1  # health is rare: it is what the difficulty levels ration
            gain_n -= 1
        for _ in range(gain_n):
            r = rng.choice(RESOURCES)
            while r in cost:
                r = rng.choice(RESOURCES)
            gain[r] = gain.get(r, 0) + 1
        agents = ", ".join(s if v == 1 else f"{s} x{v}" for s, v in placed.items()) or "nothing"
        out.append(f'''[[card]]
id = {i + 1}
cost = "{fmt(cost)}"
agents = "{agents}"
gain = "{fmt(gain)}"
clues = "{', '.join(backs[i])}"
''')
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--doubles", type=int, default=36, help="cards with two clue symbols")
    ap.add_argument("--gain", type=float, default=0.6, help="gains per agent placed")
    ap.add_argument("--health", type=int, default=10, help="cards that gain a health token")
    ap.add_argument("--costly", type=int, default=1,
                    help="weight of two-resource costs among cards with fewer than 3 agents")
    ap.add_argument("--lighter", type=int, default=0, metavar="N",
                    help="the N cards that place the most agents place one fewer, their "
                         "costs and gains priced as before (default: 0)")
    ap.add_argument("--out", default=str(Path(__file__).parent.parent / "cards" /
                                         "mission-cards.toml"))
    ap.add_argument("--three", type=int, default=0, metavar="N",
                    help="N cards place 3 agents in one city, spared by --lighter "
                         "(default: 0)")
    a = ap.parse_args()
    Path(a.out).write_text(make(a.seed, a.doubles, a.gain, a.health, a.costly, a.lighter,
                                a.three), encoding="utf-8")


if __name__ == "__main__":
    main()
