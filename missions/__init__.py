"""Shipped rule data (TOML); loaded by each game's loader.

DEFAULT is the board a game of The A.R.T. Project uses when none is named: the
rulebook's first mission. WAR_DEFAULT is Art of War's shipped rules file.
"""

from __future__ import annotations

from pathlib import Path

DEFAULT = "japan"
WAR_DEFAULT = "art-of-war"


def variant_file(ref: str | Path) -> Path:
    """The file a variant reference names: a shipped variant's (`variants/NAME.toml` here)
    by its name, whether or not it is there; else the path given."""
    from ..core.sources import is_name, package_dir

    if is_name(ref):
        return package_dir("missions") / "variants" / f"{ref}.toml"
    return Path(ref)
