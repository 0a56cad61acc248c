"""What the tools ask of Art of War (its state's `TOOLS`, found by core/games.py
`game_tools`): the rules they load, its bots, and its parts of `simulate` (simulate.py: a
game's result, the table of results), `verify` (a game checked after every decision),
`play` (hot seat at a terminal, the screen from views.py), `check` (what a file is),
`render` (render.py: the table as SVG) and `reference` (its files' keys, in
docs/reference.md), under the names every game gives (docs/architecture.md, "Adding a
game"). The loops are the tools' own (artproject/verify.py's search, artproject/play.py's
session); the game's modules that import them are this one, simulate.py and render.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import IO, Any, Final, cast

from ...hotseat import HotSeat, run_hot_seat
from ...reference import part
from ...verify import (
    Example,
    Outcome,
    Report,
    counterexample_head,
    play_checked,
    scenario_text,
    search,
)
from ..errors import RulesError
from .bots import POLICIES
from .loader import DEFAULT as DEFAULT_RULES
from .loader import check_card_file, load_rules
from .registry import GAME
from .render import render_war as render
from .rules import WarRules
from .simulate import (
    play_game,
    play_one,
    policy_names,
    report_csv,
    report_text,
    rules_digest,
    summary,
)
from .state import War
from .views import cards_lines, discard_reason, screen, told

HELD: Final = (
    "  checked after every decision: cards and tokens conserved (W1), hands within the "
    "limit once a turn is settled (W4), bets (W5, W7), the dead hold nothing (W17), the end "
    "(W18); per game: determinism, save and load, clone",)
MAX_STEPS: Final = 20_000  # W18's turn limit ends a game long before (a few per turn)

__all__ = ["DEFAULT_RULES", "HELD", "PLAY_BOTS", "POLICIES", "check_file",
           "counterexample_scenario", "load_rules", "play_game", "play_one", "players",
           "policy_names", "reference", "render",
           "report_csv", "report_text", "rules_digest", "run", "summary", "verify",
           "watch_game"]


def players(rules: Any) -> tuple[int, int]:
    """The fewest and most players the rules allow (W1)."""
    return int(rules.p("components.min_players")), int(rules.p("components.max_players"))


# ====================================================================== verify
# `artproject verify --game art-of-war`: games driven by choices Hypothesis makes, every
# invariant (invariants.py) checked after every decision, and per game the same seed and
# actions giving the same game, save and load, a clone; a failure shrunk to a short game
# and written as a scenario file that replays it. The search is the tools'; Art of War has
# no difficulty ("-") nor properties of its own.
def play_example(rules: WarRules, ex: Example, deep: bool = True) -> Outcome:
    """One game, checked after every decision; stop at the first violation (a pick of 0,
    and every one after the example's, is the random bot's)."""

    def start() -> Any:
        return War.new(rules, ex.players, ex.seed, log=True)

    return play_checked(start, ex, POLICIES["random"](ex.seed), MAX_STEPS, " (W18)",
                        _nothing, bool(rules.ref), deep)


def _nothing(st: Any) -> None:
    """Art of War has no properties of its own to check beside the invariants."""


def verify(rules: WarRules, examples: int = 100, seed: int = 0,
           players: Sequence[int] = (2, 3, 4, 5, 6, 7),
           progress: Callable[[int, int, int], None] | None = None) -> Report:
    """Search for a game that breaks an invariant; shrink the first found."""
    return search(partial(play_example, rules), rules.name, examples, seed, players, ("-",),
                  (), progress)


def counterexample_scenario(rules: WarRules, ref: str, variants: Sequence[str], ex: Example,
                            failure: Outcome) -> str:
    """A scenario file (TOML text) that replays the counterexample, invariants checked."""
    return scenario_text(counterexample_head(failure, ex, variants, game=GAME, rules=ref),
                         failure)


# ====================================================================== play
# `artproject play --game art-of-war`: hot seat for 2-7 people at one screen, never showing
# a hand to the wrong player. When the player to decide changes, the screen is cleared, says
# whose turn it is and waits ("pass the screen to p3, then press Enter"), and clears again
# before it shows the table as everyone sees it and that player's own hand and actions,
# numbered (views.py `screen`, W19), after what happened since that player last saw the
# game (views.py `told`: the engine's events, a card only its owner may see hidden). No
# `view` of another's hand and no `undo` (each would show what was hidden); `cards` lists
# every card's score and collateral damage (W2); `save FILE`, `load FILE`, `help` and
# `quit` are the tools'; the end of the input saves the game and quits.
HELP: Final = """commands:
  NUMBER or ACTION   take a listed action (e.g. 3, or: challenge p1 p3)
  cards              every card: its score, collateral damage and powers (W2: the
                     project's reconstruction; the seed prints none)
  save FILE          save the game (JSON, or TOML when FILE ends in .toml); a file this
                     session did not write is kept: save FILE --force replaces it
  load FILE          load a saved game
  help               this list
  quit               save to artproject-autosave.json (or a fresh name) and stop
(no view of another's hand and no undo: each would show what is hidden; while the screen
is passed, only Enter, save FILE and quit are taken)"""


class WarSession(HotSeat):
    """One hot-seat game (artproject/play.py `HotSeat`): its screen and how it ended."""

    title = "Art of War"
    tells = True

    def screen(self, viewer: int) -> str:
        st = cast(War, self.st)
        why = discard_reason(st, viewer)
        return screen(st, viewer) + (f"\n-- {why}" if why else "")

    def told(self, events: list[Any], viewer: int) -> list[str]:
        st = cast(War, self.st)
        return told(st, events, viewer, st.log[max(0, len(st.log) - len(events) - 200):
                                                len(st.log) - len(events)])

    def handle(self, line: str) -> bool:
        words = line.split()
        if words and words[0].lower() == "help":
            self.write(HELP + "\nactions:\n" + "\n".join(
                f"  {usage:<22} {text}" for usage, text in self.st.registry.help_lines()))
            return True
        if words and words[0].lower() in ("cards", "scores"):
            self.write("\n".join(cards_lines(cast(War, self.st))))
            return True
        return super().handle(line)

    def finished(self) -> list[str]:
        lines = [f"== {self.st.reason}"]
        for s in cast(War, self.st).standing():
            how = f", died turn {s['turn']} ({s['cause']}" + (
                f", killed by {' '.join(s['killers'])})" if s["killers"] else ")") if (
                s["turn"] is not None) else ""
            lines.append(f"  {s['place']}. {s['player']}{how}")
        return lines


PLAY_BOTS: Final = True  # `play --bots`: each decision is one seat's, so a bot may take a seat


def run(st: War, stdin: IO[str], stdout: IO[str],
        bots: Mapping[int, str] | None = None) -> int:
    """Play until the game ends, `quit`, or the end of the input (which saves and quits);
    `bots`: the seats a bot plays, each bot's policy by its name (`play --bots`)."""
    return run_hot_seat(WarSession, st, stdin, stdout, bots)


# ====================================================================== check
def war_kind(doc: Mapping[str, Any], path: Path | None = None) -> str:
    """What a file of Art of War is: scenario, cards, rules or variant (a file naming its
    cards is rules, unless it lies in a `variants` folder: a variant with a deck of its own)."""
    from ..schema import params_of
    from .scenarios import ScenarioFile
    from .schema import WarSpec

    if (frozenset(params_of(ScenarioFile)) - frozenset(params_of(WarSpec))) & doc.keys():
        return "scenario"
    if "card" in doc:
        return "cards"
    if path is not None and path.parent.name == "variants":
        return "variant"
    return "rules" if "cards" in doc else "variant"


def check_file(path: Path, doc: Mapping[str, Any],
               ) -> tuple[list[RulesError], list[RulesError], str]:
    """Every error and warning in a file of Art of War, and what it is (`art-of-war:KIND`:
    a scenario, its cards, its rules or a variant of them)."""
    kind = f"{GAME}:{war_kind(doc, path)}"
    if kind.endswith(":scenario"):
        from ..scenario import run_scenario

        run_scenario(path)
        return [], [], kind
    if kind.endswith(":cards"):
        return check_card_file(path), [], kind
    rules = load_rules(path) if kind.endswith(":rules") else load_rules(DEFAULT_RULES, [path])
    return [], list(rules.warnings), kind


# ====================================================================== watch
def watch_game(path: Path, kind: str) -> War | str:
    """What `serve --watch` draws of a clean file (`kind`: `check_file`'s): the table as a
    game of its rules is set up (the fewest players, the tokens and cards dealt, the centre
    pile; a variant: on the shipped rules; a card file: the shipped rules dealing its
    cards), or a note why a scenario draws nothing; RulesError where the rules do not make
    a game."""
    what = kind.rpartition(":")[2]
    if what == "scenario":
        return (f"a {kind} file: it checks clean; the watcher draws the table of a rules "
                "file, a variant or a card file (`artproject scenario` runs this one)")
    if what == "cards":
        made = _with_cards(path)
        if isinstance(made, str):
            return made
        rules = made
    elif what == "rules":
        rules = load_rules(path)
    else:
        rules = load_rules(DEFAULT_RULES, [path])
    return War.new(rules, players(rules)[0], seed=1)


def _with_cards(path: Path) -> WarRules | str:
    """The shipped rules with the card file at `path` for their deck, or a note why not
    (its deck deals too few cards for the shipped rules' hands)."""
    import attrs

    from ..sources import read_toml
    from .loader import compile_cards

    doc, smap = read_toml(path, str(path))
    errors: list[RulesError] = []
    found = compile_cards(doc, smap, errors)
    if errors or found is None:  # `check` found none; read again as it changed since
        raise errors[0] if errors else RulesError("no cards", smap.locate(()))
    cards, made = found
    rules = load_rules(DEFAULT_RULES)
    dealt, need = sum(c.count for c in cards if c.deal), players(rules)[0] * int(
        rules.p("setup.cards_dealt"))
    if dealt < need:  # a deck for a variant that deals fewer (cards/art-of-war-duel.toml)
        return (f"a {GAME}:cards file: it checks clean; its deck deals {dealt} cards, too few "
                f"for the shipped rules' deal ({need}), so the watcher draws no table of it: "
                "watch the variant that plays it")
    return attrs.evolve(rules, cards=cards, index={c.name: c.index for c in cards},
                        made=made)


# ====================================================================== reference
def reference() -> list[str]:
    """Its part of docs/reference.md: the keys of its rules and variants, its cards, its
    scenarios' and its saves' own (docs/art-of-war.md says what they mean in play)."""
    from .game import SaveFile, WarStart
    from .scenarios import ScenarioFile, StepFile
    from .schema import CARD_SECTIONS, RULES_SECTIONS

    out = ["# Art of War", "",
           "The second game's files carry `game = \"art-of-war\"` at the top; what each "
           "value means in play is in docs/art-of-war.md and the rulings W1-W19 in "
           "docs/rulings.md.", ""]
    out += part("## Art of War's rules and variants (`missions/art-of-war.toml`)",
                "A variant (`missions/variants/refused-card-hand.toml`) holds any of the same "
                "keys and is layered on the rules.", RULES_SECTIONS)
    out += part("## Art of War's cards (`cards/art-of-war.toml`)",
                "Every DSL text is compiled when the rules load (docs/dsl.md, \"Art of "
                "War\").", CARD_SECTIONS)
    out += part("## Art of War's scenario files", "",
                (("top", ScenarioFile), ("[[step]]", StepFile),
                 ("[position]", War.POSITION_SPEC)))
    out += part("## Art of War's saves", "", (("top", SaveFile), ("[start]", WarStart)))
    return out


# ====================================================================== the batched environment
BATCHED_ENV: Final = "BatchedWar"  # artproject.adapters.batched's name for this game's


def batch_writer(probe: War, lay: Any, width: int, acts: int, ids: Any) -> Any:
    """The writer of the batched environment's rows for the layout it knows (a field at a
    time for the whole batch, batched.py), or None; imported here on first use (it needs
    numpy, the `ai` extra)."""
    from .batched import batch_writer as writer

    return writer(probe, lay, width, acts, ids)


__all__ += ["BATCHED_ENV", "batch_writer"]
