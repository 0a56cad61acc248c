"""The A.R.T. Project's part of `artproject report`: the Hall of Fame (a store's games as the
team's win rate a cell, with 95% Wilson intervals, and the causes of loss) and its plots
(the win rate by difficulty, a line a team size; the game length in rounds; the causes of
loss), drawn with the report's own figures (artproject/report.py) and named to the tools by
this game's tools module (`store_report`, `PLOTS`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Any, Final

from ...loop import interval_text, main_cause, ranked_causes, wilson
from ...report import board_name, board_of, board_title, colours, figure, fitted
from ...store import CellKey, Row

ORDER: Final = ("easy", "medium", "hard", "impossible")  # the base rules' difficulties
SMALL: Final = 8.5  # points: the legends' font


# A cause that names the city it happened in (R13: "a pawn in lost CITY cannot leave"): its
# kind is the cause with the city taken out. The engine gives the reason as text only (the
# printed game's events hold it), so the city is found where R13's reason writes it.
_IN_CITY: Final = re.compile(r"^(?P<head>.*\bin lost )(?P<city>.+?)(?P<tail> cannot leave\b.*)$")


def cause_kind(cause: str) -> str:
    """A cause of loss by its kind: a city it names taken out (`a pawn in a lost city cannot
    leave (R13)`), any other cause as it is."""
    m = _IN_CITY.match(cause)
    return f"{m['head'][:-5]}a lost city{m['tail']}" if m else cause


def kinds_of(causes: Counter[str]) -> tuple[Counter[str], dict[str, Counter[str]]]:
    """Causes counted by kind (`cause_kind`), and each kind's causes by the city named (its
    detail, for the list of causes: empty for a kind that names none)."""
    kinds: Counter[str] = Counter()
    detail: dict[str, Counter[str]] = defaultdict(Counter)
    for cause, k in causes.items():
        kinds[cause_kind(cause)] += k
        m = _IN_CITY.match(cause)
        if m:
            detail[cause_kind(cause)][m["city"]] += k
    return kinds, detail


def cause_lines(causes: Counter[str]) -> list[str]:
    """The list of causes of loss, by kind, the most first; a kind that names cities says
    how many games each city took."""
    kinds, detail = kinds_of(causes)
    return [f"  {k:6d}  {kind}" + (": " + ", ".join(f"{city} {n}" for city, n in
                                                     ranked_causes(detail[kind]))
                                   if kind in detail else "")
            for kind, k in ranked_causes(kinds)]


def _difficulty_order(d: str) -> tuple[int, str]:
    return (ORDER.index(d) if d in ORDER else len(ORDER), d)


def cells(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """One summary a cell, boards in name order, then difficulty, then team size."""
    groups: dict[CellKey, list[Row]] = defaultdict(list)
    for r in rows:
        groups[CellKey(r.game, r.mission, r.variant, r.rules, r.difficulty, r.players,
                       r.policy)].append(r)
    out = []
    for key in sorted(groups, key=lambda k: (board_of(k), _difficulty_order(k.difficulty),
                                             k.players)):
        g = groups[key]
        won = sum(1 for r in g if r.outcome == "won")
        lo, hi = wilson(won, len(g))
        causes = Counter(cause_kind(r.cause) for r in g if r.outcome != "won")
        out.append({"key": key, "games": len(g), "won": won, "win_rate": won / len(g),
                    "ci95": (lo, hi), "rounds": sum(r.rounds for r in g) / len(g),
                    "causes": causes, "seeds": (min(r.seed for r in g), max(r.seed for r in g))})
    return out


def hall_of_fame(rows: Sequence[Row], source: str) -> str:
    """The Hall of Fame as text: win rates with 95% Wilson intervals, then causes of loss."""
    from tabulate import tabulate

    table = []
    summary = cells(rows)
    boards = sorted({board_of(c["key"]) for c in summary})
    for c in summary:
        k = c["key"]
        lo, hi = c["ci95"]
        main = main_cause(c["causes"])  # simulate's, on a tie too (core/art/tools.py)
        table.append([board_name(board_of(k), boards), k.variant or "-", k.policy,
                      k.difficulty, k.players, c["won"], c["games"],
                      f"{100 * c['win_rate']:.1f}%", interval_text(lo, hi),
                      c["rounds"], main])
    text = tabulate(table, headers=["mission", "variant", "policy", "difficulty", "players",
                                    "won", "games", "win rate", "95% CI", "rounds",
                                    "main cause of loss"], tablefmt="simple",
                    floatfmt=".1f")  # every mean to one decimal (13.0, never 13)
    causes = Counter(r.cause for r in rows if r.outcome != "won")
    lost = sum(causes.values())
    lines = [f"Hall of Fame: {len(rows)} games from {source}", "", text, "",
             f"causes of loss ({lost} games; the rulings cited are told in docs/rulings.md):"]
    return "\n".join(lines + cause_lines(causes))


# ---------------------------------------------------------------------- plots
def plot_win_rate(rows: Sequence[Row]) -> Any:
    """Win rate by difficulty, a line a team size, with 95% Wilson interval bars."""
    summary = cells(rows)
    boards = sorted({board_of(c["key"]) for c in summary})
    fig, axes = figure(len(boards))
    teams = sorted({c["key"].players for c in summary})
    for ax, b in zip(axes, boards, strict=True):
        _win_rates(ax, [c for c in summary if board_of(c["key"]) == b], teams)
        ax.set_title(fitted(board_title(b, boards), fig, 1 / min(3, len(boards))))
    # one legend, every team size of every panel (a size only another panel has: labelled
    # too), each size a colour on every panel
    lines = {label: h for ax in axes for h, label in zip(*ax.get_legend_handles_labels(),
                                                          strict=True)}
    labels = sorted(lines, key=lambda label: int(label.split()[0]))
    axes[0].legend([lines[k] for k in labels], labels, fontsize="small", loc="upper right")
    fig.suptitle(fitted("Win rate by difficulty and team size (bars: 95% Wilson interval)",
                        fig))
    return fig


def _win_rates(ax: Any, mine: Sequence[dict[str, Any]], teams: Sequence[int]) -> None:
    """One board's lines, a team size each, on `ax`."""
    diffs = sorted({c["key"].difficulty for c in mine}, key=_difficulty_order)
    x = {d: i for i, d in enumerate(diffs)}
    for j, (p, colour) in enumerate(zip(teams, colours(len(teams)), strict=True)):
        pts = [c for c in mine if c["key"].players == p]
        if pts:
            # the lines of the team sizes side by side, so that their bars do not overlap
            shift = (j - (len(teams) - 1) / 2) * 0.06
            _line(ax, pts, [x[c["key"].difficulty] + shift for c in pts], colour,
                  f"{p} player{'s' if p > 1 else ''}")
    ax.set_xticks(range(len(diffs)), diffs)
    ax.set_xlim(-0.4, len(diffs) - 0.6)
    ax.set_ylim(0, 100)
    ax.set_ylabel("win rate (%)")
    ax.grid(axis="y", alpha=0.3)


