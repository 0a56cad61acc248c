"""The kernel's seeded generator: a 64-bit linear congruential generator (Knuth's MMIX
constants) giving its high 32 bits, its first state the seed through splitmix64's mixer.
Its whole state is one int, cheap to clone and save, and a step is three integer
operations (`Machine.next`; the hot draws of a game write the step out with these
constants)."""

from __future__ import annotations

from typing import Final

MASK: Final = (1 << 64) - 1
LCG_A: Final = 6364136223846793005  # Knuth's MMIX multiplier and increment
LCG_C: Final = 1442695040888963407


def rng_state(seed: int) -> int:
    """The generator's first state for a seed: the seed through splitmix64's mixer."""
    z = (seed + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


__all__ = ["LCG_A", "LCG_C", "MASK", "rng_state"]
