"""The heuristic bot's payments and trades: whether to unlock an ally (paid from the van,
R5), who gives and who loses health, which resource is lost, which card is discarded, and
which clue card is traded to whom (R21)."""

from __future__ import annotations

from ...actions import Action
from ..state import State
from .now import Bot


class Payments(Bot):
    """Who pays, who receives (see the module's text)."""

    receiver: int  # whom the clue card being traded is meant for (Heuristic sets it)

    def on_boundary(self, st: State, legal: list[Action]) -> Action | None:
        # only when the van holds the radio: an unlock it cannot pay costs health (R5)
        for a in legal:
            if a[0] == "unlock":  # the first unlock
                cost = st.ally_cost()
                if (self.have(st, st.rules.params["rules.ally_resource"]) >= cost
                        and (st.allies < 2 or cost <= 2)):
                    return a
                break
        return None  # done

    def on_give(self, st: State, legal: list[Action]) -> Action:
        return min(legal, key=lambda a: st.health[a.player])

    def on_hurt(self, st: State, legal: list[Action]) -> Action:
        return max(legal, key=lambda a: st.health[a.player])

    def on_lose(self, st: State, legal: list[Action]) -> Action:
        return max(legal, key=lambda a: self.have(st, str(a.arg)))

    def on_discard(self, st: State, legal: list[Action]) -> Action:
        return legal[0]

    def on_exchange(self, st: State, legal: list[Action]) -> Action:
        """Hand over a clue card that completes a triple in the receiver's chain (R21)."""
        r = st.rules
        need = int(r.params["rules.clues_per_artwork"])
        held: dict[int, list[int]] = {}  # per receiver: the cards of its chain per symbol

        def count(q: int, s: int) -> int:
            counts = held.get(q)
            if counts is None:
                counts = held[q] = [0] * len(r.symbols)
                for c in st.chains[q]:
                    for x in set(r.cards[c].clues):
                        counts[x] += 1
            return counts[s]

        for a in legal:
            if a.verb != "trade":
                continue
            card = r.cards[int(a.arg or 0)]
            here = st.pawns[a.player]
            for q in range(st.players):
                if q == a.player or st.pawns[q] != here:
                    continue
                for s in card.clues:
                    if count(q, s) == need - 1:
                        self.receiver = q
                        return a
        return legal[-1]

    def on_receive(self, st: State, legal: list[Action]) -> Action:
        want = [a for a in legal if a.player == self.receiver]
        return want[0] if want else legal[0]
