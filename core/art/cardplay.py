"""A mission card's play (R8) as flat Python, generated once per rules.

A card's first three sections are data (its cost, agents and gains; rules.py `Card`), the
fourth its clue. Rather than loop over those tuples at every play, `card_plays` writes each
card's play out for the loaded rules, once, as the DSL compiler writes an effect: the van's
index of each resource, the cities bearing each agents' symbol and the cards bearing each
clue symbol are constants in the code, and one `compile` serves the whole deck.

A card's play `play(st, p)` runs its sections in order for player p (the hand and the play
count already taken): the card's player pays its cost (the van first, R4; no one is asked),
its agents go onto their cities (a lost city's to headquarters, R18), its gains come at once
(from a gained health on, queued: the team says who receives it, R8), then the card joins
the chain clue side up and a completed triple is resolved (R9, R10). It returns True when
the whole card resolved at once and nothing is pending (no decision asked, nothing queued,
the game not over): the caller may then go straight on. Each section behaves as the
general functions it writes out (effects.py `pay`, `place_agents`, `gain`, `gain_all`;
clues.py `add_clue`), which it calls for every case but the usual one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .clues import add_clue, triples_found
from .effects import gain, gain_all, pay, place_agents
from .rules import Card, Rules

if TYPE_CHECKING:
    from .tables import Tables

CardPlay = Callable[[Any, int], bool]


def card_plays(rules: Rules, t: Tables) -> Mapping[int, CardPlay]:
    """Every card's play for these rules, by card number."""
    env: dict[str, Any] = {
        "pay": pay, "place_agents": place_agents, "gain": gain, "gain_all": gain_all,
        "add_clue": add_clue, "triples_found": triples_found, "CTX": t.player_ctx,
        "AGENTS": t.agent_tokens, "CAP": t.res_cap, "NEED": t.need}
    src = []
    for i, c in rules.cards.items():
        src.append(f"def _card{i}(st, p):\n" + "\n".join(
            "    " + ln for ln in _card_code(c, rules, t, env).splitlines()))
    exec(compile("\n".join(src), "<cards>", "exec"), env)  # trusted: the loaded rules' data
    return {i: env[f"_card{i}"] for i in rules.cards}


def _card_code(c: Card, rules: Rules, t: Tables, env: dict[str, Any]) -> str:
    """The body of card c's play (see the module's text)."""
    over = f"if st.outcome is not None:\n    st.discard.append({c.id})\n    return False"
    lines = ["van = st.van"]
    index = t.res_index
    for kind, n in c.cost:  # R4: the van pays all it can, the card's player the rest
        r = index.get(kind, -1)
        if r >= 0:
            lines += [f"if van[{r}] >= {n}:", f"    van[{r}] -= {n}", "else:",
                      f"    pay(st, p, {kind!r}, {n})", indent(over)]
        else:
            lines += [f"pay(st, p, {kind!r}, {n})", over]
    if c.agents:
        lines += _agents_code(c, rules, t, over)
    health = next((j for j, (k, _) in enumerate(c.gain) if k not in index), len(c.gain))
    for kind, n in c.gain[:health]:  # resources at once, as `gain` takes them
        r = index[kind]
        lines += [f"if van[{r}] + {n} <= CAP:", f"    van[{r}] += {n}", "else:",
                  f"    gain(st, {kind!r}, {n}, CTX[p])"]
    if health < len(c.gain):  # from the first health on, through the queue (`gain_all`)
        lines += ["q = st.queue", "mark = len(q)", f"gain_all(st, {c.gain[health:]!r}, CTX[p])",
                  "if len(q) != mark:  # the clue once the gains' queued work has run",
                  f"    q.insert(mark, (add_clue, (p, {c.id})))",
                  f"    st.discard.append({c.id})  # in play: it lies discarded meanwhile",
                  "    return False"]
    return "\n".join(lines + _clue_code(c, rules, t, env))


def _agents_code(c: Card, rules: Rules, t: Tables, over: str) -> list[str]:
    """The agents' placement: written out when the reserve holds them all and no event is
    recorded (`place_agents`' usual case), else through `place_agents`."""
    places = [(rules.by_symbol[sym], n) for sym, n in c.agents]
    total = sum(n * len(cities) for cities, n in places)
    lines = ["agents = st.agents",
             f"if not st.logging and AGENTS - sum(agents) - st.hq >= {total}:",
             "    lost = st.lost"]
    for cities, n in places:
        for city in cities:  # R18: a lost city's agents go to headquarters
            if city < 0:
                lines += [f"    st.hq += {n}"]
            else:
                lines += [f"    if lost[{city}]:", f"        st.hq += {n}", "    else:",
                          f"        agents[{city}] += {n}"]
    lines += ["else:"]
    for cities, n in places:
        lines += [f"    place_agents(st, {tuple(cities)!r}, {n}, CTX[p])", indent(over)]
    return lines


def _clue_code(c: Card, rules: Rules, t: Tables, env: dict[str, Any]) -> list[str]:
    """The card onto its player's chain, clue side up, and the triples it completes (only
    its own symbols can have: `add_clue`)."""
    # one chain for the team, or one a player (R21; setup.py makes them so)
    team = rules.p("rules.clue_chains") == "team"
    lines = [f"chain = st.chains[{'0' if team else 'p'}]", f"chain.append({c.id})"]
    tests = []
    for s in c.clues:
        has = f"_has{s}"
        env[has] = t.bearing[s].__contains__
        tests.append((f"sum(map({has}, chain)) >= NEED", rules.symbols[s]))
    if len(tests) == 1:
        test, name = tests[0]
        lines += [f"if len(chain) >= NEED and {test}:",
                  f"    triples_found(st, p, [{name!r}])", "    return False"]
    elif tests:
        lines += ["if len(chain) >= NEED:", "    done = []"]
        lines += [f"    if {test}:\n        done.append({name!r})" for test, name in tests]
        lines += ["    if done:", "        triples_found(st, p, done)", "        return False"]
    return [*lines, "return True"]


def indent(code: str) -> str:
    return "\n".join("    " + ln for ln in code.splitlines())
