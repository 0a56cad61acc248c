"""What the tools ask of Kuhn poker (its state's `TOOLS`, found by core/games.py
`game_tools`): the rules they load, its bots, and its parts of `simulate` (a game's result,
the table of results), `verify` (a game checked after every decision), `play` (hot seat at
a terminal), `check` (what a file is) and `render` (the table as SVG). The loops are the
tools' own (artproject/verify.py's search, artproject/play.py's session): this module is the
one place of the game that imports them, and the tools reach it only through the game.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import IO, Any, Final, cast

from ...hotseat import HotSeat, run_hot_seat
from ...loop import wilson
from ...policies import make_policy, policy_spec
from ...reference import part
from ...verify import (
    Example,
    Outcome,
    Report,
    counterexample_head,
    play_checked,
    scenario_text,
    search,
)
from ..actions import Action
from ..errors import GameError, RulesError, RulesErrors, closest
from ..schema import params_of
from .betting import P
from .bots import POLICIES
from .rules import DEFAULT, GAME, SEATS, KuhnRules, KuhnSpec, load_rules
from .scenarios import ScenarioFile
from .state import Kuhn
from .views import everything_view, screen

DEFAULT_RULES: Final = DEFAULT
MAX_DECISIONS: Final = 2 * SEATS  # each player checks or bets once and answers at most once
HELD: Final = ("  checked after every decision: every card in one place (K1), the stakes "
               "(K1, K2), the returns summing to 0 (K4); per game: determinism, save and "
               "load, clone",)

__all__ = ["DEFAULT_RULES", "HELD", "PLAY_BOTS", "POLICIES", "check_file",
           "counterexample_scenario",
           "drawn", "load_rules", "play_game", "play_one", "players", "policy_names",
           "reference", "render", "report_csv", "report_text", "rules_digest", "run",
           "summary", "verify", "watch_game"]


# ====================================================================== simulate
def policy_names(text: str) -> list[str]:
    """`heuristic,random` -> the policies seated in turn round the table; GameError naming
    an unknown one."""
    names = [t.strip() for t in text.split(",")]
    for n in names:
        if n.partition(":")[0] not in POLICIES:
            raise GameError(f"unknown policy {n!r} for Kuhn poker{closest(n, POLICIES)}; "
                            "policies: " + ", ".join(POLICIES) + " (a list seats them in "
                            "turn: heuristic,random)")
        policy_spec(n, POLICIES)
    return names


def players(rules: KuhnRules) -> tuple[int, int]:
    """The fewest and most players the rules allow (K1)."""
    return rules.min_players, rules.max_players


def seating(names: Sequence[str], players: int, seed: int) -> list[str]:
    """Each seat's policy in the hand of `seed`: the list turned by the seed, so that over a
    run each policy sits in every seat as often."""
    return [names[(s + seed) % len(names)] for s in range(players)]


def play_one(rules: KuhnRules, players: int, seed: int, policy: str,
             ) -> tuple[int, str, str, int, int]:
    """One hand: (seed, the winner's seat, each seat's return `-1 +1`, the pot, decisions)."""
    st, n = play_game(rules, players, seed, policy)
    assert st.outcome is not None
    return seed, st.outcome, " ".join(f"{r:+g}" for r in st.returns()), sum(st.stakes), n


def play_game(rules: KuhnRules, players: int, seed: int, policy: str) -> tuple[Kuhn, int]:
    """One hand played to its end by the policies seated in turn: the hand, and the
    decisions taken."""
    if not rules.min_players <= players <= rules.max_players:
        raise GameError(f"{rules.name} is played by {rules.played_by()}, not {players}")
    st = Kuhn.new(rules, players, seed)
    bots: list[Any] = [make_policy(n, seed * SEATS + s, POLICIES)
            for s, n in enumerate(seating(policy_names(policy), players, seed))]
    n = 0
    while st.outcome is None:
        st.apply(bots[st.turn](st))
        n += 1
    return st, n


def rules_digest(rules: KuhnRules) -> str:
    """A digest of what decides a hand besides the engine: the merged rules."""
    text = json.dumps(rules.raw, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def summary(key: Any, rows: Sequence[Any], seed: int, games: int,
            variants: list[str]) -> dict[str, Any]:
    """A cell's report (a player count): each seat's and each policy's wins and average
    return, with 95% intervals."""


    players, names = key.players, policy_names(key.policy)
    n = len(rows)
    wins: Counter[str] = Counter(r.outcome for r in rows)
    won: dict[int, list[float]] = {s: [] for s in range(players)}
    by_policy: dict[str, list[float]] = {p: [] for p in names}
    for r in rows:
        got = [float(x) for x in r.cause.split()]
        for s, (x, p) in enumerate(zip(got, seating(names, players, r.seed), strict=True)):
            won[s].append(x)
            by_policy[p].append(x)
    seats = [{"seat": P[s], "won": wins[P[s]], "win_rate": wins[P[s]] / n if n else 0.0,
              "ci95": [round(x, 4) for x in wilson(wins[P[s]], n)],
              "average_return": _mean(won[s]), "return_ci95": _interval(won[s])}
             for s in range(players)]
    pols = [{"policy": p, "seat_games": len(xs), "average_return": _mean(xs),
             "return_ci95": _interval(xs)} for p, xs in by_policy.items()]
    return {"game": GAME, "mission": key.mission, "players": players, "games": n,
            "seed": seed, "policy": key.policy, "variants": variants, "seats": seats,
            "policies": pols, "average_pot": _mean([float(r.rounds) for r in rows]),
            "average_decisions": _mean([float(r.decisions) for r in rows])}


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _interval(xs: Sequence[float]) -> list[float]:
    """A normal 95% interval of the mean."""
    if len(xs) < 2:
        return [_mean(xs), _mean(xs)]
    m = _mean(xs)
    sd = (sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) ** 0.5
    half = 1.96 * sd / len(xs) ** 0.5
    return [round(m - half, 4), round(m + half, 4)]


def report_text(cells: list[dict[str, Any]]) -> str:
    """The table: per player count, each seat's win rate and average return (chips a hand,
    with its 95% interval), then each policy's average return."""
    from tabulate import tabulate

    first = cells[0]
    head = (f"Kuhn poker: {first['policy']}, {first['games']} hands a row, seeds "
            f"{first['seed']}..{first['seed'] + first['games'] - 1}"
            + (f", variants {', '.join(first['variants'])}" if first["variants"] else ""))
    rows = []
    for c in cells:
        for s in c["seats"]:
            lo, hi = s["return_ci95"]
            rows.append([c["players"], c["games"], s["seat"], _pct(s["win_rate"]),
                         f"{s['average_return']:+.4f} ({lo:+.3f} to {hi:+.3f})"])
    table = tabulate(rows, headers=["players", "hands", "seat", "wins", "return a hand "
                                    "(95% CI)"], tablefmt="simple")
    pols = [f"  {p['policy']}: {p['average_return']:+.4f} a hand over {p['seat_games']} "
            f"seats ({c['players']} players)" for c in cells for p in c["policies"]]
    return "\n".join([head, "", table, "", "by policy:", *pols])


