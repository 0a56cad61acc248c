"""Every scenario under tests/scenarios/ is a test; bad scenario files fail cleanly."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from artproject.core.errors import RulesError
from artproject.core.scenario import run_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    result = run_scenario(path)
    assert result.passed, "\n".join(result.failures)


def test_scenarios_cite_the_rules() -> None:
    import tomllib

    cited = set()
    for p in SCENARIOS:
        doc = tomllib.loads(p.read_text())
        assert doc.get("about") and doc.get("cites"), p
        cited.update(c for c in doc["cites"] if c[:1] in "RW")
    wanted = {f"R{i}" for i in range(1, 28)}  # every ruling (docs/rulings.md)
    wanted |= {f"W{i}" for i in range(1, 20)}  # and Art of War's
    assert wanted <= cited, sorted(wanted - cited)


def _write(tmp: Path, text: str) -> Path:
    p = tmp / "s.toml"
    p.write_text(textwrap.dedent(text).lstrip())
    return p


def test_failing_expectation_reports_values(tmp_path: Path) -> None:
    p = _write(tmp_path, """
        players = 2
        [[step]]
        expect = ["van.fuel == 2"]
    """)
    res = run_scenario(p)
    assert not res.passed
    assert res.failures == (f"{p}:3:11: step 1: expected van.fuel == 2 (van.fuel is 3, "
                            "expected 2)",)


def test_refused_action_that_is_allowed_fails(tmp_path: Path) -> None:
    p = _write(tmp_path, """
        [[step]]
        refuse = "done"
    """)
    assert "was allowed" in run_scenario(p).failures[0]


@pytest.mark.parametrize(("body", "message"), [
    ('phase = "batle"', "phase: unknown value 'batle' (did you mean 'battle'?)"),
    ("[position]\npawns = ['tokio']", "position.pawns.p1: unknown city 'tokio'"),
    ("[[step]]\ndo = 'mvoe p1 kyoto'", "unknown verb 'mvoe'"),
    ("[[step]]\nexpect = ['van.fule == 1']", "unknown resource 'fule'"),
    ("[[step]]\nexpct = []", "unknown step key 'expct' (did you mean 'expect'?)"),
    ("[position]\nagents = { kyoto = 50 }",
     "position.agents.kyoto: the 50 agent tokens here take the count past the game's 40"),
])
def test_bad_scenario_files(tmp_path: Path, body: str, message: str) -> None:
    p = _write(tmp_path, body + "\n")
    with pytest.raises(RulesError) as err:
        run_scenario(p)
    assert message in str(err.value)
    assert str(err.value).startswith(str(p))


FIXTURE = Path(__file__).parent / "missions" / "japan-scenarios.toml"


def _battle(tmp: Path, steps: str) -> Path:
    """The rulebook's battle example (docs/scenarios.md: 13 against 14) with the given steps."""
    return _write(tmp, f"""
        mission = {str(FIXTURE)!r}
        phase = "battle"
        [position]
        pawns = ["tokyo", "tokyo"]
        agents = {{ tokyo = 3 }}
        hq = 1
        track = ["films", "music", "books", "sculptures", "paintings", "artifacts"]
        allies = 2
        dice = [4, 1, 3, 5]
        [[step]]
        do = "fight p1 tokyo"
        [[step]]
        do = "join p2"
    """ + textwrap.dedent(steps))


def test_events_match_whole_events_and_events_like_a_part(tmp_path: Path) -> None:
    """`events` names a whole event: "won" no longer matches "battle_won"."""
    ok = _battle(tmp_path, """
        [[step]]
        do = "boost p2"
        events = ["battle_won tokyo 15 14"]
        events_like = ["battle_won", "tokyo 15"]
        not_events = ["won", "battle_won tokyo"]
        not_events_like = ["battle_lost"]
    """)
    assert run_scenario(ok).passed, run_scenario(ok).failures
    bad = _battle(tmp_path, """
        [[step]]
        do = "boost p2"
        events = ["won"]
        not_events = ["battle_won tokyo 15 14"]
        events_like = ["battle_lost"]
        not_events_like = ["_won"]
    """)
    f = run_scenario(bad).failures
    assert len(f) == 4
    assert "step 3: no event 'won' (events); events were:\n      boost p2\n" in f[0]
    assert "an event 'battle_won tokyo 15 14' happened (not_events)" in f[1]
    assert "no event containing 'battle_lost' (events_like)" in f[2]
    assert "an event containing '_won' happened (not_events_like): 'battle_won tokyo 15 14'" in f[3]


