"""What the three adapters share: starting a game of any registered game from the adapters'
parameters (the game's own `OPTIONS` and `seats`), and a seat's view as numpy arrays."""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..core import checks
from ..core.errors import ArtError, GameError, closest
from ..core.games import DEFAULT, game_class
from ..core.seats import Seated
from ..core.tensors import Layout, layout

KERNEL_OPTIONS = ("variants", "seats", "reward")
REWARDS = ("terminal", "shaped")


def parameters(game: str) -> dict[str, Any]:
    """The adapters' parameters of a game with their defaults: its own options, `variants`
    (variant names or files layered on its rules, joined by `+`) and `seats`."""
    cls = game_class(game)
    return {**cls.OPTIONS, "variants": "", "seats": cls.SEATINGS[0], "reward": REWARDS[0]}


def reward_mode(options: Mapping[str, Any]) -> str:
    """The `reward` parameter: "terminal" (the returns at the end, the default, also for
    None) or "shaped" (the change in the shaped score each step); GameError for another."""
    mode = options.get("reward")
    if mode is None:
        mode = REWARDS[0]
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

    def pay(self, seated: Seated | None, now: list[float] | None = None) -> list[float]:
        """Each seat's reward now (the change since the last pay), and remember it (`now`:
        the seats' shaped scores now, if known; else read from `seated`)."""
        if now is None:
            assert seated is not None
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
    return Starter(game, options, chance, max_decisions).new(seed)


class Starter:
    """New games of `game` from the adapters' parameters, checked once (unknown names or
    bad values: GameError saying what was expected), for an adapter's resets."""

    __slots__ = ("_create", "_kwargs", "chance", "limit", "seats")

    def __init__(self, game: str, options: Mapping[str, Any], chance: str = "explicit",
                 max_decisions: int | None = None) -> None:
        if game is not None and not isinstance(game, str):
            raise GameError(f"game must be a game's name, not {game!r}")
        cls = game_class(game)
        known = parameters(game)
        merged = _known(game, known, options)
        self.seats = merged.pop("seats")
        if not isinstance(self.seats, str):
            raise GameError(f"seats must be one of {', '.join(cls.SEATINGS)} for the "
                            f"{game or DEFAULT} game, not {self.seats!r}")
        reward_mode(merged)
        merged.pop("reward")
        variants = merged.pop("variants")
        if variants is None:  # (None: the default, no variant, as Batched takes it)
            variants = ""
        if not isinstance(variants, str):
            raise GameError(f"parameter 'variants' must be text (names joined by '+'), not "
                            f"{variants!r}")
        if variants:
            merged["variants"] = variant_names(variants)
        for key, default in cls.OPTIONS.items():  # (the game's own)
            if key in merged:
                merged[key] = _option(key, merged[key], default, key == cls.RULES_OPTION)
        self._create = cls.create  # (an option at its default left to the game: its own
        self._kwargs = {key: value for key, value in merged.items()  # quicker start)
                        if not (type(value) is type(known[key]) and value == known[key])}
        self.chance = chance
        self.limit = None if max_decisions is None else whole("max_decisions", max_decisions,
                                                              1)

    def new(self, seed: int, like: Seated | None = None) -> Seated:
        """A new game from `seed`, seated (`like`: the last game, whose tables it shares)."""
        st = self._create(seed=seed, chance=self.chance, **self._kwargs)
        return Seated(st, self.seats, self.limit, like)

    def options(self) -> dict[str, Any]:
        """The game's options a new game is made with, as checked (numpy's integers as
        ints, `variants` as the game's option; an option at its default left out), for a
        caller that makes the games itself (Batched)."""
        return dict(self._kwargs)


