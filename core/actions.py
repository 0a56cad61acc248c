"""Actions: small hashable values with a text notation that parses back (`verb p1 WORD`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

from .errors import GameError, MalformedActionError

TEAM: Final = -1  # a decision of the whole team (every seat at once), naming no player
CHANCE: Final = -3  # the player of a chance outcome (`chance VERB VALUE`); OpenSpiel's is -1
TERMINAL: Final = -4  # `current_player()` of a game that is over (as in OpenSpiel)
# The viewer who holds no seat (a spectator): a view, an observation or an information state
# for NOBODY shows only what every player sees.
NOBODY: Final = -5
PUBLIC: Final = -2  # a viewer who is no seat: what the whole table sees (public observers)
# Other negative player labels a game names in its notation (each game adds its own).
LABELS: Final[dict[int, str]] = {}
# How `Action.parse` finds a game by name: core/games.py's `game_class`, given when the game
# registry is imported (`use_games`), so that this, the lowest layer, imports nothing above
# it (importing artproject imports the registry).
_GAMES: list[Callable[[str | None], Any]] = []


def use_games(game_class: Callable[[str | None], Any]) -> None:
    """Give `Action.parse` the game registry's look-up (core/games.py does, once)."""
    _GAMES[:] = [game_class]


class Action(NamedTuple):
    """One decision: a verb, the player who takes it (or TEAM), and an argument."""

    verb: str
    player: int = TEAM
    arg: str | int | None = None

    def __str__(self) -> str:
        p = self.player
        parts = ["chance", self.verb] if p == CHANCE else [self.verb]
        if p >= 0:
            parts.append(f"p{p + 1}")
        elif p != TEAM and p != CHANCE:
            parts.append(LABELS.get(p, str(p)))
        if self.arg is not None:
            parts.append(str(self.arg))
        return " ".join(parts)

    @staticmethod
    def parse(text: str, game: str | None = None) -> Action:
        """Read the text notation of a game's action (the default game's unless named); raise
        MalformedActionError saying what was expected."""
        if type(text) is not str or "\0" in text:  # (checks.text's rule, written here: the
            raise MalformedActionError(  # lowest layer imports nothing above it)
                "an action's text must be text (a str) without NUL characters, not "
                + (repr(text)[:60] if type(text) is str else type(text).__name__))
        if game is not None and type(game) is not str:
            raise GameError(f"game must be text (a str), not {type(game).__name__}")
        if not _GAMES:
            raise GameError("no game is registered yet: import artproject first")
        found: Action = _GAMES[0](game).registry.parse(text)
        return found


def seat_of(word: str) -> int:
    """`p2` to 1 (p1..p9), -1 for anything else."""
    w = word.lower()
    return int(w[1]) - 1 if len(w) == 2 and w[0] == "p" and w[1] in "123456789" else -1


def read_player(word: str, text: str, seats: int = 6) -> int:
    """`p2` to 1, for a game of at most `seats` seats; MalformedActionError otherwise."""
    p = seat_of(word)
    if not 0 <= p < seats:
        raise MalformedActionError(f"{text.strip()!r}: {word!r} is not a player; expected "
                                   + ("p1" if seats == 1 else f"p1..p{seats}"))
    return p


def players_named(st: Any, text: str) -> None:
    """Every player an action's text names is one of the game `st`'s: a word that reads as
    one (`p3`), and a word in a player's place of its verb (`take foo`), the place reading a
    player (`read_player`) or listing the game's players as the notation writes them; the
    notation alone knows only the most its kind seats. MalformedActionError naming the
    game's players otherwise (`expected p1..p3`)."""
    seats = st.num_players()
    words = text.split()
    for word in words[1:]:
        if seat_of(word) >= 0:
            read_player(word, text, seats)
    verb = st.registry.verbs.get(words[0].lower()) if words else None
    if verb is None:
        return
    names = [f"p{p + 1}" for p in range(seats)]
    for slot, word in zip(verb.shape, words[1:], strict=False):
        if slot.read is read_player or (
                slot.values is not None and [str(v) for v in slot.values(st)] == names):
            read_player(word, text, seats)


def parse_player(word: str, allow_label: bool = False, text: str = "") -> int:
    """`p2` to 1 (and a game's own labels, when allowed); MalformedActionError otherwise."""
    w = word.lower()
    if allow_label:
        for p, name in LABELS.items():
            if w == name:
                return p
    try:
        return read_player(word, text or word)
    except MalformedActionError:
        if not allow_label or not LABELS:
            raise
        raise MalformedActionError(
            f"{(text or word).strip()!r}: {word!r} is not a player; expected p1..p6 or "
            + " or ".join(LABELS.values())) from None
