"""`artproject tune MISSION`: search the numbers a game's rules let be tuned for target win
rates, by difficulty.

The game says what may be tuned (its tools' `tunables(rules)`, `current(rules, name)` and
`variant_text(rules, values, about)`: The A.R.T. Project's from a mission's `[tune]`
section, core/art/tunables.py), the numbers and their ranges. Optuna's
TPE sampler, seeded, proposes values; each trial plays the same grid (the target's
difficulties x the team sizes, the same seeds) on the sweep's backend and scores the mean
squared distance of its win rates from the targets. Trials run one after another, each
trial's games in parallel, so the search is reproducible: the same arguments find the same
values on one process or a cluster. The mission itself (when its own values are inside the
ranges) is the first trial: its rules unchanged, its games the "before" column's; the
game's `variant_text` of the mission's own values changes nothing.

The best trial is best on the games it was chosen by, which flatters it: chance alone makes
some trial look better than it is. So the best values and the mission's own are measured
again on fresh games (the seeds after the search's), and the mission's own are kept -- no
variant written -- unless the best values beat them there too (or when the best trial is
the mission itself). The report's values are always the best trial's, whose numbers the
"after" columns show, with what they change beyond the values (as the game's variant text
says in its `# ` lines); when the trials' scores differ by less than their noise (too few
games a cell), it says so.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from .core.errors import GameError, RulesError, closest
from .core.games import DEFAULT, game_class, game_tools
from .extras import needs
from .sweep import Grid, run_sweep


def tuning(game: str) -> Any:
    """The game's tools, if it lets its rules be tuned (they give `tunables`); GameError
    otherwise."""
    tools = game_tools(game)
    if not hasattr(tools, "tunables"):
        raise GameError(f"{game_class(game).TITLE} declares nothing to tune")
    return tools


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
    """What a search found: the best trial's values, and the grid's reports before (the
    mission) and after (the best trial), on the search's games and on fresh ones."""

    values: dict[str, int]  # the best trial's (written unless `kept`)
    before: list[dict[str, Any]]
    after: list[dict[str, Any]]
    loss_before: float
    loss_after: float
    trials: int
    text: str  # the variant file ("" when the mission's own values are kept)
    fresh_before: list[dict[str, Any]] = attrs.field(factory=list)
    fresh_after: list[dict[str, Any]] = attrs.field(factory=list)
    kept: bool = False  # no trial beat the mission's own values: nothing to write
    noise: float = 0.0  # the 95% margin of a difference of two trials' scores
    lead: float = 0.0  # how far the best trial's score lies ahead of the next one to it

    @property
    def too_few_games(self) -> bool:
        """The trials' scores differ by less than their noise: more games tell them apart."""
        return self.lead < self.noise


def loss(cells: Sequence[Mapping[str, Any]], targets: Mapping[str, float]) -> float:
    """Mean squared distance of the cells' win rates from their difficulty's target."""
    return float(sum((c["win_rate"] - targets[c["difficulty"]]) ** 2 for c in cells)
                 / len(cells))


def loss_noise(cells: Sequence[Mapping[str, Any]], targets: Mapping[str, float]) -> float:
    """The 95% margin of the difference between two trials' scores on these games: each
    cell's win rate varies by p(1-p)/games, its squared distance by about
    (2 (p - target))^2 p(1-p)/games + 2 (p(1-p)/games)^2 (the delta method, with its second
    order term for a rate on its target); two trials, each that noisy, differ by sqrt(2)
    times one's."""
    var = 0.0
    for c in cells:
        p, n = c["win_rate"], max(1, c["games"])
        v = max(p * (1 - p), 1 / (4 * n)) / n  # a rate of 0 or 1 on few games is not sure
        var += (2 * (p - targets[c["difficulty"]])) ** 2 * v + 2 * v * v
    return 1.96 * math.sqrt(2 * var) / len(cells)


def search(mission: str, variants: Sequence[str], targets: Mapping[str, float],
           players: Sequence[int], games: int, trials: int, seed: int, policy: str,
           backend: Any, progress: Callable[[int, float], None] | None = None,
           game: str = DEFAULT) -> Result:
    """Search the rules' tunables (see the module's text)."""
    try:
        import optuna
    except ImportError:
        raise GameError(needs("tune (Optuna)", "tune")) from None
    tools = tuning(game)
    rules = tools.load_rules(mission, variants)
    dims = tools.tunables(rules)
    current, variant_text = tools.current, tools.variant_text
    if not dims:
        raise GameError(f"{rules.source}: the mission declares nothing to tune: add a [tune] "
                        "section (docs/missions.md)")
    grid = Grid((mission,), tuple(targets), tuple(players), games, seed, tuple(variants),
                policy, game=game)
    now = {d.name: current(rules, d.name) for d in dims}
    before = run_sweep(grid, backend)

    def play(values: Mapping[str, int]) -> list[dict[str, Any]]:
        if dict(values) == now:  # the mission itself, as "before" played it
            return before
        return _trial(grid, backend, variant_text(rules, values, _about(values)), values)

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
                                sampler=optuna.samplers.TPESampler(seed=sampler_seed(seed)))
    if all(d.low <= now[d.name] <= d.high for d in dims):
        study.enqueue_trial(now)  # the mission as it is: the search never ends worse
    study.optimize(objective, n_trials=trials, catch=())
    best = study.best_trial
    values = {d.name: int(best.params[d.name]) for d in dims}
    loss_best = loss(seen[best.number], targets)
    common: dict[str, Any] = {
        "before": before, "after": seen[best.number], "loss_before": loss(before, targets),
        "loss_after": loss_best, "trials": len(study.trials),
        "noise": loss_noise(before, targets), "lead": _lead(study.trials, before, loss_best,
                                                            targets)}
    if values == now or loss_best >= loss(before, targets):  # none beat the mission
        return Result(values=values, text="", kept=True, **common)
    fresh = attrs.evolve(grid, seed=seed + games)  # seeds the search did not play
    fresh_before = run_sweep(fresh, backend)
    text = variant_text(rules, values, _about(values))
    fresh_after = _trial(fresh, backend, text, values)
    kept = loss(fresh_after, targets) >= loss(fresh_before, targets)
    return Result(values=values, text="" if kept else text,
                  fresh_before=fresh_before, fresh_after=fresh_after, kept=kept, **common)


