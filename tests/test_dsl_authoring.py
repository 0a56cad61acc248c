"""The effect DSL as an author meets it through `artproject check`: an error inside a TOML
string is placed where its character is written in the file (escapes, line-ending
backslashes, literal strings, wide characters)."""

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
