"""The golden rule and the other effects every part of the round uses: gain, pay, lose,
health, agents, the end of the game, and the hooks that listen to events (R1, R2, R4, R5,
R7, R8, R18). The team's choices these effects ask (who receives a gained health, who pays
a health for a missing resource, which resource or clue card is lost) are declared here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

from ..actions import Action
from ..errors import GameError
from ..machine import HOOK_LIMIT
from ..registry import PLAYER
from .registry import ALLY_PAWN, CARD, KIND, REG, P, answer_arg, answer_player
from .rules import Ctx

if TYPE_CHECKING:
    from .state import State

NO_CTX: Final = Ctx()
# the team's players as a pause's options, by team size (made once: a tuple is kept as is)
_EVERYONE: Final = tuple(tuple(range(n)) for n in range(7))


# ====================================================================== gains and costs
def gain_all(st: State, pairs: Sequence[tuple[str, int]], ctx: Ctx) -> None:
    """Gains in order; resources at once, and from the first health on (a choice of who
    receives it may stop the machine) the rest one token at a time from the queue."""
    t, van = st.tab, st.van
    index = t.res_index
    for i, (kind, n) in enumerate(pairs):
        r = index.get(kind)
        if r is None:  # health
            for k, m in reversed(pairs[i:]):
                for _ in range(m):
                    st.push(gain, k, 1, ctx)
            return
        room = t.res_cap - van[r]
        if n <= room:
            van[r] += n
        else:
            gain(st, kind, n, ctx)


def pay_all(st: State, pairs: Sequence[tuple[str, int]], ctx: Ctx) -> None:
    """Costs in order: a named payer pays at once; the team's payer is asked token by
    token from the queue (R5)."""
    if ctx.player >= 0 or ctx.player == ALLY_PAWN:
        for kind, n in pairs:
            pay(st, ctx.player, kind, n)
            if st.outcome is not None:
                return
        return
    for kind, n in reversed(pairs):
        st.push(pay, ctx.player, kind, n)


def lose_all(st: State, pairs: Iterable[tuple[str, int]], ctx: Ctx) -> None:
    for kind, n in reversed(list(pairs)):
        for _ in range(n):
            st.push(lose, kind, 1, ctx)


def gain(st: State, kind: str, n: int, ctx: Ctx) -> None:
    """Gain from the reserve: what it lacks is not gained (R1, R2); health to a named player."""
    if kind == "health":
        if n > 1:
            for _ in range(n):
                st.push(gain, kind, 1, ctx)
        elif st.reserve("health") <= 0:
            st.note("no_gain", "health")
        else:
            st.pause(GIVE, _EVERYONE[st.players], _give_health, (ctx,))
        return
    t = st.tab
    r = t.res_index[kind]
    van = st.van
    room = t.res_cap - van[r]
    if n <= room:
        van[r] += n
    else:
        van[r] += room
        st.note("no_gain", kind, n - room)


def pay(st: State, player: int, kind: str, n: int) -> None:
    """The golden rule (R4, R5): the van pays while it holds the kind, else the payer."""
    if player == ALLY_PAWN:
        player = 0  # the solo player pays for the ally pawn (R24)
    if kind == "health":
        if player < 0:  # a team's health cost: the team names who pays each token (R5)
            for _ in range(n):
                st.push(lose, kind, 1, NO_CTX)
            return
        lose_health(st, player, n, "pays health")
        return
    van = st.van
    r = st.tab.res_index[kind]
    have = van[r]
    if have >= n:  # the van holds it all: nobody is asked, nobody pays health
        van[r] = have - n
        return
    if player < 0:  # the team names who pays: one token at a time, each may stop to ask
        if n > 1:
            q, item = st.queue, (pay, (player, kind, 1))
            for _ in range(n):
                q.append(item)
        else:
            st.pause(HURT, _EVERYONE[st.players], _hurt, (kind,))
        return
    van[r] = 0  # the van pays what it holds, the payer a health token for each missing
    if st.logging:
        lose_health(st, player, n - have, f"paid health for {kind}", ("health_for", P[player],
                                                                       kind))
    else:
        lose_health(st, player, n - have, "")


def ask_team(st: State, kind: str, n: int) -> None:
    """The team names who pays each of `n` missing `kind` with a health token (R5): the
    first `hurt` question now, the others queued after it (what `pay` of the team's `n`
    comes to once the van has paid what it holds)."""
    args = (kind,)
    if n > 1:
        st.queue += [(_ask_hurt, args)] * (n - 1)
    st.pause(HURT, _EVERYONE[st.players], _hurt, args)


def _ask_hurt(st: State, kind: str) -> None:
    st.pause(HURT, _EVERYONE[st.players], _hurt, (kind,))


def lose(st: State, kind: str, n: int, ctx: Ctx) -> None:
    """Lose tokens: health for a missing resource, nothing for a missing clue card."""
    if kind == "clue":
        cards = [c for ch in st.chains for c in ch]
        if cards:
            st.pause(DISCARD, sorted(cards), _discard_clue, (ctx,))
        return
    if kind == "health":
        if ctx.player >= 0:
            lose_health(st, ctx.player, n, "lost health")
        else:
            st.pause(HURT, _EVERYONE[st.players], _hurt, ("health",))
        return
    if kind == "resource":
        _lose_any(st)
        return
    r = st.tab.res_index[kind]
    if st.van[r] > 0:
        st.van[r] -= 1
    elif ctx.player >= 0:
        lose_health(st, ctx.player, 1, f"lost health for {kind}")
    else:
        st.pause(HURT, _EVERYONE[st.players], _hurt, (kind,))


def _lose_any(st: State) -> None:
    """Lose one resource of the team's choice; a health token when the van holds none."""
    have = [k for i, k in enumerate(st.rules.resources) if st.van[i] > 0]
    if have:
        st.pause(LOSE, have, _lose_kind)
    else:
        st.pause(HURT, _EVERYONE[st.players], _hurt, ("resource",))


