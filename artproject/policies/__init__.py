"""Policies: who takes the decisions in a simulated game. Plug-ins register by name.

The first game's bots: `random`, `cautious`, `heuristic` (the `Heuristic` bot, whose parts
are this package's modules: heuristic.py names them) and `ismcts` (artproject/search.py on
top of it). Another game's bots are its own (`policies_of`).

A policy factory takes a seed (and, if it has any, its options as keywords) and returns a
function from a state to one of its legal actions. `register_policy("mine", factory)` makes
it available to `simulate` and `artproject simulate --policy mine`. A policy is named with
its options as `NAME:KEY=VALUE,KEY=VALUE` (`ismcts:budget=64`): `make_policy` reads them.
"""

from __future__ import annotations

import inspect
import math
import random
from collections.abc import Callable, Mapping
from typing import Any

from ..core.actions import Action
from ..core.art.state import State
from ..core.art.bots.heuristic import Heuristic

Policy = Callable[[State], Action]
PolicyFactory = Callable[..., Policy]  # (seed, **options) -> policy
POLICIES: dict[str, PolicyFactory] = {}


def policies_of(game: str) -> Mapping[str, PolicyFactory]:
    """The policies of a game by its name: the default game's here, another's from its tools
    (`POLICIES` of core/games.py `game_tools`); GameError for a game without bots."""
    from ..core.games import DEFAULT, game_tools

    if game == DEFAULT:
        return POLICIES
    found: Mapping[str, PolicyFactory] = game_tools(game).POLICIES
    return found


def register_policy(name: str, factory: PolicyFactory) -> None:
    """Make a policy available by name to `simulate` and the command line."""
    POLICIES[name] = factory


def policy_spec(spec: str, policies: Mapping[str, PolicyFactory] | None = None,
                ) -> tuple[str, dict[str, Any]]:
    """A policy's name and options from `NAME` or `NAME:KEY=VALUE,...` (numbers read as
    numbers), among `policies` (the first game's by default); GameError saying what was
    expected, naming the policies or the options."""
    from ..core.errors import GameError, closest

    known_policies = POLICIES if policies is None else policies
    name, _, rest = spec.partition(":")
    factory = known_policies.get(name)
    if factory is None:
        raise GameError(f"unknown policy {name!r}{closest(name, known_policies)}; policies: "
                        + ", ".join(known_policies))
    known = [k for k in inspect.signature(factory).parameters if k != "seed"]
    options: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in known:
            hint = closest(key, known) if eq else ""
            raise GameError(f"policy {spec!r}: {item!r} is not an option{hint}; expected "
                            + (f"KEY=VALUE with KEY one of: {', '.join(known)}" if known else
                               f"none: {name} takes no options"))
        options[key] = _option_value(value.strip())
    return name, options


def _option_value(text: str) -> Any:
    for read in (int, float):
        try:
            return read(text)
        except ValueError:
            pass
    return text


# A policy's numeric options and the range each may take (a search's budget without a bound
# would run for ever); an option a plug-in adds: any finite number within OPTION_MAX.
POLICY_LIMITS: dict[str, tuple[int | float, int | float]] = {
    "budget": (1, 10_000), "depth": (1, 10_000), "tree": (1, 100),
    "margin": (0.0, 1.0), "z": (0.0, 100.0), "c": (0.0, 100.0)}
WHOLE_OPTIONS = ("budget", "depth", "tree")
OPTION_MAX = 10**9


def check_policy(spec: str, policies: Any = None) -> tuple[str, dict[str, Any]]:
    """A policy's name and options (policies.policy_spec), each number within its bounds
    (POLICY_LIMITS); GameError naming the option and its range."""
    from ..core.errors import GameError

    name, options = policy_spec(spec, policies)
    for key, value in options.items():
        if not isinstance(value, int | float):
            continue  # text: the policy's own to read
        lo, hi = POLICY_LIMITS.get(key, (-OPTION_MAX, OPTION_MAX))
        whole = key in WHOLE_OPTIONS
        if (whole and not isinstance(value, int)) or not math.isfinite(value) or not (
                lo <= value <= hi):
            kind = "a whole number" if whole else "a number"
            raise GameError(f"policy {spec!r}: {key} must be {kind} from {lo:,} to {hi:,}, "
                            f"not {value!r}")
    return name, options


def make_policy(spec: str, seed: int, policies: Mapping[str, PolicyFactory] | None = None,
                ) -> Policy:
    """The policy `spec` names (`NAME` or `NAME:KEY=VALUE,...`) among `policies` (the first
    game's by default), seeded."""
    from ..core.errors import ArtError, GameError

    known = POLICIES if policies is None else policies
    name, options = check_policy(spec, known)  # (a search's budget within its bounds)
    try:
        return known[name](seed, **options)
    except TypeError as err:  # an option's value of the wrong kind
        raise GameError(f"policy {spec!r}: {err}") from None
    except ArtError as err:
        raise GameError(f"policy {spec!r}: {err}") from None


def random_policy(seed: int) -> Policy:
    """Random legal actions from its own seeded generator: a random verb, then one of its actions.

    Picking the verb first keeps a verb with many actions (thirty `draw`s, say) from
    crowding out the one `done`, so random games reach every phase.
    """
    rng = random.Random(seed)

    def choose(st: State) -> Action:
        legal = st.legal_actions()
        verbs = sorted({a.verb for a in legal})
        verb = verbs[rng.randrange(len(verbs))]
        return rng.choice([a for a in legal if a.verb == verb])

    return choose


def cautious_policy(seed: int) -> Policy:
    """Like `random`, but never takes an action that costs health when another does not.

    Each candidate is tried on a clone, so this is slower; it plays deeper games, which
    the tests and `verify` use to reach every phase.
    """
    rng = random.Random(seed)

    def choose(st: State) -> Action:
        legal = st.legal_actions()
        health = sum(st.health)
        safe = []
        for a in legal:
            c = st.clone()
            c.apply(a)
            # a question of who pays a health token (R5's unlock) means health is paid
            if sum(c.health) >= health and c.outcome != "lost" and c.wait != "hurt":
                safe.append(a)
        pool = safe or legal
        verbs = sorted({a.verb for a in pool})
        verb = verbs[rng.randrange(len(verbs))]
        return rng.choice([a for a in pool if a.verb == verb])

    return choose


def heuristic_policy(seed: int) -> Policy:
    """The heuristic bot (see `Heuristic`)."""
    return Heuristic(seed)


def ismcts_policy(seed: int, budget: int = 32, depth: int = 400, tree: int = 2,
                  margin: float = 0.2, z: float = 2.0) -> Policy:
    """The search bot (artproject/search.py): information-set MCTS with the heuristic bot as
    its rollouts and for the decisions it does not search. `budget`: simulations a searched
    decision; `depth`: decisions a simulation plays before the shaped score judges it;
    `tree`: the side's decisions deep the tree grows; `margin`: how much better than the
    heuristic's choice another must be to be taken."""
    from ..search import Ismcts

    return Ismcts(seed, Heuristic(seed), Heuristic(seed + 1), budget=budget, depth=depth,
                  tree=tree, margin=margin, z=z)


register_policy("random", random_policy)
register_policy("cautious", cautious_policy)
register_policy("heuristic", heuristic_policy)
register_policy("ismcts", ismcts_policy)


__all__ = ["POLICIES", "Heuristic", "Policy", "PolicyFactory", "cautious_policy",
           "heuristic_policy", "ismcts_policy", "make_policy", "policies_of", "policy_spec",
           "random_policy", "register_policy"]
