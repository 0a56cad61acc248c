"""`artproject tune MISSION`: search the numbers a mission lets be tuned for target win rates.

The mission's `[tune]` section (core/art/tunables.py) names the numbers and their ranges. Optuna's
TPE sampler, seeded, proposes values; each trial plays the same grid (the target's
difficulties x the team sizes, the same seeds) on the sweep's backend and scores the mean
squared distance of its win rates from the targets. Trials run one after another, each
trial's games in parallel, so the search is reproducible: the same arguments find the same
values on one process or a cluster. The mission's own values (when inside the ranges) are
the first trial, so the result is never worse than the mission on these games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from .core.art.loader import load_rules
from .core.art.rules import Rules
from .core.art.tunables import Tunable, current, tunables, variant_text
from .core.errors import GameError, closest
from .sweep import Grid, run_sweep


def parse_targets(text: str, difficulties: Sequence[str]) -> dict[str, float]:
    """`easy=0.7,hard=0.2` as a mapping; an unknown difficulty or a rate outside 0..1 is a
    GameError naming it."""
    out: dict[str, float] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, eq, value = part.partition("=")
        name = name.strip()
        if not eq:
            raise GameError(f"--target: {part!r} is not DIFFICULTY=RATE (easy=0.7)")
        if name not in difficulties:
            raise GameError(f"--target: unknown difficulty {name!r}{closest(name, difficulties)}"
                            "; expected one of: " + ", ".join(difficulties))
        try:
            rate = float(value)
        except ValueError:
            rate = -1.0
        if not 0.0 <= rate <= 1.0:
            raise GameError(f"--target: {name}'s rate must be a number from 0 to 1, not "
                            f"{value.strip()!r}")
        out[name] = rate
    if not out:
        raise GameError("--target names no difficulty (easy=0.7,hard=0.2)")
    return out


@attrs.frozen
class Result:
    """What a search found: the values, and the grid's reports before and after."""

    values: dict[str, int]
    before: list[dict[str, Any]]
    after: list[dict[str, Any]]
    loss_before: float
    loss_after: float
    trials: int
    text: str  # the variant file


def loss(cells: Sequence[Mapping[str, Any]], targets: Mapping[str, float]) -> float:
    """Mean squared distance of the cells' win rates from their difficulty's target."""
    return float(sum((c["win_rate"] - targets[c["difficulty"]]) ** 2 for c in cells)
                 / len(cells))


def search(mission: str, variants: Sequence[str], targets: Mapping[str, float],
           players: Sequence[int], games: int, trials: int, seed: int, policy: str,
           backend: Any, progress: Callable[[int, float], None] | None = None) -> Result:
    """Search the mission's tunables (see the module's text)."""
    try:
        import optuna
    except ImportError:
        raise GameError("tune needs Optuna: pip install 'artproject[tune]'") from None
    rules = load_rules(mission, variants)
    dims = tunables(rules)
    if not dims:
        raise GameError(f"{rules.source}: the mission declares nothing to tune: add a [tune] "
                        "section (docs/missions.md)")
    grid = Grid((mission,), tuple(targets), tuple(players), games, seed, tuple(variants),
                policy)

    def play(values: Mapping[str, int]) -> list[dict[str, Any]]:
        text = variant_text(rules, values, _about(values))
        return run_sweep(attrs.evolve(grid, texts=(text,)), backend)

    before = run_sweep(grid, backend)
    seen: dict[int, list[dict[str, Any]]] = {}

    def objective(trial: Any) -> float:
        values = {d.name: trial.suggest_int(d.name, d.low, d.high) for d in dims}
        cells = play(values)
        seen[trial.number] = cells
        score = loss(cells, targets)
        if progress is not None:
            progress(1, score)
        return score

    optuna.logging.set_verbosity(optuna.logging.CRITICAL)  # a failed trial is ours to tell
    study = optuna.create_study(direction="minimize",
                                sampler=optuna.samplers.TPESampler(seed=seed))
    now = {d.name: current(rules, d.name) for d in dims}
    if all(d.low <= now[d.name] <= d.high for d in dims):
        study.enqueue_trial(now)  # the mission as it is: the search never ends worse
    study.optimize(objective, n_trials=trials, catch=())
    best = study.best_trial
    values = {d.name: int(best.params[d.name]) for d in dims}
    return Result(values, before, seen[best.number], loss(before, targets),
                  loss(seen[best.number], targets),
                  len(study.trials), variant_text(rules, values, _about(values)))


def _about(values: Mapping[str, int]) -> str:
    return "Tuned by artproject tune: " + ", ".join(f"{k} = {v}" for k, v in values.items())


def report(result: Result, targets: Mapping[str, float], rules: Rules,
           dims: Sequence[Tunable]) -> str:
    """The table before and after, and the values found."""
    from tabulate import tabulate

    rows = []
    for b, a in zip(result.before, result.after, strict=True):
        rows.append([b["mission"], b["difficulty"], b["players"],
                     f"{100 * targets[b['difficulty']]:.0f}%", _rate(b), _rate(a)])
    table = tabulate(rows, headers=["mission", "difficulty", "players", "target",
                                    "before (95% CI)", "after (95% CI)"], tablefmt="simple")
    lines = [table, "",
             f"mean squared distance from the targets: {result.loss_before:.4f} before, "
             f"{result.loss_after:.4f} after ({result.trials} trials)", "values:"]
    for d in dims:
        lines.append(f"  {d.name:28s} {current(rules, d.name):5d} -> "
                     f"{result.values[d.name]:5d}   (range {d.low}..{d.high})")
    return "\n".join(lines)


def _rate(c: Mapping[str, Any]) -> str:
    lo, hi = c["ci95"]
    return f"{100 * c['win_rate']:.1f}% ({100 * lo:.0f}-{100 * hi:.0f}%)"