def test_every_failure_is_reported_and_a_refused_step_ends_the_scenario(tmp_path: Path) -> None:
    p = _write(tmp_path, """
        [[step]]
        expect = ["round == 2", "van.fuel == 3"]
        [[step]]
        do = "done"
        expect = ['wait == "move"']
        [[step]]
        do = "move p1 kyoto"
        [[step]]
        expect = ["round == 1"]
        [[step]]
        expect = ["round == 1"]
    """)
    f = run_scenario(p).failures
    assert f[0].endswith('step 1: expected round == 2 (round is 1, expected 2)')
    assert f[1].endswith('step 2: expected wait == "move" (wait is \'plan\', expected \'move\')')
    assert "step 3: 'move p1 kyoto' was refused" in f[2]
    assert f[3].endswith("step 3: the game cannot go on: step 4-5 not run")
    assert len(f) == 4


def test_an_engine_failure_is_reported_not_raised(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in the engine fails its scenario with a one-line reason; the others still run."""
    from artproject.core.art.registry import DONE

    def broken(st: object, a: object) -> None:
        raise KeyError(0)

    monkeypatch.setattr(DONE, "apply", broken)  # the verb's declared step (core/registry.py)
    p = _write(tmp_path, '[[step]]\ndo = "done"\n[[step]]\nexpect = ["round == 1"]\n')
    f = run_scenario(p).failures
    assert "step 1: the engine failed: KeyError: 0 (at test_scenarios.py:" in f[0]
    assert f[1].endswith("the game cannot go on: step 2 not run")


def test_pay_health_names_who_pays_where_the_team_chooses(tmp_path: Path) -> None:
    """R5: an unlock's missing radio is paid by the players `pay_health` names, in turn."""
    p = _write(tmp_path, f"""
        mission = {str(FIXTURE)!r}
        players = 3
        [position]
        van = {{ fuel = 3, radio = 1, weapon = 3 }}
        [[step]]
        do = "unlock"
        pay_health = ["p2", "p3", "p2"]
        expect = ["health(p1) == 3", "health(p2) == 1", "health(p3) == 2", 'wait == "boundary"']
    """)
    assert run_scenario(p).passed, run_scenario(p).failures
    # fewer: the step answers one question, and the others are left to the next steps
    p.write_text(p.read_text().replace('["p2", "p3", "p2"]', '["p2"]').replace(
        'expect = [', 'expect = [\'wait == "hurt"\', ').replace(', \'wait == "boundary"\'', ''))
    f = run_scenario(p).failures
    assert len(f) == 2 and all("health(p" in x for x in f)  # p2 paid 1, p3 none: only checks
    p.write_text(p.read_text().replace('["p2"]', '["p2", "p3", "p2", "p1"]'))
    f = run_scenario(p).failures
    assert "expected health payments p2, p3, p2, p1 (pay_health); paid: p2, p3, p2 " in f[0]


def test_pay_health_checks_a_payment_the_rules_name(tmp_path: Path) -> None:
    """R4: a move is paid in health only when the van holds no fuel, by the mover (R5)."""
    p = _write(tmp_path, f"""
        mission = {str(FIXTURE)!r}
        phase = "movement"
        [position]
        van = {{ fuel = 0, radio = 3, weapon = 3 }}
        [[step]]
        do = "move p2 nagoya"
        pay_health = ["p2"]
        [[step]]
        do = "move p1 nagoya"
        pay_health = []
    """)
    f = run_scenario(p).failures
    assert len(f) == 1 and "step 2: expected health payments none (pay_health); paid: p1" in f[0]
    p.write_text(p.read_text().replace("fuel = 0", "fuel = 1"))
    f = run_scenario(p).failures
    assert "step 1: expected health payments p2 (pay_health); paid: none" in f[0]


def test_cards_and_the_deck_as_expressions(tmp_path: Path) -> None:
    p = _write(tmp_path, f"""
        mission = {str(FIXTURE)!r}
        [position]
        hands = {{ p2 = [19] }}
        chain = [5]
        discard = [7]
        deck_top = [11, 1]
        [[step]]
        expect = ['card(19) == "hand p2"', 'card(5) == "chain"', 'card(7) == "discard"',
                  'card(11) == "deck"', 'card(999) == ""', "deck_top(1) == 11",
                  "deck_top(2) == 1", "deck_top(3) == -1", "final_from_bottom == 13",
                  "final_from_top == 73 - 12 - 3", "deck == 73 - 3"]
        [[step]]
        expect = ['card(0) == "discard"']
    """)
    f = run_scenario(p).failures
    assert len(f) == 1 and "expected card(0) == \"discard\" (card(0) is 'deck'" in f[0]


@pytest.mark.parametrize(("body", "message"), [
    ("[[step]]\npay_health = ['p3']", "step[0].pay_health[0]: no player 'p3' in a 2-player game"),
    ("[[step]]\npay_health = ['x']", "'x' is not a player"),
    ("[[step]]\nlegal = ['unlock p1']", "step[0].legal[0]: 'unlock p1': expected 'unlock'"),
    ("[[step]]\nnot_events = 'won'",
     "step[0].not_events: expected a list of texts, not text 'won'"),
    ("[[step]]\nexpect = ['card(p1) == 1']",
     "card() wants a number here, not `p1` (a player)"),
])
def test_bad_new_step_keys(tmp_path: Path, body: str, message: str) -> None:
    p = _write(tmp_path, body + "\n")
    with pytest.raises(RulesError) as err:
        run_scenario(p)
    assert message in str(err.value) and str(err.value).startswith(str(p))


# ====================================================================== what a rulebook case needs
def _war(tmp: Path, body: str) -> Path:
    """An Art of War scenario: p1 challenges p2 with a King, p2 holds a Queen and a Hermit."""
    return _write(tmp, """
        game = "art-of-war"
        players = 3
        seed = 1
        [position]
        hands = { p1 = ["farmer", "king"], p2 = ["queen", "hermit"], p3 = ["chef"] }
        tokens = [6, 6, 6]
        [[step]]
        do = "challenge p1 p2"
        [[step]]
        do = "bet p1 3"
    """ + textwrap.dedent(body))


def test_who_decides_reads_as_players(tmp_path: Path) -> None:
    """`deciding` and Art of War's `current` are players; a failure names them (p2, not 1)."""
    ok = _war(tmp_path, """
        [[step]]
        do = "play p1 king"
        expect = ["current == p1", "deciding == p2", "deciding != team", "winner == nobody"]
    """)
    assert run_scenario(ok).passed, run_scenario(ok).failures
    bad = _war(tmp_path, """
        [[step]]
        do = "play p1 king"
        expect = ["deciding == p1", "current == p2", "winner == p1"]
    """)
    f = run_scenario(bad).failures
    assert "expected deciding == p1 (deciding is 'p2', expected 'p1')" in f[0]
    assert "expected current == p2 (current is 'p1', expected 'p2')" in f[1]
    assert "expected winner == p1 (winner is 'nobody', expected 'p1')" in f[2]
    team = _write(tmp_path, '[[step]]\nexpect = ["deciding == p1"]\n')
    assert "(deciding is 'team', expected 'p1')" in run_scenario(team).failures[0]


def test_only_legal_says_every_legal_action(tmp_path: Path) -> None:
    ok = _war(tmp_path, """
        [[step]]
        do = "play p1 king"
        only_legal = ["raise p2 3", "accept p2", "refuse p2", "raise p2 1", "raise p2 2"]
    """)
    assert run_scenario(ok).passed, run_scenario(ok).failures
    bad = _war(tmp_path, """
        [[step]]
        do = "play p1 king"
        only_legal = ["accept p2", "refuse p2", "raise p2 4"]
    """)
    (f,) = run_scenario(bad).failures
    assert f.endswith("step 3: the legal actions are not those of only_legal: not legal: "
                      "raise p2 4; legal too: raise p2 1, raise p2 2, raise p2 3")


def test_events_with_matches_whole_words_and_like_a_part(tmp_path: Path) -> None:
    """`not_events_with = ["draw"]` is about a draw: a Fortune Teller's `blind_draw` is
    none, though `not_events_like = ["draw"]` finds it."""
    p = _write(tmp_path, """
        game = "art-of-war"
        players = 2
        [position]
        hands = { p1 = ["farmer"], p2 = ["chef"] }
        deck_top = ["fortune_teller", "soldier", "militia"]
        [[step]]
        do = "draw p1"
        events_with = ["blind_draw p1", "p2 militia", "blind_draw"]
        not_events_with = ["draw", "blind_draw p1 militia"]
    """)
    assert run_scenario(p).passed, run_scenario(p).failures
    p.write_text(p.read_text() + 'events_like = ["draw"]\nnot_events_like = ["draw"]\n'
                 'events_with = ["draw p1"]\n'.replace("events_with", "events_in_order"))
    f = run_scenario(p).failures
    assert any("an event containing 'draw' happened (not_events_like): 'blind_draw p1 soldier'"
               in x for x in f)
    assert any("no event with the words 'draw p1' (events_in_order)" in x for x in f)


def test_events_in_order(tmp_path: Path) -> None:
    body = """
        [[step]]
        do = "play p1 king"
        [[step]]
        do = "refuse p2"
        events_in_order = [{0}]
    """
    ok = _war(tmp_path, body.format('"refuse p2", "turn 2 p2"'))
    assert run_scenario(ok).passed, run_scenario(ok).failures
    late = _war(tmp_path, body.format('"turn 2", "refuse p2"'))
    (f,) = run_scenario(late).failures
    assert "no event with the words 'refuse p2' after 'turn 2 p2' (it came before) " \
           "(events_in_order); events were:\n      refuse p2 2\n" in f
    missing = _war(tmp_path, body.format('"refuse p2", "turn 3"'))
    (f,) = run_scenario(missing).failures
    assert "no event with the words 'turn 3' after 'refuse p2 2' (events_in_order)" in f


def test_returns_of_a_finished_game(tmp_path: Path) -> None:
    body = """
        game = "art-of-war"
        players = 2
        [position]
        hands = {{ p1 = [{0}], p2 = ["hermit"] }}
        tokens = [6, 1]
        [[step]]
        returns = [0, 0]
        only_legal = ["draw p1", "take p1", "challenge p1 p2"]
        [[step]]
        do = "challenge p1 p2"
        [[step]]
        do = "bet p1 1"
        [[step]]
        do = "play p1 king"
        [[step]]
        do = "refuse p2"
        {1}
    """
    won = _write(tmp_path, body.format('"farmer", "king"', """
        returns = [1, -1]
        only_legal = []
        expect = ["winner == p1", "place(p1) == 1", "place(p2) == 2", "deciding == nobody"]
    """))
    assert run_scenario(won).passed, run_scenario(won).failures
    # p1 laid its last card: both die at once, and the game is drawn between them (W18)
    drawn = _write(tmp_path, body.format('"king"', """
        returns = [0, 0]
        expect = ['outcome == "draw"', "winner == nobody", "place(p1) == 1", "place(p2) == 1"]
    """))
    assert run_scenario(drawn).passed, run_scenario(drawn).failures
    wrong = _write(tmp_path, body.format('"farmer", "king"', "returns = [-1, 1]").replace(
        "returns = [0, 0]", "returns = [1, -1]"))
    f = run_scenario(wrong).failures
    assert f[0].endswith("step 1: returns are [0, 0], expected [1, -1] (the game is not over)")
    assert f[1].endswith("step 5: returns are [1, -1], expected [-1, 1]")


def test_a_view_is_what_the_player_may_see(tmp_path: Path) -> None:
    """`view` reads a player's observation: p2 sees p1's face-down King as `?`, and a failed
    check shows what p2 saw, never the card (W19)."""
    p = _war(tmp_path, """
        [[step]]
        do = "play p1 king"
        expect = ['view(p2, "table.cards.p1") == "king"', 'shows(p2, "hand", "king")',
                  'knows(p2, "play p1 king")', 'view(p2, "table.cards.p3") == "?"']
    """)
    f = run_scenario(p).failures
    assert len(f) == 4
    assert "(view(p2, \"table.cards.p1\") is '?', expected 'king')" in f[0]
    assert "(view(p2, \"table.cards.p3\") is '', expected '?')" in f[3]


def test_a_view_is_built_from_the_observation(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`view` and `shows` read the game's `observation(player)` and `knows` its
    `information_state(player)`, never the state itself."""
    from artproject.core.aow.state import War

    seen: list[int] = []

    def observation(self: War, player: int) -> dict[str, object]:
        seen.append(player)
        return {"only": {"p2": ["x"]}}

    monkeypatch.setattr(War, "observation", observation)
    monkeypatch.setattr(War, "information_state", lambda self, p: ("g", (), p, ("seen",)))
    p = _write(tmp_path, """
        game = "art-of-war"
        [[step]]
        expect = ['view(p2, "only.p2.0") == "x"', 'shows(p1, "only.p2", "x")',
                  'shows(p1, "only", p2)', 'knows(p1, "seen")', 'not knows(p1, "draw p1")']
    """)
    assert run_scenario(p).passed, run_scenario(p).failures
    assert 1 in seen and 0 in seen


def test_cards_on_the_table_count_every_card(tmp_path: Path) -> None:
    p = _war(tmp_path, """
        [[step]]
        do = "play p1 king"
        expect = ["cards_on_table == 1", "cards_in_hands == 4", "added(p1) == 0",
                  "cards_in_hands + deck + discard + cards_on_table == 59"]
    """)
    assert run_scenario(p).passed, run_scenario(p).failures


@pytest.mark.parametrize(("game", "body", "message", "where"), [
    ("art-of-war", "[[step]]\nexpect = ['deciding == ']", "expected", "4:24"),
    ("art-of-war", "[[step]]\nexpect = ['deciding == p4']", "no player 'p4' in a 3-player game",
     "4:24"),
    ("art-of-war", "[[step]]\nexpect = ['view(p1, \"tabel.cards\") == 1']",
     "a player's view has no 'tabel' (did you mean 'table'?)", "4:21"),
    ("art-of-war", "[[step]]\nexpect = ['shows(p1, \"hand\")']", "shows() takes 3 argument(s)",
     "4:12"),
    ("art-of-war", "[[step]]\nexpect = ['current == \"p1\"']",
     "cannot compare `current` (a player) with `\"p1\"` (a text)",
     "4:12"),
    ("art-of-war", "[[step]]\nonly_legal = ['drwa p1']", "step[0].only_legal[0]: unknown verb",
     "4:15"),
    ("art-of-war", "[[step]]\nonly_legal = ['draw p1', 'draw p5']",
     "step[0].only_legal[1]: 'draw p5': no player p5 in a 3-player game", "4:26"),
    ("art-of-war", "[[step]]\nreturns = [1, -1]",
     "step[0].returns: 2 returns for a 3-player game", "4:11"),
    ("art-of-war", "[[step]]\nreturns = ['won']", "step[0].returns[0]: expected a number",
     "4:12"),
    ("art-of-war", "[[step]]\nnot_events_with = ['draw', ' ']",
     "step[0].not_events_with[1]: an empty text", "4:28"),
    ("art-of-war", "[[step]]\nevents_in_order = 'draw p1'",
     "step[0].events_in_order: expected a list of texts", "4:19"),
    ("art-project", "[[step]]\nexpect = ['current == p1']", "unknown name 'current'", "4:12"),
    ("art-project", "[[step]]\nexpect = ['place(p1) == 1']", "unknown function 'place'", "4:12"),
])
def test_bad_values_of_the_new_keys(tmp_path: Path, game: str, body: str, message: str,
                                    where: str) -> None:
    """Each is refused before the game starts, at the file, line and column of the value."""
    players = 3
    p = _write(tmp_path, f'game = "{game}"\nplayers = {players}\n{body}\n')
    with pytest.raises(RulesError) as err:
        run_scenario(p)
    assert message in str(err.value)
    assert str(err.value).startswith(f"{p}:{where}:"), str(err.value)
