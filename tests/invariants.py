"""The game's invariants, checked after every step by the stateful tests (R1, R2, R18...)."""

from __future__ import annotations

from artproject.core.state import State


def check(st: State) -> None:
    """Raise AssertionError naming the first invariant `st` breaks."""
    r = st.rules
    p = r.params
    cap = p["components.resource_tokens"]
    for i, kind in enumerate(r.resources):  # R1: van + reserve = 6
        assert 0 <= st.van[i] <= cap, f"van {kind} = {st.van[i]}"
    assert all(h >= 0 for h in st.health), st.health
    if st.outcome != "lost":
        assert all(h > 0 for h in st.health), st.health
    assert sum(st.health) <= p["components.health_tokens"]
    assert all(a >= 0 for a in st.agents) and st.hq >= 0
    assert sum(st.agents) + st.hq <= p["components.agent_tokens"]  # R2
    assert all(x in (0, 1) for x in st.artworks)
    assert sum(st.artworks) + sum(st.carried) + len(st.track) <= p["components.artwork_tokens"]
    assert all(k in (0, 1) for k in st.carried)  # R23: one artwork a pawn
    assert sum(st.lost) <= p["components.lost_city_markers"]
    assert 0 <= st.allies <= p["components.ally_dice"]  # R17
    for c, lost in enumerate(st.lost):
        if lost:  # R18: a lost city holds no agent and no artwork
            assert st.agents[c] == 0 and st.artworks[c] == 0, r.cities[c].name
    assert len(st.track) <= len(r.track)
    if len(st.track) == len(r.track):
        assert st.outcome == "won"
    # every card in exactly one place
    places = [st.deck_top, st.deck, st.discard, st.removed, *st.hands, *st.chains]
    seen = [c for pile in places for c in pile] + ([r.final_card] if st.above >= 0 else [])
    assert sorted(seen) == sorted([*r.deck, r.final_card]), "a card is lost or doubled"
    assert len(st.removed) == (p["solo.removed_cards"] if st.solo else 0)
    if st.outcome is None:
        assert st.legal_actions(), f"no legal action while waiting for {st.wait}"
    else:
        assert st.legal_actions() == []
