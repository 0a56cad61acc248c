"""How long Art of War's games are: decisions a game and the busiest turn, random and
heuristic games, against the maximum length the adapters declare (W18's turn limit times
40 decisions). docs/ai.md quotes it.

    python bench/lengths.py [--games N] [--players 2,4,7]
"""

from __future__ import annotations

import argparse
from collections import Counter

from artproject import new_game
from artproject.core.aow.bots import POLICIES
from artproject.policies import make_policy


def lengths(players: int, games: int) -> tuple[list[int], int]:
    """Decisions in each game (random and heuristic, `games` each), and the most in a turn."""
    out, busiest = [], 0
    for name in ("random", "heuristic"):
        for seed in range(games):
            st = new_game("art-of-war", players=players, seed=seed)
            bot = make_policy(name, seed, POLICIES)
            per: Counter[int] = Counter()
            while not st.is_over():
                per[st.turn] += 1
                st.apply(bot(st))
            out.append(sum(per.values()))
            busiest = max(busiest, max(per.values()))
    return sorted(out), busiest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300, help="games a policy and count")
    ap.add_argument("--players", default="2,4,7")
    args = ap.parse_args()
    limit = new_game("art-of-war").max_game_length()
    print(f"maximum length declared: {limit} decisions")
    for n in (int(x) for x in args.players.split(",")):
        got, busiest = lengths(n, args.games)
        print(f"{n} players: longest {got[-1]}, median {got[len(got) // 2]}, "
              f"busiest turn {busiest} decisions ({len(got)} games)")


if __name__ == "__main__":
    main()
