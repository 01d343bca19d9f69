"""Bids and the raise order of docs/rules.md §3.3, per ruleset and round mode."""

from __future__ import annotations

from dataclasses import dataclass

from cacho.engine.bidding.rules import Mode, Rules
from cacho.engine.errors import RuleError
from cacho.engine.frozen import quick_init

FACES = (1, 2, 3, 4, 5, 6)
FACE_NAMES = {1: "ones", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes"}


@quick_init
@dataclass(frozen=True, slots=True)
class Bid:
    quantity: int
    face: int

    def __str__(self) -> str:
        return f"{self.quantity} {FACE_NAMES.get(self.face, str(self.face))}"


def check_bid_shape(bid: Bid, total_dice: int) -> None:
    """A quantity of at least 1 and at most the dice in play, a face of 1..6 (§3.2)."""
    if bid.face not in FACES:
        raise RuleError("invalid-face", f"face {bid.face} is not 1 to 6")
    if bid.quantity < 1:
        raise RuleError("invalid-quantity", f"quantity {bid.quantity} is below 1")
    if bid.quantity > total_dice:
        raise RuleError("bid-exceeds-dice", f"{bid} is more than the {total_dice} dice in play")


def check_opening(rules: Rules, mode: Mode, bid: Bid, total_dice: int) -> None:
    check_bid_shape(bid, total_dice)
    if bid.face == 1 and not rules.opening_on_ones and mode != "palifico":
        raise RuleError("opening-on-ones", "the opening bid may not be on pacos outside palifico")


def face_locked(rules: Rules, mode: Mode, bidder_dice: int) -> bool:
    """Palifico and obligado keep the opening face; one Perudo option frees one-die players."""
    if mode == "obligado":
        return True
    if mode == "palifico":
        return not (rules.palifico_one_die_players_may_change_face and bidder_dice == 1)
    return False


def to_ones_minimum(rules: Rules, quantity: int) -> int:
    """The fewest ones that beat `quantity` dice of another face (decision X-1)."""
    if rules.to_ones == "ceil_half":
        return (quantity + 1) // 2
    return quantity // 2 + 1


def raise_allowed(
    rules: Rules,
    mode: Mode,
    previous: Bid,
    new: Bid,
    *,
    bidder_dice: int,
    right_after_aces_opening: bool,
) -> bool:
    """Whether `new` raises `previous` (shape checks are separate)."""
    q0, f0 = previous.quantity, previous.face
    q, f = new.quantity, new.face
    if mode in ("palifico", "obligado"):
        return q > q0 and (f == f0 or not face_locked(rules, mode, bidder_dice))
    if not rules.ones_wild:
        return _plain_raise(rules, q0, f0, q, f)
    if f0 != 1 and f != 1:
        if right_after_aces_opening:
            return True
        return _plain_raise(rules, q0, f0, q, f)
    if f0 != 1 and f == 1:
        return q >= to_ones_minimum(rules, q0)
    if f0 == 1 and f == 1:
        return q > q0
    if right_after_aces_opening:
        return True
    return q >= 2 * q0 + 1


def _plain_raise(rules: Rules, q0: int, f0: int, q: int, f: int) -> bool:
    if rules.non_one_raise == "standard":
        return q > q0 or (q == q0 and f > f0)
    if rules.non_one_raise == "strict":
        return (f == f0 and q > q0) or (q == q0 and f > f0)
    return (f == f0 and q > q0) or f > f0


def check_raise(
    rules: Rules,
    mode: Mode,
    previous: Bid,
    new: Bid,
    total_dice: int,
    *,
    bidder_dice: int,
    right_after_aces_opening: bool,
) -> None:
    check_bid_shape(new, total_dice)
    if new.face != previous.face and face_locked(rules, mode, bidder_dice):
        raise RuleError("face-locked", f"in a {mode} round every bid stays on {FACE_NAMES[previous.face]}")
    if not raise_allowed(
        rules,
        mode,
        previous,
        new,
        bidder_dice=bidder_dice,
        right_after_aces_opening=right_after_aces_opening,
    ):
        raise RuleError("bid-not-higher", f"{new} does not raise {previous}")


def quantity_ranges(
    rules: Rules,
    mode: Mode,
    previous: Bid | None,
    total_dice: int,
    *,
    bidder_dice: int,
    right_after_aces_opening: bool,
) -> dict[int, tuple[int, int] | None]:
    """For each face, the least and the greatest quantity that may be bid now (None: none).

    The legal quantities of one face always form one interval: a strict raise to a
    higher face allows exactly the standing quantity, every other rule a lower bound.
    """
    ranges: dict[int, tuple[int, int] | None] = {}
    for face in FACES:

        def allowed(quantity: int, face: int = face) -> bool:
            bid = Bid(quantity, face)
            return _bid_allowed(rules, mode, previous, bid, bidder_dice, right_after_aces_opening)

        # One interval: its ends are the first allowed quantity from below and from above
        # (a player's view asks this at every turn; testing every quantity cost 6 x the dice).
        least = next((quantity for quantity in range(1, total_dice + 1) if allowed(quantity)), None)
        if least is None:
            ranges[face] = None
            continue
        greatest = next(quantity for quantity in range(total_dice, least - 1, -1) if allowed(quantity))
        ranges[face] = (least, greatest)
    return ranges


def _bid_allowed(
    rules: Rules, mode: Mode, previous: Bid | None, bid: Bid, bidder_dice: int, right_after_aces_opening: bool
) -> bool:
    if previous is None:
        return not (bid.face == 1 and not rules.opening_on_ones and mode != "palifico")
    if bid.face != previous.face and face_locked(rules, mode, bidder_dice):
        return False
    return raise_allowed(
        rules, mode, previous, bid, bidder_dice=bidder_dice, right_after_aces_opening=right_after_aces_opening
    )
