"""What the terminal game says about a decision beside its actions (core/art/screen.py): what
a choice would cost in health under the golden rule (R4, R5) and whether that loses the
game (R7), and what a question of the team's is about.

A cost is found as the cautious bot finds it (bots/__init__.py `cautious_policy`): the
action is taken on a clone and what it paid is read, here from the events the engine logs
for a health token paid for a missing resource (`health_for`, as invariants.py reads them)
and from the questions of who pays that follow it (`hurt`). Only golden-rule payments are
told, made before anything chance does: what a die or a card drawn would do is never read
ahead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..actions import Action

if TYPE_CHECKING:
    from .state import State

HURT: Final = "hurt"  # the question of who pays a health token for a missing resource (R5)
ASKED_MOST: Final = 30  # questions of who pays, counted on the clone (a guard, never reached)


def health_note(st: State, action: Action) -> str:
    """What `action` would cost in health (R4, R5), as a note beside it ("" for nothing):
    "(no fuel: p2 pays 1 health)", "(... and the team loses: p2 has 1 health)", or, where the
    team names the payers, "(2 radio missing: the team names who pays 2 health)"."""
    verb = st.registry.verbs[action.verb]
    if not (verb.pays or verb.golden or verb.private):  # (a card's cost is the golden rule's)
        return ""
    trial = st.clone()
    trial.logging, start = True, len(trial.log)
    try:
        trial.apply(action)
    except Exception:  # a note is advice: an engine's fault is the decision's to tell, if taken
        return ""
    paid = [e for e in trial.log[start:] if e[1] == "health_for"]
    if paid:
        return _paid(st, paid, trial.outcome == "lost")
    asked, kind = _asked(trial)
    return f"   ({asked_text(asked, kind)})" if asked else ""


def asked_text(asked: int, kind: str) -> str:
    """The questions of who pays, in words: "2 radio missing: the team names who pays 2
    health" (a plain loss of health: who loses it)."""
    if kind == "health":
        return f"the team names who loses {asked} health"
    return f"{asked} {kind} missing: the team names who pays {asked} health"


def _paid(st: State, paid: list[tuple[object, ...]], lost: bool) -> str:
    """The note of health paid by the players the payments name (R5)."""
    who, kinds = sorted({str(e[2]) for e in paid}), sorted({str(e[3]) for e in paid})
    parts = [f"{w} pays {sum(1 for e in paid if e[2] == w)} health" for w in who]
    note = f"no {' or '.join(kinds)}: {', '.join(parts)}"
    if lost:
        left = ", ".join(f"{w} has {st.health[int(w[1:]) - 1]} health" for w in who)
        note += f"; the team loses the game: {left} (R7)"
    return f"   ({note})"


def _asked(trial: State) -> tuple[int, str]:
    """How many questions of who pays a health token follow on `trial`, and for what."""
    asked, kind = 0, ""
    while str(trial.wait) == HURT and trial.outcome is None and asked < ASKED_MOST:
        kind = kind or str(trial.wargs[0]) if trial.wargs else kind
        asked += 1
        try:
            trial.apply(trial.legal_actions()[0])  # (who pays changes nothing of how many)
        except Exception:  # advice, as `health_note`'s: what was counted so far
            break
    return asked, kind or "resource"


def decision_text(st: State) -> str:
    """The decision pending and what it is about, as `-- decide:` says it: its kind's words
    (`boundary: between two phases, the team may unlock an ally die...`), and at a question
    of who pays (R5), what is missing and how much health it costs in all."""
    name = str(st.wait)
    kind = st.registry.kinds.get(name)
    text = f"{name}: {kind.help}" if kind is not None and kind.help else name
    if name == HURT:
        left, what = _asked(st.clone())
        text += f"; {asked_text(left, what).partition(': the team names ')[0]}" + (
            f", {left} health to pay" if what != "health" else "")
    return text
