"""Art of War solved: OpenSpiel's CFR+ on the `duel` variant (missions/variants/duel.toml), its
exploitability iteration by iteration, and the strategy it converges to, in words.

    python bench/solve.py [--iterations N] [--variants duel] [--solver cfr+|cfr]
                          [--strategy] [--markdown]

The game goes to OpenSpiel through the adapter (`python_art_of_war`, `variants=duel`, its two
players zero-sum); the solver is OpenSpiel's own (C++ `CFRPlusSolver` or `CFRSolver`, calling
the Python game), and so is `exploitability` (NashConv / 2: how much a best response to the
average policy gains, in the game's units: +1 a win). `--strategy` then plays the average
policy from every deal and sums, reach-weighted, how often each choice is taken in each
situation (who decides, what they hold, the bet), the table docs/ai.md reads in words.
Seconds are wall-clock on a machine shared with other work: read them as an order of size.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from typing import Any

import pyspiel

import artproject.adapters.openspiel  # noqa: F401 (registers the games)

CHECKPOINTS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048)


def solve(variants: str, iterations: int, solver: str = "cfr+",
          ) -> tuple[Any, list[tuple[int, float, float]]]:
    """The solver after `iterations`, and (iteration, exploitability, seconds so far) at
    each checkpoint (and the last)."""
    game = pyspiel.load_game("python_art_of_war", {"variants": variants})
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    s = pyspiel.CFRPlusSolver(game) if solver == "cfr+" else pyspiel.CFRSolver(game)
    curve = []
    t = time.perf_counter()
    for i in range(1, iterations + 1):
        s.evaluate_and_update_policy()
        if i in CHECKPOINTS or i == iterations:
            e = pyspiel.exploitability(game, s.average_policy())
            curve.append((i, e, time.perf_counter() - t))
    return s, curve


def situation(state: Any) -> tuple[str, ...]:
    """What the player deciding knows that matters, in words: the decision, their role, the
    cards they hold, the bet on the table."""
    g = state.seated.game
    p = g.ask if g.ask >= 0 else g.current
    names = g.rules.cards
    hand = "+".join(sorted(names[k].name for k in g.hands[p])) or "nothing"
    f = g.fight
    role = "attacker" if f is not None and f.attacker == p else "defender" if f else "turn"
    bet = f"bet {f.bet}" + (f", raised {f.raised}" if f.raised else "") if f else ""
    played = ""
    if f is not None and f.card[p] >= 0:
        played = f"laid {names[f.card[p]].name}"
    return (g.wait_name(), f"p{p + 1}", role, f"holds {hand}", played, bet)


def strategy(game: Any, policy: Any,
             ) -> tuple[dict[tuple[str, ...], dict[str, float]], list[float]]:
    """Reach-weighted frequencies of each choice in each situation (decisions of one choice
    left out), over every deal, both players playing `policy`; and the game's value to
    each player under it (its expected returns)."""
    out: dict[tuple[str, ...], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    value = [0.0] * game.num_players()

    def walk(state: Any, reach: float) -> None:
        if state.is_terminal():
            for p, r in enumerate(state.returns()):
                value[p] += reach * r
            return
        if reach < 1e-12:
            return
        if state.is_chance_node():
            for a, p in state.chance_outcomes():
                walk(state.child(a), reach * p)
            return
        probs = policy.action_probabilities(state)
        legal = state.legal_actions()
        if len(legal) > 1:
            key = situation(state)
            for a in legal:
                text = " ".join(state.action_to_string(state.current_player(), a).split()[::2])
                out[key][text] += reach * probs.get(a, 0.0)
        for a in legal:
            if probs.get(a, 0.0) > 0:
                walk(state.child(a), reach * probs[a])

    walk(game.new_initial_state(), 1.0)
    return out, value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=64)
    ap.add_argument("--variants", default="duel")
    ap.add_argument("--solver", choices=("cfr+", "cfr"), default="cfr+")
    ap.add_argument("--strategy", action="store_true", help="print the strategy found")
    ap.add_argument("--markdown", action="store_true", help="tables as Markdown")
    args = ap.parse_args()
    s, curve = solve(args.variants, args.iterations, args.solver)
    if args.markdown:
        print(f"| {args.solver} iterations | exploitability | seconds |\n| --- | --- | --- |")
        for i, e, t in curve:
            print(f"| {i} | {e:.5f} | {t:.0f} |")
    else:
        for i, e, t in curve:
            print(f"{args.solver} {i:5d}  exploitability {e:.6f}  {t:7.1f} s")
    if not args.strategy:
        return
    game = pyspiel.load_game("python_art_of_war", {"variants": args.variants})
    table, value = strategy(game, s.average_policy())
    print(f"the game's value under the average policy: p1 {value[0]:+.4f}, p2 {value[1]:+.4f}")
    for key in sorted(table):
        total = sum(table[key].values())
        if total < 1e-6:
            continue
        shares = ", ".join(f"{a} {v / total:.0%}" for a, v in sorted(table[key].items())
                           if v / total >= 0.005)
        words = " ".join(k for k in key if k)
        print(f"| {words} | {total:.3f} | {shares} |" if args.markdown
              else f"{words:60s} reach {total:.3f}: {shares}")


if __name__ == "__main__":
    main()
