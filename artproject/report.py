"""`artproject report`: a results store's games told by their games, and their plots.

Each game in the store tells its own games (its tools' `store_report`: The A.R.T. Project's
Hall of Fame of the team's win rates; by default simulate's own table of the game, its
`summary` and `report_text`, a table for each rules, variant and policy), the default game
first. The plots are those a game declares (its tools' `PLOTS`: name -> a function drawing
its rows), as PNG and SVG, drawn with matplotlib's object API (no window, no global state)
on the figures made here (`figure`, `colours`), a panel a board (`board_of`).
"""

from __future__ import annotations

import io
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from .core.errors import GameError
from .core.files import exists, write_atomic
from .core.games import DEFAULT, game_tools
from .extras import needs
from .store import CellKey, Row

FORMATS: Final = ("png", "svg")

Board = tuple[str, str, str, str, str]  # game, rules' name, variant, policy, rules' digest


def board_of(r: Row | CellKey) -> Board:
    """The board a game or cell was played on: a plot's panel, a table's group."""
    return (r.game, r.mission, r.variant, r.policy, r.rules)


def board_name(b: Board, boards: Sequence[Board]) -> str:
    """A board's rules, with their digest when the store holds games of the same rules,
    variant and policy under other rules (a file edited between sweeps)."""
    twins = sum(1 for o in boards if o[:4] == b[:4])
    return b[1] + (f" [rules {b[4][:6]}]" if twins > 1 else "")


def board_title(b: Board, boards: Sequence[Board]) -> str:
    """A board's panel title: its rules, variant and policy."""
    return board_name(b, boards) + (f" + {b[2]}" if b[2] else "") + f" ({b[3]})"


def games_of(rows: Sequence[Row]) -> dict[str, list[Row]]:
    """The store's rows by game, the default game first, then by name."""
    out: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        out[r.game].append(r)
    return {g: out[g] for g in sorted(out, key=lambda g: (g != DEFAULT, g))}


def respelt(rows: Sequence[Row]) -> list[Row]:
    """The rows with each policy spelt as the store keys it now (artproject.simulate
    `policy_key`: options at their default left out), a game stored under two spellings of
    one policy (a store written before) counted once; a policy not known here (a plug-in's)
    as it is."""
    from .simulate import policy_key

    spelt: dict[tuple[str, str], str] = {}
    seen: set[tuple[Any, ...]] = set()
    out = []
    for r in rows:
        if (r.game, r.policy) not in spelt:
            try:
                spelt[(r.game, r.policy)] = policy_key(r.policy, r.game)
            except GameError:
                spelt[(r.game, r.policy)] = r.policy
        row = r._replace(policy=spelt[(r.game, r.policy)])
        key = (row.game, row.mission, row.variant, row.rules, row.difficulty, row.players,
               row.policy, row.seed)
        if key not in seen:
            seen.add(key)
            out.append(row)
    return out


def report_text(rows: Sequence[Row], source: str) -> str:
    """Every game's games in the store, told by the game (see the module's text); an empty
    store is told by the default game."""
    by_game = games_of(rows) or {DEFAULT: []}
    return "\n\n".join(_told(game, list(mine), source) for game, mine in by_game.items())


def _told(game: str, rows: list[Row], source: str) -> str:
    tools = game_tools(game)
    own: Callable[[list[Row], str], str] | None = getattr(tools, "store_report", None)
    return own(rows, source) if own is not None else tables(tools, rows)


def tables(tools: Any, rows: Sequence[Row]) -> str:
    """A game's games as simulate tells them (its tools' `summary` and `report_text`): a
    table for each rules, variant and policy, a row for each player count."""
    groups: dict[CellKey, list[Row]] = defaultdict(list)
    for r in rows:
        groups[CellKey(r.game, r.mission, r.variant, r.rules, r.difficulty, r.players,
                       r.policy)].append(r)
    found: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for key in sorted(groups, key=lambda k: (k.mission, k.variant, k.policy, k.players)):
        g = groups[key]
        variants = key.variant.split("+") if key.variant else []
        found[(key.mission, key.variant, key.policy)].append(
            tools.summary(key, g, min(r.seed for r in g), len(g), variants))
    return "\n\n".join(str(tools.report_text(cells)) for cells in found.values())


def plots_of(rows: Sequence[Row]) -> list[tuple[str, Callable[[Sequence[Row]], Any], list[Row]]]:
    """The plots the store's games declare (their tools' `PLOTS`), each with its game's
    rows: (name, draw, rows)."""
    out = []
    for game, mine in games_of(rows).items():
        declared: dict[str, Callable[[Sequence[Row]], Any]] = getattr(game_tools(game), "PLOTS", {})
        out += [(name, draw, mine) for name, draw in declared.items()]
    return out


# ---------------------------------------------------------------------- plots
def figure(boards: int, width: float = 5.2, height: float = 3.6) -> tuple[Any, list[Any]]:
    """A figure of a panel a board (three a row), and its panels."""
    from matplotlib.figure import Figure

    cols = min(3, boards)
    rows = math.ceil(boards / cols)
    fig = Figure(figsize=(width * cols, height * rows + 0.6), dpi=110, layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel().tolist()
    for ax in axes[boards:]:
        ax.set_visible(False)
    return fig, axes[:boards]


def fitted(text: str, fig: Any, share: float = 1.0, points: float = 12.0) -> str:
    """`text` wrapped to fit `share` of the figure's width at a font of `points` (an
    average glyph is about 0.6 em wide): a long title or legend entry on a one-board
    figure is folded onto more lines, never cut at the figure's edges."""
    import textwrap

    chars = max(12, int(fig.get_figwidth() * share * 72 / (points * 0.6)))
    return "\n".join(textwrap.wrap(text, chars)) or text


def colours(n: int) -> list[Any]:
    """n colours told apart (matplotlib's tab10, again after ten)."""
    from matplotlib import colormaps

    cmap = colormaps["tab10"]
    return [cmap(i % 10) for i in range(n)]


def _matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise GameError(needs("report's plots (matplotlib)", "plots")) from None


def write_plots(rows: Sequence[Row], out: Path, force: bool = False) -> list[Path]:
    """Draw the plots the store's games declare (`plots_of`) into the folder `out` as PNG
    and SVG; the files written (none when no game declares any). A file already there is an
    error (nothing is written) unless `force`; each file is written whole or not at all."""
    if not rows:
        raise GameError("the store holds no games: nothing to plot")
    plots = plots_of(rows)
    if not plots:
        return []
    _matplotlib()
    if exists(out) and not out.is_dir():
        raise GameError(f"{out}: not a folder (-o names the folder the plots go into)")
    paths = [out / f"{name}.{fmt}" for name, _, _ in plots for fmt in FORMATS]
    there = [p for p in paths if exists(p)]
    if there and not force:
        raise GameError(f"{there[0]} already exists; nothing was written (--force replaces "
                        f"{'it' if len(there) == 1 else f'the {len(there)} plots there'})")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise GameError(f"{out}: cannot make the folder: {err.strerror}") from None
    drawn = []  # every plot drawn in memory before the first is written
    for name, draw, mine in plots:
        fig = draw(mine)
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
