"""Arguments checked where the library is entered: a wrong type or a value out of range is the
project's own error (GameError, SaveError, MalformedActionError) naming the argument and what
was expected, never Python's TypeError from deep inside; nothing is changed by a refused call.

The checks run once, at the public entry (`artproject`'s functions, a game's public methods),
never inside the rules' loops: `apply` checks only what it does not find among the legal
actions, so its usual path costs nothing more.
"""

from __future__ import annotations

import contextlib
import functools
import operator
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Final, TypeVar

from .errors import ArtError, GameError

SEED: Final = (-(2**63), 2**64 - 1)  # a seed: any 64-bit number, signed or not (saves' range)
F = TypeVar("F", bound=Callable[..., Any])
Make = Callable[[str], ArtError]


def what(value: Any) -> str:
    """A value as a message names it: its type and a short repr."""
    text = repr(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"{type(value).__name__} {text}"


def whole(value: Any, name: str, lo: int | None = None, hi: int | None = None,
          error: Make = GameError) -> int:
    """A whole number (never a bool, a float or text) in lo..hi."""
    if type(value) is not int:
        raise error(f"{name} must be a whole number, not {what(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = f"from {lo} to {hi}" if lo is not None and hi is not None else (
            f"at least {lo}" if lo is not None else f"at most {hi}")
        raise error(f"{name} must be {span}, not {value}")
    return value


def index(value: Any, name: str, lo: int | None = None, hi: int | None = None,
          error: Make = GameError) -> int:
    """A whole number as `whole` takes it, numpy's integers too (what has `__index__`: an
    id or a seed read from an array), as an int; never a bool, a float or text."""
    if type(value) is not int and not isinstance(value, bool):
        with contextlib.suppress(TypeError):  # (else refused by `whole`, named with its type)
            value = operator.index(value)
    return whole(value, name, lo, hi, error)


def seed(value: Any, name: str = "seed", error: Make = GameError) -> int:
    """A seed: a whole number of 64 bits, signed or not (what a save holds)."""
    return whole(value, name, *SEED, error=error)


_seed = seed


def flag(value: Any, name: str, error: Make = GameError) -> bool:
    """True or False (not 1, not "yes")."""
    if type(value) is not bool:
        raise error(f"{name} must be True or False, not {what(value)}")
    return value


def text(value: Any, name: str, error: Make = GameError, empty: bool = True) -> str:
    """A str (without NUL, which no file name or notation holds)."""
    if type(value) is not str or (not empty and not value):
        raise error(f"{name} must be {'a non-empty ' if not empty else ''}text (a str), not "
                    f"{what(value)}")
    if "\0" in value:
        raise error(f"{name} must hold no NUL character (\\0: no file name or notation "
                    f"does), not {what(value)}")
    return value


def ref(value: Any, name: str, error: Make = GameError) -> str | Path:
    """A name or a file: a str or a path (os.PathLike of text)."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
        if type(value) is not str:
            raise error(f"{name} must be a name or a file's path, not {what(value)}")
    return text(value, name, error, empty=False)


def refs(value: Any, name: str, error: Make = GameError) -> tuple[str | Path, ...]:
    """Names or files: a list or tuple of them (a lone str is refused: it is not a list)."""
    if isinstance(value, str | bytes | os.PathLike) or not isinstance(value, Iterable) or (
            isinstance(value, Mapping)):
        raise error(f"{name} must be a list of names or files, not {what(value)}")
    return tuple(ref(v, f"{name}[{i}]", error) for i, v in enumerate(value))


def mapping(value: Any, name: str, error: Make = GameError) -> Mapping[str, Any]:
    """A mapping with text keys (a position, a save document)."""
    if not isinstance(value, Mapping) or not all(type(k) is str for k in value):
        raise error(f"{name} must be a dict with text keys, not {what(value)}")
    return value


def game(value: Any, name: str = "the game", error: Make = GameError) -> Any:
    """A game in progress (a state of any game the kernel plays)."""
    # (the machine's class found by its place, not imported: machine.py imports this module)
    if not any(c.__name__ == "Machine" and c.__module__.endswith("core.machine")
               for c in type(value).__mro__):
        raise error(f"{name} must be a game (from new_game or load_game), not {what(value)}")
    return value


def seat(st: Any, value: Any, name: str = "player") -> int:
    """A seat of this game (0 to players - 1), TEAM (-1), or a viewer who holds no seat (PUBLIC,
    the public observers'; NOBODY, the server's spectator; actions.py): the public view, no
    seat's secrets."""
    from .actions import NOBODY, PUBLIC

    n = index(value, name)
    last = st.num_players() - 1
    if not (-1 <= n <= last or n in (NOBODY, PUBLIC)):
        raise GameError(f"{name} must be a seat of the game (0 to {last}), TEAM (-1), PUBLIC "
                        f"({PUBLIC}) or NOBODY ({NOBODY}), not {n}")
    return n


def sizes(value: Any, name: str, lo: int, hi: int) -> tuple[int, ...]:
    """A non-empty list of whole numbers (numpy's too) from `lo` to `hi`, as ints: team
    sizes to play or try (GameError naming the list, or the item, at fault)."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable) or isinstance(
            value, Mapping):
        raise GameError(f"{name} must be a list of team sizes (from {lo} to {hi}), not "
                        f"{what(value)}")
    told = tuple(index(p, f"{name}[{i}]", lo, hi) for i, p in enumerate(value))
    if not told:
        raise GameError(f"{name} must name at least one team size")
    return told


def seats(st: Any, value: Any, name: str = "players") -> list[int]:
    """Seats of this game, a list of them."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable) or isinstance(
            value, Mapping):
        raise GameError(f"{name} must be a list of seats, not {what(value)}")
    return [index(p, f"{name}[{i}]", 0, st.num_players() - 1) for i, p in enumerate(value)]


