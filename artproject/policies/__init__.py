"""Policies: who takes the decisions in a simulated game, any game's. Plug-ins register by name.

A game's bots are its own (its `POLICIES`, named by its tools: core/games.py `game_tools`);
`policies_of(game)` asks any game for them the same way. Here is what every game's bots
share: reading a policy's name and options, their bounds, making a seeded policy, and
`random` (a random verb, then one of its actions), which plays any game.

A policy factory takes a seed (and, if it has any, its options as keywords) and returns a
function from a state to one of its legal actions. `register_policy("mine", factory)` makes
it available to `simulate` and `artproject simulate --policy mine` (for the default game,
or the game named by `game=`). A policy is named with its options as
`NAME:KEY=VALUE,KEY=VALUE` (`ismcts:budget=64`): `make_policy` reads them.
"""

from __future__ import annotations

import inspect
import math
import random
from collections.abc import Callable, Mapping
from typing import Any

from ..core.actions import Action

Policy = Callable[[Any], Action]
PolicyFactory = Callable[..., Policy]  # (seed, **options) -> policy


def policies_of(game: str | None = None) -> dict[str, PolicyFactory]:
    """The policies of a game by its name (the default game when None): its tools' `POLICIES`
    (core/games.py `game_tools`); GameError for an unknown game or one without bots."""
    from ..core import checks
    from ..core.games import game_tools

    if game is not None:
        checks.text(game, "game", empty=False)
    found: dict[str, PolicyFactory] = game_tools(game or _default()).POLICIES
    return found


def _default() -> str:
    from ..core.games import DEFAULT

    return DEFAULT


def register_policy(name: str, factory: PolicyFactory, game: str | None = None) -> None:
    """Make a policy available by name to `simulate` and the command line, among the
    policies of `game` (the default game when None)."""
    from ..core import checks
    from ..core.errors import GameError

    checks.text(name, "name", empty=False)
    if any(c in name for c in ":,=") or name != name.strip():
        raise GameError(f"name {name!r}: a policy's name holds no ':', ',' or '=' and no "
                        "blank at either end (it is read from NAME:KEY=VALUE,...)")
    if not callable(factory):
        raise GameError(f"factory must be a function of a seed (and the policy's options) "
                        f"that makes the policy, not {checks.what(factory)}")
    policies_of(game)[name] = factory


def policy_spec(spec: str, policies: Mapping[str, PolicyFactory] | None = None,
                ) -> tuple[str, dict[str, Any]]:
    """A policy's name and options from `NAME` or `NAME:KEY=VALUE,...`, among `policies`
    (the default game's by default), each value read as its option declares (`_kinds`: a
    whole number, a number, true/false or text) and each number within its bounds
    (POLICY_LIMITS); GameError saying what was expected, naming the policies or the option."""
    from ..core import checks
    from ..core.errors import GameError, closest

    checks.text(spec, "policy", empty=False)
    if policies is not None and not isinstance(policies, Mapping):
        raise GameError(f"policies must be a dict of names to policy factories, not "
                        f"{checks.what(policies)}")
    known_policies = policies_of() if policies is None else policies
    name, _, rest = spec.partition(":")
    factory = known_policies.get(name)
    if factory is None:
        raise GameError(f"unknown policy {name!r}{closest(name, known_policies)}; policies: "
                        + ", ".join(known_policies))
    kinds = _kinds(factory)
    known = list(kinds)
    options: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in known:
            hint = closest(key, known) if eq else ""
            raise GameError(f"policy {spec!r}: {item!r} is not an option{hint}; expected "
                            + (f"KEY=VALUE with KEY one of: {', '.join(known)}" if known else
                               f"none: {name} takes no options"))
        if key in options:  # (never the later value winning unseen)
            raise GameError(f"policy {spec!r}: {key} is given twice; give each option once")
        options[key] = _checked(spec, key, kinds[key], _option_value(value.strip()))
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
_KINDS: dict[Any, type] = {k: k for k in (bool, int, float, str)} | {
    k.__name__: k for k in (bool, int, float, str)}  # (annotations may be text)


