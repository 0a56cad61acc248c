"""`artproject play --game art-of-war` at one screen, through the real command line: each
screen tells what happened since that player last saw the game (never what is hidden,
W19), a discard says why, `cards` lists each card's score and collateral damage (W2), the
pass-the-screen wait honours `quit` and `save FILE`, players are this game's, and the help
and the flags say which game takes what (review of the hot-seat game)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _cli(tmp: Path, args: list[str], typed: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "artproject", *args], cwd=tmp, input=typed,
                          capture_output=True, text=True, timeout=120)


def _war(tmp: Path, typed: str, players: int, seed: int) -> str:
    done = _cli(tmp, ["play", "--game", "art-of-war", "--players", str(players), "--seed",
                      str(seed)], typed)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


# p1 challenges p2, bets 1, lays a king; p2 accepts and lays a soldier; p1 adds a Wise Man;
# both pass; p1 wins: collateral damage (a token, a card) hits p2, who must discard
SEED5 = "\n3\n1\n3\n\n2\n2\n\n1\n\n1\n\n1\n\n"


def _screens(out: str) -> list[str]:
    """The output cut at each pass of the screen: one player's screens at a time."""
    return out.split("-- pass the screen to ")


def test_each_screen_tells_what_happened_since(tmp_path: Path) -> None:
    out = _war(tmp_path, SEED5, 2, 5)
    screens = _screens(out)
    to_p2 = screens[2]  # p2 sits down: what p1 did, p1's card face down
    assert "since you last saw the game:" in to_p2
    assert "p1 challenged p2" in to_p2 and "p1 bet 1 token" in to_p2
    assert "p1 laid a card face down" in to_p2 and "king" not in to_p2.split("p2's hand")[0]
    back = screens[3]  # p1 again: their own card, p2's answer, the reveal
    assert "you laid king face down" in back and "p2 accepted" in back
    assert "p2 laid a card face down" in back and "p2 revealed soldier" in back
    last = screens[-1]  # p2 after the comparison: who won, with what, what it cost
    assert "compared: p1 16, p2 3" in last
    assert "p1 won the challenge and took 2 tokens from the table" in last
    assert "p2 lost 1 token to the centre pile: collateral damage of p1's king" in last
    assert ("-- discard a card of your choice: collateral damage of p1's king "
            "(each other player: lose 1 token, 1 card, W9)") in last


def test_a_card_drawn_is_told_to_its_drawer_alone(tmp_path: Path) -> None:
    """W19: a drawn card is named on its drawer's screen; the others are told a card was
    drawn; a played-at-once Massacre (face up) is told to all."""
    out = _war(tmp_path, SEED5 + "1\n\n", 2, 5)
    screens = _screens(out)
    assert "you drew wise_man" in screens[-1]
    assert "p1 drew a massacre: played at once" in screens[-1]
    assert "p1's hand" in screens[-1] and "p1 drew wise_man" not in out


def test_a_death_and_its_killer_are_told(tmp_path: Path) -> None:
    """A game played to its end tells who died of what and who killed them."""
    typed = "\n" + "1\n\n" * 400
    out = _cli(tmp_path, ["play", "--game", "art-of-war", "--players", "2", "--seed", "3"],
               typed).stdout
    assert "== " in out
    assert " died: no " in out and ("killed by p" in out or "no killer" in out)


def test_another_players_hand_is_never_told(tmp_path: Path) -> None:
    """Nothing told names a card a seat holds unseen: p2's told lines never name p1's
    face-down king before the reveal."""
    out = _war(tmp_path, "\n3\n1\n3\n\n", 2, 5)
    told = out.split("since you last saw the game:")[-1].split("== ")[0]
    assert "king" not in told and "p1 laid a card face down" in told


def test_cards_lists_scores_and_collateral_damage(tmp_path: Path) -> None:
    out = _war(tmp_path, "\ncards\nhelp\nquit\n", 2, 5)
    assert "unknown verb" not in out
    assert "project's reconstruction, W2" in out
    assert "  king            x3  score 14  collateral damage, each other player: lose 1 " \
           "token, 1 card" in out
    assert "  villager        x2  score  2  no collateral damage" in out
    assert "  cards              every card: its score, collateral damage" in out
    # the special cards in a player's words (the card file's `says`), not their DSL texts
    assert "  thief           x3  score  0  at the reveal its owner takes back their bet" in out
    assert "played(great_dragon)" not in out and "collective_challenge()" not in out


