"""What the kernel and the tools promise every game, and what they ask of one: the search
bot given to every game, the contracts verify checks for any game (chance outcomes summing
to 1, returns within `return_range()`), and clear errors for a game's definition gone wrong
(a hook not given, a name registered wrong, a TOOLS module short of a name, a step that
forgot to pause). Each fault is planted in a small subclass of Kuhn poker made here."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from artproject.cli import main
from artproject.core import games
from artproject.core.errors import GameError
from artproject.core.games import game_names, game_tools
from artproject.core.hooks import GameHooks
from artproject.core.invariants import Violation, check_invariants
from artproject.core.kuhn import tools as kuhn_tools
from artproject.core.kuhn.rules import DEFAULT, load_rules
from artproject.core.kuhn.state import Kuhn
from artproject.core.scenario import run_scenario
from artproject.policies import policies_of
from artproject.verify import (
    Example,
    Report,
    counterexample_head,
    play_checked,
    scenario_text,
    search,
)

ROOT = Path(__file__).resolve().parent.parent


# ====================================================================== the search bot
def test_every_game_has_the_search_bot() -> None:
    for name in game_names():
        assert "ismcts" in policies_of(name), name


def test_a_game_with_its_own_search_bot_keeps_it() -> None:
    from artproject.core.aow.bots import ismcts_policy as aow_ismcts
    from artproject.core.art.bots import ismcts_policy as art_ismcts

    assert policies_of("art-project")["ismcts"] is art_ismcts
    assert policies_of("art-of-war")["ismcts"] is aow_ismcts


def test_kuhn_plays_the_search_bot_from_the_command_line(capsys: Any) -> None:
    assert main(["simulate", "--game", "kuhn", "--policy", "ismcts:budget=8,random",
                 "--games", "4", "--seed", "1"]) == 0
    assert "ismcts" in capsys.readouterr().out


def test_the_search_bot_beats_random_at_kuhn() -> None:
    tools = game_tools("kuhn")
    rules = tools.load_rules(tools.DEFAULT_RULES, [])
    won = 0.0
    for seed in range(1, 201):  # the seats turn with the seed: each bot in each seat
        st, _ = tools.play_game(rules, 2, seed, "ismcts:budget=16,random")
        seats = tools.seating(["ismcts", "random"], 2, seed)
        won += st.returns()[seats.index("ismcts")]
    assert won / 200 > 0.1, won  # (seeded: +0.32 a hand)


# ====================================================================== verify's contracts
class UnevenDeal(Kuhn):
    """A deal whose outcomes' chances sum to 0.6."""

    __slots__ = ()

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return [(a, p * 0.6) for a, p in super().chance_outcomes()]


class Overpaid(Kuhn):
    """Returns three times the pot's: outside the game's declared range."""

    __slots__ = ()

    def returns(self) -> list[float]:
        return [3 * r for r in super().returns()]


class SeeingResample(Kuhn):
    """A resample that deals the seat's own card anew: a copy the seat can tell apart."""

    __slots__ = ()

    def resample(self, players: Any, seed: int) -> Any:
        twin = super().resample([], seed)
        if twin.hands == self.hands:  # (the one card left out swapped in)
            p = players[0]
            twin.hands[p], twin.deck[0] = twin.deck[0], twin.hands[p]
        return twin


def test_a_subclass_on_its_parents_fields_clones_as_itself() -> None:
    """A game's subclass that declares no FIELDS of its own (the two above) got its parent's
    generated clone, whose copies were the parent's objects: a planted fault vanished from
    every clone verify and the search bot play on."""
    import copy
    import pickle

    st = UnevenDeal.new(load_rules(DEFAULT), 2, 3)
    st.apply(st.legal_actions()[0])
    for twin in (st.clone(), copy.deepcopy(st), pickle.loads(pickle.dumps(st))):
        assert type(twin) is UnevenDeal and twin.fingerprint() == st.fingerprint()


