"""Art of War's rule files, every key declared once with the kernel's schema
(core/schema.py): the rules file (missions/art-of-war.toml: its parameters), its variants
(missions/variants/*.toml with `game = "art-of-war"`) and its card file
(cards/art-of-war.toml). The loader structures each file against these; docs/reference.md
is generated from them. Scenario files and saves: scenarios.py and game.py.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from ..schema import Dsl, Name, param, section

GAME: Final = "art-of-war"
_GAME_KEY: Final = 'always "art-of-war": the game the file is for (tools dispatch on it)'


@section("rule parameter")
@attrs.frozen
class WarComponents:
    """The game's components (W1)."""

    tokens: int = param("tokens in the box (W1)", lo=1, ruling="W1")
    hand_limit: int = param("the most cards a hand holds once a turn is settled (W4)", lo=1,
                            ruling="W4")
    min_players: int = param("the fewest players (W1)", lo=2, hi=7, ruling="W1")
    max_players: int = param("the most players (W1)", lo=2, hi=7, ruling="W1")


@section("rule parameter")
@attrs.frozen
class WarSetup:
    """The set-up (W1)."""

    cards_dealt: int = param("cards dealt to each player (W1)", lo=1, ruling="W1")
    tokens_dealt: int = param("tokens dealt to each player (W1)", lo=1, ruling="W1")
    centre_tokens: int = param("tokens set in the centre pile; the rest leave the game (W1)",
                               lo=0, ruling="W1")


@section("rule parameter")
@attrs.frozen
class WarRuleParams:
    """The turn's rules."""

    refused_card: str = param("what becomes of the attacker's card when the challenge is "
                              "refused: `discard` (face up, the seed) or `hand` (back to "
                              "hand unrevealed, a house rule) (W6)",
                              choices=("discard", "hand"), ruling="W6")
    raise_limit: int = param("a raise adds at most this many times the initial bet (W7: "
                             "the defender's stake is at most double)", lo=1, ruling="W7")
    turn_limit: int = param("turns after which the game ends drawn among the living (W18)",
                            lo=1, ruling="W18")


@section()
@attrs.frozen
class WarSpec:
    """Art of War's rules file, merged with its variants."""

    game: str = param(_GAME_KEY, choices=(GAME,))
    name: str = param("the rules' name (default: the file's name)", default="")
    title: str = param("the title shown to players", default="")
    about: str = param("one line about the file", default="")
    cards: str = param("the card file: a shipped name or a path relative to this file",
                       default="")
    components: WarComponents | None = param("the [components] table, below", default=None)
    setup: WarSetup | None = param("the [setup] table, below", default=None)
    rules: WarRuleParams | None = param("the [rules] table, below", default=None)


@section()
@attrs.frozen
class WarCardSpec:
    """A kind of card: one [[card]] table (W2: our reconstruction of the values)."""

    name: Name = param("the card's name, as actions and the DSL write it")
    count: int = param("cards of this name in the deck", lo=1)
    score: int = param("its score in a comparison (W2: in the order of the seed's list)")
    title: str = param("the name shown to players, when it differs", default="")
    deal: bool = param("dealt at set-up (W1: the Massacres and the Fortune Teller are not)",
                       default=True, ruling="W1")
    bonus: int = param("may be added from hand after the reveal, adding this each (W8); 0: "
                       "never", lo=0, default=0, ruling="W8")
    draws: int = param("replacement cards for a win with it engaged, face down or added "
                       "(W9: one, two with a Wise Man)", lo=0, default=1, ruling="W9")
    rank: Dsl = param("its rank in the comparison, before the total: the highest wins; "
                      "below 0 it never wins (W12)", dsl="expr", default="1", ruling="W12")
    collateral: Dsl | None = param("what its win does to every other living player (W9)",
                                   dsl="effect", default=None, ruling="W9")
    on_reveal: Dsl | None = param("run for its owner at the reveal, before Wise Men (W11)",
                                  dsl="effect", default=None, ruling="W11")
    on_draw: Dsl | None = param("played at once when drawn into a hand, instead of held "
                                "(W14, W15)", dsl="effect", default=None, ruling="W14")
    says: str = param("what it does in a player's words, shown in place of its DSL texts "
                      "(the `cards` command, the pages); empty: the texts themselves",
                      default="")


@section()
@attrs.frozen
class WarCardFile:
    """Art of War's card file (cards/art-of-war.toml)."""

    game: str = param(_GAME_KEY, choices=(GAME,))
    about: str = param("one line about the file", default="")
    card: tuple[WarCardSpec, ...] = param("the kinds of card: [[card]] tables", factory=tuple)


# The sections of each kind of file, in the order the reference lists them.
RULES_SECTIONS: Final[tuple[tuple[str, type[Any]], ...]] = (
    ("top", WarSpec), ("[components]", WarComponents), ("[setup]", WarSetup),
    ("[rules]", WarRuleParams))
CARD_SECTIONS: Final[tuple[tuple[str, type[Any]], ...]] = (
    ("top", WarCardFile), ("[[card]]", WarCardSpec))
PARAMETERS: Final = (("components", WarComponents), ("setup", WarSetup),
                     ("rules", WarRuleParams))
