"""A mission card's play (R8) as flat Python, generated once per rules.

A card's first three sections are data (its cost, agents and gains; rules.py `Card`), the
fourth its clue. Rather than loop over those tuples at every play, `card_plays` writes each
card's play out for the loaded rules, once, as the DSL compiler writes an effect: the van's
index of each resource and the amounts are constants in the code; the cities bearing each
symbol and the cards bearing it are the code's globals (so boards alike share the compiled
code: see `_compiled`).

A card's play `play(st, p)` runs its sections in order for player p (the hand and the play
count already taken): the card's player pays its cost (the van first, R4; no one is asked),
its agents go onto their cities (a lost city's to headquarters, R18), its gains come at once
(from a gained health on, queued: the team says who receives it, R8), then the card joins
the chain clue side up and a completed triple is resolved (R9, R10). It returns True when
the whole card resolved at once and nothing is pending (no decision asked, nothing queued,
the game not over): the caller may then go straight on. Each section does what the general
functions it writes out do (effects.py `pay`, `place_agents`, `gain`, `gain_all`; clues.py
`add_clue`), and calls them for every case but the usual one.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Mapping, Sequence
from types import CodeType
from typing import TYPE_CHECKING, Any, Final

from .clues import add_clue, triples_found
from .effects import gain, gain_all, pay, place_agents
from .rules import Card, Rules

if TYPE_CHECKING:
    from .state import State
    from .tables import Tables

CardPlay = Callable[[Any, int], bool]
CODES_KEPT: Final = 64  # compiled decks remembered in a process (a bound on `_CODES`)
_CODES: dict[str, CodeType] = {}


def card_plays(rules: Rules, t: Tables) -> Mapping[int, CardPlay]:
    """Every card's play for these rules, by card number."""
    symbols = range(len(rules.symbols))
    env: dict[str, Any] = {
        "paid": _paid, "placed": _placed, "gain": gain, "gain_all": gain_all,
        "add_clue": add_clue, "triples_found": triples_found, "CTX": t.player_ctx,
        # per symbol: the cities bearing it (one by one, and as a tuple), the cards bearing it
        **{f"C{s}_{k}": c for s in symbols
           for k, c in enumerate(rules.by_symbol.get(rules.symbols[s], ()))},
        **{f"CITIES{s}": rules.by_symbol.get(rules.symbols[s], ()) for s in symbols},
        **{f"HAS{s}": t.bearing[s].__contains__ for s in symbols}}
    src = "\n".join(f"def _card{i}(st, p):\n" + _card_code(c, rules, t)
                    for i, c in rules.cards.items())
    exec(_compiled(src), env)  # trusted: made from the loaded rules' data
    return {i: env[f"_card{i}"] for i in rules.cards}


def _compiled(src: str) -> CodeType:
    """The deck's code, made once a process for each source (the boards alike share it)."""
    code = _CODES.get(src)
    if code is None:
        if len(_CODES) >= CODES_KEPT:
            _CODES.clear()
        code = _CODES[src] = _kept_or_compiled(src)
    return code


def _kept_or_compiled(src: str) -> CodeType:
    """The source compiled, or as an earlier process compiled it: the compiled-rules cache
    (core/cache.py) keeps it by the source itself, Python's version and the engine's code.
    Compiling a deck takes some 13 ms, reading it back well under one."""
    from .. import cache

    kept = cache.lookup("cards", src)
    if kept is not None:
        try:
            code = marshal.loads(kept)
            if isinstance(code, CodeType):
                return code
        except (EOFError, ValueError, TypeError):  # a damaged entry: compiled afresh
            pass
    code = compile(src, "<cards>", "exec")
    cache.store("cards", src, {}, marshal.dumps(code))
    return code