def _trial(grid: Grid, backend: Any, text: str, values: Mapping[str, int],
           ) -> list[dict[str, Any]]:
    """The grid played with a trial's variant; rules that refuse it a GameError: their
    errors (each by its key: the trial's file is temporary), then the trial's values. The
    game's check of what it lets be tuned refuses the ranges it can tell would break the
    rules; the combinations of numbers it cannot foresee are told here."""
    try:
        return run_sweep(attrs.evolve(grid, texts=(text,)), backend)
    except RulesError as err:
        raise GameError(f"{err}\nartproject: the trial {_values_text(values)} makes rules "
                        "that are refused (above); nothing was written: narrow the mission's "
                        "[tune] ranges to values the rules accept") from None


def sampler_seed(seed: int) -> int:
    """The sampler's seed from ours: numpy (under Optuna) takes 0 to 2**32 - 1 only, so a
    seed is reduced into that range (its low 32 bits); the same --seed, the same trials."""
    return seed % 2**32


def _lead(trials: Sequence[Any], before: Sequence[Mapping[str, Any]], loss_best: float,
          targets: Mapping[str, float]) -> float:
    """How far the best trial's score lies ahead of the next one to it: the runner-up among
    the sets of values tried (each once: the sampler may propose one twice) or, when the
    best beat them, the mission's own values."""
    scores = sorted({tuple(sorted(t.params.items())): t.value for t in trials
                     if t.value is not None}.values())
    lead = (scores[1] - scores[0]) if len(scores) > 1 else math.inf
    beat = loss(before, targets) - loss_best
    return min(lead, beat) if beat > 0 else lead


def _about(values: Mapping[str, int]) -> str:
    return "Tuned by artproject tune: " + _values_text(values)


def _values_text(values: Mapping[str, int]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in values.items())


def report(result: Result, targets: Mapping[str, float], rules: Any,
           dims: Sequence[Any], game: str = DEFAULT) -> str:
    """The table before and after (on the search's games, then on fresh ones), and the best
    trial's values (the "after" columns'), with what they change beyond them."""
    lines = [_table(result.before, result.after, targets, ""), "",
             f"mean squared distance from the targets on the search's games: "
             f"{result.loss_before:.4f} before, {result.loss_after:.4f} after "
             f"({result.trials} trials)"]
    if result.fresh_before:
        lines += ["", _table(result.fresh_before, result.fresh_after, targets, "fresh: "),
                  "", "on fresh games (seeds the search did not play): "
                  f"{loss(result.fresh_before, targets):.4f} before, "
                  f"{loss(result.fresh_after, targets):.4f} after"]
    lines += _values(result.values, rules, dims, game)
    if result.too_few_games:
        lines.append(f"warning: too few games to tell the trials apart: the best trial leads "
                     f"by {max(result.lead, 0.0):.4f}, within the noise of a score "
                     f"(+-{result.noise:.4f} at 95%); play more --games")
    return "\n".join(lines)


def _values(values: Mapping[str, int], rules: Any, dims: Sequence[Any],
            game: str) -> list[str]:
    """The best trial's values beside the mission's, and what its variant changes beyond
    them (the `# ` lines of the game's variant text for them, in the game's words)."""
    tools = tuning(game)
    own = {d.name: tools.current(rules, d.name) for d in dims}
    if dict(values) == own:
        return ["values: the mission's own (the best trial is the mission itself)"]
    lines = ["values (the best trial's, the \"after\" columns'):"]
    for d in dims:
        lines.append(f"  {d.name:28s} {own[d.name]:5d} -> {values[d.name]:5d}   "
                     f"(range {d.low}..{d.high})")
    text = tools.variant_text(rules, values, "")
    return lines + [f"  {line[2:]}" for line in text.splitlines() if line.startswith("# ")]


def _table(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
           targets: Mapping[str, float], label: str) -> str:
    from tabulate import tabulate

    rows = []
    for b, a in zip(before, after, strict=True):
        rows.append([b["mission"], b["difficulty"], b["players"],
                     f"{100 * targets[b['difficulty']]:.0f}%", _rate(b), _rate(a)])
    return tabulate(rows, headers=["mission", "difficulty", "players", "target",
                                   f"{label}before (95% CI)", f"{label}after (95% CI)"],
                    tablefmt="simple")


def _rate(c: Mapping[str, Any]) -> str:
    lo, hi = c["ci95"]
    return f"{100 * c['win_rate']:.1f}% ({100 * lo:.0f}-{100 * hi:.0f}%)"