def _verify(cls: type[Kuhn], examples: int = 10) -> Report:
    """verify's search over hands of `cls`, as Kuhn poker's tools run it."""
    rules = load_rules(DEFAULT)

    def play(ex: Example) -> Any:
        return play_checked(lambda: cls.new(rules, ex.players, ex.seed, log=True), ex,
                            policies_of("kuhn")["random"](ex.seed), 4, "", lambda st: None,
                            False, True)

    return search(play, "kuhn", examples, 0, (2,), ("-",), (), None)


def test_verify_finds_chance_outcomes_that_do_not_sum_to_one() -> None:
    report = _verify(UnevenDeal)
    assert report.failure is not None
    assert re.search(r"chance outcomes .*sum to 0\.6", str(report.failure.violation))


def test_the_counterexample_of_a_chance_fault_replays_it(tmp_path: Path,
                                                        monkeypatch: Any) -> None:
    """The scenario verify writes for chance outcomes that do not sum to 1 fails as verify
    did: its sampled chance is played again as explicit chance (`invariants = true`), so
    the fault is met again; the same steps on the shipped game pass."""
    _kuhn_with_tools(monkeypatch, "uneven", kuhn_tools, base=UnevenDeal)
    report = _verify(UnevenDeal)
    assert report.failure is not None and report.example is not None
    text = scenario_text(counterexample_head(report.failure, report.example, (),
                                             game="uneven", rules=DEFAULT), report.failure)
    path = tmp_path / "counterexample.toml"
    path.write_text(text)
    got = run_scenario(path)
    assert not got.passed
    assert re.search(r"as explicit chance: the chance outcomes .*sum to 0\.6",
                     " ".join(got.failures)), got.failures
    path.write_text(text.replace('game = "uneven"', 'game = "kuhn"'))
    assert run_scenario(path).passed


def test_verify_finds_returns_outside_the_declared_range() -> None:
    report = _verify(Overpaid)
    assert report.failure is not None
    text = str(report.failure.violation)
    assert "return_range()" in text and "(-2.0, 2.0)" in text, text


def test_verify_finds_a_resample_the_seat_can_tell_apart() -> None:
    report = _verify(SeeingResample)
    assert report.failure is not None
    text = str(report.failure.violation)
    assert "resample([" in text and "cannot tell from the game" in text, text


def test_the_shipped_game_holds_both_contracts() -> None:
    assert _verify(Kuhn).failure is None


def test_a_game_with_no_decision_pending_and_not_over_is_told_so() -> None:
    st = Kuhn.new(load_rules(DEFAULT), 2, 1)
    st.wait = None  # as a step that forgot to pause leaves it
    with pytest.raises(Violation) as err:
        check_invariants(st)
    text = str(err.value)
    assert "team" not in text and "None" not in text
    assert "no decision is pending" in text and "without pausing" in text


# ====================================================================== the hooks a game gives
REQUIRED = ("restart", "returns", "start_view", "observation", "derived", "tensor_segments",
            "max_game_length", "resample")


class Nim(GameHooks):
    __slots__ = ()


@pytest.mark.parametrize("hook", REQUIRED)
def test_a_missing_hook_says_which_game_lacks_which_and_where_to_read(hook: str) -> None:
    args = {"restart": (False,), "start_view": (0,), "observation": (0,),
            "tensor_segments": ("observation",), "resample": ((0,), 1)}.get(hook, ())
    with pytest.raises(NotImplementedError) as err:
        getattr(Nim(), hook)(*args)
    text = str(err.value)
    assert f"Nim does not define {hook}()" in text
    assert "docs/architecture.md" in text and "step 4" in text


def _step(n: int) -> str:
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    walk = doc.split("## Adding a game", 1)[1]
    return walk.split(f"\n{n}. ", 1)[1].split(f"\n{n + 1}. ", 1)[0]


def test_the_walkthrough_lists_every_required_hook_and_return_range() -> None:
    step = _step(4)
    for hook in (*REQUIRED, "return_range"):
        assert f"`{hook}`" in step, hook


