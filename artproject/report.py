"""`artproject report`: the Hall of Fame from a results store, and its plots.

The table gives each cell (board, variant, policy, difficulty, team size) its win rate with
a 95% Wilson interval; Art of War's games (competitive: a winner's seat, not a team's win)
get simulate's own table, per seat and per policy, and no plots. The plots, as PNG and
SVG, drawn with matplotlib's object API (no window, no global state): the win rate by
difficulty for each board, a line a team size with interval bars; the game length in
rounds; the causes of loss.
"""

from __future__ import annotations

import io
import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from .core.errors import GameError
from .core.files import exists, write_atomic
from .simulate import wilson
from .store import CellKey, Row

ORDER: Final = ("easy", "medium", "hard", "impossible")  # the base rules' difficulties
PLOTS: Final = ("win-rate", "game-length", "causes-of-loss")
FORMATS: Final = ("png", "svg")


def _difficulty_order(d: str) -> tuple[int, str]:
    return (ORDER.index(d) if d in ORDER else len(ORDER), d)


Board = tuple[str, str, str, str, str]  # game, mission, variant, policy, rules' digest


def _board(r: Row | CellKey) -> Board:
    return (r.game, r.mission, r.variant, r.policy, r.rules)


def _mission(b: Board, boards: Sequence[Board]) -> str:
    """A board's mission, with its rules' digest when the store holds games of the same
    mission, variant and policy under other rules (a file edited between sweeps)."""
    twins = sum(1 for o in boards if o[:4] == b[:4])
    return b[1] + (f" [rules {b[4][:6]}]" if twins > 1 else "")


def _title(b: Board, boards: Sequence[Board]) -> str:
    return _mission(b, boards) + (f" + {b[2]}" if b[2] else "") + f" ({b[3]})"


