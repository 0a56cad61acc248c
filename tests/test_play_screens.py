"""`artproject play` at one screen (a review of the terminal game): a hand is shown only
after the screen is passed to its owner, and is cleared with the terminal's scrollback, in
The A.R.T. Project as in the hot seat of Art of War; each screen of The A.R.T. Project tells
what happened since the last, as the whole table saw it."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from artproject.core.games import new_game
from artproject.play import run


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _session(game: str, typed: str, tty: bool = False, **options: object) -> str:
    out = _Terminal() if tty else io.StringIO()
    assert run(new_game(game, **options), io.StringIO(typed), out) == 0  # type: ignore[arg-type]
    return out.getvalue()


# ---------------------------------------------------------------- the scrollback
def test_a_pass_clears_the_scrollback_too(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """`\\x1b[2J` clears what a terminal shows, not its scrollback: the last player's hand
    stayed a scroll away. Each clear of the pass clears the scrollback too (`\\x1b[3J`)."""
    monkeypatch.chdir(tmp_path)
    out = _session("art-of-war", "\n3\n1\n3\n\nquit\n", tty=True, players=2, seed=5)
    passes = out.count("-- pass the screen to ")
    assert passes >= 2
    assert out.count("\x1b[2J\x1b[3J") == 2 * passes  # before the wait and after it
    assert "\x1b[2J\x1b[H" not in out  # no clear that leaves the scrollback


# ---------------------------------------------------------------- The A.R.T. Project's pass
def _art(typed: str, players: int = 2, seed: int = 5, tty: bool = False) -> str:
    return _session("art-project", typed, tty, mission="japan", players=players, seed=seed)


def _hand_shown(screen: str) -> list[str]:
    """The players whose hand a screen shows face up."""
    return [line.split("'")[0] for line in screen.splitlines()
            if line.endswith("'s hand:")]


def test_a_players_own_decision_waits_for_the_screen_to_be_passed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reviewer's `2`, `1` (seed 5): after p1 played, p2's hand came up face up on the
    shared screen, nobody having passed it, and stayed there through the next planning. Now
    p2's own decision (their card to play) waits for the screen to be passed to p2 first."""
    monkeypatch.chdir(tmp_path)
    out = _art("2\nview p1\n\n1\n\n2\n")
    before, _, after = out.partition("-- pass the screen to p2, then press Enter")
    assert "p2's hand:" not in before  # (p1's, after `view p1` and its own pass)
    assert "p1's hand:" in before.partition("-- pass the screen to p1, then press Enter")[2]
    assert "p2's hand:\n  [47] cost 2 weapon" in after
    assert "-- decide: play: each player who has not yet played a card plays one (R8)\n" \
           "    1. play p2 47" in after


