"""What Art of War's hot paths read, worked out once per rules and team size: the rule
constants a step reads (the hand limit, the turn limit...), each seat's context for the card
texts, and the interned actions each decision offers, so that listing legal actions is
indexing and slicing, not building (`tables(rules, players)`, kept in `rules.cache` and on
the state as its derived field `tab`). tests/test_aow_speed.py checks the listings against
the rules worked out plainly at every decision of many games.
"""

from __future__ import annotations

from struct import Struct
from typing import Any, Final

from ..actions import Action
from ..generator import LCG_A, LCG_C, MASK
from .chance import DEAL
from .contest import fight_maker
from .registry import REG, P, act
from .rules import Ctx, WarRules

Row = tuple[Action, ...]


class Tables:
    """Constants and interned actions for one set of rules and team size."""

    __slots__ = ("accept", "adds", "answer_lists", "bet_lists", "bets",
                 "bonus_kinds", "can_win", "cards", "cards_dealt", "challenges", "collateral",
                 "ctx", "deal_add", "deal_aside", "deal_bytes", "deal_cards", "deal_deck",
                 "deal_entries", "deal_his", "deal_mul", "deal_seats", "deal_steps", "discards",
                 "draw", "fold", "hand_limit", "index", "left_out", "left_runs", "match", "names",
                 "new_fight", "no_cards", "no_doom", "order", "others", "pass_", "pass_lists",
                 "plays", "raise_limit", "raises", "ranks", "refuse", "refuse_lists",
                 "refused_to_hand", "response_lists", "seated", "seats", "share_rank", "take",
                 "turn_limit")

    def __init__(self, rules: WarRules, players: int) -> None:
        self._constants(rules, players)
        self._actions(rules, players)

    def _constants(self, rules: WarRules, players: int) -> None:
        self.hand_limit: int = rules.p("components.hand_limit")
        self.cards_dealt: int = rules.p("setup.cards_dealt")
        # the deck at set-up (W1: without the cards left out of the deal), and its cards
        # in card order (setup.py's deal draws the r-th)
        self.deal_deck = [c.count if c.deal else 0 for c in rules.cards]
        self.deal_aside = [0 if c.deal else c.count for c in rules.cards]
        self.left_out = tuple((c.index, c.count) for c in rules.cards if not c.deal and c.count)
        self.left_runs = tuple((k, [k] * n) for k, n in self.left_out)  # each kind's cards
        self.deal_cards = [c.index for c in rules.cards if c.deal for _ in range(c.count)]
        self.turn_limit: int = rules.p("rules.turn_limit")
        self.raise_limit: int = rules.p("rules.raise_limit")
        self.refused_to_hand: bool = rules.p("rules.refused_card") == "hand"
        self.cards = rules.cards
        self.no_cards = [0] * len(rules.cards)  # a deck (or pile) of no card, by kind
        self.names = tuple(c.name for c in rules.cards)
        self.index: dict[Any, int] = dict(rules.index)  # a card's name -> its kind
        # a rank written as a whole number is that number whatever the state: read once
        self.ranks = tuple(_whole(c.text.get("rank", "")) for c in rules.cards)
        self.can_win = _can_win(self.ranks)
        self._orders(rules, players)

    def _orders(self, rules: WarRules, players: int) -> None:
        self.ctx = tuple(Ctx(p) for p in range(players))  # whom a card's text runs for
        # each card's collateral damage (W9) as the work stack's items for each seat it runs
        # for, the last step first (what `push_ops` queues): settle.py's `close` adds them
        self.collateral = tuple(tuple(tuple((op, (ctx,)) for op in reversed(c.collateral))
                                      for ctx in self.ctx) for c in rules.cards)
        # the seats, and from each the seats in order of play (W3): with it first (`order`),
        # and the others after it (`others`) (a loop over a range made each time costs more)
        self.seats = tuple(range(players))
        self.no_doom: list[Any] = [None] * players  # nobody doomed (W17): copied, never changed
        self.new_fight = fight_maker(players)  # a challenge's Fight for this team size
        self.deal_seats = tuple(p for _ in range(rules.p("setup.cards_dealt")) for p in self.seats)
        # each card of the deal (setup.py's draws): the cards left in the deck before it, the
        # seat it goes to; and its trail entry (at 0, DEAL, seat, kind) by seat and kind
        self.deal_steps = tuple(zip(range(len(self.deal_cards), len(self.deal_cards)
                                          - len(self.deal_seats), -1), self.deal_seats,
                                    strict=True))
        self.deal_entries = tuple(tuple((0, DEAL, p, k) for k in range(len(rules.cards)))
                                  for p in self.seats)
        self.deal_mul, self.deal_add, self.deal_his, self.deal_bytes = _ahead(
            len(self.deal_steps))
        self.order = tuple(tuple((p + i) % players for i in range(players)) for p in self.seats)
        self.others = tuple(row[1:] for row in self.order)
        # a dead player's cards dealt to the killers highest score first (W17), then by kind
        by_score = sorted(range(len(rules.cards)), key=lambda k: (-rules.cards[k].score, k))
        self.share_rank = tuple(by_score.index(k) for k in range(len(rules.cards)))

    def _actions(self, rules: WarRules, players: int) -> None:
        # the verbs the rule modules declared (they import these tables: read by name here)
        v = REG.verbs
        V_DISCARD, V_ACCEPT, V_BET, V_FOLD, V_MATCH, V_PLAY, V_RAISE, V_REFUSE = (
            v["discard"], v["accept"], v["bet"], v["fold"], v["match"], v["play"], v["raise"],
            v["refuse"])
        V_ADD, V_PASS, V_CHALLENGE, V_DRAW, V_TAKE = (
            v["add"], v["pass"], v["challenge"], v["draw"], v["take"])

        seats = range(players)
        most = int(rules.p("components.tokens"))  # no one holds more than the box (W1)

        def each(verb: Any) -> Row:
            return tuple(act(verb, p) for p in seats)

        def numbers(verb: Any) -> tuple[list[Action], ...]:
            return tuple([act(verb, p, n) for n in range(1, most + 1)] for p in seats)

        def by_card(verb: Any, only_bonus: bool = False) -> tuple[tuple[Any, ...], ...]:
            return tuple(tuple(None if only_bonus and not c.bonus else act(verb, p, c.name)
                               for c in rules.cards) for p in seats)

        self.draw, self.take, self.refuse, self.accept = (
            each(V_DRAW), each(V_TAKE), each(V_REFUSE), each(V_ACCEPT))
        self.match, self.fold, self.pass_ = each(V_MATCH), each(V_FOLD), each(V_PASS)
        self.challenges = tuple(tuple(act(V_CHALLENGE, p, P[q]) for q in seats) for p in seats)
        self.bets, self.raises = numbers(V_BET), numbers(V_RAISE)
        self.plays, self.discards = by_card(V_PLAY), by_card(V_DISCARD)
        self.adds = by_card(V_ADD, only_bonus=True)  # None: not a Wise Man (W8)
        self.bonus_kinds = tuple(c.index for c in rules.cards if c.bonus)  # the Wise Men's
        self._listings(players)

    def _listings(self, players: int) -> None:
        """Whole listings a decision kind gives as they are (the machine never changes a
        kind's list and hands out copies: `Machine.legal_actions`), so that listing them
        builds nothing."""
        seats = range(players)
        self.bet_lists = tuple([row[:n] for n in range(len(row) + 1)] for row in self.bets)
        # an answer: refuse, accept, and the raises up to `most` (a list a number)
        self.answer_lists = tuple([[self.refuse[p], self.accept[p], *self.raises[p][:n]]
                                   for n in range(len(self.raises[p]) + 1)] for p in seats)
        self.refuse_lists = tuple([self.refuse[p]] for p in seats)
        self.response_lists = tuple(([self.match[p], self.fold[p]], [self.fold[p]])
                                    for p in seats)
        self.pass_lists = tuple([self.pass_[p]] for p in seats)
        self.seated: dict[tuple[int, ...], Seating] = {}  # by who lives (`seating`)

    def seating(self, alive: list[int] | tuple[int, ...]) -> Seating:
        """The seating of the living (`Seating`) where `alive` says who lives (1) and who is
        dead (0), made once per set of the living and kept."""
        key = tuple(alive)
        s = self.seated.get(key)
        if s is None:
            s = self.seated[key] = Seating(self, key)
        return s


