"""Shipped rule data (TOML); loaded by each game's loader.

DEFAULT is the board a game of The A.R.T. Project uses when none is named: the
rulebook's first mission. WAR_DEFAULT is Art of War's shipped rules file.
"""

DEFAULT = "japan"
WAR_DEFAULT = "art-of-war"
