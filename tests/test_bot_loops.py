"""The heuristic bot never loops: a move that costs nothing (Rio's red roads, Scandinavia's
moves north) may be made again and again under the printed rules (R11 sets no limit), so
the bot itself must stop where its own free moves would bring the pawns back to where they
stood (core/art/bots/movement.py). Found by the team-threat sweep: Rio, 5 players,
Medium, seed 171, where one pawn walked Central-Lapa-Central forever."""

from __future__ import annotations

from typing import Any

import pytest

from artproject.core.art.bots import Heuristic
from artproject.core.art.bots.now import Now
from artproject.core.art.loader import load_rules
from artproject.core.art.state import State
from artproject.policies import make_policy
from artproject.simulate import play

LIMIT = 2000  # decisions: a whole game takes a few hundred


def test_rio_5_medium_seed_171_under_team_threat_ends() -> None:
    st = State.new(load_rules("rio", ["team-threat"]), 5, "medium", 171)
    play(st, make_policy("heuristic", 171), LIMIT)  # GameError if it does not end
    assert st.outcome in ("won", "lost")


def _phases(mission: str, variants: list[str], players: int, difficulty: str, seed: int,
            ) -> list[list[tuple[Any, ...]]]:
    """The positions of each move phase of a heuristic game, in order."""
    from artproject.core.art.bots.movement import _position

    st = State.new(load_rules(mission, variants), players, difficulty, seed)
    bot = Heuristic(seed)
    phases: list[list[tuple[Any, ...]]] = []
    before = None
    n = 0
    while st.outcome is None:
        assert n < LIMIT, f"{mission} {players} {difficulty} seed {seed}: no end"
        wait = st.wait.name if st.wait is not None else None
        if wait == "move":
            if before != "move":
                phases.append([])
            phases[-1].append(_position(st))
        before = wait
        st.apply(bot(st))
        n += 1
    return phases


@pytest.mark.parametrize(("mission", "variants", "players", "difficulty", "seed"), [
    ("rio", ["team-threat"], 5, "medium", 171),
    ("rio", [], 3, "hard", 7),
    ("scandinavia", ["team-threat"], 4, "easy", 3),
    ("scandinavia", [], 2, "medium", 11),
])
def test_no_move_phase_comes_back_to_a_position(mission: str, variants: list[str],
                                                players: int, difficulty: str,
                                                seed: int) -> None:
    """Within a move phase the bot never stands where it stood before: every free move it
    makes is progress, or it stops."""
    phases = _phases(mission, variants, players, difficulty, seed)
    assert phases
    for seen in phases:
        assert len(seen) == len(set(seen)), f"a position came back: {seen}"


def test_the_bot_still_wants_the_move_it_would_undo() -> None:
    """In the position where the loop began, the move the bot would make (a free one) is
    what its next free move undoes: it ends the movement there instead (`done`), and
    elsewhere takes the same moves as before."""
    from artproject.core.art.bots.movement import _position

    st = State.new(load_rules("rio", ["team-threat"]), 5, "medium", 171)
    bot = Heuristic(171)
    while True:
        a = bot(st)
        wanted = bot._move(st, st.legal_actions()) if st.wait is not None \
            and st.wait.name == "move" else a
        if wanted is not None and wanted != a:
            break
        st.apply(a)
        assert st.outcome is None, "the game ended without the bot stopping a loop"
    assert a.verb == "done" and wanted.verb == "move"
    assert bot._comes_back(st, wanted, Now(bot, st).b)
    back = st.clone()
    back.apply(wanted)
    again = bot._move(back, back.legal_actions())
    assert again is not None and again.verb == "move" and again.player == wanted.player
    back.apply(again)
    assert _position(back) == _position(st)


@pytest.mark.parametrize(("mission", "players", "seed"), [
    ("rio", 5, 171), ("rio", 2, 4),
])
def test_the_way_kept_takes_the_moves_worked_out_afresh(mission: str, players: int,
                                                       seed: int) -> None:
    """The free moves kept from a look ahead (`_ends`) are the ones the bot would work out
    again at each decision: a bot that forgets them each time plays the same game."""
    from artproject.core.art.bots.movement import _phase, _position

    rules = load_rules(mission, ["team-threat"])
    games = []
    kept = 0  # decisions taken from the way kept
    for forget in (False, True):
        st = State.new(rules, players, "hard", seed)
        bot = Heuristic(seed)
        actions = []
        while st.outcome is None:
            assert len(actions) < LIMIT
            if forget:
                bot._ends = (None, {})
            elif st.wait == "move" and bot._ends[0] == _phase(st) \
                    and _position(st) in bot._ends[1]:
                kept += 1
            a = bot(st)
            actions.append(a)
            st.apply(a)
        games.append(actions)
    assert kept and games[0] == games[1]
