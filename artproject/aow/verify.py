"""`artproject verify --game art-of-war`: games of Art of War driven by choices Hypothesis
makes, every invariant (core/aow/invariants.py) checked after every decision: the cards and
tokens conserved (W1), hands within the limit once a turn is settled (W4), bets within W5
and W7, the dead holding nothing (W17), every game ending (W18); and per game the same seed
and actions giving the same game, save and load, a clone. A failure is shrunk to a short
game and written as a scenario file that replays it. The search is the first game's
(artproject/verify.py); only the game it plays differs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Final

from ..core.aow.rules import WarRules
from ..core.aow.state import War
from ..core.errors import ArtError
from ..core.invariants import Violation, check_invariants, check_step
from ..core.saves import dumps, loads
from ..verify import Example, Outcome, Report, choose, search
from .policies import POLICIES

MAX_STEPS: Final = 20_000  # W18's turn limit ends a game long before (a few per turn)


def play_example(rules: WarRules, ex: Example, deep: bool = True) -> Outcome:
    """One game, checked after every decision; stop at the first violation."""
    actions: list[str] = []
    picks = iter(ex.picks)
    default = POLICIES["random"](ex.seed)  # a pick of 0, and every one after the example's
    try:
        st = War.new(rules, ex.players, ex.seed, log=True)
        check_invariants(st)
        while st.outcome is None:
            if len(actions) >= MAX_STEPS:
                raise Violation(f"the game did not end within {MAX_STEPS} decisions (W18)")
            pick = next(picks, 0)
            action = choose(st.legal_actions(), pick) if pick else default(st)
            before = st.clone()
            st.apply(action)
            actions.append(str(action))
            check_invariants(st)
            check_step(before, action, st)
        if deep:
            _check_determinism(rules, ex, st)
    except Violation as v:
        return Outcome(actions, len(actions), v)
    except ArtError as err:
        return Outcome(actions, len(actions), Violation(f"the engine refused: {err}"))
    return Outcome(actions, len(actions))


def _check_determinism(rules: WarRules, ex: Example, st: War) -> None:
    again = War.new(rules, ex.players, ex.seed, log=True)
    for a in st.history:
        again.apply(a)
    if again.fingerprint() != st.fingerprint():
        raise Violation("the same seed and actions gave a different game")
    if rules.ref and loads(dumps(st)).fingerprint() != st.fingerprint():
        raise Violation("a saved and loaded game differs from the original")
    c = st.clone()
    if c.legal_actions():
        c.apply(c.legal_actions()[0])
        if st.fingerprint() == c.fingerprint():
            raise Violation("a clone's move changed its original")


def verify(rules: WarRules, examples: int = 100, seed: int = 0,
           players: Sequence[int] = (2, 3, 4, 5, 6, 7),
           progress: Callable[[int, int, int], None] | None = None) -> Report:
    """Search for a game that breaks an invariant; shrink the first found (the first game's
    search: Art of War has no difficulty, "-", nor properties)."""
    return search(partial(play_example, rules), rules.name, examples, seed, players, ("-",),
                  (), progress)


def counterexample_scenario(rules: WarRules, ref: str, variants: Sequence[str], ex: Example,
                            failure: Outcome) -> str:
    """A scenario file (TOML text) that replays the counterexample, invariants checked."""
    import tomli_w

    v = failure.violation
    doc: dict[str, Any] = {
        "about": f"Counterexample found by artproject verify: {v}",
        "cites": ["artproject verify"], "game": "art-of-war", "rules": ref,
        "variants": list(variants), "players": ex.players, "seed": ex.seed,
        "invariants": True}
    steps: list[dict[str, Any]] = [{"do": a} for a in failure.actions]
    if steps:
        steps[-1]["note"] = f"the step that breaks: {v}"
    else:
        steps.append({"note": f"the setup breaks: {v}"})
    doc["step"] = steps
    return tomli_w.dumps(doc)
