"""Shipped rule data (TOML); loaded by artproject.core.loader.

DEFAULT is the board a game uses when none is named: the rulebook's first mission.
"""

DEFAULT = "japan"
