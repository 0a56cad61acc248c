"""OpenSpiel's `resample_from_infostate` gives a state its history replays to, as OpenSpiel's
own games do: replayed from a new state, that history gives every player the same
information state and observation and the same position (so does its serialization,
read back); and the
seat asked for still cannot tell it from the state it was drawn from.

Needs the `ai` extra (CI installs it through `dev`)."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pyspiel
import pytest

import artproject.adapters.openspiel  # noqa: F401 (registers the games)

SEATINGS = [("python_kuhn", {}),
            ("python_art_of_war", {"players": 2}), ("python_art_of_war", {"players": 3}),
            ("python_art_project", {"players": 2, "seats": "players"}),
            ("python_art_project", {"players": 3, "seats": "players"}),
            ("python_art_project", {"players": 2, "seats": "team"})]


def _same(a: pyspiel.State, b: pyspiel.State, players: int) -> bool:
    return (str(a) == str(b) and a.history() == b.history()
            and all(a.information_state_string(p) == b.information_state_string(p)
                    and a.observation_string(p) == b.observation_string(p)
                    for p in range(players)))


@pytest.mark.parametrize(("name", "options"), SEATINGS)
def test_a_resampled_states_history_replays_to_it(name: str, options: dict[str, object],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Every resample a play reaches (Art of War's after several heirs shared a dead
    player's cards, W17, may not be: handed out as drawn, below; counted, and the seat still
    cannot tell them)."""
    import artproject.adapters.openspiel as adapter

    reached: list[bool] = []
    replayed = adapter._replayed
    monkeypatch.setattr(adapter, "_replayed", lambda state, target: reached.append(
        (got := replayed(state, target)) is not None) or got)
    game = pyspiel.load_game(name, options)
    n = game.num_players()
    rng = np.random.default_rng(3)
    sampler = np.random.RandomState(4).random_sample
    checked = drawn = unreached = 0
    while checked < 60:
        st = game.new_initial_state()
        while not st.is_terminal() and checked < 60:
            if st.is_chance_node():
                ids, ps = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(int(rng.choice(ids, p=ps)))
            else:
                st.apply_action(int(rng.choice(st.legal_actions())))
            if st.is_terminal() or rng.random() > 0.3:  # (a search resamples in play)
                continue
            p = int(rng.integers(n))
            r = st.resample_from_infostate(p, sampler)
            assert r.information_state_string(p) == st.information_state_string(p)
            if not reached[-1]:  # (no play reaches it: a shared W17 taking, see below)
                unreached += 1
                continue
            again = game.new_initial_state()
            for a in r.history():
                again.apply_action(a)
            assert _same(r, again, n), (r.history(), st.history())
            assert _same(r, game.deserialize_state(r.serialize()), n)
            assert r.observation_string(p) == st.observation_string(p)
            drawn += str(r) != str(st)  # (what the seat cannot see drawn anew)
            checked += 1
    assert drawn > 0 or options.get("seats") == "team"  # (the team seat sees every hand)
    assert unreached == 0 or name == "python_art_of_war", unreached


def test_a_resample_names_a_player_of_the_game_or_raises_spiel_error() -> None:
    game = pyspiel.load_game("python_kuhn")
    st = game.new_initial_state()
    for bad in (5, -1, "0", 1.5):
        with pytest.raises(pyspiel.SpielError, match="not a player of this game"):
            st.resample_from_infostate(bad, np.random.RandomState(0).random_sample)
    assert st.resample_from_infostate(np.int64(1)).history() == []


