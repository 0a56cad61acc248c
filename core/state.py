"""The first game's state, where it was before the kernel (kept for imports from outside)."""

from .art.state import State

__all__ = ["State"]