def lose_health(st: State, player: int, n: int, why: str, each: tuple[Any, ...] = ()) -> None:
    """`player` loses `n` health tokens one by one, each noted after the event `each` (if
    given); the last one lost ends the game (R7)."""
    health = st.health
    log = st.log if st.logging else None
    if log is None:  # nothing to note: at once
        left = health[player]
        if left > n >= 0:  # the usual case: nobody falls
            health[player] = left - n
        elif n > 0:  # the last token goes (R7): where the loop below stops
            health[player] = 0 if left > 0 else left - 1
            end_game(st, False, f"p{player + 1} lost their last health token (R7)")
        return
    rnd, who = st.round, P[player]
    for _ in range(n):
        health[player] -= 1
        if log is not None:
            if each:
                log.append((rnd, *each))
            log.append((rnd, "health", who, -1, why))
        if health[player] <= 0:
            end_game(st, False, f"p{player + 1} lost their last health token (R7)")
            return


def place_agents(st: State, cities: Sequence[int], n: int, ctx: Ctx) -> None:
    """Agents onto cities; a lost city's go to headquarters; none left loses (R2, R18)."""
    agents, lost = st.agents, st.lost
    left = st.tab.agent_tokens - sum(agents) - st.hq
    if n * len(cities) <= left and not st.logging:  # enough for all: the usual case
        for c in cities:
            if c < 0 or lost[c]:
                st.hq += n
            else:
                agents[c] += n
        return
    for c in cities:  # -1 stands for the White Hand's headquarters
        hq = c < 0 or lost[c]
        put = n if n <= left else left
        if hq:
            st.hq += put
        else:
            agents[c] += put
        left -= put
        if put < n:
            end_game(st, False, "an agent token was needed and none was left (R2)")
            return
        if st.logging:
            st.log.append((st.round, "agents", "hq" if hq else st.tab.names[c], n))


OUTCOMES: Final = ("won", "lost")  # a game's outcome once it ends (`end_game`)


