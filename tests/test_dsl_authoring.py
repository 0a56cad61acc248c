"""The effect DSL as an author meets it through `artproject check`, `scenario` and `verify`:
a condition must be true or false (a number or a text there made a check that always holds);
an error inside a TOML string is placed where its character is written in the file (escapes,
line-ending backslashes, literal strings, wide characters); no amount is 0."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from artproject.cli import main
from artproject.core.sources import SourceMap

MARK = "fuell"  # a misspelt kind: the error every position test looks for


def check(tmp_path: Path, body: str, capsys: pytest.CaptureFixture[str],
          name: str = "m.toml") -> tuple[int, list[str], Path]:
    """`artproject check` on a mission file of `body`: status, the error lines (without
    their source line and caret), the file."""
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    code = main(["check", str(path)])
    err = capsys.readouterr().err
    return code, [ln for ln in err.splitlines() if ln.startswith(str(path))], path


def where(path: Path, word: str) -> str:
    """`file:line:col` of `word` in the file, its column counted in characters."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if word in line:
            return f"{path}:{n}:{line.index(word) + 1}"
    raise AssertionError(f"{word!r} not in {path}")


# ---------------------------------------------------------------- conditions
NOT_A_CONDITION = "expected a condition (true or false)"


def test_a_scenario_expecting_a_number_is_refused_not_passed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`expect = ["deck"]` held whenever the deck was not empty: a test that always passed."""
    path = tmp_path / "s.toml"
    path.write_text('mission = "japan"\n[[step]]\ndo = "done"\nexpect = ["deck"]\n')
    assert main(["scenario", str(path)]) == 2
    out = capsys.readouterr()
    assert f"{path}:4:12: {NOT_A_CONDITION}, not a number; compare it, as in `deck > 0`" in (
        out.err)
    assert "0 passed, 0 failed, 1 could not be read" in out.out
    assert main(["check", str(path)]) == 2


@pytest.mark.parametrize(("hook", "word", "message"), [
    ("on round_start if hq: win", "hq", "after 'if', not a number; compare it, as in `hq > 0`"),
    ("on round_start: if 1 then gain 1 fuel", "1 then", "after 'if', not a number"),
    ("on round_start: for each player if 2 do win", "2 do", "after 'if', not a number"),
    ('on round_start: if "yes" then win', '"yes"', "after 'if', not a text"),
    ("on round_start: if not hq then win", "hq then", "after 'not', not a number"),
    ("on round_start: if threat > 1 or van.fuel then win", "van.fuel",
     "on each side of 'or', not a number; compare it, as in `van.fuel > 0`"),
])
def test_a_hook_condition_must_be_true_or_false(tmp_path: Path, hook: str, word: str,
                                                message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, errors, path = check(tmp_path, f'extends = "japan"\nhooks = [{hook!r}]\n', capsys)
    assert code == 2 and len(errors) == 1, errors
    assert errors[0].startswith(f"{where(path, word)}: {NOT_A_CONDITION} {message}"), errors


@pytest.mark.parametrize(("check_text", "word", "message"), [
    ("hq", "hq", ", not a number; compare it, as in `hq > 0`"),
    ('"text"', '"text"', ", not a text"),
    ("not hq", "hq", " after 'not', not a number"),
    ("hq and true", "hq", " on each side of 'and', not a number"),
    ("agents(tokyo) + hq", "agents", ", not a number; compare it, as in `agents(tokyo) + hq > 0`"),
])
def test_a_property_must_be_a_condition(tmp_path: Path, check_text: str, word: str,
                                        message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    body = f'extends = "japan"\nname = "P"\n[[property]]\nname = "p"\ncheck = \'{check_text}\'\n'
    code, errors, path = check(tmp_path, body, capsys)
    assert code == 2 and len(errors) == 1, errors
    assert errors[0].startswith(f"{where(path, word)}: {NOT_A_CONDITION}{message}"), errors
    # verify found a counterexample to `hq` at once, and `"text"` always held: now refused
    assert main(["verify", str(path), "--examples", "1", "--players", "1",
                 "--difficulty", "easy", "--out", str(tmp_path / "cx.toml")]) == 2
    assert NOT_A_CONDITION in capsys.readouterr().err
    assert not (tmp_path / "cx.toml").exists()


def test_conditions_as_the_shipped_files_write_them_check_clean(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = textwrap.dedent("""\
        extends = "japan"
        hooks = [
          "on round_start if not final_round and threat > 1: gain 1 fuel",
          "on movement_end: for each player in tokyo if moved(player) do gain 1 weapon",
          "on city_lost if not on_track(city) or lost(kyoto): if true then win else defeat",
        ]
        [rules]
        move_cost = "2 fuel if road.heading == \\"south\\" and (hq if true else 1) > 1 else nothing"
        [[property]]
        name = "p"
        check = "van.fuel <= 4 or not (hq > 2)"
    """)
    code, errors, _ = check(tmp_path, body, capsys)
    assert (code, errors) == (0, [])


# ---------------------------------------------------------------- positions in TOML strings
@pytest.mark.parametrize("body", [
    # basic strings' escapes: \" \\ \t \u \U are one character of the text, several of the file
    r'hooks = ["on round_start: if threat > 1 then win \"a\\tb\"; gain 1 fuell"]',
    r'hooks = ["on round_start: win \"\\\"; gain 1 fuell"]',
    r'hooks = ["on round_start: win \"\u00e9\U0001F600\t\"; gain 1 fuell"]',
    # wide characters: a column is a character, as tomllib and editors count
    'hooks = ["on round_start: win \\"日本日本\\"; gain 2 fuell"]',
    'hooks = ["on round_start: win \\"日本日本\\"; gain 2 fuell"]  # 日本',
    # line-ending backslashes in a multi-line basic string: the text goes on at the next
    # line's first character
    'hooks = ["""\non round_start: \\\n  gain 1 fuel; \\\n  gain 2 fuell\n"""]',
    'hooks = ["""on round_start: win "\\u00e9"; \\   \n\n     gain 1 fuell"""]',
    # literal strings: read as written
    "hooks = ['on round_start: win \"a\\tb\"; gain 1 fuell']",
    "hooks = [\n  '''on round_start: win \"x\";\n     gain 1 fuell''',\n]",
    # several multi-line strings in one array: each item is found where it begins
    'hooks = [\n  """on round_start:\n  win""",\n'
    '  \'\'\'on round_start:\n    gain 1 fuell\'\'\',\n]',
    # a key's value, not an array's item
    '[[property]]\nname = "p"\ncheck = """\nthreat >\\\n   fuell"""',
])
def test_an_error_in_a_toml_string_is_placed_where_it_is_written(
        tmp_path: Path, body: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, errors, path = check(tmp_path, f'extends = "japan"\n{body}\n', capsys)
    assert code == 2 and len(errors) == 1, errors
    assert errors[0].startswith(where(path, MARK) + ": "), errors


def test_the_caret_is_drawn_under_the_mistake(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.toml"
    path.write_text('extends = "japan"\nhooks = ["on round_start: win \\"a\\\\tb\\"; gain 1 '
                    'fuell"]\n')
    assert main(["check", str(path)]) == 2
    _, line, caret = capsys.readouterr().err.splitlines()[:3]
    assert caret.index("^") == line.index(MARK)


@pytest.mark.parametrize("before", ["東京 ", "\t", "e\u0301 "])
def test_the_caret_is_drawn_under_the_mistake_after_wide_tab_or_combining_characters(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], before: str) -> None:
    """A terminal shows a wide character in two cells, a tab as a tab and a combining mark
    in none: the caret's blank is drawn the same, so it still stands under the mistake."""
    import unicodedata

    path = tmp_path / "m.toml"
    path.write_text(f'extends = "japan"\nhooks = ["on round_start: win \\"{before}\\"; gain 1 '
                    'fuell"]\n', encoding="utf-8")
    assert main(["check", str(path)]) == 2
    _, line, caret = capsys.readouterr().err.splitlines()[:3]

    def cells(text: str) -> int:  # (where a terminal with tabs every 8 cells puts its end)
        n = 0
        for ch in text:
            n = (n // 8 + 1) * 8 if ch == "\t" else n + (
                0 if unicodedata.combining(ch) else
                2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1)
        return n

    assert cells(caret[:caret.index("^")]) == cells(line[:line.index(MARK)])