def _card_code(c: Card, rules: Rules, t: Tables) -> str:
    """The body of card c's play (see the module's text), indented."""
    lines = ["van = st.van"]
    index = t.res_index
    for kind, n in c.cost:  # R4: the van pays all it can, the card's player the rest
        r = index.get(kind, -1)
        if r >= 0:
            lines += [f"if (x := van[{r}]) >= {n}:", f"    van[{r}] = x - {n}",
                      f"elif paid(st, p, {kind!r}, {n}, {c.id}):", "    return False"]
        else:
            lines += [f"if paid(st, p, {kind!r}, {n}, {c.id}):", "    return False"]
    if c.agents:
        lines += _agents_code(c, rules, t)
    health = next((j for j, (k, _) in enumerate(c.gain) if k not in index), len(c.gain))
    for kind, n in c.gain[:health]:  # resources at once, as `gain` takes them
        r = index[kind]
        lines += [f"if (x := van[{r}] + {n}) <= {t.res_cap}:", f"    van[{r}] = x", "else:",
                  f"    gain(st, {kind!r}, {n}, CTX[p])"]
    if health < len(c.gain):  # from the first health on, through the queue (`gain_all`)
        lines += ["q = st.queue", "mark = len(q)", f"gain_all(st, {c.gain[health:]!r}, CTX[p])",
                  "if len(q) != mark:  # the clue once the gains' queued work has run",
                  f"    q.insert(mark, (add_clue, (p, {c.id})))",
                  f"    st.discard.append({c.id})  # in play: it lies discarded meanwhile",
                  "    return False"]
    lines += _clue_code(c, rules, t.need)
    return "\n".join("    " + ln for ln in lines)


def _agents_code(c: Card, rules: Rules, t: Tables) -> list[str]:
    """The agents' placement: written out when the reserve holds them all and no event is
    recorded (`place_agents`' usual case), else through `place_agents`."""
    steps = [(rules.symbols.index(sym), n) for sym, n in c.agents]
    total = sum(n * len(rules.by_symbol.get(sym, ())) for sym, n in c.agents)
    lines = ["agents = st.agents",
             f"if not st.logging and {t.agent_tokens - total} - sum(agents) >= st.hq:",
             "    lost = st.lost"]
    for s, n in steps:  # R18: a lost city's agents go to headquarters
        for k in range(len(rules.by_symbol.get(rules.symbols[s], ()))):
            lines += [f"    if lost[C{s}_{k}]:", f"        st.hq += {n}", "    else:",
                      f"        agents[C{s}_{k}] += {n}"]
    places = ", ".join(f"(CITIES{s}, {n})" for s, n in steps)
    return [*lines, f"elif placed(st, p, ({places},), {c.id}):", "    return False"]


def _clue_code(c: Card, rules: Rules, need: int) -> list[str]:
    """The card onto its player's chain, clue side up, and the triples it completes (only
    its own symbols can have: `add_clue`)."""
    # one chain for the team, or one a player (R21; setup.py makes them so)
    team = rules.p("rules.clue_chains") == "team"
    lines = [f"chain = st.chains[{'0' if team else 'p'}]", f"chain.append({c.id})"]
    tests = [(f"sum(map(HAS{s}, chain)) >= {need}", rules.symbols[s]) for s in c.clues]
    if len(tests) == 1:
        test, name = tests[0]
        lines += [f"if len(chain) >= {need} and {test}:",
                  f"    triples_found(st, p, [{name!r}])", "    return False"]
    elif tests:
        lines += [f"if len(chain) >= {need}:", "    done = []"]
        for test, name in tests:
            lines += [f"    if {test}:", f"        done.append({name!r})"]
        lines += ["    if done:", "        triples_found(st, p, done)", "        return False"]
    return [*lines, "return True"]


def _paid(st: State, p: int, kind: str, n: int, card: int) -> bool:
    """A card's cost the van cannot pay all of (`pay`); True when the game ended (the card
    lies discarded)."""
    pay(st, p, kind, n)
    if st.outcome is None:
        return False
    st.discard.append(card)
    return True


def _placed(st: State, p: int, places: Sequence[tuple[Sequence[int], int]], card: int) -> bool:
    """A card's agents through `place_agents` (the reserve short, or events recorded); True
    when the game ended (the card lies discarded)."""
    for cities, n in places:
        place_agents(st, cities, n, st.tab.player_ctx[p])
        if st.outcome is not None:
            st.discard.append(card)
            return True
    return False
