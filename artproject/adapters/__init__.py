"""Adapters to the game-AI libraries people already use, for every game the kernel plays:
`pettingzoo` (an AEC environment), `gymnasium` (one agent) and `openspiel` (a registered
Python game). Each needs the optional extra: `pip install -e '.[ai]'` (numpy, pettingzoo,
gymnasium, open-spiel); import the module you want, which imports its library. See
docs/ai.md.
"""

from __future__ import annotations

__all__: list[str] = []