def _kinds(factory: PolicyFactory) -> dict[str, type | None]:
    """A factory's options (every parameter but the seed) and the kind each declares: its
    default's type, else its annotation's (bool, int, float or str); None: not declared (a
    number is then bounded as any number, text left to the policy)."""
    kinds: dict[str, type | None] = {}
    for key, p in inspect.signature(factory).parameters.items():
        if key == "seed":
            continue
        declared = type(p.default) if p.default is not p.empty else p.annotation
        try:
            kinds[key] = _KINDS.get(declared)
        except TypeError:  # an annotation that cannot be a key (a list of types...)
            kinds[key] = None
    return kinds


def _checked(spec: str, key: str, kind: type | None, value: Any) -> Any:
    """An option's value as its kind declares it; GameError naming the option and what was
    expected (a whole number or a number: within its range)."""
    from ..core.errors import GameError

    if kind is str or (kind is None and isinstance(value, str)):
        return str(value) if kind is str else value  # text: the policy's own to read
    if kind is bool:
        truth = {"true": True, "false": False}.get(str(value).lower())
        if truth is None:
            raise GameError(f"policy {spec!r}: {key} must be true or false, not {value!r}")
        return truth
    lo, hi = POLICY_LIMITS.get(key, (-OPTION_MAX, OPTION_MAX))
    whole = key in WHOLE_OPTIONS or kind is int
    if not _within(value, whole, lo, hi):
        what = "a whole number" if whole else "a number"
        raise GameError(f"policy {spec!r}: {key} must be {what} from {lo:,} to {hi:,}, "
                        f"not {value!r}")
    return value


def _within(value: Any, whole: bool, lo: float, hi: float) -> bool:
    """Whether `value` is a number (whole, if `whole`), finite, from `lo` to `hi`."""
    if isinstance(value, bool) or not isinstance(value, int if whole else int | float):
        return False
    return math.isfinite(value) and lo <= value <= hi


def check_policy(spec: str, policies: Any = None) -> tuple[str, dict[str, Any]]:
    """A policy's name and options (policies.policy_spec: each value of its option's kind,
    each number within its bounds, POLICY_LIMITS); GameError naming the option and what it
    takes."""
    return policy_spec(spec, policies)


def make_policy(spec: str, seed: int, policies: Mapping[str, PolicyFactory] | None = None,
                ) -> Policy:
    """The policy `spec` names (`NAME` or `NAME:KEY=VALUE,...`) among `policies`, seeded: by
    default the policies of the game it is asked on (its spec checked at once against the
    default game's); given a game's own (`policies_of(game)`), asked on another game it
    raises GameError naming both."""
    return policy_maker(spec, policies)(seed)


def policy_maker(spec: str, policies: Mapping[str, PolicyFactory] | None = None,
                 ) -> Callable[[int], Policy]:
    """seed -> the policy `spec` names among `policies` (`make_policy`'s), its name and
    options read and checked once: for a caller that makes one a game (reading them goes
    through the factory's signature, more than a short game's decisions cost)."""
    from ..core import checks
    from ..core.errors import ArtError, GameError

    known = policies_of() if policies is None else policies
    name, options = check_policy(spec, known)  # (a search's budget within its bounds)
    factory = known[name]

    home = _default() if policies is None else _game_of(known)  # (None: a dict of one's own)

    def make(seed: int) -> Policy:
        # any whole number (numpy's too): a game's bots are seeded from its seed times seats
        seed = checks.index(seed, "seed")
        try:
            made = factory(seed, **options)
        except TypeError as err:  # an option's value of the wrong kind
            raise GameError(f"policy {spec!r}: {err}") from None
        except ArtError as err:
            raise GameError(f"policy {spec!r}: {err}") from None
        return made if home is None else _on_its_game(made, home, spec, seed,
                                                      follow=policies is None)

    return make