def _known(game: str, known: dict[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """The game's parameters (`known`, with their defaults) with `options` over them; an
    unknown name a GameError saying the nearest and every one."""
    for key in options:
        if key not in known:
            raise GameError(f"unknown parameter {key!r} for the {game} game"
                            f"{closest(key, known)}; parameters: {', '.join(known)}")
    return {**known, **options}


def variant_names(text: str) -> tuple[str, ...]:
    """The adapters' `variants` parameter (names or files joined by `+`) as the game's
    `variants` option."""
    return tuple(v.strip() for v in text.split("+"))


def whole(name: str, value: Any, least: int | None = None) -> int:
    """`value` as an int: a whole number (Python's or numpy's; not a bool), at least
    `least` if given; else GameError naming the parameter (`name`) and what it expected
    (core/checks.py `index`, as the library's own arguments)."""
    return checks.index(value, name, least)


def reset_seed(seed: Any) -> Any:
    """A reset's seed other than an int from 0 on (PettingZoo's and Gymnasium's `reset`,
    whose seed makes the generator the games are dealt from) as an int: numpy's integers
    taken, what Gymnasium's `np_random` takes (a whole number from 0 on; a bool, a float,
    text or a negative number refused; numpy's SeedSequence given back as it is, for
    numpy's `default_rng`); else ValueError naming `seed`."""
    if isinstance(seed, np.random.SeedSequence):
        return seed  # (what default_rng takes besides an int)
    try:
        return checks.index(seed, "seed", 0)
    except GameError as err:
        raise ValueError(f"reset: {err} (a whole number from 0 on, or None)") from None


def array_id(action: Any) -> int | None:
    """`action` as an int where it is a 0-d array of integers (numpy's `np.array(3)`, which
    Gymnasium's Discrete takes as one of its ids), else None (a bool's, a float's or
    another shape's array among them): an adapter's id given other than as an int."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    return None


def _option(key: str, value: Any, default: Any, rules: bool) -> Any:
    """A game's own option `key` checked against its default's kind (GameError naming it
    otherwise): a whole number (numpy's as an int), text, or where it names the rules
    (`rules`: the game's RULES_OPTION) text, a file's path, None or rules loaded."""
    if isinstance(default, int) and not isinstance(default, bool):
        return whole(f"parameter {key!r}", value)
    if isinstance(default, str) and not isinstance(value, str):
        if not rules:
            raise GameError(f"parameter {key!r} must be text, not {value!r}")
        if isinstance(value, (bool, int, float, complex, bytes, list, tuple, dict, set,
                              np.generic)):
            raise GameError(f"parameter {key!r} must be a name, a file or rules loaded, "
                            f"not {value!r}")
    return value


def mask(seated: Seated, seat: int) -> npt.NDArray[np.int8]:
    """The seat's legal ids as a 0/1 vector over the seat's actions (a copy of the one
    made once for each set of ids, as `observe` gives it)."""
    r = seated.now()
    return kept_mask(seated.ids, r[3] if r[2] == seat else ()).copy()


def kept_mask(size: int, legal: tuple[int, ...]) -> npt.NDArray[np.int8]:
    """The 0/1 vector of `size` with the `legal` ids set, made once for each set of ids and
    kept: never to be written to (a caller hands out a copy, or copies it in)."""
    key = (size, legal)
    got = _MASKS.get(key)
    return _mask_of(key) if got is None else got


_MASKS: dict[tuple[int, tuple[int, ...]], npt.NDArray[np.int8]] = {}  # by (size, legal ids)


def _mask_of(key: tuple[int, tuple[int, ...]]) -> npt.NDArray[np.int8]:
    """The vector of (size, legal ids), made once for each set of ids (games repeat them:
    the same choices come round again) and kept, never written to (`mask` and `observe`
    hand out copies): its bytes set one by one, then read by numpy (half the time of
    numpy's zeros and a list of ids as an index)."""
    if len(_MASKS) >= 1 << 14:  # a bound on what is kept (rules with many ids)
        _MASKS.clear()
    made = bytearray(key[0])
    for i in key[1]:
        made[i] = 1
    out = _MASKS[key] = np.frombuffer(made, dtype=np.int8).copy()  # (its own bytes: no
    return out  # memoryview kept with it, two objects fewer for the collector to visit)


def tensor(seated: Seated, seat: int, kind: str = "observation",
           packers: Packers | None = None, copy: bool = True) -> npt.NDArray[np.float32]:
    """The seat's `kind` tensor as a float32 array (a copy of the one made once a
    position, kept there for the copies of the state made at it too: OpenSpiel asks a new
    state for each tensor it hands out; `copy=False`: that one, for a caller that only
    reads it); `packers`: an adapter's own, kept across its positions and games (its
    buffers written in place), else made from scratch as a list and converted."""
    made = seated.now()[4]
    got: npt.NDArray[np.float32] | None = made.get((kind, seat))
    if got is None:
        got = made[(kind, seat)] = (_tensor(seated, seat, kind) if packers is None
                                    else packers.array(seated, seat, kind))
    return got.copy() if copy else got


def observe(seated: Seated, seat: int, packers: Packers) -> dict[str, Any]:
    """The seat's observation as PettingZoo and Gymnasium give it: its observation tensor
    (written once a position in the seat's buffer, `Packers`) and its mask (`mask`'s,
    made once for each set of legal ids), both copies."""
    r = seated.now()  # (`kept_mask`'s look-up written out: a call less, every step)
    key = (seated.ids, r[3] if r[2] == seat else ())
    legal = _MASKS.get(key)
    return {"observation": packers.written(seated, seat, "observation", r).copy(),
            "action_mask": (_mask_of(key) if legal is None else legal).copy()}


def infos_of(agents: list[str]) -> Callable[[list[float]], dict[str, dict[str, float]]]:
    """shaped -> each agent's info, {agent: {"shaped": shaped[i]}} for the i-th agent, as
    one expression made for these agents (their names constants: no loop, no look-up; the
    same dicts as the loop's, tests/test_adapters_packed.py compares them)."""
    body = ", ".join(f"{a!r}: {{'shaped': s[{i}]}}" for i, a in enumerate(agents))
    space: dict[str, Any] = {}
    exec(compile(f"def infos(s):\n    return {{{body}}}\n", "<the agents' infos>", "exec"),
         space)  # (made above from the agents' names, repr'd)
    made: Callable[[list[float]], dict[str, dict[str, float]]] = space["infos"]
    return made


def _tensor(seated: Seated, seat: int, kind: str) -> npt.NDArray[np.float32]:
    """The seat's numbers (the game's writers' list) as float32, packed by `struct` (each
    number converted by C's cast to float, as numpy's own conversion does: the same bytes,
    tests/test_adapters.py compares them) rather than numpy's conversion of a list, which
    looks at each number's type in turn: two to three times the time for these lists of
    floats, ints and flags. Read-only (`tensor` hands out copies)."""
    return as_float32(seated.tensor(seat, kind, raw=True))


class Packers:
    """An adapter's tensors, made as float32 numbers in place: each layout's writers set a
    seat's numbers straight into a buffer of float32 (core/tensors.py `Layout.write_view`,
    no list of numbers converted afterwards), kept across the adapter's positions and games
    (while their rules, player count and seating stay) and written once a position and seat
    (the seats' record of the position, `Seated.now`, says which it holds): a kind written
    incrementally has one buffer for every seat in turn, of which a write rewrites only the
    segments whose sources changed since its last (`Layout.incremental_writer`: a seat
    after another rewrites what the seat sees, and at the game's position last written, a
    delegation's, only that; a new game from the buffer's first position of the last one);
    a kind the game writes by its own one-call writer has a buffer a seat, written whole
    on zeros; the seat's own segments (seat, delegation) are packed once for
    each seat and delegation. The same bytes as
    `_tensor` from scratch (tests/test_adapters_packed.py compares them over random games
    of both games, every seat and kind, the seats asked in turn and out of turn). A game
    whose writers set slices (see core/tensors.py) is written as a list and converted
    (`_tensor`). Not for two threads at once (an adapter's own, as its game is)."""

    __slots__ = ("_lists", "_shared", "_slots")

    def __init__(self) -> None:
        self._slots: dict[tuple[str, int], _Slot] = {}  # by kind and seat
        self._shared: dict[str, _Slot] = {}  # by kind: the one every seat's is, if any
        self._lists: set[Layout] = set()  # layouts whose writers set slices

    def array(self, seated: Seated, seat: int, kind: str) -> npt.NDArray[np.float32]:
        """The seat's `kind` tensor now, a copy."""
        return self.written(seated, seat, kind).copy()

    def written(self, seated: Seated, seat: int, kind: str,
                record: tuple[Any, ...] | None = None) -> npt.NDArray[np.float32]:
        """The seat's `kind` tensor now: the buffer's own array, written unless it holds
        this position already (`record`: `seated.now()`, if the caller has it), for a
        caller that copies it or reads it at once (the next position writes over it)."""
        r = seated.now() if record is None else record
        slot = self._slots.get((kind, seat))
        anew = False
        if slot is None or slot.seated is not seated:  # (another game: a new one, or a copy)
            slot = self._fitting(slot, seated, kind, seat)
            if slot is None:  # (a layout whose writers set slices: written as a list)
                return _tensor(seated, seat, kind)
            anew = seated.steps < slot.steps  # (a new game, or an earlier position)
        elif slot.record is r and slot.mine[0] == seat:
            return slot.array
        viewer = seated.viewer(seat) if seated.team else seat  # (a player's own eyes)
        try:  # (the segments whose sources changed since the buffer's last write)
            if slot.zeros is not None:  # (a game's own one-call writer: all, on zeros)
                slot.bytes[:slot.at] = slot.zeros
                slot.write(seated.game, viewer, slot.view, slot.bytes)
            elif slot.record[1] is r[1] and slot.record[0] == r[0]:  # (the game's position
                # as last written: another seat's, after a delegation, or another delegation)
                slot.write.viewed(seated.game, viewer, slot.view, slot.bytes)
                slot.steps = seated.steps
            elif anew:
                self._anew(slot, seated, viewer)
            else:
                slot.write(seated.game, viewer, slot.view, slot.bytes)
                slot.steps = seated.steps
        except TypeError:  # (a writer that sets a slice: written as a list from now on)
            self._lists.add(slot.layout)
            self._drop(slot)
            return _tensor(seated, seat, kind)
        except BaseException:  # (the buffer half written: a new one next time)
            self._drop(slot)
            raise
        mine = (seat, seated.turn)
        if slot.mine != mine:  # the seat's own segments (after the zeroed ones)
            self._own(slot, seated, mine)
        slot.seated, slot.record = seated, r
        return slot.array

    def _fitting(self, slot: _Slot | None, seated: Seated, kind: str,
                 seat: int) -> _Slot | None:
        """The buffer for a seated game other than the one `slot` last held (a new game):
        `slot` if it serves it, else `_slot`'s."""
        if slot is not None and slot.fits(seated):
            return slot
        return self._slot(seated, kind, seat)

    def _slot(self, seated: Seated, kind: str, seat: int) -> _Slot | None:
        """The buffer for `seated`'s `kind` tensors of `seat` from now on: the kind's one
        for every seat where it is written incrementally (a new one if it has none that
        fits), else a new one of the seat's own (a one-call writer writes all each time:
        nothing to share, and the seat's own segments stay written); None for a layout
        whose writers set slices."""
        lay = layout(seated.game, kind)
        if lay in self._lists:
            return None
        slot = self._shared.get(kind)
        if slot is None or not slot.fits(seated) or slot.layout is not lay:
            slot = _Slot(seated, lay)
            if slot.zeros is None:
                self._shared[kind] = slot
        self._slots[(kind, seat)] = slot
        return slot

    def _drop(self, slot: _Slot) -> None:
        """Forget a buffer (half written, or of a layout written as a list): every seat's
        next tensor of its kind is written in a new one."""
        for key in [key for key, kept in self._slots.items() if kept is slot]:
            del self._slots[key]
        for kind in [kind for kind, kept in self._shared.items() if kept is slot]:
            del self._shared[kind]

    @staticmethod
    def _anew(slot: _Slot, seated: Seated, viewer: int) -> None:
        """A new game in the buffer (or an earlier position: the seats' steps went back),
        written from the buffer's first position of its last game (nearer than its last
        position: the first positions of games are alike), which this one becomes."""
        if slot.start is not None:
            slot.write.restore(slot.start, slot.bytes)
        slot.write(seated.game, viewer, slot.view, slot.bytes)
        slot.start, slot.steps = slot.write.save(slot.bytes), seated.steps

    @staticmethod
    def _own(slot: _Slot, seated: Seated, mine: tuple[int, int | None]) -> None:
        """The seat's own segments written for the seat and delegation now (`mine`)."""
        own = slot.own.get(mine)
        if own is None:
            own = slot.own[mine] = _own_bytes(seated, mine[0])
        slot.bytes[slot.at:], slot.mine = own, mine


_NO_RECORD: Final = (-1, None)  # (a buffer's position before its first write: none's)


class _Slot:
    """The buffer for one kind of tensor, every seat's in turn (see `Packers`)."""

    __slots__ = ("array", "at", "buf", "bytes", "layout", "mine", "own", "record", "seated",
                 "seats", "space", "start", "steps", "view", "write", "zeros")

    def __init__(self, seated: Seated, lay: Layout) -> None:
        self.space, self.seats, self.layout = seated.space, seated.seats, lay
        self.seated: Seated | None = None  # the last it was written for (`fits` it, then)
        n = seated.game.num_players()
        self.at = 4 * lay.size  # the seat's own segments from here
        self.buf = bytearray(self.at + 4 * ((1 if seated.team else n) + n))
        self.view = memoryview(self.buf).cast("f")
        self.bytes = memoryview(self.buf)  # (its bytes: a slice copied in at half the cost)
        self.array = np.frombuffer(self.buf, dtype=np.float32)
        kept = lay.incremental_writer()  # (its own: it keeps what the buffer holds)
        self.zeros = None if kept is not None else bytes(self.at)  # (else all written)
        self.write: Any = kept if kept is not None else lay.view_writer()
        self.start: Any = None  # (`write.save` at its first position of its last game)
        self.steps = 1 << 62  # the seats' steps at the position it holds (none yet)
        self.own: dict[tuple[int, int | None], bytes] = {}  # (own segments' bytes, by `mine`)
        self.record: tuple[Any, ...] = _NO_RECORD  # the position the buffer holds
        # the seat whose tensor it holds and the delegation its own segments hold (none yet)
        self.mine: tuple[int | None, Any] = (None, ())

    def fits(self, seated: Seated) -> bool:
        """The buffer serves `seated`'s tensors: the same numbered actions (the same rules
        and player count: the same layout) and seating."""
        return seated.space is self.space and seated.seats == self.seats


def _own_bytes(seated: Seated, seat: int) -> bytes:
    """The seat's own segments (seat, turn) as Seated.tensor writes them, packed."""
    n = seated.game.num_players()
    seats = 1 if seated.team else n
    own = [0.0] * (seats + n)
    if seat >= 0:
        own[0 if seated.team else seat] = 1.0
    if seated.turn is not None:
        own[seats + seated.turn] = 1.0
    return struct.pack(f"={len(own)}f", *own)


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


def seed_from(rng: np.random.Generator | np.random.PCG64) -> int:
    """A game seed drawn from a library's generator: `rng.integers(0, 2**62)`, read from
    PCG64 (numpy's and Gymnasium's) as its next 64 bits shifted right twice, which is what
    `integers` gives over a power of two (numpy's Lemire draw never rejects one), at a
    fifth of the time (tests/test_adapters_packed.py compares them). `rng` may be PCG64
    itself: `default_rng(seed)`'s bits without the Generator made around them (an
    adapter's own, which draws nothing else)."""
    bits = rng.bit_generator if type(rng) is np.random.Generator else rng
    if type(bits) is np.random.PCG64:
        return int(bits.random_raw()) >> 2
    assert isinstance(rng, np.random.Generator)  # (PCG64 is answered above)
    return int(rng.integers(0, 2**62))


SEEDS_AHEAD: Final = 64  # the game seeds `seeds_from` draws at once


def seeds_from(rng: np.random.Generator | np.random.PCG64) -> list[int]:
    """The next SEEDS_AHEAD game seeds `seed_from` would draw from `rng`, one after the
    other, last first (for `pop`): PCG64's next outputs in one call (PCG64 called once
    for each costs about 3.8k instructions, a twelfth of a reset; 64 at once, 0.5k a
    seed), for an adapter whose generator draws nothing else (its own: a draw ahead is
    one no one else could have made)."""
    bits = rng.bit_generator if type(rng) is np.random.Generator else rng
    if type(bits) is np.random.PCG64:
        seeds: list[int] = (bits.random_raw(SEEDS_AHEAD) >> 2).tolist()
    else:
        seeds = [seed_from(rng) for _ in range(SEEDS_AHEAD)]
    seeds.reverse()
    return seeds
