"""Seeded whole games, decision by decision with their events, diffed against stored ones.

A change that makes any of these games play differently (a faster path that is not quite
the same rule, a new generator, retuned cards) shows here as a diff. When a game is meant
to change, write the transcripts again and read the diff before committing:

    ARTPROJECT_WRITE_TRANSCRIPTS=1 python -m pytest tests/test_transcripts.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from artproject import State, new_game
from artproject.core.art.bots import POLICIES

HERE = Path(__file__).parent / "transcripts"
WRITE = os.environ.get("ARTPROJECT_WRITE_TRANSCRIPTS") == "1"
# (board, players, difficulty, seed, policy): every board, the solo mode and big teams
GAMES = [
    ("japan", 2, "medium", 1, "heuristic"),
    ("egypt", 3, "easy", 2, "heuristic"),
    ("usa", 4, "hard", 3, "cautious"),
    ("scandinavia", 2, "easy", 4, "heuristic"),
    ("polynesia", 1, "medium", 5, "heuristic"),
    ("rio", 3, "easy", 6, "heuristic"),
]


def transcript(mission: str, players: int, difficulty: str, seed: int, policy: str) -> str:
    """The game as text: the events of set-up, then each decision (`> action`) followed by
    the events it caused, then the outcome."""
    g: State = new_game(mission, players, difficulty, seed, log=True)
    choose = POLICIES[policy](seed)
    lines = [f"# {mission}, {players} players, {difficulty}, seed {seed}, {policy} policy"]
    seen = 0
    while True:
        events = g.events()
        lines += events[seen:]
        seen = len(events)
        if g.is_over():
            break
        action = choose(g)
        lines.append(f"> {action}")
        g.apply(action)
    lines.append(f"= {g.outcome}: {g.reason}")
    return "\n".join(lines) + "\n"


def _same_as_stored(path: Path, now: str) -> None:
    """The game's transcript is the one stored at `path` (written there first when
    ARTPROJECT_WRITE_TRANSCRIPTS is set); else the test fails with the diff."""
    if WRITE:
        HERE.mkdir(exist_ok=True)
        path.write_text(now)
    stored = path.read_text()
    if now != stored:
        diff = "".join(list(difflib.unified_diff(
            stored.splitlines(keepends=True), now.splitlines(keepends=True),
            str(path), "this run", n=2))[:80])
        pytest.fail(f"{path.name} plays differently now (rewrite with "
                    f"ARTPROJECT_WRITE_TRANSCRIPTS=1 if meant):\n{diff}", pytrace=False)


@pytest.mark.parametrize("game", GAMES, ids=[f"{g[0]}-{g[1]}p" for g in GAMES])
def test_game_plays_as_recorded(game: tuple[str, int, str, int, str]) -> None:
    path = HERE / f"{game[0]}-{game[1]}p-{game[2]}-seed{game[3]}-{game[4]}.txt"
    now = transcript(*game)
    _same_as_stored(path, now)


# Art of War: (players, seed, policies seated in turn, variant or ""): heuristic and random
# seats, the Massacre and the Fortune Teller drawn, W6's house rule
WAR_GAMES = [
    (3, 1, "heuristic", ""),
    (5, 2, "heuristic,random", ""),
    (4, 3, "random", "refused-card-hand"),
]


def _war_name(players: int, seed: int, policies: str, variant: str) -> str:
    tail = f"-{variant}" if variant else ""
    return f"art-of-war-{players}p-seed{seed}-{policies.replace(',', '-')}{tail}.txt"


def war_transcript(players: int, seed: int, policies: str, variant: str) -> str:
    """An Art of War game as text, the same way: events, `> action`, the outcome."""
    from artproject.core.aow.bots import POLICIES as WAR

    g = new_game("art-of-war", players=players, seed=seed, log=True,
                 variants=[variant] if variant else [])
    names = policies.split(",")
    seats = [WAR[names[p % len(names)]](seed + p) for p in range(players)]
    lines = [f"# art-of-war, {players} players, seed {seed}, {policies}, {variant or 'seed rules'}"]
    seen = 0
    while True:
        events = g.events()
        lines += events[seen:]
        seen = len(events)
        if g.is_over():
            break
        action = seats[g.current_player()](g)
        lines.append(f"> {action}")
        g.apply(action)
    lines.append(f"= {g.outcome}: {g.reason}; returns {g.returns()}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("game", WAR_GAMES, ids=[_war_name(*g)[11:-4] for g in WAR_GAMES])
def test_art_of_war_plays_as_recorded(game: tuple[int, int, str, str]) -> None:
    path = HERE / _war_name(*game)
    now = war_transcript(*game)
    _same_as_stored(path, now)


def test_transcripts_are_all_in_use() -> None:
    """No stored transcript is left behind by a game taken off the list."""
    names = {f"{g[0]}-{g[1]}p-{g[2]}-seed{g[3]}-{g[4]}.txt" for g in GAMES}
    names |= {_war_name(*g) for g in WAR_GAMES}
    assert {p.name for p in HERE.glob("*.txt")} == names
