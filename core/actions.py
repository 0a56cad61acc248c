"""Actions: small hashable values with a text notation that parses back (`move p1 CITY`)."""

from __future__ import annotations

from typing import Final, NamedTuple

from .errors import MalformedActionError

ALLY_PAWN: Final = -2  # the solo player's ally pawn (R24), written `ally`
TEAM: Final = -1  # a decision of the whole team, naming no player

# verb -> the shape of its arguments: "player" (p1..p6), "pawn" (p1..p6 or ally),
# "player?" (optional player), or an argument kind: card (a number), city, kind, symbol, die.
SHAPES: Final[dict[str, tuple[str, ...]]] = {
    "done": (),
    "roll": (),
    "concede": (),
    "unlock": (),
    "draw": ("player", "kind"),
    "play": ("player", "card"),
    "move": ("pawn", "city"),
    "fight": ("player", "city"),
    "join": ("player",),
    "reroll": ("card",),
    "pick": ("die",),
    "boost": ("player",),
    "give": ("player",),
    "hurt": ("player",),
    "triple": ("symbol",),
    "collect": ("city",),
    "lose": ("kind",),
    "discard": ("card",),
    "place": ("city",),
    "carry": ("pawn", "city"),
    "trade": ("player", "card"),
    "receive": ("player",),
    "deploy": ("player", "city"),
}
HELP: Final[dict[str, str]] = {
    "done": "end this phase step (movement, battles, a phase boundary)",
    "roll": "roll the battle dice (or the picked dice of a reroll)",
    "concede": "give up the battle; its leader loses 1 health (R16)",
    "unlock": "unlock an ally die for radio; `hurt pN` then names who pays each missing one (R5)",
    "draw": "draw an extra mission card for one resource of that kind (R6)",
    "play": "play a mission card from that player's hand",
    "move": "move a pawn one road (R11)",
    "fight": "start a battle in a city, led by that player (R14)",
    "join": "a player in the battle's city joins it",
    "reroll": "discard a clue card to reroll dice (R16)",
    "pick": "choose a die to reroll",
    "boost": "a participant spends a weapon (or health) for +2 strength (R16)",
    "give": "the player who receives a gained health token (R8)",
    "hurt": "the player who pays (or loses) a health token for a missing resource (R4, R5)",
    "triple": "which completed clue triple resolves first (R10)",
    "collect": "which artwork is collected next (R12)",
    "lose": "which resource the team loses",
    "discard": "which clue card the team loses",
    "place": "which city receives the artwork or agents",
    "carry": "move a pawn one road, taking the artwork of its city along (R23)",
    "trade": "a player hands a clue card to a player in the same city (R21)",
    "receive": "who receives the traded clue card",
    "deploy": "a player places one of their setup agents in a city (R23)",
}


def _player_text(p: int) -> str:
    return "ally" if p == ALLY_PAWN else f"p{p + 1}"


class Action(NamedTuple):
    """One decision: a verb, the player who takes it (or TEAM), and an argument."""

    verb: str
    player: int = TEAM
    arg: str | int | None = None

    def __str__(self) -> str:
        parts = [self.verb]
        if self.player != TEAM:
            parts.append(_player_text(self.player))
        if self.arg is not None:
            parts.append(str(self.arg))
        return " ".join(parts)

    @staticmethod
    def parse(text: str) -> Action:
        """Read the text notation; raise MalformedActionError saying what was expected."""
        words = text.split()
        if not words:
            raise MalformedActionError("empty action; expected a verb such as 'done'")
        verb, rest = words[0].lower(), words[1:]
        shape = SHAPES.get(verb)
        if shape is None:
            from .errors import closest

            raise MalformedActionError(
                f"unknown verb {verb!r}{closest(verb, SHAPES)}; verbs are: " + ", ".join(SHAPES)
            )
        player: int = TEAM
        arg: str | int | None = None
        arg_value: str | int | None
        need = [s for s in shape if not s.endswith("?")]
        if not len(need) <= len(rest) <= len(shape):
            usage = " ".join([verb, *(f"[{s[:-1]}]" if s.endswith("?") else s.upper()
                                      for s in shape)])
            raise MalformedActionError(f"{text.strip()!r}: expected '{usage}'")
        for kind, word in zip(shape, rest, strict=False):
            k = kind.rstrip("?")
            if k in ("player", "pawn"):
                player = _parse_player(word, allow_ally=k == "pawn", text=text)
            elif k == "card":
                if not word.isdigit():
                    raise MalformedActionError(f"{text.strip()!r}: {word!r} is not a card number")
                arg_value = int(word)
                arg = arg_value
            else:
                arg = arg_value = word.lower()
        return Action(verb, player, arg)


def parse_player(word: str, allow_ally: bool = False, text: str = "") -> int:
    """`p2` to 1 (and `ally` to ALLY_PAWN where a pawn is meant); MalformedActionError else."""
    return _parse_player(word, allow_ally, text or word)


def _parse_player(word: str, allow_ally: bool, text: str) -> int:
    w = word.lower()
    if allow_ally and w == "ally":
        return ALLY_PAWN
    if len(w) == 2 and w[0] == "p" and w[1] in "123456":
        return int(w[1]) - 1
    expected = "p1..p6 or ally" if allow_ally else "p1..p6"
    raise MalformedActionError(f"{text.strip()!r}: {word!r} is not a player; expected {expected}")
