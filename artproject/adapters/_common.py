"""What the three adapters share: starting a game of any registered game from the adapters'
parameters (the game's own `OPTIONS` and `seats`), and a seat's view as numpy arrays."""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..core.errors import ArtError, GameError, closest
from ..core.games import game_class
from ..core.seats import Seated, check_seating
from ..core.tensors import Layout, Packer, layout

KERNEL_OPTIONS = ("variants", "seats", "reward")
REWARDS = ("terminal", "shaped")


def parameters(game: str) -> dict[str, Any]:
    """The adapters' parameters of a game with their defaults: its own options, `variants`
    (variant names or files layered on its rules, joined by `+`) and `seats`."""
    cls = game_class(game)
    return {**cls.OPTIONS, "variants": "", "seats": cls.SEATINGS[0], "reward": REWARDS[0]}


def reward_mode(options: Mapping[str, Any]) -> str:
    """The `reward` parameter: "terminal" (the returns at the end, the default) or
    "shaped" (the change in the shaped score each step); GameError for another."""
    mode = options.get("reward", REWARDS[0])
    if mode not in REWARDS:
        raise GameError(f"parameter 'reward' must be one of {', '.join(REWARDS)}, not "
                        f"{mode!r}")
    return str(mode)


class Potential:
    """Shaped rewards: each seat's shaped score (seats.py `shaped`, the returns at the end)
    counted from 0 at the start; a step's reward is its change since the seat was last
    paid, so an episode's rewards sum to its return."""

    __slots__ = ("paid",)

    def __init__(self, seats: int) -> None:
        self.paid = [0.0] * seats

    def pay(self, seated: Seated, now: list[float] | None = None) -> list[float]:
        """Each seat's reward now (the change since the last pay), and remember it (`now`:
        the seats' shaped scores now, if known)."""
        if now is None:
            now = seated.shaped()
        out = [a - b for a, b in zip(now, self.paid, strict=True)]
        self.paid = now
        return out


def player_range(game: str) -> tuple[int, int]:
    """The fewest and most players a game of `game` takes with its default rules (each
    count tried once)."""
    cls = game_class(game)
    ok = []
    for n in range(1, 9):
        try:
            cls.create(players=n)
        except ArtError:
            continue
        ok.append(n)
    return (min(ok), max(ok)) if ok else (1, 1)


def start(game: str, options: Mapping[str, Any], seed: int = 0, chance: str = "explicit",
          max_decisions: int | None = None) -> Seated:
    """A new game of `game`, seated, from the adapters' parameters (unknown names or bad
    values: GameError saying what was expected)."""
    cls = game_class(game)
    known = parameters(game)
    for key in options:
        if key not in known:
            raise GameError(f"unknown parameter {key!r} for the {game} game"
                            f"{closest(key, known)}; parameters: {', '.join(known)}")
    merged = {**known, **options}
    seats = str(merged.pop("seats"))
    reward_mode(merged)
    merged.pop("reward")
    variants = merged.pop("variants")
    if not isinstance(variants, str):
        raise GameError(f"parameter 'variants' must be text (names joined by '+'), not "
                        f"{variants!r}")
    if variants:
        merged["variants"] = tuple(v.strip() for v in variants.split("+"))
    for key, default in known.items():
        if key in merged and isinstance(default, int) and not isinstance(merged[key], int):
            raise GameError(f"parameter {key!r} must be a whole number, not {merged[key]!r}")
    st = cls.create(seed=seed, chance=chance, **merged)
    check_seating(st, seats)
    return Seated(st, seats, max_decisions)


def mask(seated: Seated, seat: int) -> npt.NDArray[np.int8]:
    """The seat's legal ids as a 0/1 vector over the seat's actions (a copy of the one
    made once a position)."""
    made = seated.made()
    got: npt.NDArray[np.int8] | None = made.get(("mask", seat))
    if got is None:
        got = made[("mask", seat)] = _mask(seated, seat)
    return got.copy()


_MASKS: dict[tuple[int, tuple[int, ...]], npt.NDArray[np.int8]] = {}  # by (size, legal ids)


def _mask(seated: Seated, seat: int) -> npt.NDArray[np.int8]:
    """The vector of these legal ids, made once for each set of ids (games repeat them: the
    same choices come round again), never written to (`mask` hands out copies)."""
    key = (seated.num_distinct_actions(), seated.legal_ids(seat))
    out = _MASKS.get(key)
    if out is None:
        if len(_MASKS) >= 1 << 14:  # a bound on what is kept (rules with many ids)
            _MASKS.clear()
        out = _MASKS[key] = np.zeros(key[0], dtype=np.int8)
        out[list(key[1])] = 1
    return out


def tensor(seated: Seated, seat: int, kind: str = "observation",
           packers: Packers | None = None) -> npt.NDArray[np.float32]:
    """The seat's `kind` tensor as a float32 array (a copy of the one made once a
    position); `packers`: an adapter's own, kept across its positions and games (only the
    segments that changed are converted again), else made from scratch."""
    made = seated.made()
    got: npt.NDArray[np.float32] | None = made.get((kind, seat))
    if got is None:
        got = made[(kind, seat)] = (_tensor(seated, seat, kind) if packers is None
                                    else packers.array(seated, seat, kind))
    return got.copy()


