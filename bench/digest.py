"""A digest of whole games, every decision's legal actions included: the speed work's guard.

    python bench/digest.py [--games N] [--quick] [--game art-project | art-of-war]

Plays N games a cell (every shipped board, Japan with each shipped variant, and two
fixtures with hooks on the round's events: bench/missions/every-hook.toml and
tests/missions/round-end-hooks.toml; 1 to 6 players, Easy and Hard; the random,
cautious and heuristic policies; sampled chance, and explicit chance with the generator's
own draws), hashing at each decision the pending kind, the legal actions in order and the
action taken, and at each game's end its fingerprint and its events. The same digest before
and after a change means the change played every one of these games identically.

`--game art-of-war` digests Art of War's games the same way: N games a cell (default 100), its
shipped rules alone and with each shipped variant, 2 to 7 players, its random and heuristic
policies, sampled and explicit chance, every other game logging its events.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path
from typing import Any

from artproject import new_game
from artproject.core.art.bots import POLICIES
from artproject.core.art.loader import shipped_missions, shipped_variants

HERE = Path(__file__).resolve().parent


def boards() -> list[tuple[str, tuple[str, ...]]]:
    """(mission, variants) of every game the digest plays."""
    variants = shipped_variants()  # The A.R.T. Project's (another game's lie beside them)
    none: tuple[str, ...] = ()
    return ([(m, none) for m in shipped_missions()] + [("japan", (v,)) for v in variants]
            + [(str(HERE / "missions" / "every-hook.toml"), none),
               (str(HERE.parent / "tests" / "missions" / "round-end-hooks.toml"), none)])


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


def _play(g: Any, choose: Any, h: Any, decisions: int) -> int:
    """One game to its end, hashed as `digest` hashes A.R.T.'s; the decisions counted so far."""
    while not g.is_over():
        legal = g.legal_actions()
        a = g.sample_chance() if g.is_chance_node() else choose(g)
        h.update(f"{g.wait}|{'|'.join(map(str, legal))}>{a}\n".encode())
        if decisions % 5 == 0:
            h.update(repr(sorted(g.fingerprint().items())).encode())
        g.apply(a)
        decisions += 1
    h.update(repr(sorted(g.fingerprint().items())).encode())
    h.update("\n".join(g.events()).encode())
    return decisions


def war_digest(games: int, players: tuple[int, ...]) -> tuple[str, int]:
    """Art of War's games (see the module's text)."""
    from artproject.core.aow.bots import POLICIES as WAR_POLICIES
    from artproject.core.aow.loader import load_rules as war_rules
    from artproject.core.aow.loader import shipped_variants as war_variants

    h = hashlib.sha256()
    decisions = 0
    for variants in [(), *((v,) for v in war_variants())]:
        rules = war_rules("art-of-war", variants)
        low, high = rules.p("components.min_players"), rules.p("components.max_players")
        for n in players:
            if not low <= n <= high:  # (the duel is for two)
                continue
            for policy in ("random", "heuristic"):
                for seed in range(games):
                    chance = "explicit" if seed % 3 == 2 else "sample"
                    g = new_game("art-of-war", players=n, seed=seed, variants=variants,
                                 log=seed % 2 == 0, chance=chance)
                    decisions = _play(g, WAR_POLICIES[policy](seed), h, decisions)
    return h.hexdigest(), decisions


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, help="games a cell and policy (default 3; Art of "
                                              "War's 100)")
    ap.add_argument("--quick", action="store_true", help="2 and 5 players, Easy only")
    ap.add_argument("--game", choices=("art-project", "art-of-war"), default="art-project",
                    help="whose games (default The A.R.T. Project's)")
    args = ap.parse_args()
    if args.game == "art-of-war":
        d, n = war_digest(args.games or 100, (2, 5) if args.quick else (2, 3, 4, 5, 6, 7))
        print(f"art of war: digest of {n} decisions: {d}")
        return
    args.games = args.games or 3
    players = (2, 5) if args.quick else (1, 2, 3, 4, 5, 6)
    diffs = ("easy",) if args.quick else ("easy", "hard")
    d, n = digest(args.games, players, diffs)
    print(f"digest of {n} decisions: {d}")


if __name__ == "__main__":
    main()
