"""Actions: small hashable values with a text notation that parses back (`verb p1 WORD`)."""

from __future__ import annotations

from typing import Final, NamedTuple

TEAM: Final = -1  # a decision of the whole team (every seat at once), naming no player
CHANCE: Final = -3  # the player of a chance outcome (`chance VERB VALUE`); OpenSpiel's is -1
TERMINAL: Final = -4  # `current_player()` of a game that is over (as in OpenSpiel)
# Other negative player labels a game names in its notation (each game adds its own).
LABELS: Final[dict[int, str]] = {}


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
        from .checks import text as check_text
        from .errors import GameError, MalformedActionError
        from .games import game_class

        check_text(text, "an action's text", MalformedActionError)
        return game_class(game if game is None else check_text(game, "game", GameError)
                          ).registry.parse(text)


def parse_player(word: str, allow_label: bool = False, text: str = "") -> int:
    """`p2` to 1 (and a game's own labels, when allowed); MalformedActionError otherwise."""
    from .errors import MalformedActionError
    from .registry import parse_player as plain

    w = word.lower()
    if allow_label:
        for p, name in LABELS.items():
            if w == name:
                return p
    try:
        return plain(word, text)
    except MalformedActionError:
        if not allow_label or not LABELS:
            raise
        raise MalformedActionError(
            f"{(text or word).strip()!r}: {word!r} is not a player; expected p1..p6 or "
            + " or ".join(LABELS.values())) from None
