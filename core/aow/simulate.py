"""Art of War's part of `simulate` (tools.py gives it to the tools): whole games under seat
policies, and their table.

`--policy heuristic,random` seats the policies in turn round the table, and game i (seed s)
shifts them by s, so that over a run each policy sits in every seat as often. A game's
result is its winner's seat (or `draw`), its length in turns, its decisions, and every
death with its cause and killers (W17, W18). The table gives each seat's win rate and each
policy's win rate per seat it held, with 95% Wilson intervals, against the fair share
(1 in N); then the game lengths and the causes of death.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from ...policies import make_policy
from ..errors import GameError, closest
from .bots import POLICIES
from .registry import GAME, P
from .rules import WarRules
from .state import War

MAX_DECISIONS: Final = 200_000  # W18's turn limit ends every game well before this
CAUSES: Final = {"cards": "out of cards (W17)", "tokens": "out of tokens (W17)"}


def policy_names(text: str) -> list[str]:
    """`heuristic,random` -> the policies seated in turn (a policy's options stay with it:
    `ismcts:budget=32,depth=60,heuristic` is two); GameError naming an unknown one or a bad
    option."""
    names: list[str] = []
    for t in (t.strip() for t in text.split(",")):
        if names and "=" in t and ":" not in t:
            names[-1] += "," + t  # another option of the policy before
        else:
            names.append(t)
    for n in names:
        name = n.partition(":")[0]
        if name not in POLICIES:
            raise GameError(f"unknown policy {name!r} for Art of War{closest(name, POLICIES)}; "
                            "policies: " + ", ".join(POLICIES) + " (a list seats them in turn: "
                            "heuristic,random)")
        from ...policies import check_policy

        check_policy(n, POLICIES)  # (its numbers within their bounds too)
    return names


def seating(names: Sequence[str], players: int, seed: int) -> list[str]:
    """Each seat's policy in the game of `seed` (see the module's text)."""
    return [names[(s + seed) % len(names)] for s in range(players)]


def play_game(rules: WarRules, players: int, seed: int, policy: str) -> tuple[War, int]:
    """One game played to its end by the policies seated in turn (see the module's text):
    the game, and the decisions taken."""
    st = War.new(rules, players, seed)
    names = seating(policy_names(policy), players, seed)
    bots: list[Any] = [make_policy(n, seed * 8 + s, POLICIES) for s, n in enumerate(names)]
    n = 0
    while st.outcome is None:
        st.apply(bots[st.current_player()](st))
        n += 1
        if n >= MAX_DECISIONS:
            raise GameError(f"the game did not end within {MAX_DECISIONS} decisions")
    return st, n


def play_one(rules: WarRules, players: int, seed: int, policy: str,
             ) -> tuple[int, str, str, int, int]:
    """One game: (seed, outcome, deaths, turns, decisions); outcome is the winner's seat
    (`p2`) or `draw`; deaths `p1 cards p2;p3 tokens p2` (seat, cause, killers)."""
    st, n = play_game(rules, players, seed, policy)
    deaths = ";".join(" ".join([P[p], cause, *(P[k] for k in ks)])
                      for _, p, cause, ks in st.deaths)
    return seed, st.outcome or "", deaths, st.turn, n


def rules_digest(rules: WarRules) -> str:
    """A digest of what decides a game besides the engine: the merged rules and the cards."""
    digest = rules.cache.get("digest")
    if digest is None:
        doc = {"rules": rules.raw, "cards": [
            [c.name, c.count, c.score, c.deal, c.bonus, c.draws, dict(c.text)]
            for c in rules.cards]}
        text = json.dumps(doc, sort_keys=True, default=str, separators=(",", ":"))
        digest = rules.cache["digest"] = hashlib.sha256(text.encode()).hexdigest()[:16]
    return str(digest)


def summary(key: Any, rows: Sequence[Any], seed: int, games: int,
            variants: list[str]) -> dict[str, Any]:
    """A cell's report (a player count) from its games' rows."""
    players, names = key.players, policy_names(key.policy)
    n = len(rows)
    seat_wins = Counter(r.outcome for r in rows)
    return {"game": GAME, "mission": key.mission, "players": players, "games": n,
            "seed": seed, "policy": key.policy, "variants": variants,
            "fair_share": 1 / players, "seats": _seats(seat_wins, players, n),
            "policies": _policies(rows, names, players), "draws": seat_wins["draw"],
            "average_turns": sum(r.rounds for r in rows) / n if n else 0.0,
            "longest": max((r.rounds for r in rows), default=0),
            "average_decisions": sum(r.decisions for r in rows) / n if n else 0.0,
            "causes": dict(_ranked(_causes(rows)))}


def _seats(wins: Counter[str], players: int, n: int) -> list[dict[str, Any]]:
    """Each seat's wins and win rate, with its 95% Wilson interval."""
    from ...loop import wilson

    return [{"seat": P[s], "won": wins[P[s]], "win_rate": wins[P[s]] / n if n else 0.0,
             "ci95": [round(x, 4) for x in wilson(wins[P[s]], n)]} for s in range(players)]


def _policies(rows: Sequence[Any], names: list[str], players: int) -> list[dict[str, Any]]:
    """Each policy's wins over the seats it held (seated in turn by each game's seed), with
    its 95% interval (`_interval`: over games, not seats; none for a policy in every seat)."""
    wins: Counter[str] = Counter()
    seats: Counter[str] = Counter()
    games: Counter[str] = Counter()
    for r in rows:
        seated = seating(names, players, r.seed)
        seats.update(seated)
        games.update(set(seated))
        if r.outcome in P:
            wins[seated[P.index(r.outcome)]] += 1
    alone = len(set(names)) == 1
    return [{"policy": p, "seat_games": seats[p], "games": games[p], "won": wins[p],
             "win_rate": wins[p] / seats[p] if seats[p] else 0.0,
             "ci95": None if alone else [round(x, 4) for x in
                                         _interval(wins[p], games[p], seats[p])]}
            for p in dict.fromkeys(names)]


def _interval(won: int, games: int, seat_games: int) -> tuple[float, float]:
    """A policy's 95% Wilson interval of wins a seat, over the games it played: the seats of
    one game are no independent trials (one seat wins, the others lose), but each game is
    one, won by the policy or not; the games' interval is scaled by the seats a game it
    held. A policy in every seat has none: its wins a seat are fixed by the design (a game
    not drawn, one win over every seat)."""
    from ...loop import wilson

    lo, hi = wilson(won, games)
    per = games / seat_games if seat_games else 1.0
    return lo * per, hi * per


def _causes(rows: Sequence[Any]) -> Counter[str]:
    """The deaths by their cause (W17's, told as CAUSES says)."""
    causes: Counter[str] = Counter()
    for r in rows:
        for death in filter(None, r.cause.split(";")):
            cause = death.split()[1]
            causes[CAUSES.get(cause, cause)] += 1
    return causes


def report_text(cells: list[dict[str, Any]]) -> str:
    """The table: per player count, each seat's and each policy's win rate (95% Wilson
    interval) against the fair share, draws, game length; then the causes of death."""
    from tabulate import tabulate

    first = cells[0]
    seated = " (seated in turn)" if "," in first["policy"] else " in every seat"
    head = (f"Art of War: {first['policy']}{seated}, {first['games']} games a row, "
            f"seeds {first['seed']}..{first['seed'] + first['games'] - 1}"
            + (f", variants {', '.join(first['variants'])}" if first["variants"] else ""))
    rows = []
    for c in cells:
        seats = "  ".join(f"{s['seat']} {_pct(s['win_rate'])}" for s in c["seats"])
        for i, p in enumerate(c["policies"]):
            rows.append([c["players"] if i == 0 else "", c["games"] if i == 0 else "",
                         p["policy"], _pct(p["win_rate"]) + _interval_text(p),
                         _pct(c["fair_share"]), c["draws"] if i == 0 else "",
                         f"{c['average_turns']:.1f} (max {c['longest']})" if i == 0 else "",
                         seats if i == 0 else ""])
    table = tabulate(rows, headers=["players", "games", "policy", "wins a seat (95% CI)",
                                    "fair", "draws", "turns", "wins by seat"],
                     tablefmt="simple")
    causes: Counter[str] = Counter()
    for c in cells:
        causes.update(c["causes"])
    lines = [head, "", table, "", f"causes of death ({sum(causes.values())} deaths; the "
             "rulings cited are told in docs/rulings.md):"]
    lines += [f"  {k:6d}  {cause}" for cause, k in _ranked(causes)]
    return "\n".join(lines)


def report_csv(cells: list[dict[str, Any]]) -> str:
    """The cells as CSV, a row a policy of each: the data --json gives of it (the variants
    joined by '+', the seated policies as `lineup`), every fraction to four decimals."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["players", "games", "policy", "seat_games", "won", "win_rate", "ci95_low",
                "ci95_high", "fair_share", "draws", "average_turns", "mission", "variant",
                "seed", "lineup", "average_decisions", "longest"])
    for c in cells:
        for p in c["policies"]:
            w.writerow([c["players"], c["games"], p["policy"], p["seat_games"], p["won"],
                        f"{p['win_rate']:.4f}",
                        *(f"{x:.4f}" for x in p["ci95"] or ()), *([""] * 2 * (not p["ci95"])),
                        f"{c['fair_share']:.4f}",
                        c["draws"], f"{c['average_turns']:.4f}", c["mission"],
                        "+".join(c["variants"]), c["seed"], c["policy"],
                        f"{c['average_decisions']:.4f}", c["longest"]])
    return buf.getvalue()


def _interval_text(p: dict[str, Any]) -> str:
    """A policy's interval as the table prints it: exact (its ci95 is rounded data), or
    none where the design fixes the figure (a policy in every seat)."""
    if p["ci95"] is None:
        return " (every seat: fixed)"
    lo, hi = _interval(p["won"], p["games"], p["seat_games"])
    return f" ({_pct(lo)}-{_pct(hi)})"


def _ranked(causes: Counter[str]) -> list[tuple[str, int]]:
    """The causes, most first, a tie by name: the same for simulate and report."""
    from ...loop import ranked_causes

    return ranked_causes(causes)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"
