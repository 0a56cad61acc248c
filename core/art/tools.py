"""What the tools ask of The A.R.T. Project (its state's `TOOLS`, found by core/games.py
`game_tools`), under the names every game gives them (docs/architecture.md, "Adding a
game"): the rules they load, its bots, and its parts of `simulate` (a game's result, the
table of results), `report` (the Hall of Fame and its plots, core/art/hall.py), `tune`
(the numbers a mission lets be tuned), `verify` (a game checked after every decision),
`play` (the game at a terminal, core/art/screen.py), `check` (what a file is), `render`
(the board as SVG, core/art/render.py) and `reference` (its files' keys in
docs/reference.md, core/art/reference.py). Where the tools' loops are used (verify's search,
play's session), this module and those it gathers are the one place of the game that
imports them, and the tools reach them only through the game.

What this game has that others may not, the tools ask for by name too: `difficulties(rules)`
(the grid's second axis: simulate's and verify's cells, tune's targets), `store_report` and
`PLOTS` (report's), `tunables`, `current` and `variant_text` (tune's).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import IO, Any, Final

from ...loop import (
    MAX_DECISIONS,
    cause_of,
    interval_text,
    main_cause,
    play,
    ranked_causes,
    wilson,
)
from ...missions import DEFAULT
from ...policies import check_policy, make_policy
from ...verify import (
    Example,
    Outcome,
    Report,
    counterexample_head,
    play_checked,
    scenario_text,
    search,
)
from ..errors import RulesError, RulesErrors
from ..invariants import check_properties
from ..schema import fields_of, params_of
from .bots import POLICIES, cautious_policy
from .hall import PLOTS, cause_lines, kinds_of
from .hall import hall_of_fame as store_report
from .loader import MISSION_KEYS, load_rules, shipped_missions
from .reference import reference
from .render import render
from .rules import Rules
from .scenarios import ScenarioFile
from .schema import PARAMETERS, MissionSpec
from .state import State
from .tables import MAX_PLAYERS
from .tunables import current, tunables, variant_text

DEFAULT_RULES: Final = DEFAULT
MAX_STEPS: Final = 3000  # verify: a game needing more decisions has a rule that never ends
HELD: Final = ("  checked after every decision: caps and conservation (R1, R2), the golden "
               "rule (R4, R5), lost cities (R11, R18), the track (R19), termination; per "
               "game: determinism, save and load, clone",)

__all__ = ["DEFAULT_RULES", "HELD", "PLOTS", "POLICIES", "check_file", "check_tuning",
           "counterexample_scenario", "current", "difficulties", "drawn", "load_rules", "new_rules",
           "play_game",
           "play_one", "players", "policy_names", "reference", "render", "report_csv",
           "report_text",
           "rules_digest", "run", "shipped_rules", "store_report", "summary", "tunables",
           "variant_text",
           "verify", "watch_game"]


# ====================================================================== simulate
def policy_names(text: str) -> list[str]:
    """The one policy that takes the team's decisions (`heuristic`, `ismcts:budget=64`);
    GameError naming an unknown policy or option, or a number out of its range."""
    check_policy(text, POLICIES)
    return [text]


def shipped_rules() -> list[str]:
    """Every shipped mission (`--mission all`)."""
    return shipped_missions()


def players(rules: Rules) -> tuple[int, int]:
    """The fewest and most players (the team's size: 1 to 6)."""
    return 1, MAX_PLAYERS


def difficulties(rules: Rules) -> list[str]:
    """The rules' difficulties, in their order (the base rules': easy to impossible)."""
    return list(rules.difficulties)


def play_game(rules: Rules, players: int, seed: int, policy: str,
              difficulty: str = "medium") -> tuple[State, int]:
    """One game played to its end by the policy (seeded by the game's seed): the game, and
    the decisions it took."""
    st = State.new(rules, players, difficulty, seed)
    return st, play(st, make_policy(policy, seed, POLICIES), MAX_DECISIONS)


def play_one(rules: Rules, players: int, seed: int, policy: str,
             difficulty: str = "medium") -> tuple[int, str, str, int, int]:
    """One game: (seed, won or lost, why, rounds, decisions)."""
    st, decisions = play_game(rules, players, seed, policy, difficulty)
    return seed, st.outcome or "", cause_of(st.reason), st.round, decisions


def rules_digest(rules: Rules) -> str:
    """A digest of what decides a game besides the engine: the merged mission document
    (its variants included) and the card texts."""
    digest = rules.cache.get("digest")
    if digest is None:
        doc = {"rules": rules.raw, "final": rules.final_card,
               "cards": {str(i): dict(c.text) for i, c in sorted(rules.cards.items())}}
        text = json.dumps(doc, sort_keys=True, default=str, separators=(",", ":"))
        digest = rules.cache["digest"] = hashlib.sha256(text.encode()).hexdigest()[:16]
    return str(digest)


def summary(key: Any, rows: Sequence[Any], seed: int, games: int,
            variants: list[str]) -> dict[str, Any]:
    """A cell's report from its games' rows (the Hall of Fame's row, and more)."""
    n = len(rows)
    won = sum(1 for r in rows if r.outcome == "won")
    causes = Counter(r.cause for r in rows if r.outcome != "won")
    lo, hi = wilson(won, n)
    return {
        "mission": key.mission, "difficulty": key.difficulty, "players": key.players,
        "games": n, "seed": seed, "policy": key.policy, "variants": variants,
        "won": won, "lost": n - won, "win_rate": won / n if n else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
        "causes": dict(ranked_causes(causes)),
        "average_rounds": sum(r.rounds for r in rows) / n if n else 0.0,
        "average_decisions": sum(r.decisions for r in rows) / n if n else 0.0,
    }


def report_text(cells: list[dict[str, Any]]) -> str:
    """The Hall of Fame: win rates with 95% confidence intervals, then the causes of loss."""
    from tabulate import tabulate

    first = cells[0]
    head = (f"Hall of Fame: {first['policy']} policy, {first['games']} games a row, seeds "
            f"{first['seed']}..{first['seed'] + first['games'] - 1}"
            + (f", variants {', '.join(first['variants'])}" if first["variants"] else ""))
    rows = [[c["mission"], c["difficulty"], c["players"], c["won"], c["games"],
             f"{100 * c['win_rate']:.1f}%",
             interval_text(*wilson(c["won"], c["games"])),  # (ci95 is rounded: data)
             c["average_rounds"], main_cause(kinds_of(Counter(c["causes"]))[0])]
            for c in cells]
    table = tabulate(rows, headers=["mission", "difficulty", "players", "won", "games",
                                    "win rate", "95% CI", "rounds", "main cause of loss"],
                     tablefmt="simple", floatfmt=".1f")  # (13.0, not 13)
    causes: Counter[str] = Counter()
    for c in cells:
        causes.update(c["causes"])
    lost = sum(c["lost"] for c in cells)
    lines = [head, "", table, "",
             f"causes of loss ({lost} games; the rulings cited are told in docs/rulings.md):"]
    return "\n".join(lines + cause_lines(causes))  # by kind, as report's (hall.py)


def report_csv(cells: list[dict[str, Any]]) -> str:
    """The cells as CSV, a row each: the data --json gives (the variants joined by '+', the
    causes as JSON), every fraction to four decimals; the columns before `variant` are the
    ones it always had, in their order (`main_cause` now its kind: R13's without its city),
    so a script that reads them by place still does."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["mission", "difficulty", "players", "games", "won", "win_rate", "ci95_low",
                "ci95_high", "average_rounds", "average_decisions", "main_cause", "variant",
                "policy", "seed", "lost", "causes"])
    for c in cells:
        w.writerow([c["mission"], c["difficulty"], c["players"], c["games"], c["won"],
                    *(f"{x:.4f}" for x in (c["win_rate"], *c["ci95"], c["average_rounds"],
                                           c["average_decisions"])),
                    main_cause(kinds_of(Counter(c["causes"]))[0]), "+".join(c["variants"]),
                    c["policy"], c["seed"], c["lost"],
                    json.dumps(c["causes"], ensure_ascii=False)])
    return buf.getvalue()


# ====================================================================== tune
def check_tuning(rules: Rules, dims: Sequence[Any], players: Sequence[int], told: str,
                 difficulties: Sequence[str] | None = None) -> None:
    """GameError unless `tune` may search these numbers with these team sizes and target
    difficulties: the mission declares some, and every number is played by some game (`told`:
    the option that named the sizes): a threat tuned for a team size by a game of that size,
    a [tune.solo] number by a 1-player game, a difficulty's health by a target of that
    difficulty (`difficulties`; None: not checked). A number no game plays would be chosen
    blind, and written as if it had been tested."""
    from ..errors import GameError

    if not dims:
        raise GameError(f"{rules.source}: the mission declares nothing to tune: add a [tune] "
                        "section (docs/missions.md)")
    unplayed = [d.name.partition(".")[2] for d in dims if d.name.startswith("threat_by_players.")
                and int(d.name.partition(".")[2]) not in players]
    if unplayed:  # a team size no game plays: its value would be chosen blind
        raise GameError(f"{told} plays no game with {' or '.join(unplayed)} players, so "
                        "[tune.threat_by_players] would choose their threat blind; add them to "
                        "--players (the default, 1-6, plays every team size)")
    _check_played(dims, players, told, difficulties)


def _check_played(dims: Sequence[Any], players: Sequence[int], told: str,
                  difficulties: Sequence[str] | None) -> None:
    """check_tuning's [tune.solo] and [tune.difficulty]: each played by some game."""
    from ..errors import GameError

    solo = [d.name for d in dims if d.name.startswith("solo.")]
    if solo and 1 not in players:
        raise GameError(f"{told} plays no 1-player game, so [tune.solo] would choose "
                        f"{', '.join(solo)} blind; add 1 to --players, or drop [tune.solo]")
    unaimed = [d.name for d in dims if d.name.startswith("difficulty.")
               and difficulties is not None and d.name.partition(".")[2] not in difficulties]
    if unaimed:
        raise GameError(f"--target names no {' or '.join(n[11:] for n in unaimed)} rate, so "
                        f"[tune.difficulty] would choose {', '.join(unaimed)} blind; add "
                        f"{unaimed[0][11:]}=RATE to --target, or drop it from [tune.difficulty]")


# ====================================================================== verify
def play_example(rules: Rules, ex: Example, deep: bool = True) -> Outcome:
    """Play one example, checking everything after every step; stop at the first violation.

    A pick of 0, and every choice after the example's own run out, is the cautious policy's
    (random, but never paying health needlessly): games go deep, and shrinking towards 0
    leaves only the choices that matter."""
    def start() -> Any:
        return State.new(rules, ex.players, ex.difficulty, ex.seed, log=True)

    return play_checked(start, ex, cautious_policy(ex.seed), MAX_STEPS, "",
                        check_properties, bool(rules.ref), deep)


def verify(rules: Rules, examples: int = 100, seed: int = 0,
           players: Sequence[int] = (1, 2, 3, 4, 5, 6),
           progress: Callable[[int, int, int], None] | None = None,
           difficulties: Sequence[str] | None = None) -> Report:
    """Search for a game that breaks an invariant or the mission's own `[[property]]`
    entries; shrink the first found."""
    return search(partial(play_example, rules), rules.name, examples, seed, players,
                  tuple(difficulties or rules.difficulties),
                  tuple(p.name for p in rules.properties), progress)


def counterexample_scenario(rules: Rules, mission: str, variants: Sequence[str],
                            ex: Example, failure: Outcome) -> str:
    """A scenario file (TOML text) that replays the counterexample and checks what broke."""
    # checked after every step: the scenario fails where the game broke, and passes once
    # the rules (or the mission's property) are mended
    head = counterexample_head(failure, ex, variants, mission=mission)
    return scenario_text({**head, "difficulty": ex.difficulty, "properties": True}, failure)


# ====================================================================== play
def run(st: State, stdin: IO[str], stdout: IO[str]) -> int:
    """Play at the terminal until the game ends, `quit`, or the end of the input (which
    saves and quits)."""
    from .screen import run as run_screen

    return run_screen(st, stdin, stdout)


# ====================================================================== new
def new_rules(name: str, base: str) -> str:
    """A new mission file named `name` that extends the shipped mission `base` (TOML text,
    every key it may set commented out); GameError for a name that is no mission name, or a
    base that is no shipped mission."""
    from ..errors import GameError, closest
    from .newmission import mission_text, valid_name

    if not valid_name(name):
        raise GameError(f"{name!r} is not a mission name: use lowercase letters, digits, "
                        "- and _")
    shipped = shipped_missions()
    if base not in shipped:
        raise GameError(f"unknown mission {base!r}{closest(base, shipped)}; shipped "
                        "missions: " + ", ".join(shipped))
    return mission_text(name, base, load_rules(base).title)


# ====================================================================== render
def drawn(rules: Rules, st: State | None) -> str:
    """What `render` drew, as its line tells it."""
    return f"{len(rules.cities)} cities" + (f", the position of round {st.round}" if st else "")


# ====================================================================== check
_BASE_SECTIONS: Final = ("components", "setup", "rules", "solo")
# Keys only a scenario has (steps, a position, a game's players, seed and phase...)
_SCENARIO_KEYS: Final = frozenset(params_of(ScenarioFile)) - frozenset(params_of(MissionSpec))


def kind_of(doc: Mapping[str, object], path: Path | None = None) -> str:
    """What a TOML file of this game is: scenario, cards, base, mission or variant."""
    if _SCENARIO_KEYS & doc.keys():
        return "scenario"
    if "card" in doc or "final" in doc:
        return "cards"
    if "extends" not in doc and "city" not in doc and (
            doc.get("name") == "base" or _whole_base(doc)):
        return "base"
    if any(k in doc for k in MISSION_KEYS):  # the loader refuses them in a variant
        return "mission"
    return "variant"


def _whole_base(doc: Mapping[str, object]) -> bool:
    """Whether a file holds the base rules whole, as missions/base.toml does: each of their
    four sections with every key that has no default. A variant `tune` writes may hold all
    four sections, a few numbers each: `simulate --variant` layers it, and so must
    `check`."""
    return all(isinstance(sec := doc.get(name), Mapping)
               and all(key in sec for key, _, _, default in fields_of(cls)
                       if default == "required")
               for name, cls in zip(_BASE_SECTIONS, PARAMETERS, strict=True))


def check_file(path: Path, doc: Mapping[str, Any],
               ) -> tuple[list[RulesError], list[RulesError], str]:
    """Every error and warning in a file of this game, and what it is (`kind_of`: a card
    file, a variant or a base file alone is checked on the default board)."""
    kind = kind_of(doc, path)
    try:
        if kind == "scenario":
            from ..scenario import run_scenario

            run_scenario(path)  # loading it checks every name; its verdict is `scenario`'s job
            return [], [], kind
        if kind == "cards":
            rules = load_rules(DEFAULT, cards=path.resolve())
        elif kind == "mission":
            rules = load_rules(path)
        elif kind == "base":
            rules = load_rules(DEFAULT, base=path)
        else:
            rules = load_rules(DEFAULT, [path])
    except RulesErrors as errs:
        return list(errs.errors), [], kind
    except RulesError as err:
        return [err], [], kind
    return [], list(rules.warnings), kind


# ====================================================================== watch
def watch_game(path: Path, kind: str) -> State | str:
    """What `serve --watch` draws of a clean file (`kind`: `check_file`'s): a mission's
    game as set up (agents, artworks, the pawns at the start; a variant: on the default
    board), or a note why a file of another kind draws nothing; RulesError or GameError
    where the rules do not make a game."""
    if kind not in ("mission", "variant"):
        return (f"a {kind} file: it checks clean; the watcher draws the board of a mission "
                "file (or of a variant, on the default board)")
    from .game import new_game

    rules = load_rules(path) if kind == "mission" else load_rules(DEFAULT, [path])
    return new_game(rules, players=2, difficulty=next(iter(rules.difficulties)), seed=1)