def _game_of(policies: Mapping[str, PolicyFactory]) -> str | None:
    """The game whose policies `policies` is (its tools' `POLICIES`, as `policies_of` gives
    it, or its bots' module's, imported before its tools were), or None."""
    import sys

    from ..core.games import game_class, game_names, game_tools

    names = game_names()
    for game in names:  # (the tools in use first: nothing imported)
        module = sys.modules.get(game_class(game).TOOLS or "")
        if module is not None and getattr(module, "POLICIES", None) is policies:
            return game
    for game in names:
        if game_class(game).TOOLS and getattr(game_tools(game), "POLICIES", None) is policies:
            return game
    return None


def _on_its_game(policy: Policy, home: str, spec: str, seed: int, follow: bool) -> Policy:
    """`policy`, a policy of game `home`, asked only on a state of that game (`GamePolicy`)."""
    return GamePolicy(policy, home, spec, seed, follow)


class GamePolicy:
    """A policy of one game (`make_policy`'s), asked only on states of that game: on
    another game's, one made without its game's policies (`follow`) is the same spec among
    that game's policies, made with the same seed; else GameError naming both games (a
    game's bot would read another game's state as its own). `policy` is the game's own
    bot, whose attributes it gives too."""

    __slots__ = ("_follow", "_others", "_seed", "_spec", "home", "policy")

    def __init__(self, policy: Policy, home: str, spec: str, seed: int, follow: bool) -> None:
        self.policy, self.home, self._spec, self._seed = policy, home, spec, seed
        self._follow, self._others = follow, dict[str, Policy]()

    def __call__(self, st: Any) -> Action:
        game = getattr(st, "game", self.home)  # (the state's game's name: core/machine.py)
        if game == self.home:
            return self.policy(st)
        other = self._others.get(game)
        if other is None:
            if not self._follow:
                from ..core.errors import GameError

                raise GameError(f"policy {self._spec!r} is a policy of the {self.home} game, "
                                f"asked on a state of the {game} game: make it with "
                                f"policies_of({game!r})")
            other = self._others[game] = policy_maker(self._spec, policies_of(game))(self._seed)
        return other(st)

    def __getattr__(self, name: str) -> Any:
        if name in GamePolicy.__slots__:  # (not set yet: a copy being made)
            raise AttributeError(name)
        return getattr(self.policy, name)


def random_policy(seed: int) -> Policy:
    """Random legal actions from its own seeded generator: a random verb, then one of its actions.

    Picking the verb first keeps a verb with many actions (thirty `draw`s, say) from
    crowding out the one `done`, so random games reach every phase.
    """
    rng = random.Random(seed)

    def choose(st: Any) -> Action:
        legal: list[Action] = st.legal_actions()
        verbs = sorted({a.verb for a in legal})
        verb = verbs[rng.randrange(len(verbs))]
        return rng.choice([a for a in legal if a.verb == verb])

    return choose


def _shared(tools: Any) -> None:
    """What every game's bots share, given to a game's `POLICIES` when its tools are first
    used (core/games.py `use_tools`): the search bot, `ismcts` (artproject/search.py), on
    top of the game's heuristic, unless the game names its own. Its dict itself gains it, so
    the game's tools, which read their `POLICIES`, seat it as any of their own bots."""
    from ..search import search_policy

    own = getattr(tools, "POLICIES", None)
    if isinstance(own, dict) and "ismcts" not in own:
        own["ismcts"] = search_policy(own, random_policy)


def _give_every_game() -> None:
    from ..core.games import use_tools

    use_tools(_shared)


_give_every_game()

__all__ = ["POLICY_LIMITS", "GamePolicy", "Policy", "PolicyFactory", "check_policy", "make_policy",
           "policies_of", "policy_maker", "policy_spec", "random_policy", "register_policy"]