def report_csv(cells: list[dict[str, Any]]) -> str:
    """The cells as CSV, a row a seat of each: the data --json gives of it (the variants
    joined by '+'), every fraction to four decimals."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["players", "hands", "policy", "seat", "won", "win_rate", "average_return",
                "return_ci95_low", "return_ci95_high", "mission", "variant", "seed",
                "ci95_low", "ci95_high"])
    for c in cells:
        for s in c["seats"]:
            w.writerow([c["players"], c["games"], c["policy"], s["seat"], s["won"],
                        *(f"{x:.4f}" for x in (s["win_rate"], s["average_return"],
                                               *s["return_ci95"])),
                        c["mission"], "+".join(c["variants"]), c["seed"],
                        *(f"{x:.4f}" for x in s["ci95"])])
    return buf.getvalue()


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


# ====================================================================== verify
def play_example(rules: KuhnRules, ex: Example, deep: bool = True) -> Outcome:
    """One hand, checked after every decision (a pick of 0, and every one after the
    example's, is the random bot's)."""
    def start() -> Any:
        return Kuhn.new(rules, ex.players, ex.seed, log=True)

    return play_checked(start, ex, POLICIES["random"](ex.seed), MAX_DECISIONS, "",
                        _nothing, bool(rules.ref), deep)


def _nothing(st: Any) -> None:
    """Kuhn poker has no properties of its own beside the invariants."""


def verify(rules: KuhnRules, examples: int = 100, seed: int = 0,
           players: Sequence[int] = (2,),
           progress: Callable[[int, int, int], None] | None = None) -> Report:
    """Search for a hand that breaks an invariant; shrink the first found."""
    return search(partial(play_example, rules), rules.name, examples, seed, players, ("-",),
                  (), progress)


def counterexample_scenario(rules: KuhnRules, ref: str, variants: Sequence[str],
                            ex: Example, failure: Outcome) -> str:
    """A scenario file (TOML text) that replays the counterexample, invariants checked."""
    return scenario_text(counterexample_head(failure, ex, variants, game=GAME, rules=ref),
                         failure)


# ====================================================================== play


class KuhnSession(HotSeat):
    """A hand at one screen (artproject/play.py `HotSeat`): each player's card shown only
    after the screen is passed; the cards told once the hand ends."""

    title = "Kuhn poker"

    def to_act(self) -> int:
        return int(cast(Kuhn, self.st).turn)

    def legal(self) -> list[Action]:
        return list(self.st.legal_actions())

    def screen(self, viewer: int) -> str:
        return screen(cast(Kuhn, self.st), viewer)

    def finished(self) -> list[str]:
        cards = everything_view(self.st)["cards"]
        return [f"== {self.st.reason}; the cards: "
                + ", ".join(f"{s} {c}" for s, c in cards.items())]


PLAY_BOTS: Final = True  # `play --bots`: each decision is one seat's, so a bot may take a seat


def run(st: Kuhn, stdin: IO[str], stdout: IO[str],
        bots: Mapping[int, str] | None = None) -> int:
    """Play until the hand ends, `quit`, or the end of the input (which saves and quits);
    `bots`: the seats a bot plays, each bot's policy by its name (`play --bots`)."""
    return run_hot_seat(KuhnSession, st, stdin, stdout, bots)