def test_a_determinization_no_play_reaches_is_still_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no play reaches the game's determinization (Art of War after several heirs
    shared a dead player's cards, W17), the resample is handed out as drawn: never a copy of
    the state itself, which would tell a search the cards the seat cannot see."""
    import artproject.adapters.openspiel as adapter

    tried: list[object] = []
    monkeypatch.setattr(adapter, "_replayed", lambda state, target: tried.append(target))
    game = pyspiel.load_game("python_art_of_war", {"players": 3})
    st = game.new_initial_state()
    while st.is_chance_node():
        st.apply_action(st.chance_outcomes()[0][0])
    sampler = np.random.RandomState(5).random_sample
    seat = st.current_player()
    hidden_told = 0
    for _ in range(20):
        r = st.resample_from_infostate(seat, sampler)
        assert r.information_state_string(seat) == st.information_state_string(seat)
        assert r.seated is tried[-1]  # (the last determinization drawn, as it is)
        hidden_told += r.seated.game.hands != st.seated.game.hands
    assert len(tried) == 20 * adapter.RESAMPLE_TRIES
    assert hidden_told > 10  # (the others' hands drawn anew, not the state's own)


def _taken(st: pyspiel.State) -> list[tuple[object, ...]]:
    """The state's W17 takings: its trail's TAKEN entries."""
    return [e for e in st.seated.game.trail if e[1].name == "taken"]


@pytest.mark.parametrize("seed", [0, 1, 3, 10])
def test_a_resample_after_a_w17_taking_is_reached_by_play(seed: int) -> None:
    """After a W17 taking, every seat's determinization is a deal play reaches (`_replayed`),
    and the replay gives the seat the information state it had: the cards a hidden heir
    took are drawn anew together with the dead player's own draws of them (a seat that is
    neither), and kept as they were where the seat saw them (the heir's own hand; the dead
    player, who held them). Random 4-player games, each from its first taking on."""
    import artproject.adapters.openspiel as adapter

    game = pyspiel.load_game("python_art_of_war", {"players": 4})
    rng = np.random.default_rng(seed)
    st = game.new_initial_state()
    redrawn = checked = 0
    while not st.is_terminal() and checked < 120:
        if st.is_chance_node():
            ids, ps = zip(*st.chance_outcomes(), strict=True)
            st.apply_action(int(rng.choice(ids, p=ps)))
            continue
        taken = _taken(st)
        if taken:
            for p in range(4):
                for _ in range(2):
                    target = st.seated.resample(p, int(rng.integers(2**53)))
                    got = adapter._replayed(st, target)
                    assert got is not None, (seed, p, st.history())
                    assert got.information_state_string(p) == st.information_state_string(p)
                    theirs = {e[2] for e in taken} | {d[1] for d in st.seated.game.deaths}
                    if p in theirs:  # (the heir's hand, or the dead player's own cards)
                        kept = [e for e in _taken(got) if p in (e[2], e[3][0])]
                        assert kept == [e for e in taken if p in (e[2], e[3][0])]
                    else:
                        redrawn += _taken(got) != taken
                    checked += 1
        st.apply_action(int(rng.choice(st.legal_actions())))
    assert checked and redrawn  # (some taking drawn anew, and reached)


@pytest.mark.parametrize(("players", "seed"), [(3, 251), (4, 79)])
def test_a_resample_after_a_shared_w17_taking_keeps_every_share_as_its_heir_saw_it(
        players: int, seed: int) -> None:
    """Where several heirs shared a dead player's cards (W17: dealt by rank), the dead
    player's own draws are drawn anew only where every heir is hidden (a new hand is shared
    otherwise: the heir asking would see another share): a play that reaches the
    determinization gives the seat the information state it had; one no play reaches is
    counted (handed out as drawn)."""
    import artproject.adapters.openspiel as adapter

    game = pyspiel.load_game("python_art_of_war", {"players": players})
    rng = np.random.default_rng(seed)
    st = game.new_initial_state()
    reached = unreached = 0
    while not st.is_terminal() and reached + unreached < 160:
        if st.is_chance_node():
            ids, ps = zip(*st.chance_outcomes(), strict=True)
            st.apply_action(int(rng.choice(ids, p=ps)))
            continue
        taken = _taken(st)
        if any(a[3][0] == b[3][0] for a, b in pairwise(taken)):  # (a share: W17)
            for p in range(players):
                target = st.seated.resample(p, int(rng.integers(2**53)))
                got = adapter._replayed(st, target)
                if got is None:
                    unreached += 1
                    continue
                assert got.information_state_string(p) == st.information_state_string(p)
                reached += 1
        st.apply_action(int(rng.choice(st.legal_actions())))
    assert reached, unreached


# a 7-player game of random play (ids), after a share of a dead player's cards among heirs
# the seat 2 is one of; the seed a determinization that play reaches no deal of but another
SHARED_HISTORY = [
    24, 10, 8, 17, 0, 16, 17, 8, 0, 13, 19, 13, 5, 6, 9, 4, 14, 4, 20, 14, 2, 24, 3, 3, 9,
    12, 15, 12, 21, 7, 15, 13, 24, 6, 5, 9, 3, 7, 11, 1, 7, 7, 1068, 175, 520, 892, 631,
    1043, 11, 1076, 225, 543, 941, 652, 1037, 1289, 1293, 2, 128, 125, 140, 1059, 1090,
    321, 590, 698, 639, 1291, 1293, 111, 167, 9, 58, 21, 1098, 371, 635, 692, 1102, 417,
    640, 846, 597, 1041, 1293, 1291, 100, 139, 152, 21, 65, 6, 1106, 463, 666, 686, 1050,
    23, 1, 10, 21, 10, 22, 22, 1288, 1290, 1209, 1292, 1288, 1290, 1291, 1052, 22]


def test_a_replay_that_reaches_another_state_than_the_determinization_is_not_handed_out(
        ) -> None:
    """After a share the seat took part in, play deals the dead player's cards as they were,
    so a replay toward a determinization whose co-heirs hold new shares may end on a state
    with their true ones: the seat would be told what it cannot see. `_replayed` takes
    only a replay that ends on the determinization itself (trail and fingerprint)."""
    import artproject.adapters.openspiel as adapter

    game = pyspiel.load_game("python_art_of_war", {"players": 7})
    st = game.new_initial_state()
    for i in SHARED_HISTORY:
        st.apply_action(i)
    target = st.seated.resample(2, 8933021762892528)
    got = adapter._replayed(st, target)
    assert got is None or (got.seated.game.trail == target.game.trail
                           and got.seated.game.fingerprint() == target.game.fingerprint())
    handed = st.resample_from_infostate(2, lambda: 0.25)
    assert handed.information_state_string(2) == st.information_state_string(
        2)