def end_game(st: State, won: bool, reason: str) -> None:
    """The game ends at once (R7, R19, R2...)."""
    if st.outcome is None:
        st.outcome = OUTCOMES[0] if won else OUTCOMES[1]
        st.reason = reason
        st.phase = "over"
        st.note(st.outcome, reason)


# ====================================================================== hooks
def emit(st: State, event: str, ctx: Ctx) -> None:
    """Announce an event: run the hooks that listen to it, in file order."""
    hooks = st.tab.hooks.get(event)
    if hooks:
        q = st.queue
        for h in reversed(hooks):
            q.append((run_hook, (h, ctx)))


def emit_step(st: State, event: str, ctx: Ctx) -> None:
    """`emit` as a queued step."""
    emit(st, event, ctx)


def run_hook(st: State, h: Any, ctx: Ctx) -> None:
    if h.cond is None or h.cond(st, ctx):
        if st.count_run():
            raise GameError(f"the hook {h.text!r} ran more than {HOOK_LIMIT} times for one "
                            "decision: a rule triggers itself")
        st.push_ops(h.ops, ctx)


# ====================================================================== the team's choices
def _give_health(st: State, p: int, ctx: Ctx) -> None:
    if st.reserve("health") > 0:
        st.health[p] += 1
        st.note("health", P[p], 1, "gained")


def _hurt(st: State, p: int, kind: str) -> None:
    # a health token standing in for a missing resource is logged as the golden rule's
    # payments are (`health_for`); a plain loss of health is not
    if not st.logging:
        lose_health(st, p, 1, "")
        return
    each = () if kind == "health" else ("health_for", P[p], kind)
    lose_health(st, p, 1, f"health for missing {kind}", each)


def _answer_hurt(st: State, a: Action) -> None:
    """`hurt pN`: the choice answered (as `answer_player` would, then `_hurt`), the usual
    case written out: nothing to note, and the player does not fall (R5, R7)."""
    resume, args = st.resume, st.wargs
    if resume is not _hurt:
        st.resolve(a.player)
        return
    st.wait, st.options, st.resume, st.wargs = None, (), None, ()
    p = a.player
    if not st.logging:
        health = st.health
        left = health[p]
        if left > 1:
            health[p] = left - 1
            q = st.queue
            if q and q[-1][0] is _ask_hurt:  # the next token's question: asked now, as the
                opts = _EVERYONE[st.players]  # machine would (a team of two or more: all
                if len(opts) > 1:             # `pause` does then, written out: hot)
                    st.wait, st.options, st.resume, st.wargs = HURT, opts, _hurt, q.pop()[1]
                else:
                    st.pause(HURT, opts, _hurt, q.pop()[1])
            return
    _hurt(st, p, args[0])


def _discard_clue(st: State, card: int, ctx: Ctx) -> None:
    for ch in st.chains:
        if card in ch:
            ch.remove(card)
    st.discard.append(card)
    st.note("clue_lost", card)


def _lose_kind(st: State, kind: str) -> None:
    st.van[st.tab.res_index[kind]] -= 1
    st.note("lost", kind)


V_GIVE: Final = REG.verb("give", PLAYER, apply=answer_player, actor=False,
                         help="the player who receives a gained health token (R8)")
V_HURT: Final = REG.verb(
    "hurt", PLAYER, apply=_answer_hurt, pays=True, actor=False,
    help="the player who pays (or loses) a health token for a missing resource (R4, R5)")
V_LOSE: Final = REG.verb("lose", KIND, apply=answer_arg, help="which resource the team loses")
V_DISCARD: Final = REG.verb("discard", CARD, apply=answer_arg,
                            help="which clue card the team loses")
GIVE: Final = REG.choice("give", V_GIVE, "a health token was gained: who receives it (R8)")
HURT: Final = REG.choice("hurt", V_HURT,
                         "a resource is missing: who pays a health token for it (R5)")
LOSE: Final = REG.choice("lose", V_LOSE, "which resource the team loses")
DISCARD: Final = REG.choice("discard", V_DISCARD, "which clue card the team loses")
