"""Art of War's hot path against its plain statement: what the speed work keeps equal."""

from __future__ import annotations

from typing import Any

import pytest

from artproject import new_game
from artproject.core.aow.bots import POLICIES


@pytest.mark.parametrize("chance", ["sample", "explicit"])
def test_events_told_by_a_replay_are_the_logged_games(chance: str) -> None:
    """A game that did not log its events tells them by replaying from its seed; with
    explicit chance the replay deals card by card as the game did (each card a node)."""
    games = [new_game("art-of-war", players=3, seed=2, chance=chance, log=log)
             for log in (False, True)]
    for g in games:
        choose = POLICIES["random"](2)
        while not g.is_over():
            g.apply(g.sample_chance() if g.is_chance_node() else choose(g))
    unlogged, logged = games
    assert unlogged.history == logged.history
    assert unlogged.events() == logged.events() and any("deal" in e for e in logged.events())


def _plain_legal(g: Any) -> list[Any]:
    """The legal actions worked out plainly from the rules (W4-W8, W14), as before tables."""
    act, p, cards = g.registry.act, g.ask, g.rules.cards
    kinds = sorted(set(g.hands[p])) if p >= 0 else []
    f, w = g.fight, str(g.wait)
    if w == "turn":
        out = [act("draw", p)] if (len(g.hands[p]) < g.rules.p("components.hand_limit")
                                   and g.deck_size()) else []
        out += [act("take", p)] if g.centre else []
        return out + [act("challenge", p, f"p{q + 1}") for q in g.order_from(p, True)]
    if w == "bet":
        return [act("bet", p, n) for n in range(1, g.tokens[p] + 1)]
    if w in ("play", "discard"):
        return [act(w, p, cards[k].name) for k in kinds]
    if w == "answer":
        out = [act("refuse", p)]
        if g.tokens[p] >= f.bet:
            out.append(act("accept", p))
            if f.kind == "duel":
                most = min(g.rules.p("rules.raise_limit") * f.bet, g.tokens[p] - f.bet)
                out += [act("raise", p, n) for n in range(1, most + 1)]
        return out
    if w == "response":
        return ([act("match", p)] if g.tokens[p] >= f.raised else []) + [act("fold", p)]
    if w == "wise":
        return [act("add", p, cards[k].name) for k in kinds if cards[k].bonus] + [act("pass", p)]
    return g.legal_actions()  # chance nodes: the machine's own


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_tables_list_the_rules_legal_actions(players: int) -> None:
    """At every decision of random and heuristic games, with and without the shipped variant,
    the tables' listing is the rules' worked out plainly, in the same order."""
    decisions = 0
    for seed in range(6):
        for policy in ("random", "heuristic"):
            variants = ("refused-card-hand",) if seed % 2 else ()
            g = new_game("art-of-war", players=players, seed=seed, variants=variants,
                         chance="explicit" if seed % 3 == 2 else "sample")
            choose = POLICIES[policy](seed)
            while not g.is_over():
                assert g.legal_actions() == _plain_legal(g), (g.wait, g.history)
                g.apply(g.sample_chance() if g.is_chance_node() else choose(g))
                decisions += 1
    assert decisions > 300


def test_the_decks_cards_one_by_one_follow_its_counts() -> None:
    """A sampled draw picks from the deck's cards one by one (`deck_cards`): at every decision
    of random games, their determinizations and a set position's game, they are the deck's
    counts, or None (worked out again at the next draw); the invariants catch a deck changed
    without them."""
    from artproject.core.aow.chance import cards_of
    from artproject.core.aow.invariants import _deck_cards
    from artproject.core.invariants import Violation

    checked = 0
    for seed in range(8):
        g = new_game("art-of-war", players=2 + seed % 6, seed=seed)
        choose = POLICIES["random"](seed)
        while not g.is_over():
            for st in (g, g.resample([g.ask if g.ask >= 0 else 0], seed)):
                assert st.deck_cards is None or st.deck_cards == cards_of(st.deck)
                checked += st.deck_cards is not None
            d = g.resample([0], seed + 1)
            if not d.is_over():
                d.apply(choose(d))  # a determinization's own draws
                assert d.deck_cards is None or d.deck_cards == cards_of(d.deck)
            g.apply(choose(g))
    assert checked > 100
    g = new_game("art-of-war", players=3, seed=1, position={"hands": {"p1": ["king"]}})
    assert g.deck_cards is None or g.deck_cards == cards_of(g.deck)
    g = new_game("art-of-war", players=3, seed=1)
    assert g.deck_cards is not None
    g.deck[g.deck_cards[0]] -= 1  # a card gone from the deck behind the list's back
    g.deck[-1] += 1
    with pytest.raises(Violation):
        _deck_cards(g)


def test_the_seating_of_the_living_follows_the_deaths() -> None:
    """The seating the state keeps (tables.py's `Seating`: who lives, the order of play among
    them, the turn's listing) is the one of who lives at every decision of random and
    heuristic games of 3 to 7 players, through their deaths, a copy, a determinization, a
    pickle and a set position's dead; the invariants catch `alive` changed without it."""
    import pickle

    from artproject.core.aow.invariants import _seating
    from artproject.core.invariants import Violation

    def living(st: Any) -> tuple[int, ...]:
        return tuple(p for p in range(st.players) if st.alive[p])

    deaths = 0
    for seed in range(12):
        players = 3 + seed % 5
        g = new_game("art-of-war", players=players, seed=seed)
        choose = POLICIES["random" if seed % 2 else "heuristic"](seed)
        while not g.is_over():
            for st in (g, g.clone(), g.resample([0], seed)):
                assert st.seating.living == living(st)
                for p in range(players):  # the order of play from each seat, worked out plainly
                    assert st.order_from(p, False) == [
                        q for q in [*range(p, players), *range(p)] if st.alive[q]]
            g.apply(choose(g))
        deaths += players - len(g.seating.living)
        assert pickle.loads(pickle.dumps(g)).seating.living == living(g)
    assert deaths > 20
    g = new_game("art-of-war", players=4, seed=1, position={"dead": ["p2", "p4"]})
    assert g.seating.living == (0, 2) and g.legal_actions()[-1].arg == "p3"
    g = new_game("art-of-war", players=4, seed=1)
    g.alive[2] = 0  # a death behind the seating's back
    with pytest.raises(Violation):
        _seating(g)
