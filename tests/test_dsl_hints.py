"""What a DSL error tells its author: the expected tokens, and where the caret stands.

A syntax error's "expected" list names only what lets this text, read from its own start
rule, go on: an author who writes the hinted token there is never told it is unexpected
(the LALR parser's own list is its state's, which merged states and other start rules
swell). A wrong number is pointed at the number.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from artproject.cli import main
from artproject.core.art.loader import load_rules, scope_of
from artproject.core.errors import RulesError
from artproject.dsl.compiler import Compiler
from artproject.dsl.parser import STARTS, Origin, parse

DOCS = Path(__file__).resolve().parent.parent / "docs"

# what an author would write for each word of a hint
_SAMPLES = {
    "a name": "fuel",
    "a number": "1",
    "a quoted string": '"x"',
    "a multiplier such as x2": "x2",
    "a comparison (== != < <= > >=)": "==",
    "'+' or '-'": "+",
    "the end of the text": "",
}


def _hints(message: str) -> list[str]:
    """The words of a message's expected list ([] where it has none)."""
    first = message.splitlines()[0]
    if "; expected one of: " in first:
        return re.split(r", (?=')|, (?=[a-z])", first.split("; expected one of: ", 1)[1])
    if "; expected " in first:
        return [first.split("; expected ", 1)[1]]
    return []


def _error(text: str, start: str) -> RulesError | None:
    try:
        parse(text, start)
    except RulesError as err:
        return err
    return None


def _column(err: RulesError) -> int:
    return int(str(err).split(":")[2])


def _follow_hints(text: str, start: str) -> list[str]:
    """The hints of `text`'s error that, written where the error is, are refused there."""
    err = _error(text, start)
    assert err is not None, text
    col = _column(err)
    prefix = text[:col - 1].rstrip()
    wrong = []
    for hint in _hints(str(err)):
        if hint.startswith(("an ", "a list")):  # (an empty text's: what the whole is)
            continue
        sample = _SAMPLES.get(hint, hint.strip("'"))
        tried = f"{prefix} {sample}".strip()
        again = _error(tried, start)
        # refused at the hinted token, or (the end hinted) at all: the hint was wrong
        if again is not None and (not sample or _column(again) <= len(tried) - len(sample) + 1):
            wrong.append(f"{hint}: {tried!r} -> {str(again).splitlines()[0]}")
    return wrong


@pytest.mark.parametrize(("text", "message"), [
    ("1 fuel; 1 radio", "<text>:1:7: unexpected ';'; expected one of: ',', the end of the text"),
    ("1 fuel if hq > 0 else 2 fuel",
     "<text>:1:8: unexpected 'if'; expected one of: ',', the end of the text"),
    ("1 fuel 1 radio",
     "<text>:1:8: unexpected '1'; expected one of: ',', the end of the text"),
    ("1 fuel }", "<text>:1:8: unexpected '}'; expected one of: ',', the end of the text"),
])
def test_an_amounts_hint_names_only_what_amounts_take(text: str, message: str) -> None:
    """A card's cost is amounts: neither ';', 'if', 'else' nor '}' (the cost rule's and the
    statements' tokens, which share the amount's parser state) is offered."""
    err = _error(text, "amounts")
    assert err is not None
    assert str(err).splitlines()[0] == message


