"""A policy named without its game's policies plays the game it is asked on; one made from
a game's own policies, asked on another game, is a GameError naming both games."""

from __future__ import annotations

import pytest

from artproject import new_game
from artproject.core.errors import GameError
from artproject.policies import make_policy, policies_of


def _played(policy_of: object, seed: int) -> list[str]:
    g = new_game("art-of-war", players=2, seed=seed)
    bots = [policy_of(seed * 2 + s) for s in range(2)]  # type: ignore[operator]
    while g.outcome is None and len(g.history) < 2000:
        a = bots[g.legal_actions()[0].player](g)  # (each decision its player's)
        g.apply(a)
    return [str(a) for a in g.history]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_policy_named_alone_plays_the_game_it_is_asked_on(seed: int) -> None:
    own = policies_of("art-of-war")
    assert _played(lambda s: make_policy("heuristic", s), seed) == \
        _played(lambda s: make_policy("heuristic", s, own), seed)


def test_a_games_policy_asked_on_another_game_names_both() -> None:
    japan = new_game("japan", players=2, seed=1)
    bot = make_policy("heuristic", 0, policies_of("art-of-war"))
    with pytest.raises(GameError, match="art-of-war game, asked on a state of the "
                                        "art-project game"):
        bot(japan)
    war = new_game("art-of-war", players=2, seed=1)
    with pytest.raises(GameError, match="art-project game, asked on a state of the "
                                        "art-of-war game"):
        make_policy("heuristic", 0, policies_of("art-project"))(war)
