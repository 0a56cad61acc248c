"""The heuristic bot's battles: which battle to fight and who leads it, who joins,
whether to boost, reroll, pay health for the win or concede a battle being lost, which die
to reroll, and where the agents are deployed."""

from __future__ import annotations

from ...actions import Action
from ..state import State
from .board import board
from .now import Bot, Now


class Battles(Bot):
    """The battle phase's decisions (see the module's text)."""

    def on_battle(self, st: State, legal: list[Action]) -> Action | None:
        """The most promising battle (its margin, and how urgent: the agents' limit near, an
        artwork there, a fall that loses), led by the healthiest there, if it is winnable
        enough for what the leader can spare."""
        now = Now(self, st)
        best: tuple[float, Action] | None = None
        at = now.b.lost_at
        agents = st.agents
        seen = set()  # a city's fights (one a player there) all weigh the same: once
        for a in legal:
            if a.verb != "fight" or a.arg in seen:
                continue
            seen.add(a.arg)
            c = st.rules.city_index[str(a.arg)]
            margin = now.margin(c)
            urgency = (3 if agents[c] >= at - 1 else 0) + (2 if st.artwork_at(c) else 0)
            if agents[c] >= at - 2 and now.critical(c):
                urgency += 3
            value = margin + urgency
            leader = _leader(st, c)
            leader_spare = max(0, st.health[leader] - 1)
            if margin > -3 - 1.5 * leader_spare or (urgency >= 3 and margin > -6):
                act = Action("fight", leader, a.arg)
                if act in legal and (best is None or value > best[0]):
                    best = (value, act)
        return best[1] if best else None

    def on_muster(self, st: State, legal: list[Action]) -> Action:
        joins = [a for a in legal if a.verb == "join"]
        return joins[0] if joins else legal[-1]

    def on_losing(self, st: State, legal: list[Action]) -> Action:
        """A battle being lost: boost with the van's weapons if they cover the deficit,
        else reroll low dice, else pay health for the win if someone can spare it, else
        concede."""
        b = st.fighting()
        deficit = st.agent_strength(b.city) - st.strength()
        bonus = int(st.rules.params["rules.weapon_bonus"])
        weapons = self.have(st, st.rules.params["rules.boost_resource"])
        boosts = [a for a in legal if a.verb == "boost"]
        if boosts and weapons * bonus >= deficit:
            return boosts[0]
        reroll = _reroll(st, legal, deficit, weapons * bonus)
        if reroll is not None:
            return reroll
        if weapons == 0 and boosts:
            # health for the win rather than one for conceding, from whoever can spare it
            need = -(-deficit // bonus)
            payer = max(boosts, key=lambda a: self.spare(st, a.player))
            if need <= self.spare(st, payer.player):
                return payer
        return Action("concede")

    def on_pick(self, st: State, legal: list[Action]) -> Action:
        picks = [a for a in legal if a.verb == "pick"]
        if picks:
            b = st.fighting()
            i = min(range(len(b.labels)), key=lambda k: (k in b.picks, b.dice[k]))
            want = Action("pick", -1, b.labels[i])
            if want in picks and b.dice[i] <= 3:
                return want
        return Action("roll") if Action("roll") in legal else picks[0]

    def on_deploy(self, st: State, legal: list[Action]) -> Action:
        index, later, agents = st.rules.city_index, board(st.rules).later, st.agents

        def key(a: Action) -> tuple[bool, int]:
            c = index[str(a.arg)]
            return (agents[c] >= 2, later[c])
        return min(legal, key=key)


def _leader(st: State, c: int) -> int:
    """Who leads a battle in city c: the healthiest there (the first of them on a tie),
    who has the most to spare."""
    pawns, health = st.pawns, st.health
    leader = pawns.index(c)
    for p in range(leader + 1, st.players):
        if pawns[p] == c and health[p] > health[leader]:
            leader = p
    return leader


def _reroll(st: State, legal: list[Action], deficit: int, boost: int) -> Action | None:
    """A reroll of the low dice (3 or less) when they and the weapons may still cover the
    deficit: with a card of two clues when more than one die is low."""
    rerolls = [a for a in legal if a.verb == "reroll"]
    b = st.fighting()
    low = sum(1 for v in b.dice if v <= 3)
    if rerolls and low and deficit <= 3 * low + boost:
        two = [a for a in rerolls if len(st.rules.cards[int(a.arg or 0)].clues) == 2]
        return (two or rerolls)[0] if low > 1 else rerolls[0]
    return None