def test_the_reviewers_card_costs_are_hinted_soundly(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """As `artproject check` reports them, in a card file."""
    costs = ["1 fuel; 1 radio", "1 fuel if hq > 0 else 2 fuel", "1 fuel 1 radio"]
    body = _FINAL + "".join(f'[[card]]\nid = {i}\ncost = "{cost}"\nclues = "music"\n\n'
                            for i, cost in enumerate(costs, start=1))
    path = tmp_path / "c.toml"
    path.write_text(body)
    main(["check", str(path)])
    err = capsys.readouterr().err
    for token in ("';'", "'if'", "'1'"):
        assert f"unexpected {token}; expected one of: ',', the end of the text" in err, err
    for word in ("'else'", "'}'", "';',"):
        assert f"expected one of: {word}" not in err and f", {word}" not in err, err


_FINAL = '[final]\nid = 0\ntitle = "Final card"\n\n'

_BROKEN = {
    "amounts": ["1 fuel; 1 radio", "1 fuel if hq > 0 else 2 fuel", "1 fuel 1 radio",
                "1 fuel }", "1 fuel,", "two fuel", "1 fuel else", "nothing, 1 fuel", "1 1"],
    "placements": ["films x2 music", "films; music", "films x", "films if", "films,"],
    "symbols": ["films music", "films;", "films,", "1", "films if"],
    "effect": ["gain 1 fuel 1 radio", "gain 1 fuel }", "gain 1 fuel else", "gain x",
               "if hq then gain 1 fuel else", "place 2 agents kyoto", "{ gain 1 fuel",
               "gain 1 fuel if hq", "win 1", "for each player gain 1 fuel", "f(1 2)"],
    "cost": ["1 fuel; 1 radio", "1 fuel 1 radio", "1 fuel if hq", "1 fuel if hq else",
             "1 fuel }", "1 fuel else 2 fuel", "1 fuel if hq > 0 1 fuel"],
    "hook": ["on round_start gain 1 fuel", "on round_start: gain 1 fuel }", "on: win",
             "on round_start if: win", "on round_start if hq win", "on x: gain 1 fuel else"],
    "expr": ["van.fuel <=", "1 +", "(1", "1 if hq", "f(1", "hq and", "1 2", "1 }", "1; 2",
             "not", "1 if hq else"],
}


@pytest.mark.parametrize(("start", "text"),
                         [(s, t) for s, texts in _BROKEN.items() for t in texts])
def test_a_hinted_token_is_accepted_where_hinted(start: str, text: str) -> None:
    assert _follow_hints(text, start) == []


# every word that may be misplaced, inserted at every place of valid texts
_VALID = {
    "amounts": "1 fuel, 2 radio",
    "placements": "films x2, music",
    "symbols": "films, music",
    "effect": "if hq > 0 then { gain 1 fuel; pay 2 radio } else place 2 agents in kyoto",
    "cost": '2 fuel if road.thread == "red" else 1 fuel',
    "hook": "on round_start if threat > 1: lose 1 health",
    "expr": "van.fuel <= 4 and not f(1, 2)",
}
_WORDS = ("if", ";", "else", "}", "{", "1", "fuel", ",", "x2", ")", "==", "+", "then", ":")


@pytest.mark.parametrize("start", STARTS)
def test_every_misplaced_word_is_hinted_soundly(start: str) -> None:
    valid = _VALID[start]
    cuts = sorted({0, len(valid)} | {m.start() for m in re.finditer(r" ", valid)})
    wrong = []
    for cut in cuts:
        for word in _WORDS:
            text = f"{valid[:cut]} {word} {valid[cut:]}".strip()
            if _error(text, start) is not None:
                wrong += _follow_hints(text, start)
            if _error(valid[:cut].strip() or "x", start) is not None:  # (cut short)
                wrong += _follow_hints(valid[:cut].strip() or "x", start)
    assert wrong == []


def test_an_unexpected_character_hints_only_what_follows() -> None:
    err = _error("1 fuel, $", "amounts")
    assert err is not None
    assert str(err).splitlines()[0] == "<text>:1:9: unexpected character '$'; expected a number"


# ---------------------------------------------------------------- the caret at a zero
@pytest.fixture(scope="module")
def compiler() -> Compiler:
    return Compiler(scope_of(load_rules("japan")))


@pytest.mark.parametrize(("start", "text", "at"), [
    ("effect", "gain 0 fuel", "0"),
    ("effect", "pay 1 fuel, 0 radio", "0"),
    ("effect", "lose 0 health", "0"),
    ("effect", "place 0 agents in tokyo", "0"),
    ("amounts", "0 fuel", "0"),
    ("amounts", "1 fuel, 00 radio", "00"),
    ("placements", "music x0", "x0"),
    ("placements", "films, music x0", "x0"),
    ("cost", "0 fuel", "0"),
    ("cost", "1 fuel if hq > 0 else 0 fuel", "0 fuel"),
    ("hook", "on round_start: gain 0 fuel", "0"),
])
def test_a_zero_is_pointed_at_the_number(compiler: Compiler, start: str, text: str,
                                         at: str) -> None:
    err = _only_error(compiler, start, text)
    message = str(err).splitlines()[0]
    assert re.search(r"at least (1|x1)$", message), message
    assert _column(err) == text.rindex(at) + 1, message


@pytest.mark.parametrize(("start", "text", "at"), [
    ("effect", "gain 1 fule", "fule"),
    ("amounts", "1 fule", "fule"),
    ("placements", "flms x2", "flms"),
])
def test_a_wrong_kind_is_still_pointed_at_its_word(compiler: Compiler, start: str, text: str,
                                                   at: str) -> None:
    err = _only_error(compiler, start, text)
    assert _column(err) == text.index(at) + 1, str(err)


def _only_error(compiler: Compiler, start: str, text: str) -> RulesError:
    """The one error compiling `text` from `start` gives."""
    compiler.errors.clear()
    if start == "amounts":
        compiler.amounts(text, ("fuel", "radio", "weapon", "health"))
    else:
        getattr(compiler, start)(text)
    (err,) = compiler.errors
    return err


def test_the_reviewers_zero_hooks_are_pointed_at_the_numbers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = 'hooks = ["on round_start: place 0 agents in tokyo", "on round_start: gain 0 fuel"]'
    path = tmp_path / "z1.toml"
    path.write_text(f'extends = "japan"\n{line}\n')
    main(["check", str(path)])
    err = capsys.readouterr().err
    first, second = (m.start() + 1 for m in re.finditer(r"\b0\b", line))
    assert f"z1.toml:2:{first}: an amount must be at least 1" in err, err
    assert f"z1.toml:2:{second}: an amount must be at least 1" in err, err


def test_a_card_zero_is_pointed_at_the_number(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.toml"
    path.write_text(_FINAL + '[[card]]\nid = 1\ncost = "0 fuel"\nagents = "music x0"\n'
                    'clues = "music"\n')
    main(["check", str(path)])
    err = capsys.readouterr().err
    assert "c.toml:7:9: an amount must be at least 1" in err, err
    assert "c.toml:8:17: a placement needs at least x1" in err, err


# ---------------------------------------------------------------- the docs' errors
_CARD_KEYS = {"cost": "amounts", "gain": "amounts", "agents": "placements", "clues": "symbols"}


def _doc_errors() -> list[tuple[str, str, str]]:
    """The errors docs/dsl.md's section Errors prints: (message, source line, caret)."""
    text = (DOCS / "dsl.md").read_text(encoding="utf-8")
    section = text.split("\n## Errors\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"^```text\n(.*?)^```$", section, re.S | re.M)
    assert block is not None
    lines = block.group(1).splitlines()
    return [(lines[i], lines[i + 1], lines[i + 2]) for i in range(0, len(lines), 3)]


def test_the_docs_print_the_errors_as_they_are(compiler: Compiler) -> None:
    examples = _doc_errors()
    assert len(examples) >= 2
    for message, shown, caret in examples:
        file, line = message.split(":")[:2]
        src = shown[4:]  # (the display indents the file's line by 4)
        opening = src.index('"')
        dsl = src[opening + 1:src.index('"', opening + 1)]
        origin = Origin(file, int(line), opening + 2, [""] * (int(line) - 1) + [src])
        key = src.split("=")[0].strip()
        compiler.errors.clear()
        if _CARD_KEYS.get(key) == "amounts":
            compiler.amounts(dsl, ("fuel", "radio", "weapon", "health"), origin)
        elif key in _CARD_KEYS:
            getattr(compiler, _CARD_KEYS[key])(dsl, origin)
        else:
            compiler.hook(dsl, origin)
        assert [str(e).splitlines() for e in compiler.errors] == [[message, shown, caret]]
