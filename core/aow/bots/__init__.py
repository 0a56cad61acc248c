"""Art of War's bots (heuristic.py; the first heuristic, kept as `simple`, in simple.py)."""

from .heuristic import POLICIES

__all__ = ["POLICIES"]
