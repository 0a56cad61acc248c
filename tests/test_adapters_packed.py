"""The packed tensors (core/tensors.py `Packer`, the adapters' `Packers`): a seat's tensor
kept as float32 bytes and only the segments whose key changed converted again is, to the
byte, the tensor made from scratch (the layout's writers, numpy's conversion), over many
random states of both games, every kind, seating and viewer, the states given in play
order, in random order and from other games (a packer compares values, never states).

Needs the `ai` extra for numpy (CI installs it through `dev`)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from artproject.adapters._common import Packers, start
from artproject.core.actions import PUBLIC, TEAM
from artproject.core.games import game_class
from artproject.core.tensors import KINDS, Packer, layout

GAMES = [("art-project", {"players": 2}), ("art-project", {"players": 4}),
         ("art-project", {"players": 1}), ("art-of-war", {"players": 2}),
         ("art-of-war", {"players": 3}), ("art-of-war", {"players": 6})]


def _states(game: str, options: dict[str, Any], n: int, seed: int) -> list[Any]:
    """`n` states of random games (each a copy, as play left it), new games as they end."""
    cls, rng, out, deal = game_class(game), random.Random(seed), [], seed
    while len(out) < n:
        g = cls.create(seed=deal, chance="sample", **options)
        deal += 1
        while g.outcome is None and len(out) < n:
            out.append(g.clone())
            g.apply(rng.choice(g.legal_actions()))
        out.append(g)  # the end too
    return out


def _scratch(lay: Any, st: Any, viewer: int) -> bytes:
    return np.asarray(lay.tensor(st, viewer), dtype=np.float32).tobytes()


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_packer_gives_the_tensor_made_from_scratch(game: str,
                                                     options: dict[str, Any]) -> None:
    states = _states(game, options, 700, seed=11)
    players = states[0].num_players()
    viewers = [*range(players), TEAM, PUBLIC]
    rng = random.Random(5)
    for kind in KINDS:
        lay = layout(states[0], kind)
        shared = Packer(lay)  # one packer for every viewer and state: the worst case
        own = {v: Packer(lay) for v in viewers}  # one a viewer, as the adapters keep them
        orders = [list(range(len(states))), rng.sample(range(len(states)), len(states))]
        for order in orders:
            for i in order:
                st, v = states[i], rng.choice(viewers)
                want = _scratch(lay, st, v)
                assert bytes(shared.update(st, v)) == want, (kind, i, v)
                assert bytes(own[v].update(st, v)) == want, (kind, i, v)


def test_a_packer_writes_into_a_shared_buffer_at_its_offset() -> None:
    """Packers sharing one buffer (a batch's rows) each write only their own bytes."""
    states = _states("art-of-war", {"players": 2}, 200, seed=3)
    lay = layout(states[0], "observation")
    size = 4 * lay.size
    buf = bytearray(3 * size + 8)
    packers = [Packer(lay, buf, 4 + i * size) for i in range(3)]
    for j in range(len(states) - 2):
        for i, p in enumerate(packers):
            p.update(states[j + i], i % 2)
        for i in range(3):
            assert buf[4 + i * size:4 + (i + 1) * size] == _scratch(lay, states[j + i], i % 2)
        assert buf[:4] == bytes(4) and buf[-4:] == bytes(4)
    packers[0].forget()
    buf[4:4 + size] = bytes(size)  # written by another: forgotten, it writes every segment
    packers[0].update(states[-3], 0)
    assert buf[4:4 + size] == _scratch(lay, states[-3], 0)


@pytest.mark.parametrize(("game", "options"), [
    ("art-project", {"players": 2, "seats": "players"}),
    ("art-project", {"players": 3, "seats": "team"}),
    ("art-of-war", {"players": 2}), ("art-of-war", {"players": 4})])
def test_the_adapters_packers_give_the_seats_tensors(game: str, options: dict[str, Any],
                                                     ) -> None:
    """`Packers` (every layout written as float32 in place), kept across the positions and
    games of random play as an adapter keeps it, gives each seat's tensor of both kinds as
    `Seated.tensor` makes it from scratch, the seat's own segments (the seat, a
    delegation) included."""
    rng = np.random.default_rng(9)
    packers, checked = Packers(), 0
    for episode in range(40):
        s = start(game, options, seed=episode, chance="sample")
        while not s.is_terminal() and checked < 2500:
            for seat in [*range(s.num_seats()), PUBLIC]:
                for kind in KINDS:
                    want = np.asarray(s.tensor(seat, kind, raw=True), dtype=np.float32)
                    got = packers.array(s, seat, kind)
                    assert got.tobytes() == want.tobytes(), (seat, kind)
                    checked += 1
            legal = s.legal()
            s.apply(legal[int(rng.integers(len(legal)))])
    assert checked >= 1000