def cells(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """One summary a cell, boards in name order, then difficulty, then team size."""
    groups: dict[CellKey, list[Row]] = defaultdict(list)
    for r in rows:
        groups[CellKey(r.game, r.mission, r.variant, r.rules, r.difficulty, r.players,
                       r.policy)].append(r)
    out = []
    for key in sorted(groups, key=lambda k: (_board(k), _difficulty_order(k.difficulty),
                                             k.players)):
        g = groups[key]
        won = sum(1 for r in g if r.outcome == "won")
        lo, hi = wilson(won, len(g))
        causes = Counter(r.cause for r in g if r.outcome != "won")
        out.append({"key": key, "games": len(g), "won": won, "win_rate": won / len(g),
                    "ci95": (lo, hi), "rounds": sum(r.rounds for r in g) / len(g),
                    "causes": causes, "seeds": (min(r.seed for r in g), max(r.seed for r in g))})
    return out


def hall_of_fame(rows: Sequence[Row], source: str) -> str:
    """The Hall of Fame as text: win rates with 95% Wilson intervals, then causes of loss."""
    from tabulate import tabulate

    table = []
    summary = cells(rows)
    boards = sorted({_board(c["key"]) for c in summary})
    for c in summary:
        k = c["key"]
        lo, hi = c["ci95"]
        main = c["causes"].most_common(1)[0][0] if c["causes"] else ""
        table.append([_mission(_board(k), boards), k.variant or "-", k.policy, k.difficulty,
                      k.players, c["won"], c["games"], f"{100 * c['win_rate']:.1f}%",
                      f"{100 * lo:.1f}-{100 * hi:.1f}%", f"{c['rounds']:.1f}", main])
    text = tabulate(table, headers=["mission", "variant", "policy", "difficulty", "players",
                                    "won", "games", "win rate", "95% CI", "rounds",
                                    "main cause of loss"], tablefmt="simple")
    causes = Counter(r.cause for r in rows if r.outcome != "won")
    lost = sum(causes.values())
    lines = [f"Hall of Fame: {len(rows)} games from {source}", "", text, "",
             f"causes of loss ({lost} games; the rulings cited are told in docs/rulings.md):"]
    lines += [f"  {k:6d}  {cause}" for cause, k in causes.most_common()]
    return "\n".join(lines)


WAR: Final = "art-of-war"  # Art of War's games: per-seat outcomes, not a team's


def war_report(rows: Sequence[Row]) -> str:
    """Art of War's games in a store: simulate's table for each (rules, variant, policies),
    a row for each player count (each seat's and each policy's win rate, 95% Wilson
    intervals, draws, turns, causes of death; artproject/aow/simulate.py)."""
    from .core.aow.simulate import report_text, summary

    groups: dict[CellKey, list[Row]] = defaultdict(list)
    for r in rows:
        groups[CellKey(r.game, r.mission, r.variant, r.rules, r.difficulty, r.players,
                       r.policy)].append(r)
    tables: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for key in sorted(groups, key=lambda k: (k.mission, k.variant, k.policy, k.players)):
        g = groups[key]
        variants = key.variant.split("+") if key.variant else []
        tables[(key.mission, key.variant, key.policy)].append(
            summary(key, g, min(r.seed for r in g), len(g), variants))
    return "\n\n".join(report_text(cells) for cells in tables.values())


# ---------------------------------------------------------------------- plots
def _figure(boards: int, width: float = 5.2, height: float = 3.6) -> tuple[Any, list[Any]]:
    from matplotlib.figure import Figure

    cols = min(3, boards)
    rows = math.ceil(boards / cols)
    fig = Figure(figsize=(width * cols, height * rows + 0.6), dpi=110, layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel().tolist()
    for ax in axes[boards:]:
        ax.set_visible(False)
    return fig, axes[:boards]


def plot_win_rate(rows: Sequence[Row]) -> Any:
    """Win rate by difficulty, a line a team size, with 95% Wilson interval bars."""
    summary = cells(rows)
    boards = sorted({_board(c["key"]) for c in summary})
    fig, axes = _figure(len(boards))
    teams = sorted({c["key"].players for c in summary})
    colours = _colours(len(teams))
    for ax, b in zip(axes, boards, strict=True):
        mine = [c for c in summary if _board(c["key"]) == b]
        diffs = sorted({c["key"].difficulty for c in mine}, key=_difficulty_order)
        x = {d: i for i, d in enumerate(diffs)}
        for j, p in enumerate(teams):
            pts = [c for c in mine if c["key"].players == p]
            if not pts:
                continue
            # the lines of the team sizes side by side, so that their bars do not overlap
            shift = (j - (len(teams) - 1) / 2) * 0.06
            xs = [x[c["key"].difficulty] + shift for c in pts]
            ys = [100 * c["win_rate"] for c in pts]
            err = [[100 * (c["win_rate"] - c["ci95"][0]) for c in pts],
                   [100 * (c["ci95"][1] - c["win_rate"]) for c in pts]]
            ax.errorbar(xs, ys, yerr=err, marker="o", markersize=4, capsize=3, linewidth=1.4,
                        color=colours[j], label=f"{p} player{'s' if p > 1 else ''}")
        ax.set_xticks(range(len(diffs)), diffs)
        ax.set_xlim(-0.4, len(diffs) - 0.6)
        ax.set_ylim(0, 100)
        ax.set_ylabel("win rate (%)")
        ax.set_title(_title(b, boards))
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize="small", loc="upper right")
    fig.suptitle("Win rate by difficulty and team size (bars: 95% Wilson interval)")
    return fig


def plot_game_length(rows: Sequence[Row]) -> Any:
    """How many rounds games last, by difficulty (won and lost games together)."""
    from matplotlib.ticker import MaxNLocator

    boards = sorted({_board(r) for r in rows})
    fig, axes = _figure(len(boards))
    for ax, b in zip(axes, boards, strict=True):
        mine = [r for r in rows if _board(r) == b]
        diffs = sorted({r.difficulty for r in mine}, key=_difficulty_order)
        colours = _colours(len(diffs))
        top = max(r.rounds for r in mine)
        bins = [i - 0.5 for i in range(1, top + 2)]
        for d, colour in zip(diffs, colours, strict=True):
            rounds = [r.rounds for r in mine if r.difficulty == d]
            ax.hist(rounds, bins=bins, histtype="step", linewidth=1.6, color=colour,
                    label=f"{d} (mean {sum(rounds) / len(rounds):.1f})")
        ax.set_xlabel("rounds")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("games")
        ax.set_title(_title(b, boards))
        ax.legend(fontsize="small")
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle("Game length: rounds played, by difficulty")
    return fig


def plot_causes(rows: Sequence[Row], most: int = 6) -> Any:
    """Why games are lost: for each board and difficulty, the share of each cause."""
    boards = sorted({_board(r) for r in rows})
    lost = [r for r in rows if r.outcome != "won"]
    overall = [c for c, _ in Counter(r.cause for r in lost).most_common()]
    shown = overall[:most]
    labels = [*shown, "other causes"] if len(overall) > most else shown
    colours = _colours(len(labels))
    fig, axes = _figure(len(boards), height=2.6)
    for ax, b in zip(axes, boards, strict=True):
        mine = [r for r in lost if _board(r) == b]
        diffs = sorted({r.difficulty for r in rows if _board(r) == b}, key=_difficulty_order)
        left = [0.0] * len(diffs)
        for label, colour in zip(labels, colours, strict=True):
            share = [_share(mine, d, label, shown) for d in diffs]
            ax.barh(range(len(diffs)), share, left=left, color=colour, label=label)
            left = [a + s for a, s in zip(left, share, strict=True)]
        ax.set_yticks(range(len(diffs)), diffs)
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_xlabel("share of lost games (%)")
        ax.set_title(_title(b, boards))
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=2,
               fontsize="small")
    fig.suptitle("Causes of loss, by difficulty")
    return fig