# ---------------------------------------------------------------- a game's public methods
def _player_method(fn: F) -> F:
    @functools.wraps(fn)
    def checked(self: Any, player: Any, *args: Any, **kw: Any) -> Any:
        return fn(self, seat(self, player), *args, **kw)

    checked.__dict__["checked"] = True
    return checked  # type: ignore[return-value]


def _resample(fn: F) -> F:
    @functools.wraps(fn)
    def checked(self: Any, players: Any, seed: Any, *args: Any, **kw: Any) -> Any:
        return fn(self, seats(self, players), _seed(seed), *args, **kw)

    checked.__dict__["checked"] = True
    return checked  # type: ignore[return-value]


def _kind(fn: F) -> F:
    @functools.wraps(fn)
    def checked(self: Any, kind: Any = "observation") -> Any:
        if kind not in ("observation", "information_state") or type(kind) is not str:
            raise GameError(f"the tensor's kind must be observation or information_state, not "
                            f"{what(kind)}")
        return fn(self, kind)

    checked.__dict__["checked"] = True
    return checked  # type: ignore[return-value]


def _action_id(fn: F) -> F:
    @functools.wraps(fn)
    def checked(self: Any, action: Any) -> Any:
        return fn(self, action_arg(action))

    checked.__dict__["checked"] = True
    return checked  # type: ignore[return-value]


# The public methods whose arguments are checked on entry, and how (none is on apply's path).
METHODS: Final[dict[str, Callable[[Any], Any]]] = {
    "observation": _player_method, "information_state": _player_method,
    "observation_tensor": _player_method, "information_state_tensor": _player_method,
    "resample": _resample, "tensor_layout": _kind, "action_id": _action_id,
}


def check_methods(cls: type) -> None:
    """Wrap a game class's public methods (METHODS) with their argument checks, once."""
    for name, wrap in METHODS.items():
        fn = getattr(cls, name, None)
        if fn is not None and not getattr(fn, "checked", False):
            setattr(cls, name, wrap(fn))


def not_action(value: Any, err: Exception | None = None) -> Exception:
    """The MalformedActionError for a value that is no action (a number: an action's id?);
    `err` itself, raised while an action (or its text) was taken, is the rules' own."""
    from .errors import MalformedActionError

    if err is not None and isinstance(value, tuple | str):
        return err
    hint = ""
    if not isinstance(value, bool | str | tuple):
        with contextlib.suppress(TypeError, ValueError):
            operator.index(value)  # a whole number (numpy's too): an id, taken as an action
            hint = " (an action's id? game.action_from_id(i) is its action)"
    return MalformedActionError(f"expected an action (an Action, or its text such as 'done'), "
                                f"not {what(value)}{hint}")


def action_arg(action: Any) -> Any:
    """An action as `apply` takes it: its text, or an Action (verb, player, argument) of the
    right types (a plain tuple of them is made an Action); MalformedActionError otherwise."""
    from .actions import Action
    from .errors import MalformedActionError

    if type(action) is str:
        if "\0" in action:
            raise MalformedActionError("an action's text holds no NUL character")
        return action
    if not isinstance(action, tuple) or len(action) != 3:
        raise not_action(action)
    verb, who, arg = action
    if not isinstance(verb, str) or not isinstance(who, int) or isinstance(who, bool) or not (
            arg is None or isinstance(arg, int | str)):
        raise MalformedActionError(f"expected Action(verb: str, player: int, arg: str, int or "
                                   f"None), not {what(action)}")
    return action if type(action) is Action else Action(verb, who, arg)