class Seating:
    """Who lives and the order of play among them (W3, W17), and what a turn lists, for one
    set of the living: made once (`Tables.seating`) and kept on the state as its derived field
    `seating`, replaced when someone dies (turn.py) or a position sets the dead, so that the
    turn's listing, its end, the doom and the order of play from a seat read the living
    instead of walking every seat to skip the dead (invariants.py checks it is the state's)."""

    __slots__ = ("living", "next", "order", "others", "turn_lists")

    def __init__(self, t: Tables, alive: tuple[int, ...]) -> None:
        seats = t.seats
        self.living = tuple(p for p in seats if alive[p])  # in seat order
        # from each seat, the living in order of play: with it first if it lives (`order`),
        # without it (`others`); the seat whose turn is next after it (itself if none lives)
        self.order = tuple(tuple(q for q in t.order[p] if alive[q]) for p in seats)
        self.others = tuple(tuple(q for q in t.others[p] if alive[q]) for p in seats)
        self.next = tuple(row[0] if row else p for p, row in zip(seats, self.others,
                                                                  strict=True))
        self.turn_lists = _turn_lists(t, self.others)


def _turn_lists(t: Tables, others: tuple[tuple[int, ...], ...]
                ) -> tuple[tuple[list[Action], ...], ...]:
    """Each seat's turn listings: [draw, take, its challenges of `others[p]`, the living
    others in order of play], by whether the player may draw (2) and take (1)."""
    return tuple(tuple(([t.draw[p]] if i & 2 else []) + ([t.take[p]] if i & 1 else [])
                       + [t.challenges[p][q] for q in others[p]] for i in range(4))
                 for p in t.seats)


