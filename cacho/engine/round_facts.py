"""What a finished round of a bidding match says about its players, in plain data: the
facts the referees' integrity signals are computed from (`tournaments.integrity`).

The engine states them so that nothing outside it decides a rule: who bid what, who
called, against whom, the count the call found, whose dice changed, how many of the
challenged bidder's own dice counted for the bid, and the chance that a die the bidder
could not see counts for it (ones wild or not, in the round's mode). Events are named by
their position in the sequence given, so a caller can join them to its stored rows
(versions, recording times).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Decision:
    """A player's action on their own turn: a bid, a call, a paso or a salpicón."""

    player: str
    kind: str  # "bid", "dudo", "calza", "paso", "salpicon", "deny"
    at: int  # the position of the action's event
    since: int  # the position of the event that gave the player the turn
    timed_out: bool  # the clock ran out and the server acted for the player


@dataclass(frozen=True, slots=True)
class RoundFacts:
    number: int
    at: int  # the position of the event that ended the round
    physical: bool  # entered by a scorekeeper: no clock, maybe no die known
    hands: tuple[tuple[str, int], ...]  # the dice each player in the round held
    bids: tuple[tuple[str, int, int], ...]  # (player, quantity, face), in order
    call: str  # "dudo", "calza", "paso" or "salpicon"
    caller: str
    target: str | None  # whose bid or claim was challenged
    quantity: int | None  # the challenged bid
    face: int | None
    count: int | None  # what the call found on the table (None: not counted)
    bidder_matching: int | None  # the target's own dice that counted for the bid
    chance: float | None  # the chance one die the target could not see counts for the bid
    dice_change: tuple[tuple[str, int], ...]
    decisions: tuple[Decision, ...]


__all__ = ["Decision", "RoundFacts"]
