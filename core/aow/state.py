"""Art of War's state: its table of fields, and the readings and effects its rules, its
compiled card texts (facade.py), the tools and the tests call on it.

The rules live one module per part: set-up (setup.py), the turn and the deaths (turn.py),
challenges (fight.py), the reveal and settlement (settle.py), cards moving (cards.py),
chance (chance.py). They run on the kernel's machine (core/machine.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final

from ...missions import WAR_DEFAULT
from ..fields import (
    COPY,
    DERIVED,
    HIDDEN,
    LIST,
    LISTS,
    MACHINE,
    PRIVATE,
    PUBLIC,
    SHARE,
    Entry,
    Field,
)
from ..machine import MACHINE_FIELDS, Machine
from ..schema import param
from . import ai, cards, info, invariants, pickling, position, settle, setup
from . import fight as challenges
from .chance import deck_size
from .contest import Fight
from .loader import shipped
from .registry import GAME, REG, P
from .rules import Ctx, WarRules
from .tables import Seating, Tables, tables


def _entry(key: str, t: Any, meaning: str, info_: str = PUBLIC, read: bool = True,
           **declared: Any) -> Entry:
    """A position entry read and written by position.py's `read_KEY` and `write_KEY` (read
    None: read with the other card entries), its value of type `t`, declared."""
    return Entry(key, getattr(position, f"read_{key}") if read else None,
                 getattr(position, f"write_{key}"), info_, t,
                 param(meaning, default=None, **declared))


def _fight_fp(f: Fight | None) -> dict[str, Any]:
    return {"fight": None if f is None else f.facts()}


def _kills(xs: list[tuple[int, ...] | None]) -> list[Any]:
    return [None if x is None else list(x) for x in xs]


_PER_PLAYER: Final = "a list of {0}, p1 first, or a table of pN = {1}"

# The game's fields, after the machine's own (see core/fields.py): how a copy takes each,
# what it is to the players (W19), its fingerprint, its position entries (in this order).
WAR_FIELDS: Final = (
    Field("tab", DERIVED, MACHINE),  # the rules' tables for this team size (tables.py), shared
    Field("players", SHARE, PUBLIC, fp="players"),
    Field("turn", SHARE, PUBLIC, fp="turn", entries=(_entry(
        "turn", int, "turns already begun (W18's limit counts them)", lo=0),)),
    Field("current", SHARE, PUBLIC, fp="current", entries=(_entry(
        "current", str, "whose turn it is (pN)", expects="a player, pN"),)),
    Field("alive", LIST, PUBLIC, fp="alive", entries=(_entry(
        "dead", list[str], "the players already dead: they hold nothing (W17)",
        expects="a list of pN"),)),
    # the seating of the living (tables.py's `Seating`), replaced when `alive` changes: shared
    Field("seating", DERIVED, MACHINE),
    Field("tokens", LIST, PUBLIC, fp="tokens", entries=(_entry(
        "tokens", list[int] | dict[str, int], "each player's tokens", lo=0,
        expects=_PER_PLAYER.format("whole numbers", "tokens")),)),
    Field("centre", SHARE, PUBLIC, fp="centre", entries=(_entry(
        "centre", int, "tokens in the centre pile; the rest of the box is out of the game",
        lo=0),)),
    Field("out", SHARE, PUBLIC, fp="out"),  # tokens out of the game (W1)
    Field("hands", LISTS, PRIVATE, fp="hands", entries=(_entry(
        "hands", list[list[str]] | dict[str, list[str]], "each player's hand, by card name",
        PRIVATE, read=False, expects=_PER_PLAYER.format("lists of card names",
                                                         "card names")),)),
    Field("deck", LIST, HIDDEN, fp="deck"),  # cards left, by kind (no order: a draw picks)
    # the same cards one by one in card order, or None (worked out again when needed): what a
    # sampled draw picks from (chance.py's `sampled`); no fact of its own
    Field("deck_cards", COPY, MACHINE),
    Field("aside", LIST, PUBLIC, fp="aside"),  # left out of the deal, by kind (W1)
    Field("deck_top", LIST, HIDDEN, fp="deck_top", entries=(_entry(
        "deck_top", list[str], "cards put on top of the deck, the first listed drawn first",
        HIDDEN, read=False, expects="a list of card names"),)),
    Field("discard", LIST, PUBLIC, fp="discard", entries=(_entry(
        "discard", list[str], "cards in the discard pile, face up (W19)", read=False,
        expects="a list of card names"),)),
    Field("ask", SHARE, PUBLIC, fp="ask"),  # whose decision it is (-1: none)
    Field("fight", COPY, PRIVATE, fp="*", enc=_fight_fp),  # the challenge under way
    Field("doom_cards", LIST, PUBLIC, fp="doom_cards", enc=_kills),  # W17: who took the
    Field("doom_tokens", LIST, PUBLIC, fp="doom_tokens", enc=_kills),  # last card, token
    Field("fated", LIST, PUBLIC, fp="fated"),  # W13: drew a Massacre with no card in hand
    Field("deaths", LIST, PUBLIC, fp="deaths",  # (turn, seat, cause, killers), in order
          enc=lambda xs: [list(map(_plain, x)) for x in xs]),
    Field("drawn", SHARE, PUBLIC, fp="drawn", enc=lambda x: list(x)),  # a draw's players
)


def _plain(x: Any) -> Any:
    return list(x) if isinstance(x, tuple) else x


class War(Machine):
    """One game of Art of War in progress. Build it with `artproject.new_game("art-of-war",
    players=4, seed=1)` (or `War.new`)."""

    game = GAME
    PACKAGE = "artproject.core.aow"  # its game, scenarios modules (hooks.py)
    TOOLS = "artproject.core.aow.tools"  # what the tools ask of it (core/games.py)
    registry = REG
    TITLE = "Art of War"
    OPTIONS: ClassVar[Mapping[str, Any]] = {"rules": WAR_DEFAULT, "players": 2}
    RULES_OPTION: ClassVar[str | None] = "rules"
    SEATINGS: ClassVar[tuple[str, ...]] = ("players",)  # each plays for themself
    UTILITY = "mixed"  # +1 the winner, -1 the rest (zero-sum only at 2 players, undrawn)
    FIELDS = MACHINE_FIELDS + WAR_FIELDS
    NO_CONTEXT = Ctx()
    INVARIANTS = invariants.INVARIANTS
    STEP_CHECKS = invariants.STEP_CHECKS
    __slots__ = tuple(f.name for f in WAR_FIELDS)

    rules: WarRules
    tab: Tables
    players: int
    turn: int
    current: int
    alive: list[int]
    seating: Seating
    tokens: list[int]
    centre: int
    out: int
    hands: list[list[int]]
    deck: list[int]
    deck_cards: list[int] | None
    aside: list[int]
    deck_top: list[int]
    discard: list[int]
    ask: int
    fight: Fight | None
    doom_cards: list[tuple[int, ...] | None]
    doom_tokens: list[tuple[int, ...] | None]
    fated: list[int]
    deaths: list[tuple[int, int, str, tuple[int, ...]]]
    drawn: tuple[int, ...]

    @classmethod
    def create(cls, players: int = 2, seed: int = 0, log: bool = False, chance: str = "sample",
               difficulty: str = "medium", phase: str = "mission", variants: Any = (),
               position: Any = None, **options: Any) -> War:
        """`new_game`'s game (game.py) from the first game's call (the shipped rules, its
        options at their defaults, no position): set up at once, the rest through
        `new_game` (a new game is on a search's path, as a decision is)."""
        if (not options and position is None and variants == () and difficulty == "medium"
                and phase == "mission"):
            rules = shipped(WAR_DEFAULT)
            if rules is not None:
                return setup.new(cls, rules, players, seed, True, log, chance)
        made: War = cls._part("game", "new_game")(
            players=players, seed=seed, log=log, chance=chance, difficulty=difficulty,
            phase=phase, variants=variants, position=position, **options)
        return made

    @classmethod
    def new(cls, rules: WarRules, players: int, seed: int, start: bool = True,
            log: bool = False, chance: str = "sample") -> War:
        return setup.new(cls, rules, players, seed, start, log, chance)

    def restart(self, log: bool) -> War:
        from .setup import begin

        chance = "explicit" if self.explicit else "sample"
        if self.start is None:  # dealt as it was: with explicit chance, each card a node
            return War.new(self.rules, self.players, self.seed, log=log, chance=chance)
        st = War.new(self.rules, self.players, self.seed, start=False, log=log, chance=chance)
        position.apply_position(st, self.start.get("position", {}))
        st.start = self.start
        begin(st)
        return st

    # ------------------------------------------------------------------ readings
    def seat(self, p: int) -> str:
        return P[p]

    def deck_size(self) -> int:
        return deck_size(self)

    def table(self) -> int:
        return 0 if self.fight is None else self.fight.table()

    def bet_now(self) -> int:
        return 0 if self.fight is None else self.fight.bet

    def challenge_kind(self) -> str:
        """The challenge on the table: "duel" (a turn's), "collective" (a Massacre's, W14),
        "blind" (a Fortune Teller's, W15); "" when none is."""
        return "" if self.fight is None else self.fight.kind

    def stake_of(self, player: int) -> int:
        f = self.fight
        return f.stake[player] if f is not None and 0 <= player < self.players else 0

    def in_comparison(self, card: int) -> int:
        return settle.in_comparison(self, card)

    def order_from(self, player: int, others: bool) -> list[int]:
        """The living players in order of play from `player` (W3), without them if
        `others`; from p1 when `player` is nobody (-1)."""
        s = self.seating  # (the living's orders, made once: tables.py), copied
        if player < 0:
            return list(s.order[0])
        return list(s.others[player] if others else s.order[player])

    def order_key(self, first: int) -> Callable[[int], int]:
        """Sorts seats in order of play from `first` (W3)."""
        n = self.players
        return lambda q: (q - first) % n

    def wait_name(self) -> str:
        return str(self.wait or "")

    def holds(self, player: int, card: int) -> int:
        return self.hands[player].count(card) if 0 <= player < self.players else 0

    def in_deck(self, card: int) -> int:
        return self.deck[card] + self.deck_top.count(card)

    def deck_card(self, n: int) -> str:
        """The name of the nth card from the top where a scenario put it, else ''."""
        top = self.deck_top
        return self.rules.cards[top[-n]].name if 0 < n <= len(top) else ""

    def face_down(self, player: int) -> str:
        f = self.fight
        if f is None or not 0 <= player < self.players or f.card[player] < 0:
            return ""
        return self.rules.cards[f.card[player]].name

    def cause_of(self, player: int) -> str:
        return next((c for _, p, c, _ in self.deaths if p == player), "")

    def killers_of(self, player: int) -> str:
        return next((" ".join(P[k] for k in ks) for _, p, _, ks in self.deaths
                     if p == player), "")

    # ------------------------------------------------------------------ effects (the DSL's)
    lose_tokens = cards.lose_tokens
    lose_cards = cards.lose_cards
    gain_tokens = cards.gain_tokens
    take_back = settle.take_back
    steal = settle.steal
    withdraw = settle.withdraw
    collective_challenge = challenges.collective_challenge
    blind_challenge = challenges.blind_challenge

    def end_game(self, outcome: str, reason: str) -> None:
        self.outcome, self.reason = outcome, reason
        self.note("end", outcome, reason)

    # ------------------------------------------------------------------ the machine's hooks
    def refusal(self, action: Any) -> str | None:
        """An action of a living player whose decision it is not: say whose it is."""
        why = super().refusal(action)
        if why is None and 0 <= action.player < self.players and self.ask >= 0 and (
                action.player != self.ask) and not self.is_chance_node():
            return (f"{action}: it is {P[self.ask]}'s decision ({self.wait}), "
                    f"not {P[action.player]}'s")
        return why

    def deciding(self) -> str:
        return P[self.ask] if self.ask >= 0 else "nobody"

    def over_text(self) -> str:
        return f"the game is over ({self.reason})"

    def returns(self) -> list[float]:
        """Each seat's return: +1 the winner, -1 every other seat; in a draw 0 for the
        players it is drawn among, -1 for those already dead; 0 for all while it goes on."""
        if self.outcome is None:
            return [0.0] * self.players
        if self.outcome == "draw":
            return [0.0 if p in self.drawn else -1.0 for p in range(self.players)]
        return [1.0 if P[p] == self.outcome else -1.0 for p in range(self.players)]

    # ------------------------------------------------------------------ search and learning
    def num_players(self) -> int:
        return self.players

    def derived(self) -> dict[Any, Any]:
        return self.rules.cache

    def tensor_segments(self, kind: str) -> tuple[Any, ...]:
        return ai.segments(self, kind)

    def max_game_length(self) -> int:
        """W18's turn limit times `ai.MAX_TURN_DECISIONS`: a game is cut there as drawn."""
        return int(self.rules.p("rules.turn_limit")) * ai.MAX_TURN_DECISIONS

    def limit_returns(self) -> list[float]:
        """A game cut at its maximum length: drawn among the living (W18), -1 the dead."""
        return [0.0 if self.alive[p] else -1.0 for p in range(self.players)]

    shaped_score = ai.shaped_score
    shaped_scorer = ai.shaped_scorer

    def resample(self, players: Any, seed: int) -> War:
        """A determinization (ai.py's `resample`): its deck dealt anew, so its cards one by
        one are worked out again at its first draw."""
        c = ai.resample(self, players, seed)
        c.deck_cards = None
        return c

    utility = ai.utility
    shown = ai.shown

    def winner(self) -> int:
        """The winner's seat, -1 while the game goes on or when it is drawn."""
        return P.index(self.outcome) if self.outcome in P else -1

    def standing(self) -> list[dict[str, Any]]:
        """Each seat's result: place (1 the winner; the dead after, the last to die first),
        the turn of their death, its cause and their killers (W17, W18)."""
        return info.standing(self)

    # ------------------------------------------------------------------ saves, scenarios
    def note(self, *event: Any) -> None:
        """Record an event, stamped with its turn (when this game records them)."""
        if self.logging:
            self.log.append((self.turn, *event))

    def event_text(self, event: tuple[Any, ...]) -> str:
        return " ".join(str(x) for x in event[1:])

    observation = info.observation
    start_view = info.start_view

    def _after_unpickle(self) -> None:
        self.tab = tables(self.rules, self.players)
        self.seating = self.tab.seating(self.alive)
        if not hasattr(self, "deck_cards"):  # (pickled before the field was)
            self.deck_cards = None

    def _op_ref(self, fn: Any) -> Any:
        return pickling.op_ref(self, fn)

    def _op_from(self, ref: Any) -> Any:
        return pickling.op_from(self, ref)