def observe(seated: Seated, seat: int, packers: Packers) -> dict[str, Any]:
    """The seat's observation as PettingZoo and Gymnasium give it: its observation tensor
    (`tensor`) and its mask (`mask`), copies of the arrays made once a position."""
    made = seated.made()
    obs: npt.NDArray[np.float32] | None = made.get(("observation", seat))
    if obs is None:
        obs = made[("observation", seat)] = packers.array(seated, seat, "observation")
    legal: npt.NDArray[np.int8] | None = made.get(("mask", seat))
    if legal is None:
        legal = made[("mask", seat)] = _mask(seated, seat)
    return {"observation": obs.copy(), "action_mask": legal.copy()}


def _tensor(seated: Seated, seat: int, kind: str) -> npt.NDArray[np.float32]:
    """The seat's numbers (the game's writers' list) as float32, packed by `struct` (each
    number converted by C's cast to float, as numpy's own conversion does: the same bytes,
    tests/test_adapters.py compares them) rather than numpy's conversion of a list, which
    looks at each number's type in turn: two to three times the time for these lists of
    floats, ints and flags. Read-only (`tensor` hands out copies)."""
    return as_float32(seated.tensor(seat, kind, raw=True))


PACK_FROM: Final = 256  # numbers a tensor has before its seats' packers pay (docs/performance.md)


class Packers:
    """An adapter's packed tensors, one a seat and kind (core/tensors.py `Packer`: only the
    segments whose numbers changed since that seat's last tensor are converted again), kept
    across the adapter's positions and games: the same bytes as `_tensor` from scratch
    (tests/test_adapters.py compares them over random games of both games). A tensor of
    fewer than PACK_FROM numbers is made from scratch: measured in the adapters' loops, its
    packer's comparisons cost more than converting it whole (a layout of 195 numbers, most of
    them changing between a seat's decisions), where one of 505 gains (docs/performance.md
    names the games measured). Not for two threads at once (an adapter's own, as its game is)."""

    __slots__ = ("_own", "_packers")

    def __init__(self) -> None:
        self._packers: dict[tuple[str, int], Packer] = {}
        # the seat's own segments: packed by the buffer's bytes, as numbers by -(layout size)
        self._own: dict[tuple[int, int, int | None], Any] = {}

    def array(self, seated: Seated, seat: int, kind: str) -> npt.NDArray[np.float32]:
        """The seat's `kind` tensor now, read-only (`tensor` hands out copies)."""
        lay = layout(seated.game, kind)
        turn = seated.turn
        if lay.size < PACK_FROM:  # (Seated.tensor's numbers, without its second look-up)
            out = lay.tensor(seated.game, seated.viewer(seat))
            own = self._own.get((-lay.size, seat, turn))
            if own is None:
                own = self._own[(-lay.size, seat, turn)] = self._own_numbers(seated, seat)
            out += own
            return as_float32(out)
        key = (kind, seat)
        packer = self._packers.get(key)
        if packer is None or packer.layout is not lay:
            n = seated.game.num_players()
            seats = 1 if seated.team else n
            packer = self._packers[key] = Packer(lay, bytearray(4 * (lay.size + seats + n)))
        buf = packer.update(seated.game, seated.viewer(seat))
        own = self._own.get((len(buf), seat, turn))
        if own is None:
            numbers = self._own_numbers(seated, seat)
            own = self._own[(len(buf), seat, turn)] = struct.pack(f"={len(numbers)}f",
                                                                  *numbers)
        buf[4 * lay.size:] = own
        return np.frombuffer(bytes(buf), dtype=np.float32)

    @staticmethod
    def _own_numbers(seated: Seated, seat: int) -> list[float]:
        """The seat's own segments (seat, turn) as Seated.tensor writes them. (Kept by the
        layout's size, the seat and the delegation: a Packers follows one seating.)"""
        n = seated.game.num_players()
        seats = 1 if seated.team else n
        own = [0.0] * (seats + n)
        if seat >= 0:
            own[0 if seated.team else seat] = 1.0
        if seated.turn is not None:
            own[seats + seated.turn] = 1.0
        return own


_PACKERS: dict[int, struct.Struct] = {}  # a packer of n float32 numbers, by n


def as_float32(numbers: list[float]) -> npt.NDArray[np.float32]:
    """A list of numbers (floats, ints, flags) as a read-only float32 array, the same bytes
    as `np.asarray(numbers, dtype=np.float32)`, faster (see `_tensor`)."""
    n = len(numbers)
    pack = _PACKERS.get(n)
    if pack is None:
        pack = _PACKERS[n] = struct.Struct(f"={n}f")
    return np.frombuffer(pack.pack(*numbers), dtype=np.float32)


def box(layout: Layout) -> Any:
    """A layout's numbers as a Gymnasium Box, each within its segment's bounds (the
    game's components bound every count: docs/ai.md)."""
    from gymnasium import spaces  # (the PettingZoo and Gymnasium adapters' library)

    low, high = layout.bounds()
    return spaces.Box(np.asarray(low, np.float32), np.asarray(high, np.float32),
                      dtype=np.float32)


def seed_from(rng: np.random.Generator) -> int:
    """A game seed drawn from a library's generator."""
    return int(rng.integers(0, 2**62))
