"""What the three adapters share to show a game: the render modes, the game as text, and its
picture as an RGB array (cairosvg, the `render` extra)."""

from __future__ import annotations

import sys
from bisect import bisect_left
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..core.actions import NOBODY
from ..core.games import game_tools
from ..core.seats import Seated
from ..extras import needs

# "human" prints the game as text, "ansi" returns that text, "rgb_array" its picture
RENDER_MODES: Final = ("human", "ansi", "rgb_array")
RECENT: Final = 8  # the events the text shows: the last, as the whole table saw them


def check_render_mode(mode: str | None) -> None:
    """ValueError unless `mode` is None or one of RENDER_MODES, and "rgb_array" only where
    the picture can be drawn (`picture`'s library)."""
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {', '.join(map(repr, RENDER_MODES))}"
                         f", not {mode!r}")
    if mode == "rgb_array":
        _cairosvg()


def _cairosvg() -> Any:
    """cairosvg (the `render` extra), with its parser and surfaces, else ValueError saying
    how to install it."""
    try:
        import cairosvg.parser
        import cairosvg.surface
    except (ImportError, OSError) as err:  # (OSError: the system's libcairo missing)
        raise ValueError(needs("render_mode 'rgb_array' (cairosvg)", "render") + " (it needs "
                         f"the system's libcairo: Debian's libcairo2): {err}") from None
    return cairosvg


# where red, green and blue lie in a pixel of libcairo's ARGB32 (a native-endian 32-bit word)
_RGB: Final = slice(2, None, -1) if sys.byteorder == "little" else slice(1, 4)


def picture(game: Any) -> npt.NDArray[np.uint8]:
    """The game's position as the game draws it (`artproject render --save`: its tools'
    `render`), as an RGB image (height x width x 3, uint8) on a white ground, as cairosvg's
    `svg2png` draws it (96 dots an inch), read from the drawn surface without the PNG's
    coding and decoding (a third of the time); an array of its own, writable (as
    Gymnasium's own environments' frames are, for a recorder that marks them)."""
    c = _cairosvg()
    svg = game_tools(game.game).render(game.rules, game)
    drawn = c.surface.PNGSurface(c.parser.Tree(bytestring=svg.encode()), None, 96,
                                 background_color="white").cairo  # (drawn as it is made)
    drawn.flush()
    height, width, stride = drawn.get_height(), drawn.get_width(), drawn.get_stride()
    pixels = np.frombuffer(drawn.get_data(), np.uint8).reshape(height, stride // 4, 4)
    return pixels[:, :width, _RGB].copy()  # (opaque on white: no alpha to undo)


def rendered(seated: Seated, mode: str | None, seat: int,
             label: str = "") -> str | npt.NDArray[np.uint8] | None:
    """An adapter's `render()` in `mode`: nothing without a mode; the game's picture
    ("rgb_array", `picture`); else the game as text, what is pending (`label` after it),
    the legal actions of `seat` (none when it is negative: the end, or chance) and the
    last events as the whole table saw them (`public_events`), which "ansi" returns and
    "human" prints (returning None, as PettingZoo and Gymnasium ask)."""
    if mode is None:
        return None
    if mode == "rgb_array":
        return picture(seated.game)
    game = seated.game
    legal = ", ".join(seated.action_text(i) for i in seated.legal(seat)) if seat >= 0 else ""
    text = (f"{game.TITLE}: {game.wait or 'over'}{label}; legal: {legal}\n"
            f"history: {' | '.join(public_events(game))}")
    if mode == "human":
        print(text)
        return None
    return text


def public_events(game: Any, last: int = RECENT) -> list[str]:
    """The `last` events of the game as the whole table saw them, as the picture shows the
    position (the game's `seen_events` for NOBODY, a spectator, as the web's spectator view
    reads them: a card laid face down as laid, its face once it is shown; chance events as
    everyone saw them), read from `last` actions back (the events' place: the actions and
    the chance events before them)."""
    start = max(0, len(game.history) - last)
    place = (start, bisect_left(game.trail, start, key=_at))  # (the trail: in order of `at`)
    events: list[str] = game.seen_events(NOBODY, place)[0]
    return events[-last:]


def _at(event: tuple[Any, ...]) -> int:
    """A chance event's place: the history's length when it happened."""
    at: int = event[0]
    return at
