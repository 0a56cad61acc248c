"""A digest of whole games, every decision's legal actions included: the speed work's guard.

    python bench/digest.py [--games N] [--quick]

Plays N games a cell (every shipped board, Japan with each shipped variant, and two
fixtures with hooks on the round's events: bench/missions/every-hook.toml and
tests/missions/round-end-hooks.toml; 1 to 6 players, Easy and Hard; the random,
cautious and heuristic policies; sampled chance, and explicit chance with the generator's
own draws), hashing at each decision the pending kind, the legal actions in order and the
action taken, and at each game's end its fingerprint and its events. The same digest before
and after a change means the change played every one of these games identically.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

from artproject import new_game
from artproject.core.art.loader import shipped_missions, shipped_variants
from artproject.policies import POLICIES

HERE = Path(__file__).resolve().parent


def boards() -> list[tuple[str, tuple[str, ...]]]:
    """(mission, variants) of every game the digest plays."""
    variants = shipped_variants()  # The A.R.T. Project's (another game's lie beside them)
    return ([(m, ()) for m in shipped_missions()] + [("japan", (v,)) for v in variants]
            + [(str(HERE / "missions" / "every-hook.toml"), ()),
               (str(HERE.parent / "tests" / "missions" / "round-end-hooks.toml"), ())])


def digest(games: int, players: tuple[int, ...], difficulties: tuple[str, ...]) -> tuple[str, int]:
    h = hashlib.sha256()
    decisions = 0
    for mission, variants in boards():
        for n in players:
            for diff in difficulties:
                for policy in ("random", "cautious", "heuristic"):
                    for seed in range(games):
                        chance = "explicit" if seed % 3 == 2 else "sample"
                        g = new_game(mission, n, diff, seed, variants, log=seed % 2 == 0,
                                     chance=chance)
                        choose = POLICIES[policy](seed)
                        while not g.is_over():
                            legal = g.legal_actions()
                            a = g.sample_chance() if g.is_chance_node() else choose(g)
                            h.update(f"{g.wait}|{'|'.join(map(str, legal))}>{a}\n".encode())
                            if decisions % 5 == 0:  # mid-game states, as saves' digests see
                                h.update(repr(sorted(g.fingerprint().items())).encode())
                            g.apply(a)
                            decisions += 1
                        h.update(repr(sorted(g.fingerprint().items())).encode())
                        h.update("\n".join(g.events()).encode())
    return h.hexdigest(), decisions


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3, help="games a cell and policy (default 3)")
    ap.add_argument("--quick", action="store_true", help="2 and 5 players, Easy only")
    args = ap.parse_args()
    players = (2, 5) if args.quick else (1, 2, 3, 4, 5, 6)
    diffs = ("easy",) if args.quick else ("easy", "hard")
    d, n = digest(args.games, players, diffs)
    print(f"digest of {n} decisions: {d}")


if __name__ == "__main__":
    main()