def _ahead(n: int) -> tuple[int, int, Struct, int]:
    """The generator's next `n` states at once, for the deal (setup.py): its k-th state from
    z is A^k z + C_k (mod 2^64), so one product z * mul + add, each state in a slot of 128
    bits of its own (A^k z + C_k < 2^128: no carry into the next slot), holds them all;
    written out as `n * 16` bytes (little-endian), `his` reads each state's high 32 bits (the
    generator's output), and the last 16 bytes' first 8 are the last state. The same draws
    as n steps of `Machine.next`, at a few big-number operations instead of five a step."""
    mul = add = 0
    a, c = 1, 0
    for k in range(n):
        a = a * LCG_A & MASK
        c = (c * LCG_A + LCG_C) & MASK
        mul |= a << (128 * k)
        add |= c << (128 * k)
    return mul, add, Struct("<" + "4xI8x" * n), 16 * n


def _can_win(ranks: tuple[int | None, ...]) -> tuple[int, ...]:
    """Whether each card can win (W9): 1 its rank, a whole number, is 0 or more, 2 its rank
    is worked out in play, 0 never; and a last entry 0, read for no card (-1)."""
    return (*(2 if r is None else 1 if r >= 0 else 0 for r in ranks), 0)


def _whole(text: str) -> int | None:
    """The whole number a text is (`1`, `-1`), or None for any other expression."""
    t = text.strip()
    return int(t) if t.lstrip("-").isdigit() and t.count("-") <= 1 and t.isascii() else None


def tables(rules: WarRules, players: int) -> Tables:
    """The tables of `rules` for `players` players, made once and kept in the rules' cache."""
    key = ("war-tables", players)
    t = rules.cache.get(key)
    if t is None:
        t = rules.cache[key] = Tables(rules, players)
    return t


__all__: Final = ["Seating", "Tables", "tables"]
