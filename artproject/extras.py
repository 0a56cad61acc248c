"""The optional extras (pyproject.toml's optional-dependencies): what a command that lacks
one says, in one place, so that every such hint reads alike."""

from __future__ import annotations


def needs(what: str, extra: str) -> str:
    """That `what` (a command, a feature) needs the extra `extra`, and how to install it: in
    a checkout (README's form, `pip install -e '.[extra]'`) and from a package."""
    return (f"{what} needs the {extra} extra: pip install -e '.[{extra}]' in a checkout, or "
            f"pip install 'artproject[{extra}]'")


def require(what: str, extra: str, *modules: str) -> None:
    """GameError saying `needs(what, extra)` unless every one of `modules` is installed
    (looked up, not imported: the command imports them when it runs)."""
    from importlib.util import find_spec

    from .core.errors import GameError

    if any(find_spec(m) is None for m in modules):
        raise GameError(needs(what, extra))