def _share(lost: Sequence[Row], difficulty: str, label: str, shown: list[str]) -> float:
    """The percentage of a difficulty's lost games with this cause (or another cause)."""
    here = [r for r in lost if r.difficulty == difficulty]
    k = sum(1 for r in here if (r.cause == label if label in shown else r.cause not in shown))
    return 100 * k / len(here) if here else 0.0


def _colours(n: int) -> list[Any]:
    from matplotlib import colormaps

    cmap = colormaps["tab10"]
    return [cmap(i % 10) for i in range(n)]


def _matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise GameError("report's plots need matplotlib: pip install 'artproject[plots]'"
                        ) from None


def write_plots(rows: Sequence[Row], out: Path, force: bool = False) -> list[Path]:
    """Draw the plots into the folder `out` as PNG and SVG. A file already there is an error
    (nothing is written) unless `force`; each file is written whole or not at all."""
    if not rows:
        raise GameError("the store holds no games: nothing to plot")
    _matplotlib()
    if exists(out) and not out.is_dir():
        raise GameError(f"{out}: not a folder (-o names the folder the plots go into)")
    paths = [out / f"{name}.{fmt}" for name in PLOTS for fmt in FORMATS]
    there = [p for p in paths if exists(p)]
    if there and not force:
        raise GameError(f"{there[0]} already exists; nothing was written (--force replaces "
                        f"{'it' if len(there) == 1 else f'the {len(there)} plots there'})")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise GameError(f"{out}: cannot make the folder: {err.strerror}") from None
    draw = {"win-rate": plot_win_rate, "game-length": plot_game_length,
            "causes-of-loss": plot_causes}
    drawn = []  # every plot drawn in memory before the first is written
    for name in PLOTS:
        fig = draw[name](rows)
        drawn += [(out / f"{name}.{fmt}", _drawn(fig, fmt)) for fmt in FORMATS]
    _write_all(drawn, force)
    return paths


def _write_all(drawn: list[tuple[Path, bytes]], force: bool) -> None:
    """Write the plots all or none: stopped half-way (a full disk), the files this call made
    go again, so that the same command retries without --force."""
    made: list[Path] = []
    try:
        for path, data in drawn:
            new = not exists(path)
            write_atomic(path, data, replace=force)
            if new:
                made.append(path)
    except GameError as err:
        for path in made:
            path.unlink(missing_ok=True)
        raise GameError(f"{err}; no plot was left behind: the same command again retries"
                        ) from None


def _drawn(fig: Any, fmt: str) -> bytes:
    """One plot drawn in memory (written whole by core/files.py: atomic, the umask's
    permissions, never over a file unless asked)."""
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, metadata=_metadata(fmt))
    return buf.getvalue()


def _metadata(fmt: str) -> dict[str, Any]:
    # no dates in the files: the same store draws the same bytes
    return {"svg": {"Date": None}, "png": {}}.get(fmt, {})
