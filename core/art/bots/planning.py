"""The heuristic bot's planning: which card to play (each card scored by what the team
gains: its cost under the golden rule, its gains, the agents it places, its clues), when to
draw an extra card for a poor hand (R6), and which triple makes an artwork first."""

from __future__ import annotations

from typing import Any, Final

from ...actions import Action
from ..state import State
from .now import Bot, Now

_NO_FLOOR: Final = float("-inf")


class Planning(Bot):
    """The plan phase's decisions (see the module's text)."""

    def card_score(self, st: State, player: int, card: int) -> float:
        """How much the team gains by `player` playing `card` now (higher is better)."""
        now = Now(self, st)
        scores, adds, _ = _weigh(now, [(None, player, card)])
        return _finish(now, card, scores[0], adds[0])

    def on_plan(self, st: State, legal: list[Action]) -> Action | None:
        """The card to play: the first best by `card_score`; or an extra card drawn for a
        player whose hand is poor, paid from a plentiful resource (R6)."""
        plays = []
        for a in legal:  # (a loop: a comprehension is a call of its own)
            if a[0] == "play":
                plays.append(a)
        if not plays:
            return None
        n = len(plays)
        # the draws an extra card for a poor hand could take: paid from a plentiful resource
        rich = [a for a in legal if a.verb == "draw" and a.arg != "health"
                and self.have(st, str(a.arg)) >= 3] if (
            n < len(legal) and max(st.van, default=0) >= 3) else None
        if n == 1 and not rich:
            return plays[0]  # nothing to weigh
        now = Now(self, st)
        base, adds, tops = _weigh(now, plays)
        scores: list[float | None] = [None] * n
        first = _first_best(now, plays, base, adds, tops, scores)
        if rich:
            extra = self._extra_card(now, plays, rich, (scores, tops, base, adds))
            if extra is not None:
                return extra
        return plays[first]

    def _extra_card(self, now: Now, plays: list[Action], rich: list[Action],
                    weighed: tuple[list[float | None], list[float], list[float], list[Any]],
                    ) -> Action | None:
        """An extra card for a player whose hand is poor (every score under -3), paid from
        a plentiful resource (R6); the players in the order they first come."""
        st = now.st
        scores, tops, base, adds = weighed
        for p in dict.fromkeys(a[1] for a in plays):
            kinds = [a for a in rich if a.player == p]
            if kinds and self._poor(now, p, plays, scores, tops, base, adds):
                return max(kinds, key=lambda a: self.have(st, str(a.arg)))
        return None

    @staticmethod
    def _poor(now: Now, p: int, plays: list[Action], scores: list[float | None],
              tops: list[float], base: list[float], adds: list[list[float]]) -> bool:
        """Whether every play of player p scores under -3 (scores worked out as needed)."""
        for k, a in enumerate(plays):
            if a[1] != p:
                continue
            s = scores[k]
            if s is None:
                if tops[k] < -3:
                    continue
                s = scores[k] = _finish(now, a[2], base[k], adds[k])  # type: ignore[arg-type]
            if s >= -3:
                return False
        return True

    on_play = on_plan

    def on_triple(self, st: State, legal: list[Action]) -> Action:
        r = st.rules

        def useful(a: Action) -> int:
            return sum(1 for c in r.by_symbol.get(str(a.arg), ())
                       if not st.lost[c] and not st.artworks[c])
        return max(legal, key=useful)


def _first_best(now: Now, plays: list[Action], base: list[float], adds: list[Any],
                tops: list[float], scores: list[float | None]) -> int:
    """The first best play: the plays scored whole (into `scores`) from the highest bound
    down, until the bound left falls under the best score (no play under it can be best)."""
    best, first = _NO_FLOOR, 0
    for k in sorted(range(len(plays)), key=tops.__getitem__, reverse=True):
        if tops[k] < best:
            break
        s = scores[k] = _finish(now, plays[k][2], base[k], adds[k])  # type: ignore[arg-type]
        if s > best or (s == best and k < first):
            best, first = s, k
    return first


# A card's score for one decision (`Planning.card_score`), in two parts: `_weigh` works out the
# cheap part of each play's score (its cost and gains; its clues, to be added last) and the
# most its score can be (its agents can only take away: `_Card.agents_top`); `_finish` adds
# the agents' part and the clues to give the score.

def _weigh(now: Now, plays: list[Any]) -> tuple[list[float], list[Any], list[float]]:
    """Per play (verb, player, card): the score before its agents' part, the clues' parts,
    and the most its score can be (a little over: rounding)."""
    st = now.st
    van, health, chain_of, weighers = st.van, st.health, st.chain_of, now.b.weigh
    scores: list[float] = []
    parts: list[Any] = []
    tops: list[float] = []
    last = chain = None
    for _, player, card in plays:
        if player != last:  # (a player's plays come together)
            last, spare = player, health[player] - 1
            if chain_of(player) is not chain:  # (a team's chain is shared)
                chain = chain_of(player)
                per_symbol = now.clue_parts(chain)
        score, adds, top = weighers[card](van, spare, per_symbol)
        scores.append(score)
        parts.append(adds)
        tops.append(top)
    return scores, parts, tops


def _finish(now: Now, card: int, score: float, adds: Any) -> float:
    """The score: the agents' part taken from `score`, then the clues' added."""
    b = now.b
    c = b.cards[card]
    placing = c.placing
    if placing:
        left = now.left
        if left is None:
            left = now.agents_left()
        if left - placing < 4:
            score -= 8.0 * (4 - (left - placing))  # running out loses (R2)
    if c.agents:
        st = now.st
        lost, agents, at, city_lost = st.lost, st.agents, b.lost_at, b.city_lost
        for cities, n, lost_weight, weight, crit_weight in c.agents:
            for city in cities:
                if lost[city]:
                    score -= lost_weight  # strengthens every battle
                    continue
                after = agents[city] + n
                score -= weight
                # (a critical city takes crit_weight * (after - 1): nothing for one agent)
                if after > 1 and city_lost and now.critical(city):
                    score -= crit_weight * (after - 1)
                if after >= at:
                    score -= 6.0 if now.margin(city) < 0 else 1.5
                elif after == at - 1:
                    score -= 1.0
    for x in adds:
        score += x
    return score
