"""Errors as an author meets them through `artproject check`, after a review: an unknown
key is pointed at where the key is written, a bad element of a list or inline table at
that element; a misspelt statement word at the word; a wrong kind of value named in the
DSL's words; a comparison that can never hold refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from artproject.cli import main
from artproject.core.sources import SourceMap


def check(tmp_path: Path, body: str, capsys: pytest.CaptureFixture[str],
          name: str = "m.toml") -> tuple[int, list[str], str]:
    """`artproject check` on a file of `body`: status, its error lines (without their
    source line and caret), the file's name as errors show it."""
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    code = main(["check", str(path)])
    err = capsys.readouterr().err
    return code, [ln for ln in err.splitlines() if ln.startswith(str(path))], str(path)


# ---------------------------------------------------------------- where: keys and elements
@pytest.mark.parametrize(("body", "at", "message"), [
    ('extends = "japan"\n[rules]\nlost_city_att = 4\n', "3:1",
     "rules.lost_city_att: unknown rule parameter 'lost_city_att'"),
    ('extends = "japan"\n[tune.rules]\n  lost_city_att = [3, 7]\n', "3:3",
     "tune.rules.lost_city_att: unknown rule parameter 'lost_city_att'"),
    ('extends = "japan"\nrules.lost_city_att = 4\n', "2:7",
     "rules.lost_city_att: unknown rule parameter"),
    ('extends = "japan"\n[[road]]\nfrom = "tokyo"\nto = "kyoto"\nthreads = 1\n'
     '[[city]]\nname = "x"\nsymbl = "films"\nx = 1\ny = 1\n', "8:1",
     "city[0].symbl: unknown key 'symbl' (did you mean 'symbol'?)"),
])
def test_an_unknown_key_is_pointed_at_the_key(tmp_path: Path, body: str, at: str,
                                               message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The caret stood under the value (`= 4`): the key is the mistake."""
    code, errors, path = check(tmp_path, body, capsys)
    assert code == 2
    assert any(e.startswith(f"{path}:{at}: {message}") for e in errors), errors


@pytest.mark.parametrize(("position", "at", "message"), [
    ('pawns = ["tokio", "tokyo"]', "3:10", "position.pawns.p1: unknown city 'tokio'"),
    ('pawns = ["tokyo",\n  "tokio"]', "4:3", "position.pawns.p2: unknown city 'tokio'"),
    ("hands = [[999], [19]]", "3:11", "position.hands.p1[0]: no card 999 in the deck"),
    ("hands = { p2 = [5, 999] }", "3:20", "position.hands.p2[1]: no card 999"),
    ("van = { fuel = 99 }", "3:16", "position.van.fuel: expected a whole number"),
    ("van = { fule = 1 }", "3:9", "position.van.fule: unknown resource 'fule'"),
    ('agents = { "tokio" = 1 }', "3:12", "position.agents.tokio: unknown city 'tokio'"),
])
def test_a_bad_element_is_pointed_at_the_element(tmp_path: Path, position: str, at: str,
                                                 message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The caret stood under the list's `[` or the table's `{`."""
    code, errors, path = check(tmp_path, f'mission = "japan"\n[position]\n{position}\n',
                               capsys, "s.toml")
    assert code == 2
    assert errors and errors[0].startswith(f"{path}:{at}: {message}"), errors


def test_the_source_map_knows_inline_elements_and_keys() -> None:
    smap = SourceMap("f.toml", 'a = [[1, {b = 2, "c d" = [3]}], 4]  # [x]\ne.f = 5\n')
    assert smap.where[("a", 0, 1, "b")] == (1, 15)
    assert smap.keys[("a", 0, 1, "c d")] == (1, 18)
    assert smap.where[("a", 0, 1, "c d", 0)] == (1, 27)
    assert smap.where[("a", 1)] == (1, 33) and ("a", 2) not in smap.where
    assert smap.keys[("e", "f")] == (2, 3) and smap.where[("e", "f")] == (2, 7)


# ---------------------------------------------------------------- a misspelt statement
@pytest.mark.parametrize(("hook", "word", "message"), [
    ("on artwork_collected: gian 1 fuel", "gian", "unknown statement 'gian' (did you mean "
     "'gain'?)"),
    ("on round_start: win; zzz 1 fuel", "zzz", "'zzz' is no statement word, so it is read as "
     "a call, whose arguments are written in parentheses: `zzz(...)`; a statement begins "
     "with gain, pay, lose, place, win, defeat, if, for or '{', or is a call"),
])
def test_a_misspelt_statement_is_pointed_at_and_named(
        tmp_path: Path, hook: str, word: str, message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`gian 1 fuel` said "unexpected '1'; expected '('" under the 1: the word is wrong."""
    body = f'extends = "japan"\nhooks = ["{hook}"]\n'
    code, errors, path = check(tmp_path, body, capsys)
    assert code == 2
    assert len(errors) == 1 and errors[0].startswith(
        f"{path}:2:{body.splitlines()[1].index(word) + 1}: {message}"), errors


@pytest.mark.parametrize("text", ["blind_challenge 1", "steal 1"])
def test_a_call_written_without_its_parentheses_is_not_called_unknown(text: str) -> None:
    """Art of War's own statements are calls (`blind_challenge(1)`): one written without its
    parentheses was called an unknown statement, with The A.R.T. Project's words listed (the
    grammar, every game's, knows no game's calls); it is told as a call missing them."""
    from artproject.core.aow.loader import load_rules as load_war
    from artproject.core.aow.words import WORDS, WarScope
    from artproject.dsl.compiler import Compiler

    comp = Compiler(WarScope(dict(load_war("art-of-war").index)), WORDS)
    comp.effect(text, None, frozenset({"player"}))
    word = text.split()[0]
    assert [str(e).splitlines()[0] for e in comp.errors] == [
        f"<text>:1:1: {word!r} is no statement word, so it is read as a call, whose arguments "
        f"are written in parentheses: `{word}(...)`; a statement begins with gain, pay, lose, "
        "place, win, defeat, if, for or '{', or is a call"]


# ---------------------------------------------------------------- kinds in the DSL's words
@pytest.mark.parametrize(("condition", "word", "message"), [
    ("agents(films) > 1", "films", "agents() wants a city here, not `films` (a text)"),
    ("lost(hq)", "hq", "lost() wants a city here, not `hq` (a number)"),
    ("symbol(tokyo) == 1", "symbol",
     "cannot compare `symbol(tokyo)` (a text) with `1` (a number)"),
    ("lost(tokyo) == 1", "lost",
     "cannot compare `lost(tokyo)` (true or false) with `1` (a number)"),
])
def test_a_wrong_kind_is_named_in_the_dsls_words(tmp_path: Path, condition: str, word: str,
                                                 message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The errors said `not str`, `cannot compare bool with int`: Python's type names."""
    body = f'extends = "japan"\nhooks = ["on round_start if {condition}: win"]\n'
    code, errors, path = check(tmp_path, body, capsys)
    assert code == 2 and len(errors) == 1, errors
    col = body.splitlines()[1].index(word) + 1
    assert errors[0].startswith(f"{path}:2:{col}: {message}"), errors


def test_an_unclosed_text_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`win "unclosed` said only "unexpected character '\\"'"."""
    body = 'extends = "japan"\nhooks = [\'on round_start: win "unclosed\']\n'
    code, errors, path = check(tmp_path, body, capsys)
    assert code == 2 and errors == [f'{path}:2:31: a text opened with " is never closed: end '
                                    'it with " on the same line'], errors
