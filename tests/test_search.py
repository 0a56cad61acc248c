"""The search bot's allocation (artproject/search.py): sequential halving over the legal
actions in shared worlds, the base policy's choice always kept to the end, about `budget`
simulations, and the paired test that keeps that choice unless another clearly beats it.
Its strength is measured by bench/search.py (docs/ai.md), not here."""

from __future__ import annotations

from typing import Any

from artproject import new_game
from artproject.core.actions import Action
from artproject.search import Ismcts


class _Bot(Ismcts):
    """The search with each simulation's value given by `score` (an action's own value plus
    the world's luck, common to every action in that world), and a log of the actions
    simulated in each world."""

    def __init__(self, score: dict[str, float], **options: Any) -> None:
        super().__init__(1, lambda st: st.legal_actions()[0], lambda st: None, **options)
        self.score = score
        self.log: list[tuple[int, str]] = []

    def _simulate(self, world: Any, first: Action, nodes: Any, side: Any, me: int) -> float:
        luck = world.seed % 7 / 10
        self.log.append((world.seed, str(first)))
        return self.score[str(first)] + luck


class _World:
    def __init__(self, seed: int) -> None:
        self.seed = seed


class _Game:
    """A real position's legal actions; its determinizations are bare worlds."""

    UTILITY = "mixed"

    def __init__(self) -> None:
        g = new_game("art-of-war", players=2, seed=3)
        g.apply("challenge p1 p2")  # six bets
        self.g = g

    def legal_actions(self) -> list[Action]:
        return self.g.legal_actions()

    def current_player(self) -> int:
        return self.g.current_player()

    def resample(self, side: Any, seed: int) -> _World:
        return _World(seed)


def _search(bot: _Bot, game: _Game) -> Action:
    legal = game.legal_actions()
    return bot.search(game, legal, legal[0])  # type: ignore[arg-type]


def _game() -> _Game:
    return _Game()


def test_halving_keeps_the_base_choice_and_spends_about_the_budget() -> None:
    g = _game()
    legal = [str(a) for a in g.legal_actions()]
    score = {a: 0.0 for a in legal}
    score[legal[3]] = 0.5
    bot = _Bot(score, budget=64, margin=0.0, z=1.0)
    assert str(_search(bot, g)) == legal[3]
    sims = len(bot.log)
    assert 64 - 2 <= sims <= 64 + 2 * len(legal), sims  # (whole rounds of two)
    # every action in a world was simulated in that same world: shared luck
    by_world: dict[int, list[str]] = {}
    for seed, a in bot.log:
        by_world.setdefault(seed, []).append(a)
    assert all(legal[0] in acts for acts in by_world.values())
    # the last worlds compare two actions only: the base choice and the best
    assert set(by_world[bot.log[-1][0]]) == {legal[0], legal[3]}


def test_a_lead_within_the_margin_keeps_the_base_choice() -> None:
    g = _game()
    legal = [str(a) for a in g.legal_actions()]
    score = {a: 0.0 for a in legal}
    score[legal[2]] = 0.1
    assert str(_search(_Bot(score, budget=64, margin=0.2, z=0.0), g)) == legal[0]
    assert str(_search(_Bot(score, budget=64, margin=0.05, z=0.0), g)) == legal[2]


def test_a_worse_field_never_displaces_the_base_choice() -> None:
    g = _game()
    legal = [str(a) for a in g.legal_actions()]
    score = {a: -1.0 for a in legal}
    score[legal[0]] = 0.0
    assert str(_search(_Bot(score, budget=32, margin=0.0, z=0.0), g)) == legal[0]