def test_the_reviewers_session_shows_no_hand(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """`printf '2\n1\n' | artproject play --players 2 --seed 5`: no hand face up, nobody
    having sat down."""
    monkeypatch.chdir(tmp_path)
    out = _art("2\n1\n")
    assert _hand_shown(out) == [] and "pass the screen" not in out
    assert "[47] cost" not in out and "[41] cost" not in out


def test_a_team_decision_shows_no_hand(tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Planning is the team's: its screen shows every hand as its clue backs and lists no
    card of anyone's to play (another's `play` names their card, info.py `legal_for`); after
    p2 played their own card, the next team decision takes p2's hand off the screen."""
    monkeypatch.chdir(tmp_path)
    out = _art("2\n")
    plan = out.split("-- decide: plan")[0].rpartition("== Japan")[2]
    assert _hand_shown(plan) == []
    assert "p1's hand (clue backs): artifacts, music; books" in plan
    listed = out.split("-- decide: plan")[1]
    assert "play p" not in listed and "draw p1 fuel" in listed
    assert "view pN passes the screen to pN" in listed
    after_p2 = _art("2\nview p1\n\n1\n\n2\n").rpartition("-- decide: play")[2]
    assert "-- decide: boundary" in after_p2 and _hand_shown(after_p2) == []


def test_view_passes_the_screen_and_keeps_the_hand_while_its_owner_decides(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`view p1` at the team's planning passes the screen to p1 (docs/cli.md: "pass the
    screen first"), then lists p1's cards to play; p1's own play keeps p1's hand there."""
    monkeypatch.chdir(tmp_path)
    out = _art("2\nview p1\n\n4\n")
    _, passed, shown = out.partition("-- pass the screen to p1, then press Enter")
    assert passed and "p1's hand:" in shown and "1. play p1 41   cost 1 radio" in shown
    last = shown.rpartition("== Japan")[2]  # after `draw p1 radio`, p1's
    assert _hand_shown(last) == ["p1"] and "-- decide: plan" in last


def test_another_players_card_typed_tells_nothing_of_their_hand(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The diff reviewer's probe (seed 4): at the team's decision, `play p2 1` was told
    "card 1 is not in p2's hand", and a card p2 holds, typed, was played for p2 unseen.
    Another player's action the screen does not list is refused alike, whatever they hold."""
    monkeypatch.chdir(tmp_path)
    game = new_game("art-project", mission="japan", players=2, seed=4)
    game.apply("done")  # (the round's first boundary: then planning, the hands dealt)
    held = game.hands[1][0]
    out = _session("art-project", f"done\nplay p2 1\nplay p2 {held}\nquit\n",
                   mission="japan", players=2, seed=4)
    said = [line.split("! ", 1)[1] for line in out.splitlines() if "! " in line]
    assert said == [f"play p2 {n}: that is p2's to choose, on p2's own screen (view p2)"
                    for n in (1, held)], said
    assert "hand" not in " ".join(said)


def test_a_solo_game_never_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = _art("2\n1\n", players=1)
    assert "pass the screen" not in out
    assert _hand_shown(out.rpartition("== Japan")[2]) == ["p1"]


def test_the_art_projects_pass_clears_the_scrollback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = _art("2\nview p1\n\n", tty=True)
    assert "\x1b[H\x1b[2J\x1b[3J-- pass the screen to p1, then press Enter" in out
    assert "p1's hand:" in out.split("\x1b[3J")[-1]


# ---------------------------------------------------------------- what happened
def _bot_script(players: int, seed: int, until: str, mission: str = "japan",
                ) -> tuple[str, list[tuple[Any, ...]]]:
    """The heuristic bot's decisions (as typed at the prompt, Enter at each pass) in a game
    of Japan of `seed`, up to the first event `until`; the events logged."""
    from artproject.core.art.bots import POLICIES
    from artproject.policies import make_policy

    st = new_game("art-project", mission=mission, players=players, seed=seed, log=True)
    bot, typed = make_policy("heuristic", seed, POLICIES), []
    while not (st.is_over() or any(e[1] == until for e in st.log)):
        action = bot(st)
        if players > 1 and action.verb == "play":  # (a card is played from its owner's
            typed.append(f"view p{action.player + 1}\n")  # screen, passed to them)
        typed.append(f"{action}\n")
        st.apply(action)
    return "".join(typed), list(st.log)


def test_a_battle_is_told_as_it_happens(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A fight showed no roll, no strength, no result: the players had to read the counters.
    Each screen now tells what happened since the last (told.py): the dice, the strength
    against the agents', the battle won or lost, an artwork uncovered or collected."""
    monkeypatch.chdir(tmp_path)
    typed, log = _bot_script(1, 5, "collected")
    out = _art(typed, players=1)
    assert "-- what happened:\n   " in out
    assert "   dice rolled: p1 3, a1 3\n" in out
    assert "   battle in sendai won: strength 6 against the agents' 5\n" in out
    assert "   artwork uncovered in kyoto\n" in out and "   artwork collected in kyoto\n" in out
    assert "   p1 played [21] (sculptures, books)\n" in out
    assert ("collected", "kyoto") in [e[1:] for e in log]


def test_health_paid_for_a_missing_resource_is_told(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    typed, _ = _bot_script(1, 5, "health_for")
    out = _art(typed, players=1)
    assert "   p1 paid a health token for missing radio\n" in out


def test_what_happened_never_names_a_card_in_a_hand(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Told as the whole table saw it: every card a told line names was played (or left a
    clue chain), never one still in a hand."""
    monkeypatch.chdir(tmp_path)
    typed, log = _bot_script(3, 2, "")  # (the whole game)
    out = _art(typed.replace("\n", "\n\n"), players=3, seed=2)  # (Enter at every wait)
    told = [line for block in out.split("-- what happened:\n")[1:]
            for line in block.split("\n==")[0].splitlines()]
    assert told and any("battle in" in line for line in told)
    played = {int(e[3]) for e in log if e[1] == "play"} | {
        int(e[2]) for e in log if e[1] in ("reroll_card", "clue_lost")} | {
        int(e[3]) for e in log if e[1] == "trade"}
    import re

    named = {int(n) for line in told for n in re.findall(r"\[(\d+)\]", line)}
    assert named and named <= played


# ---------------------------------------------------------------- what a choice costs
SEED12 = ("done\ndraw p1 fuel\ndraw p2 weapon\ndraw p1 weapon\ndraw p2 fuel\nview p2\n\n"
          "play p2 16\ngive p1\nview p1\n\nplay p1 49\nunlock\ndone\nmove p2 nagoya\n"
          "move p2 tokyo\n")


def test_a_choice_that_costs_health_says_so(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """With no fuel a move costs its pawn's owner a health token (the golden rule, R4), and
    at their last token it loses the game (R7): listed with no word of it, it was taken
    blind. Now each such option says what it pays, and when it loses the game."""
    monkeypatch.chdir(tmp_path)
    out = _session("art-project", SEED12, players=2, difficulty="easy", seed=12,
                   mission="japan")
    first = out.split("-- decide: move")[2]  # (p2 in nagoya)
    assert "    3. move p2 tokyo   (no fuel: p2 pays 1 health)\n" in first
    last = out.rpartition("-- decide: move")[2]
    assert ("    3. move p2 sendai   (no fuel: p2 pays 1 health; the team loses the game: "
            "p2 has 1 health (R7))\n") in last
    assert "    1. move p1 sendai   (no fuel: p1 pays 1 health)\n" in last
    assert "    5. done\n" in last  # (nothing to pay: no note)


def test_an_unlock_short_of_radio_says_who_pays_is_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = _session("art-project", SEED12.partition("done\nmove")[0], players=2,
                   difficulty="easy", seed=12, mission="japan")
    first = out.split("-- decide: boundary")[1]  # (3 radio in the van, an ally die for 5)
    assert "1. unlock   (2 radio missing: the team names who pays 2 health)" in first
    boundary = out.rpartition("-- decide: boundary")[2]
    assert "1. unlock   (4 radio missing: the team names who pays 4 health)" in boundary


# ---------------------------------------------------------------- the clue chains
def test_a_clue_chain_names_its_cards_by_number(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A reroll names a chain's card by number (`reroll 66`) while the chain showed only
    clues: each card of a chain is now shown with its number."""
    monkeypatch.chdir(tmp_path)
    typed, _ = _bot_script(1, 5, "play")
    out = _art(typed, players=1)
    assert "\nclue chain: [21] sculptures, books\n" in out


def test_per_player_chains_name_their_owner_and_cards(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    typed, log = _bot_script(2, 3, "move", mission="usa")
    out = _session("art-project", typed.replace("\n", "\n\n"), mission="usa", players=2,
                   seed=3)
    who, card = next((e[2], e[3]) for e in log if e[1] == "play")
    c = new_game("art-project", mission="usa", players=2, seed=3).rules.cards[card]
    assert f"\n{who}'s clue chain: [{card}] " in out and c.clues


# ---------------------------------------------------------------- what a question is about
def test_each_question_says_what_it_is_about(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """`-- decide: hurt`, `-- decide: give` and `-- decide: boundary` said nothing of what was
    asked: each now says it in its kind's words (the registry's), and a question of who pays
    what is missing and how much health it costs in all."""
    monkeypatch.chdir(tmp_path)
    out = _session("art-project", "unlock\nhurt p1\n", mission="japan", players=2,
                   difficulty="easy", seed=12)
    assert ("-- decide: boundary: between two phases, the team may unlock an ally die "
            "(unlock) or go on (done) (R17)\n") in out
    assert ("-- decide: hurt: a resource is missing: who pays a health token for it (R5); "
            "2 radio missing, 2 health to pay\n") in out
    assert "; 1 radio missing, 1 health to pay\n" in out
    assert "    1. hurt p1   (no radio: p1 pays 1 health)\n" in out
    given = _session("art-project", SEED12.partition("give")[0], mission="japan", players=2,
                     difficulty="easy", seed=12)
    assert "-- decide: give: a health token was gained: who receives it (R8)\n" in given


# ---------------------------------------------------------------- Art of War's public cards
def test_a_refusal_and_a_fold_name_the_cards_they_discard_face_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """W6: a refused attacker's card is discarded face up; W7: a fold discards both cards
    face up; public then (W19), but the hot seat said only "p2 refused and paid 1 token"."""
    monkeypatch.chdir(tmp_path)
    refused = _session("art-of-war", "\n3\n1\n3\n\n1\n\n", players=2, seed=5)
    assert ("p2 refused and paid 1 token; the attacker took back the bet (W6); p1's king "
            "was discarded face up\n") in refused
    folded = _session("art-of-war", "\n3\n1\n3\n\n3\n1\n\n2\n\n", players=2, seed=5)
    assert ("p1 folded: the defender takes the bet (W7); p1's king and p2's villager were "
            "discarded face up\n") in folded


def test_a_refused_card_back_in_hand_stays_unnamed() -> None:
    """Under the house rule that returns the refused card to hand unrevealed (W6's option),
    the refusal names no card."""
    from artproject.core.aow.views import told

    g = new_game("art-of-war", players=2, seed=5, log=True,
                 variants=("refused-card-hand",))
    for a in ("challenge p1 p2", "bet p1 1", "play p1 king", "refuse p2"):
        g.apply(a)
    lines = told(g, g.log, -1)
    assert "p2 refused and paid 1 token; the attacker took back the bet (W6)" in lines
    assert not any("king" in line for line in lines if "refused" in line)


# ---------------------------------------------------------------- words
def _war_reached(test: Any) -> Any:
    """An Art of War game of 3 played by random choices to a position where `test` holds."""
    import random

    for seed in range(50):
        g, rng = new_game("art-of-war", players=3, seed=seed), random.Random(seed)
        while g.outcome is None:
            if test(g):
                return g
            g.apply(rng.choice(g.legal_actions()))
    raise AssertionError("no game reached it")


@pytest.mark.parametrize(("what", "test"), [
    ("1 token,", lambda g: 1 in g.tokens),
    ("1 card ", lambda g: any(len(h) == 1 for h in g.hands) and g.current_player() >= 0),
])
def test_one_token_and_one_card_are_singular(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             what: str, test: Any) -> None:
    """"p1: 1 tokens, 5 cards", "4 tokens, 1 cards": the seats' line now says each in the
    singular when it is one."""
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    run(_war_reached(test), io.StringIO("\nquit\n"), out)
    seats = next(line for line in out.getvalue().splitlines() if line.startswith("p1: "))
    assert what in seats + " " and "1 tokens" not in seats and "1 cards" not in seats


def test_a_save_with_no_digest_names_the_command_lines_trust(tmp_path: Path) -> None:
    """The refusal said "trust=True (the command line's --trust) loads it anyway", the
    library's words, at the command line: there it names the flag alone (the library keeps
    its words, tests/test_api_review.py), and at play's prompt, the command that loads it."""
    import json
    import subprocess
    import sys

    g = new_game("art-project", mission="japan", players=1, seed=4)
    g.apply("done")
    from artproject import save_game

    save_game(g, tmp_path / "g.json")
    doc = json.loads((tmp_path / "g.json").read_text())
    doc.pop("digest")
    (tmp_path / "g.json").write_text(json.dumps(doc))
    done = subprocess.run([sys.executable, "-m", "artproject", "play", "--load", "g.json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120, input="")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "; --trust loads it anyway\n" in done.stderr and "trust=True" not in done.stderr
    typed = _cli(tmp_path, ["--seed", "4"], "load g.json\nquit\n").stdout
    assert "; artproject play --load FILE --trust loads it anyway\n" in typed
    assert "trust=True" not in typed


# ---------------------------------------------------------------- bots at the table
def _cli(tmp: Path, args: list[str], typed: str = "") -> Any:
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "artproject", "play", *args], cwd=tmp,
                          input=typed, capture_output=True, text=True, timeout=120)


def test_bots_take_seats_in_art_of_war(tmp_path: Path) -> None:
    """`--bots p2,p3=random`: one person plays two bots; the bots' moves are told on the
    person's screen as anyone's are (their cards face down unnamed), and with one person at
    the table no screen is passed."""
    done = _cli(tmp_path, ["--game", "art-of-war", "--players", "3", "--seed", "5",
                           "--bots", "p2,p3=random"], "1\n2\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "pass the screen" not in out and "p2 decides" not in out and "p3 decides" not in out
    told = out.split("-- since you last saw the game:")[1].split("\n==")[0]
    assert "p2 challenged p1" in told and "p2 laid a card face down" in told
    assert "great_dragon" not in told  # (p2's face-down card, until it is shown)


def test_bots_take_seats_in_kuhn_poker(tmp_path: Path) -> None:
    done = _cli(tmp_path, ["--game", "kuhn", "--seed", "5", "--bots", "p2=heuristic"],
                "1\n1\n")
    assert done.returncode == 0, done.stderr
    assert "-- p2 (bot): bet p2\n" in done.stdout
    assert "the cards: p1 queen, p2 king" in done.stdout


@pytest.mark.parametrize(("args", "said"), [
    (["--bots", "p2"], "--bots: The A.R.T. Project's decisions are the team's"),
    (["--game", "kuhn", "--bots", "p3"], "'p3' is not a player; expected p1..p2"),
    (["--game", "kuhn", "--bots", "p2=foo"], "--bots p2=foo: unknown policy 'foo'"),
    (["--game", "kuhn", "--bots", "p2,p2"], "p2 is named twice"),
])
def test_bots_a_game_cannot_seat_are_refused_in_one_line(tmp_path: Path, args: list[str],
                                                         said: str) -> None:
    done = _cli(tmp_path, ["--seed", "5", *args])
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1