# ====================================================================== check, render
_SCENARIO_KEYS: Final = frozenset(params_of(ScenarioFile)) - frozenset(params_of(KuhnSpec))


def check_file(path: Path, doc: Mapping[str, Any],
               ) -> tuple[list[RulesError], list[RulesError], str]:
    """Every error and warning in a file of this game, and what it is (`GAME:KIND`: a
    scenario, its rules, or a variant of them)."""
    if _SCENARIO_KEYS & doc.keys():
        from ..scenario import run_scenario

        run_scenario(path)  # loading it checks every name; its verdict is `scenario`'s job
        return [], [], f"{GAME}:scenario"
    whole = all(k in doc for k in ("deck", "betting", "players"))
    try:
        rules = load_rules(path) if whole else load_rules(DEFAULT, [path])
    except RulesErrors as errs:
        return list(errs.errors), [], f"{GAME}:{'rules' if whole else 'variant'}"
    return [], list(rules.warnings), f"{GAME}:{'rules' if whole else 'variant'}"


def render(rules: KuhnRules, st: Kuhn | None) -> str:
    """The deck (and a saved hand's table, every card face up) as SVG."""
    from xml.sax.saxutils import escape

    from ...render import SIGNATURE

    cards = everything_view(st)["cards"] if st is not None else {}
    items = [(c, "") for c in rules.cards] if st is None else [
        (c or "-", f"{s}: {st.stakes[i]} in" + (", folded" if st.folded[i] else ""))
        for i, (s, c) in enumerate(cards.items())]
    width = 20 + 110 * len(items)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="200">',
           f"<!-- {SIGNATURE} -->",
           f'<text x="10" y="24" font-size="16">{escape(rules.title)}</text>']
    for i, (card, note) in enumerate(items):
        x = 10 + 110 * i
        out.append(f'<rect x="{x}" y="40" width="100" height="130" rx="8" fill="white" '
                   'stroke="black"/>')
        out.append(f'<text x="{x + 50}" y="110" text-anchor="middle">{escape(card)}</text>')
        if note:
            out.append(f'<text x="{x + 50}" y="190" text-anchor="middle" font-size="12">'
                       f"{escape(note)}</text>")
    return "\n".join([*out, "</svg>", ""])


def drawn(rules: KuhnRules, st: Kuhn | None) -> str:
    """What `render` drew, for its line: the deck, or a saved hand's table."""
    return f"the table at turn {st.turn}" if st is not None else f"{len(rules.cards)} cards"


# ====================================================================== watch
def watch_game(path: Path, kind: str) -> Kuhn | str:
    """What `serve --watch` draws of a clean file (`kind`: `check_file`'s): a hand of its
    rules as dealt (the fewest players, the antes in, the cards face down; a variant: on
    the shipped rules), or a note why a scenario draws nothing; RulesError where the rules
    do not make a game."""
    if kind.endswith(":scenario"):
        return (f"a {kind} file: it checks clean; the watcher draws the table of a rules "
                "file or a variant (`artproject scenario` runs this one)")
    rules = load_rules(path) if kind.endswith(":rules") else load_rules(DEFAULT, [path])
    return Kuhn.new(rules, rules.min_players, seed=1)


# ====================================================================== reference
def reference() -> list[str]:
    """Its part of docs/reference.md: the keys of its rules and variants, its scenarios'
    and its saves' own (docs/architecture.md, "Adding a game", says what they mean)."""
    from .game import SaveFile
    from .rules import SECTIONS
    from .scenarios import StepFile

    out = ["# Kuhn poker", "",
           f"The worked example's files carry `game = \"{GAME}\"` at the top; the rules "
           "K1-K4 are numbered in `missions/kuhn.toml`'s comments and docs/architecture.md "
           "(\"Adding a game\") walks through each file.", ""]
    out += part("## Kuhn poker's rules and variants (`missions/kuhn.toml`)",
                "A variant holds any of the same keys and is layered on the rules (a `[deck]` "
                "of four cards and `max = 3`: three players).", SECTIONS)
    out += part("## Kuhn poker's scenario files", "",
                (("top", ScenarioFile), ("[[step]]", StepFile)))
    out += part("## Kuhn poker's saves", "", (("top", SaveFile),))
    return out