def test_an_unfinished_text_points_at_its_closing_quotes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, errors, path = check(tmp_path, 'extends = "japan"\nhooks = [\n  """on round_start: '
                               'gain 1 fuel; \\\n    gain 1"""\n]\n', capsys)
    assert code == 2 and len(errors) == 1
    assert errors[0].startswith(f"{path}:4:11: unexpected end of a hook")  # at `"""`


def test_a_multi_line_string_hides_no_key_from_the_source_map() -> None:
    """A line inside a multi-line string is text: not a table's header, a key or an item."""
    text = textwrap.dedent('''\
        a = """
        [b]
        c = 1"""
        d = ["""x
        ", 'y'""", 2]
        e = 3
    ''')
    smap = SourceMap("f.toml", text)
    assert ("b",) not in smap.where and ("b", "c") not in smap.where and ("c",) not in smap.where
    assert smap.where[("d", 1)] == (5, 12)
    assert smap.where[("e",)] == (6, 5)


# ---------------------------------------------------------------- amounts
@pytest.mark.parametrize(("effect", "word"), [
    ("place 0 agents in tokyo", "0 agents"),
    ("place 0 agents in hq", "0 agents"),
    ("gain 0 fuel", "0 fuel"),  # (at the number, as in place 0 agents)
])
def test_no_amount_is_zero(tmp_path: Path, effect: str, word: str,
                           capsys: pytest.CaptureFixture[str]) -> None:
    """`gain 0 fuel` was refused and `place 0 agents in tokyo` accepted: no rule places 0."""
    code, errors, path = check(
        tmp_path, f'extends = "japan"\nhooks = ["on round_start: {effect}"]\n', capsys)
    assert code == 2
    assert errors == [f"{where(path, word)}: an amount must be at least 1"]