def test_a_card_without_words_is_told_by_its_texts(tmp_path: Path) -> None:
    """A card file that gives no `says` (an author's own deck) is told by its DSL texts, in
    `cards` and on the pages' card faces."""
    from artproject import load_rules, new_game
    from artproject.core.aow.views import card, cards_lines

    root = Path(__file__).resolve().parents[1]
    text = (root / "cards" / "art-of-war.toml").read_text()
    (tmp_path / "plain.toml").write_text(
        "".join(line for line in text.splitlines(keepends=True)
                if not line.startswith("says = ")))
    (tmp_path / "plain-variant.toml").write_text(
        f'game = "art-of-war"\nname = "plain"\ncards = "{tmp_path / "plain.toml"}"\n')
    rules = load_rules("art-of-war", [tmp_path / "plain-variant.toml"])
    plain = new_game(rules, game="art-of-war", players=2, seed=1)
    worded = new_game("art-of-war", players=2, seed=1)
    assert card(worded, "thief")["says"].startswith("at the reveal")
    assert card(plain, "thief")["says"] == ""
    line = next(x for x in cards_lines(plain) if x.startswith("  thief"))
    assert "when revealed: if played(great_dragon) == 0" in line, line


def test_the_pass_wait_honours_save_and_quit(tmp_path: Path) -> None:
    out = _war(tmp_path, "\n3\n1\n1\nhelp\nsave g2.json\nquit\n", 3, 2)
    assert (tmp_path / "g2.json").exists()
    tail = out.partition("-- pass the screen to p2")[2]
    assert "! 'help' is taken at p2's own prompt" in tail
    assert "saved to g2.json" in tail and "saved to artproject-autosave.json; bye" in tail
    assert "p2's hand" not in tail


def test_the_end_of_input_at_the_pass_wait_shows_no_hand(tmp_path: Path) -> None:
    out = _war(tmp_path, "\n3\n1\n1\n", 3, 2)
    tail = out.partition("-- pass the screen to p2")[2]
    assert "end of input: saved to artproject-autosave.json" in tail
    assert "p2's hand" not in tail
    assert (tmp_path / "artproject-autosave.json").exists()


@pytest.mark.parametrize("typed", ["challenge p1 foo", "take foo", "challenge p1 p9"])
def test_a_player_word_names_this_games_players(tmp_path: Path, typed: str) -> None:
    out = _war(tmp_path, f"\n{typed}\nquit\n", 3, 2)
    word = typed.split()[-1]
    assert f"! {typed!r}: {word!r} is not a player; expected p1..p3" in out


def test_play_help_says_what_each_games_prompt_takes(tmp_path: Path) -> None:
    out = _cli(tmp_path, ["play", "--help"]).stdout
    flat = " ".join(out.split())
    assert "The A.R.T. Project: a number or an action (move p1 kyoto), view pN, undo" in flat
    assert "Art of War and the other hot-seat games" in flat
    assert "no view and no undo" in flat and "cards" in flat


def test_difficulty_of_art_of_war_names_the_command_flags(tmp_path: Path) -> None:
    done = _cli(tmp_path, ["play", "--game", "art-of-war", "--difficulty", "hard"])
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--difficulty is The A.R.T. Project's" in done.stderr
    assert "--players, --seed, --variant" in done.stderr
    assert "position, log and chance" not in done.stderr


def test_the_docs_transcript_is_what_play_shows(tmp_path: Path) -> None:
    """docs/art-of-war.md's transcript of the seed-5 game is its last screen, line by line."""
    page = (ROOT / "docs" / "art-of-war.md").read_text(encoding="utf-8")
    block = page.split("```text\n-- since you last saw")[1].split("```")[0]
    shown = "-- since you last saw" + block
    out = _war(tmp_path, SEED5, 2, 5)
    assert shown.strip() in out


def test_a_refusal_is_told_as_its_challenge_has_it() -> None:
    """A refusal in a duel returns the attacker's bet (W6); in a Massacre it pays half the bet
    to the attacker, whose bet stays in the challenge (W14): each told in its own words (a
    refusal in a Massacre was told as a duel's, "the attacker took back the bet")."""
    import random

    from artproject import new_game
    from artproject.core.aow.views import told

    seen: set[str] = set()
    for seed in range(40):
        g, rng = new_game("art-of-war", players=3, seed=seed, log=True), random.Random(seed)
        while g.outcome is None and len(seen) < 2:
            n = len(g.log)
            g.apply(rng.choice(g.legal_actions()))
            if any(e[1] == "refuse" for e in g.log[n:]):
                line = next(t for t in told(g, g.log[n:], -1, g.log[:n]) if "refused" in t)
                opened = [e[1] for e in g.log if e[1] in ("challenge", "collective", "blind")]
                kind = "duel" if opened[-1] == "challenge" else "collective"
                assert ("to the attacker (W14)" in line) == (kind == "collective"), (kind, line)
                assert ("took back the bet (W6)" in line) == (kind != "collective"), (kind, line)
                seen.add("collective" if kind == "collective" else "duel")
    assert seen == {"collective", "duel"}
