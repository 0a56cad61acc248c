"""The effect DSL: each construct, each error kind, round trips and fuzzing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from artproject.core.art.game import new_game
from artproject.core.art.loader import load_rules, scope_of
from artproject.core.art.rules import Ctx
from artproject.core.errors import RulesError
from artproject.dsl import ast as a
from artproject.dsl.compiler import Compiler
from artproject.dsl.parser import GRAMMAR, STARTS, Origin, parse
from artproject.dsl.printer import show
from tests.strategies import exprs, stmts


@pytest.fixture(scope="module")
def compiler() -> Compiler:
    return Compiler(scope_of(load_rules("japan")))


# ---------------------------------------------------------------- constructs
@pytest.mark.parametrize(("text", "start", "tree"), [
    ("1 fuel, 1 weapon", "amounts", (a.Amount(1, "fuel"), a.Amount(1, "weapon"))),
    ("nothing", "amounts", ()),
    ("films x2, music", "placements", (a.Placement("films", 2), a.Placement("music", 1))),
    ("films, music", "symbols", (a.Ref(("films",)), a.Ref(("music",)))),
    ("gain 2 fuel", "effect", (a.Gain((a.Amount(2, "fuel"),)),)),
    ("lose 2 resources", "effect", (a.Lose((a.Amount(2, "resources"),)),)),
    ("lose 1 clue", "effect", (a.Lose((a.Amount(1, "clue"),)),)),
    ("place 1 agent in every other city", "effect", (a.Place(1, "@every_other"),)),
    ("place 2 agents in central", "effect", (a.Place(2, "central"),)),
    ("place 1 agent in hq", "effect", (a.Place(1, "@hq"),)),
    ('defeat "lost"', "effect", (a.EndGame(False, "lost"),)),
    ("win", "effect", (a.EndGame(True, None),)),
    ("2 fuel if road.thread == \"red\" else 1 fuel", "cost",
     a.Cost((a.Amount(2, "fuel"),), a.Binary("==", a.Ref(("road", "thread")), a.Str("red")),
            a.Cost((a.Amount(1, "fuel"),)))),
    ("on artwork_collected: place 2 agents in central", "hook",
     a.Hook("artwork_collected", None, (a.Place(2, "central"),))),
    ("van.fuel <= 4", "expr", a.Binary("<=", a.Ref(("van", "fuel")), a.Num(4))),
    ("2 * threat if lost(kyoto) or hq > 0 else -1", "expr",
     a.Choice(a.Binary("*", a.Num(2), a.Ref(("threat",))),
              a.Binary("or", a.Call("lost", (a.Ref(("kyoto",)),)),
                       a.Binary(">", a.Ref(("hq",)), a.Num(0))),
              a.Unary("-", a.Num(1)))),
    ("(1 if a else 2) + 3 if b else 4 if c else 5", "expr",  # the loosest, right to left
     a.Choice(a.Binary("+", a.Choice(a.Num(1), a.Ref(("a",)), a.Num(2)), a.Num(3)),
              a.Ref(("b",)), a.Choice(a.Num(4), a.Ref(("c",)), a.Num(5)))),
    ("1 fuel if (2 if a else 3) > 2 else nothing", "cost",
     a.Cost((a.Amount(1, "fuel"),),
            a.Binary(">", a.Choice(a.Num(2), a.Ref(("a",)), a.Num(3)), a.Num(2)), a.Cost(()))),
    ("not lost(kyoto) and threat > 3 - 1", "expr",
     a.Binary("and", a.Unary("not", a.Call("lost", (a.Ref(("kyoto",)),))),
              a.Binary(">", a.Ref(("threat",)), a.Binary("-", a.Num(3), a.Num(1))))),
])
def test_constructs_parse(text: str, start: str, tree: object) -> None:
    assert parse(text, start) == tree
    assert parse(show(tree, start), start) == tree


def test_positions_are_kept() -> None:
    tree = parse("gain 1 fuel;\n  place 2 agents in kyoto", "effect")
    assert tree[0].at == (1, 1)
    assert tree[0].amounts[0].at == (1, 8)  # an amount is placed at its kind
    assert tree[0].amounts[0].count_at == (1, 6)  # and its number, for a wrong count
    assert tree[1].at == (2, 21)  # a placement into a named city, at the name


# ---------------------------------------------------------------- syntax errors
@pytest.mark.parametrize(("text", "start", "message"), [
    ("1 fuel,", "amounts", "<text>:1:8: unexpected end of a list of amounts; expected a number"),
    ("gain x", "effect", "<text>:1:6: unexpected 'x'; expected a number"),
    ("films x", "placements",
     "<text>:1:7: unexpected 'x'; expected one of: ',', a multiplier such as x2, "
     "the end of the text"),
    ("1 fu$el", "amounts", "<text>:1:5: unexpected character '$'"),
    ("", "effect", "<text>:1:1: empty text; expected an effect such as 'gain 2 fuel'"),
    ("place 2 agents kyoto", "effect", "<text>:1:16: unexpected 'kyoto'; expected 'in'"),
    # a misspelt statement word reads as a call statement missing its '(': say which it was
    ("gain 1 fuel; loose 1 fuel", "effect",
     "<text>:1:14: unknown statement 'loose' (did you mean 'lose'?)"),
])
def test_syntax_errors(text: str, start: str, message: str) -> None:
    with pytest.raises(RulesError) as err:
        parse(text, start)
    assert str(err.value).splitlines()[0] == message
    assert "__ANON" not in str(err.value) and "Token" not in str(err.value)


def test_error_shows_source_line_and_caret() -> None:
    lines = ["", "", "", "", "", "", 'gain = "gain two fuel"']
    with pytest.raises(RulesError) as err:
        parse("gain two fuel", "effect", Origin("cards/x.toml", 7, 9, lines))
    assert str(err.value).splitlines() == [
        "cards/x.toml:7:14: unexpected 'two'; expected a number",
        '    gain = "gain two fuel"',
        "                 ^",
    ]


def _origin_of(toml: str) -> tuple[str, Origin]:
    """The text of `x` in a one-key TOML file, and its Origin as the source map gives it."""
    import tomllib

    from artproject.core.sources import SourceMap

    text = tomllib.loads(toml)["x"]
    return text, SourceMap("f.toml", toml).origin(("x",), text)


@pytest.mark.parametrize("toml", [
    r'x = "win \"a\\b\t\u00e9\U0001F600\"; gain 1 fuell"',
    'x = "win \\"日本\\"; gain 1 fuell"',
    'x = \'win "a\\tb"; gain 1 fuell\'',
    'x = """\nwin "\\t"; \\\n\n    gain 1 \\\n fuell"""',
    "x = \'\'\'win;\n  gain 1 fuell\'\'\'",
])
def test_a_position_in_a_toml_string_is_where_it_is_written(compiler: Compiler,
                                                             toml: str) -> None:
    """Lines and columns are the file's, a column a character (as tomllib counts): an
    escape is one character of the text but several of the file, a line-ending backslash
    none of the text."""
    text, origin = _origin_of(toml)
    compiler.errors.clear()
    compiler.effect(text, origin)
    (line,) = (n for n, ln in enumerate(toml.splitlines(), start=1) if "fuell" in ln)
    col = toml.splitlines()[line - 1].index("fuell") + 1
    assert str(compiler.errors[0]).startswith(f"f.toml:{line}:{col}: unknown kind 'fuell'")


def test_the_end_of_a_toml_string_is_its_closing_quotes() -> None:
    text, origin = _origin_of('x = """win; \\\n  gain 1"""')
    with pytest.raises(RulesError, match=r"^f.toml:2:9: unexpected end of an effect"):
        parse(text, "effect", origin)


def test_a_text_not_in_its_file_is_placed_as_if_written_there() -> None:
    """An Origin whose file holds another text there (a text made in code) maps as before:
    a position in the text is the same offset from where it begins."""
    with pytest.raises(RulesError) as err:
        parse("gain x", "effect", Origin("f.toml", 1, 6, ['x = "something else"']))
    assert str(err.value).startswith("f.toml:1:11: unexpected 'x'")


# ---------------------------------------------------------------- name errors
@pytest.mark.parametrize(("text", "start", "message"), [
    ("1 fule", "amounts", "unknown kind 'fule' (did you mean 'fuel'?)"),
    ("film x2", "placements", "unknown artwork symbol 'film' (did you mean 'films'?)"),
    ("films, films", "symbols", "clue symbol 'films' twice on one card (R9)"),
    ("place 1 agent in kyotto", "effect", "unknown city 'kyotto' (did you mean 'kyoto'?)"),
    ("on artwork_colected: win", "hook", "unknown event 'artwork_colected' (did you mean "
                                         "'artwork_collected'?)"),
    ("van.fule > 1", "expr", "unknown resource 'fule' (did you mean 'fuel'?)"),
    ("treat > 1", "expr", "unknown name 'treat' (did you mean 'threat'?)"),
    ("agent(kyoto) > 1", "expr", "unknown function 'agent' (did you mean 'agents'?)"),
    ("agents(kyoto, osaka) > 1", "expr", "agents() takes 1 argument(s), not 2"),
    ("threat == \"x\"", "expr", "cannot compare `threat` (a number) with `\"x\"` (a text)"),
    ("1 if threat else 2", "expr",
     "expected a condition (true or false) after 'if', not a number"),
    ("1 if hq > 0 else \"none\"", "expr",
     "the two values of an 'if … else' are a number and a text: they must be of one kind"),
    ('on round_start if card(3) == "deck": win', "hook",
     "card() reads cards the players cannot see: it is for scenario checks and properties"),
    ("if deck_top(1) == 5 then gain 1 fuel", "effect", "deck_top() reads cards the players"),
    ("1 fuel if final_from_top < 5 else nothing", "cost", "final_from_top reads cards"),
    # a condition is true or false wherever the language needs one (a review's finding):
    # a number there always held but at 0, a text always
    ("not threat", "expr", "1:5: expected a condition (true or false) after 'not', not a "
                           "number; compare it, as in `threat > 0`"),
    ("threat > 1 and hq", "expr", "1:16: expected a condition (true or false) on each side "
                                  "of 'and', not a number"),
    ('true or "x"', "expr", "1:9: expected a condition (true or false) on each side of 'or', "
                            "not a text"),
    ("if threat then win", "effect", "1:4: expected a condition (true or false) after 'if', "
                                     "not a number"),
    ("if 1 then win", "effect", "after 'if', not a number\n"),  # no hint: `1 > 0`, no help
    ("for each player if health(player) do win", "effect",
     "1:20: expected a condition (true or false) after 'if', not a number; compare it, as "
     "in `health(player) > 0`"),
    ('on round_start if "x": win', "hook", "1:19: expected a condition (true or false) after "
                                           "'if', not a text"),
    ("1 fuel if threat else 2 fuel", "cost", "1:11: expected a condition (true or false) "
                                             "after 'if', not a number"),
    ("-lost(kyoto) < 1", "expr", "1:1: expected a number here, not a condition"),
    ("place 0 agents in kyoto", "effect", "1:7: an amount must be at least 1"),
])
def test_name_errors(compiler: Compiler, text: str, start: str, message: str) -> None:
    compiler.errors.clear()
    fn = getattr(compiler, start)
    if start == "amounts":
        fn(text, ("fuel", "radio", "weapon", "health"))
    else:
        fn(text)
    assert compiler.errors, text
    assert message in str(compiler.errors[0]), str(compiler.errors[0])


def test_a_check_must_be_a_condition_a_rank_need_not(compiler: Compiler) -> None:
    """A property's check or a scenario's expect is a condition (`condition=True`, their
    callers say so): a number there held whenever it was not 0. An expression may be a
    number where its caller wants one (an Art of War card's rank)."""
    compiler.errors.clear()
    assert compiler.expr("agents(tokyo)") is not None and not compiler.errors
    compiler.expr("agents(tokyo)", condition=True)
    assert [str(e).splitlines()[0] for e in compiler.errors] == [
        "<text>:1:1: expected a condition (true or false), not a number; compare it, as in "
        "`agents(tokyo) > 0`"]
    compiler.errors.clear()
    compiler.expr_node(parse('"deck"', "expr"), condition=True)
    assert "not a text" in str(compiler.errors[0])
    compiler.errors.clear()
    fn = compiler.expr("agents(tokyo) >= 0 and not lost(kyoto)", condition=True)
    assert fn is not None and not compiler.errors
    assert fn(new_game("japan", seed=1), Ctx()) is True


def test_art_of_war_conditions_are_checked_too() -> None:
    from artproject.core.aow.loader import load_rules as load_war
    from artproject.core.aow.words import WORDS, WarScope

    comp = Compiler(WarScope(dict(load_war("art-of-war").index)), WORDS)
    comp.effect("for each other player if tokens(player) do lose 1 token", None,
                frozenset({"player"}))
    assert [str(e).splitlines()[0] for e in comp.errors] == [
        "<text>:1:26: expected a condition (true or false) after 'if', not a number; compare "
        "it, as in `tokens(player) > 0`"]


def test_a_choice_is_worked_out_as_python_would(compiler: Compiler) -> None:
    """`A if COND else B` gives A where COND holds, else B; both branches are checked."""
    from artproject import new_game

    compiler.errors.clear()
    fn = compiler.expr("2 * hq if lost(kyoto) else agents(kyoto) - 10")
    assert fn is not None and not compiler.errors
    held = new_game("japan", players=2, seed=1, position={"hq": 3, "agents": {"kyoto": 4}})
    lost = new_game("japan", players=2, seed=1, position={"hq": 3, "lost": ["kyoto"]})
    assert (fn(held, None), fn(lost, None)) == (-6, 6)
    compiler.expr("1 if lost(kyoto) else 1 - agents(nowhere)")  # both branches checked
    assert "1:34: unknown name 'nowhere'" in str(compiler.errors[0])


def test_checks_may_read_the_cards(compiler: Compiler) -> None:
    """The hidden cards are a check's business (scenarios, properties), not a rule's."""
    compiler.errors.clear()
    compiler.expr('card(3) == "deck" and deck_top(1) == -1 and final_from_bottom == 13')
    assert not compiler.errors


def test_card_with_three_clues_is_refused(compiler: Compiler) -> None:
    compiler.errors.clear()
    compiler.symbols("films, music, books")
    assert "a card bears 1 or 2 clue symbols, not 3 (R9)" in str(compiler.errors[0])


# ---------------------------------------------------------------- round trip
@given(exprs())
def test_expression_round_trip(tree: a.Expr) -> None:
    assert parse(show(tree, "expr"), "expr") == tree


@given(st.lists(stmts(), min_size=1, max_size=3).map(tuple))
def test_effect_round_trip(tree: tuple[a.Stmt, ...]) -> None:
    text = show(tree, "effect")
    assert parse(text, "effect") == tree, text


# ---------------------------------------------------------------- fuzzing
# from_lark needs the grammar object, which Lark's cache does not keep: build one uncached.
_FUZZ_LARK = Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", start=list(STARTS))


@pytest.mark.parametrize("start", STARTS)
@settings(suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(data=st.data())
def test_grammar_fuzz_only_our_errors(start: str, data: st.DataObject) -> None:
    text = data.draw(from_lark(_FUZZ_LARK, start=start))
    comp = Compiler(scope_of(load_rules("japan")))
    try:
        tree = parse(text, start)
    except RulesError:
        return
    assert tree is not None
    if start in ("effect", "hook", "expr", "cost"):
        getattr(comp, start)(text)  # name errors are gathered, never raised as others


@given(st.text(max_size=40), st.sampled_from(STARTS))
def test_random_text_only_our_errors(text: str, start: str) -> None:
    try:
        parse(text, start)
    except RulesError as err:
        assert str(err)


# ---------------------------------------------------------------- limits (issue 11)
# Each construct nested as deeply as the limit allows compiles and runs; one level more is
# a clear error. The largest text the size limit allows compiles too: generated Python never
# fails (no "too many nested parentheses", no RecursionError).
NESTINGS = {
    "not": ("expr", lambda n: "not " * n + "true"),
    "minus": ("expr", lambda n: "-" * n + "1 == 1"),
    "brackets": ("expr", lambda n: "(1 + " * n + "1" + ")" * n + " > 0"),
    "and-or": ("expr", lambda n: "(true and " * n + "true" + ")" * n),
    "calls": ("expr", lambda n: "min(1, " * n + "1" + ")" * n + " == 1"),
    "if": ("effect", lambda n: "if true then " * n + "gain 1 fuel"),
    "else": ("effect", lambda n: "if false then win else " * n + "gain 1 fuel"),
    "braces": ("effect", lambda n: "{ gain 1 fuel; " * n + "win" + " }" * n),
    "for each": ("effect", lambda n: "for each player do " * n + "gain 1 fuel"),
    "cost": ("cost", lambda n: "1 fuel if true else " * n + "2 fuel"),
}


def _deepest(start: str, make: Callable[[int], str], hi: int = 400) -> int:
    """The largest n for which make(n) parses (the nesting limit, in this construct)."""
    lo = 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            parse(make(mid), start)
            lo = mid
        except RulesError:
            hi = mid - 1
    return lo


@pytest.mark.parametrize("construct", NESTINGS)
def test_the_deepest_text_allowed_compiles_and_one_more_is_refused(compiler: Compiler,
                                                                   construct: str) -> None:
    start, make = NESTINGS[construct]
    n = _deepest(start, make)
    assert n >= 8  # real rules nest 6 deep at most
    compiler.errors.clear()
    compiled = getattr(compiler, start)(make(n))
    assert compiled is not None and not compiler.errors, compiler.errors
    if start in ("expr", "cost"):
        compiled(new_game("japan", seed=1), Ctx())  # and it runs
    with pytest.raises(RulesError, match="nested too deeply: at most 32"):
        parse(make(n + 1), start)


@pytest.mark.parametrize(("text", "start"), [
    (" and ".join(["true"] * 200), "expr"),  # 200 ands: "too many nested parentheses" once
    (" + ".join(["1"] * 250) + " > 0", "expr"),  # a sum of 250 terms: the same
    (" - ".join(["threat"] * 300) + " < 0 or " + " * ".join(["1"] * 200) + " == 1", "expr"),
    ("; ".join(["gain 1 fuel"] * 300), "effect"),
])
def test_long_chains_compile_flat(compiler: Compiler, text: str, start: str) -> None:
    compiler.errors.clear()
    fn = getattr(compiler, start)(text)
    assert fn is not None and not compiler.errors, compiler.errors
    if start == "expr":
        fn(new_game("japan", seed=1), Ctx())


def test_the_largest_text_allowed_compiles(compiler: Compiler) -> None:
    def make(n: int) -> str:
        return " + ".join(["threat"] * n) + " > 0"
    n = _deepest("expr", make, hi=2000)
    compiler.errors.clear()
    assert compiler.expr(make(n)) is not None and not compiler.errors
    with pytest.raises(RulesError, match=r"too large: .* at most 2000"):
        parse(make(n + 1), "expr")


@pytest.mark.parametrize(("text", "start", "message"), [
    ("gain 99999999999999999999 fuel", "effect",
     "<text>:1:6: 999999999999... is out of range: numbers are at most 10,000"),
    ("gain 10001 fuel", "effect", "<text>:1:6: 10001 is out of range"),
    ("films x10001", "placements", "<text>:1:7: 10001 is out of range"),
    ("threat > 123456", "expr", "<text>:1:10: 123456 is out of range"),
    ("gain 1 fuel; " * 1000, "effect", "<text>:1:1: too long: 13,000 characters"),
])
def test_dsl_limits_are_clear_errors(text: str, start: str, message: str) -> None:
    with pytest.raises(RulesError) as err:
        parse(text, start)
    assert str(err.value).splitlines()[0].startswith(message), str(err.value)


def test_the_number_cap_is_inclusive() -> None:
    assert parse("gain 10000 fuel", "effect") == (a.Gain((a.Amount(10_000, "fuel"),)),)
