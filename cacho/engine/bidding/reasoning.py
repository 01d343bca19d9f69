"""The bidding games' thinking bot ("reasoning"): it plays from what its own player sees
(the view's dice and legal actions, never another hand) and weighs each bid by the chance
that it holds.

Every die it cannot see matches a bid on a face with probability 1/6, or 2/6 where aces
are wild for that face in this round (`counting.ones_are_wild`); its own matching dice
count for sure. So the chance that "q of face f" holds is P(mine + Binomial(unseen, p)
≥ q), and the chance that it is exact (a calza) P(mine + Binomial(unseen, p) = q).

On turn it calls dudo when the standing bid holds with a chance under `DOUBT_BELOW`;
calls calza when the bid is exact with a chance over `CALZA_ABOVE`; announces a paso or a
salpicón only when its own dice make the claim true; otherwise it raises to the legal bid
that most likely holds (ties broken at random), and when no raise holds with a chance at
least `RAISE_AT_LEAST`, it calls dudo rather than bluff. It denies another's salpicón at
even odds (it cannot see the claimed dice). Where its own dice are hidden from it (a blind
or obligado round) it reasons on the unseen dice alone. It never abandons.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import comb
from typing import Any

from cacho.engine.bidding.counting import ones_are_wild, paso_claim_holds, salpicon_claim_holds
from cacho.engine.bidding.rules import Rules, make_rules
from cacho.engine.bots import BotRandom, pick

DOUBT_BELOW = 0.4
CALZA_ABOVE = 0.35
RAISE_AT_LEAST = 0.3
NEAR_BEST = 0.03  # raises this close to the best count as equally good


def at_least(quantity: int, trials: int, p: float) -> float:
    """P(Binomial(trials, p) >= quantity)."""
    if quantity <= 0:
        return 1.0
    if quantity > trials:
        return 0.0
    return sum(comb(trials, k) * p**k * (1 - p) ** (trials - k) for k in range(quantity, trials + 1))


def exactly(quantity: int, trials: int, p: float) -> float:
    """P(Binomial(trials, p) == quantity)."""
    if not 0 <= quantity <= trials:
        return 0.0
    return comb(trials, quantity) * p**quantity * (1 - p) ** (trials - quantity)


class Table:
    """What the bot knows: its own dice, how many it cannot see, and the round's rules."""

    def __init__(self, rules: Rules, mode: str, mine: Sequence[int], unseen: int) -> None:
        self.rules = rules
        self.mode = mode
        self.mine = tuple(mine)
        self.unseen = unseen

    def _split(self, face: int) -> tuple[int, float]:
        wild = ones_are_wild(self.rules, self.mode, face)  # type: ignore[arg-type]
        matching = sum(1 for die in self.mine if die == face or (wild and die == 1))
        return matching, (2 / 6 if wild else 1 / 6)

    def holds(self, quantity: int, face: int) -> float:
        matching, p = self._split(face)
        return at_least(quantity - matching, self.unseen, p)

    def exact(self, quantity: int, face: int) -> float:
        matching, p = self._split(face)
        return exactly(quantity - matching, self.unseen, p)


def _faces(limits: Mapping[Any, int | None] | None) -> dict[int, int]:
    return {int(face): value for face, value in (limits or {}).items() if value is not None}


def _table(view: Mapping[str, Any]) -> Table | None:
    current = view.get("round") or {}
    me = (view.get("viewer") or {}).get("player")
    try:
        rules = make_rules(str(view.get("ruleset")), view.get("options") or {})
    except Exception:  # a view without its rules: the caller falls back
        return None
    mine = list((current.get("dice") or {}).get(me) or [])
    total = int(view.get("total_dice") or 0)
    return Table(rules, str(current.get("mode") or "normal"), mine, max(0, total - len(mine)))


def _best_raise(
    table: Table, legal: Mapping[str, Any], rng: BotRandom
) -> tuple[dict[str, Any], float] | None:
    least = _faces(legal.get("bid_minimums"))
    most = _faces(legal.get("bid_maximums"))
    if "bid" not in (legal.get("actions") or []) or not least:
        return None
    scored: list[tuple[float, int, int]] = []
    for face, low in least.items():
        high = most.get(face, low)
        # the highest quantity on this face that still holds as often as its least one
        chance = table.holds(low, face)
        quantity = low
        while quantity < high and table.holds(quantity + 1, face) >= max(chance, 0.5):
            quantity += 1
        scored.append((table.holds(quantity, face), quantity, face))
    best = max(score for score, _, _ in scored)
    near = sorted((q, f) for score, q, f in scored if score >= best - NEAR_BEST)
    quantity, face = pick(rng, near)
    bid: dict[str, Any] = {"type": "bid", "quantity": quantity, "face": face}
    directions = legal.get("directions")
    if directions:
        bid["direction"] = pick(rng, list(directions))
    return bid, best


def reasoning_payload(view: Mapping[str, Any], rng: BotRandom) -> dict[str, Any] | None:
    """The thinking bot's next payload from its player's view (None: not on turn)."""
    legal = view.get("legal") or {}
    actions = list(legal.get("actions") or [])
    if not legal.get("on_turn"):
        return None
    table = _table(view)
    if table is None:
        return None
    if "salpicon" in actions and salpicon_claim_holds(table.mine):
        return {"type": "salpicon"}
    if "paso" in actions and len(table.mine) >= 2 and paso_claim_holds(table.rules, table.mine):
        return {"type": "paso"}
    if "deny" in actions:
        return {"type": "deny"} if rng.random() < 0.5 else _any_other(actions, "deny", legal, table, rng)
    bid = ((view.get("round") or {}).get("bid")) or None
    if bid is not None:
        holds = table.holds(int(bid["quantity"]), int(bid["face"]))
        if "calza" in actions and table.exact(int(bid["quantity"]), int(bid["face"])) > CALZA_ABOVE:
            return {"type": "calza"}
        if "dudo" in actions and holds < DOUBT_BELOW:
            return {"type": "dudo"}
    raised = _best_raise(table, legal, rng)
    if raised is not None and (raised[1] >= RAISE_AT_LEAST or "dudo" not in actions):
        return raised[0]
    if "dudo" in actions:
        return {"type": "dudo"}
    return raised[0] if raised is not None else _any_other(actions, "", legal, table, rng)


def _any_other(
    actions: Sequence[str], but: str, legal: Mapping[str, Any], table: Table, rng: BotRandom
) -> dict[str, Any] | None:
    """A legal move other than `but` (and never an abandonment)."""
    raised = _best_raise(table, legal, rng)
    if raised is not None:
        return raised[0]
    others = [a for a in actions if a not in (but, "abandon", "bid")]
    return {"type": pick(rng, others)} if others else None