def test_for_each_other_player_in_a_hook_has_no_one_to_leave_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A hook runs for no player: `for each other player` there was every player, silently
    (as `for each player`); it is an error, at its place, but inside a `for each`, whose
    player it leaves out."""
    code, errors, path = check(tmp_path, 'extends = "japan"\nhooks = [\n'
                               '  "on round_start: for each other player do gain 1 fuel",\n'
                               '  "on round_start: for each player do for each other player do '
                               'gain 1 fuel",\n]\n', capsys)
    assert code == 2 and len(errors) == 1, errors
    assert errors[0] == (f"{path}:3:20: 'for each other player' in a hook: a hook runs for no "
                         "player, so no one is left out; write 'for each player'")


@pytest.mark.parametrize(("cost", "message"), [
    ('2 fuel if road.ferry == 1 else 1 fuel',
     "cannot compare `road.ferry` (a text) with `1` (a number): they are of different kinds"),
    ('2 fuel if road.ferry == "rd" else 1 fuel',
     "`road.ferry` (a text) is never \"rd\": the values of the roads' 'ferry' are blue, red "
     "(did you mean 'red'?)"),
    ('2 fuel if road.heading != "northeast" else 1 fuel',
     "`road.heading` (a text) is never \"northeast\": the headings are east, north, south, "
     "west (did you mean 'north'?)"),
    ('2 fuel if "tokio" == road.to else 1 fuel',
     "`road.to` (a text) is never \"tokio\": the cities are"),
])
def test_a_road_compared_with_a_value_no_road_gives_is_an_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cost: str, message: str) -> None:
    """A condition on a road that could never hold (another kind, a value no road has) was
    accepted, so the rule silently never applied; it is an error at the constant."""
    roads = "".join(f'[[road]]\nfrom = "{a}"\nto = "{b}"\nferry = "{f}"\n\n'
                    for a, b, f in (("tokyo", "kyoto", "red"), ("kyoto", "osaka", "blue")))
    code, errors, path = check(tmp_path, f'extends = "japan"\n[rules]\nmove_cost = \'{cost}\'\n'
                               f'\n{roads}', capsys)
    assert code == 2 and len(errors) == 1, errors
    assert errors[0].startswith(f"{path}:3:") and message in errors[0], errors


def test_a_road_compared_with_a_value_a_road_gives_is_no_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, errors, _ = check(tmp_path, 'extends = "japan"\n[rules]\nmove_cost = \'2 fuel if '
                            'road.ferry == "red" or road.heading == "south" or road.to == '
                            '"tokyo" else 1 fuel\'\n\n[[road]]\nfrom = "tokyo"\nto = "kyoto"\n'
                            'ferry = "red"\n', capsys)
    assert code == 0 and not [e for e in errors if "warning:" not in e], errors  # (the map's)