def _line(ax: Any, pts: Sequence[dict[str, Any]], xs: list[float], colour: Any,
          label: str) -> None:
    """A team size's win rates, with their intervals as bars."""
    ys = [100 * c["win_rate"] for c in pts]
    err = [[100 * (c["win_rate"] - c["ci95"][0]) for c in pts],
           [100 * (c["ci95"][1] - c["win_rate"]) for c in pts]]
    ax.errorbar(xs, ys, yerr=err, marker="o", markersize=4, capsize=3, linewidth=1.4,
                color=colour, label=label)


def plot_game_length(rows: Sequence[Row]) -> Any:
    """How many rounds games last, by difficulty (won and lost games together)."""
    from matplotlib.ticker import MaxNLocator

    boards = sorted({board_of(r) for r in rows})
    fig, axes = figure(len(boards))
    for ax, b in zip(axes, boards, strict=True):
        mine = [r for r in rows if board_of(r) == b]
        diffs = sorted({r.difficulty for r in mine}, key=_difficulty_order)
        top = max(r.rounds for r in mine)
        bins = [i - 0.5 for i in range(1, top + 2)]
        for d, colour in zip(diffs, colours(len(diffs)), strict=True):
            rounds = [r.rounds for r in mine if r.difficulty == d]
            ax.hist(rounds, bins=bins, histtype="step", linewidth=1.6, color=colour,
                    label=f"{d} (mean {sum(rounds) / len(rounds):.1f})")
        ax.set_xlabel("rounds")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("games")
        ax.set_title(fitted(board_title(b, boards), fig, 1 / min(3, len(boards))))
        ax.legend(fontsize="small")
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(fitted("Game length: rounds played, by difficulty", fig))
    return fig


def plot_causes(rows: Sequence[Row], most: int = 6) -> Any:
    """Why games are lost: for each board and difficulty, the share of each cause."""
    boards = sorted({board_of(r) for r in rows})
    lost = [r._replace(cause=cause_kind(r.cause)) for r in rows if r.outcome != "won"]
    overall = [c for c, _ in ranked_causes(Counter(r.cause for r in lost))]
    shown = overall[:most]
    labels = [*shown, "other causes"] if len(overall) > most else shown
    fig, axes = figure(len(boards), height=2.6)
    for ax, b in zip(axes, boards, strict=True):
        mine = [r for r in lost if board_of(r) == b]
        diffs = sorted({r.difficulty for r in rows if board_of(r) == b}, key=_difficulty_order)
        left = [0.0] * len(diffs)
        for label, colour in zip(labels, colours(len(labels)), strict=True):
            share = [_share(mine, d, label, shown) for d in diffs]
            ax.barh(range(len(diffs)), share, left=left, color=colour, label=label)
            left = [a + s for a, s in zip(left, share, strict=True)]
        ax.set_yticks(range(len(diffs)), diffs)
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_xlabel("share of lost games (%)")
        ax.set_title(fitted(board_title(b, boards), fig, 1 / min(3, len(boards))))
    _fitted_legend(fig, axes[0], min(3, len(boards)))
    fig.suptitle(fitted("Causes of loss, by difficulty", fig))
    return fig


def _fitted_legend(fig: Any, ax: Any, ncols: int) -> None:
    """The figure's legend below its panels, a column a panel's width (one on a one-board
    figure), each entry folded to fit its column."""
    handles, names = ax.get_legend_handles_labels()
    fig.legend(handles, [fitted(n, fig, 0.9 / ncols, SMALL) for n in names],
               loc="outside lower center", ncols=ncols, fontsize=SMALL)


def _share(lost: Sequence[Row], difficulty: str, label: str, shown: list[str]) -> float:
    """The percentage of a difficulty's lost games with this cause (or another cause)."""
    here = [r for r in lost if r.difficulty == difficulty]
    k = sum(1 for r in here if (r.cause == label if label in shown else r.cause not in shown))
    return 100 * k / len(here) if here else 0.0


PLOTS: Final[dict[str, Callable[[Sequence[Row]], Any]]] = {
    "win-rate": plot_win_rate, "game-length": plot_game_length,
    "causes-of-loss": plot_causes}