def _kuhn_with_tools(monkeypatch: pytest.MonkeyPatch, name: str,
                     tools: types.ModuleType, base: type[Kuhn] = Kuhn) -> None:
    """Kuhn poker (or `base`, a faulty one) registered for the test as the game `name`, its
    TOOLS module `tools` (importable as NAME_tools)."""
    game_class = type(name.title(), (base,), {"__slots__": (), "game": name,
                                              "TOOLS": f"{name}_tools"})
    monkeypatch.setitem(sys.modules, f"{name}_tools", tools)
    monkeypatch.setattr(games, "_GAMES", {**games._GAMES, name: game_class})


# ====================================================================== render
def test_render_of_a_game_without_drawn_ends_cleanly(tmp_path: Path, monkeypatch: Any,
                                                      capsys: Any) -> None:
    """A game whose tools give no `drawn`, and whose rules have no cards, is told plainly."""
    bare = types.SimpleNamespace(title="Bare", name="bare")  # no cards
    tools = types.ModuleType("bare_tools")
    tools.__dict__.update({k: getattr(kuhn_tools, k) for k in kuhn_tools.__all__
                           if k != "drawn"})
    tools.DEFAULT_RULES = "bare"
    tools.load_rules = lambda ref, variants=(): bare
    tools.render = lambda r, st: '<?xml version="1.0"?><svg/>\n'
    assert not hasattr(tools, "drawn")

    _kuhn_with_tools(monkeypatch, "bare", tools)
    out = tmp_path / "x.svg"
    assert main(["render", "--game", "bare", "-o", str(out)]) == 0
    assert out.exists()
    assert capsys.readouterr().out.strip() == f"wrote {out}: Bare, its rules"


def test_render_of_a_saved_game_without_drawn_names_its_decisions() -> None:
    from artproject.cli.render import _drawn

    st = Kuhn.new(load_rules(DEFAULT), 2, 1)
    st.apply(st.legal_actions()[0])
    assert _drawn(types.SimpleNamespace(), types.SimpleNamespace(), st) == (
        "the game after 1 decision")


# ====================================================================== a game's definition
def _package(tmp_path: Path, name: str, body: str) -> None:
    pkg = tmp_path / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text(body, encoding="utf-8")


REGISTERS = """
from artproject.core.games import register_game
from artproject.core.kuhn.state import Kuhn

class Plain(Kuhn):
    __slots__ = ()
    game = {name!r}
{register}
"""


def test_a_package_that_registers_another_name_is_told(tmp_path: Path,
                                                      monkeypatch: Any) -> None:
    _package(tmp_path, "plainpkg", REGISTERS.format(name="plain-game",
                                                    register="register_game(Plain)"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "_GAMES", dict(games._GAMES))
    monkeypatch.setattr(games, "_SHIPPED", {**games._SHIPPED, "plain": "plainpkg"})
    with pytest.raises(GameError) as err:
        games.game_class("plain")
    text = str(err.value)
    assert "did you mean" not in text
    assert "plainpkg" in text and "registered no game named 'plain'" in text
    assert "plain-game" in text


def test_a_package_that_registers_nothing_is_told(tmp_path: Path, monkeypatch: Any) -> None:
    _package(tmp_path, "nothingpkg", REGISTERS.format(name="nothing", register=""))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "_GAMES", dict(games._GAMES))
    monkeypatch.setattr(games, "_SHIPPED", {**games._SHIPPED, "nothing": "nothingpkg"})
    with pytest.raises(GameError, match=r"nothingpkg.*registered no game.*register_game"):
        games.game_class("nothing")


def test_a_tools_module_short_of_a_name_is_told_where_a_tool_asks_for_it(monkeypatch: Any) -> None:
    tools = types.ModuleType("short_tools")
    tools.__dict__.update({k: getattr(kuhn_tools, k) for k in kuhn_tools.__all__
                           if k not in ("check_file", "reference")})

    _kuhn_with_tools(monkeypatch, "short", tools)
    tools = game_tools("short")  # what it gives works; what it lacks is told when asked
    assert tools.load_rules is kuhn_tools.load_rules
    assert getattr(tools, "check_file", None) is None and not hasattr(tools, "reference")
    for name in ("check_file", "reference"):
        with pytest.raises(GameError) as err:
            getattr(tools, name)
        text = str(err.value)
        assert "short_tools" in text and f"gives no {name}" in text and "step 7" in text
