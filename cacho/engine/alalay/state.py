"""The immutable state of an Alalay match, folded from its events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cacho.engine.alalay.events import Entry, Options
from cacho.engine.alalay.scorecard import Card, Dice, card_total, is_full_card

# "await": the turn has begun, nothing thrown; "first": after throw 1; "second": after throw 2.
Phase = Literal["await", "first", "second"]


@dataclass(frozen=True)
class TurnState:
    """The turn in progress: whose it is, which member throws, and the dice so far."""

    seat: int
    member: str
    phase: Phase = "await"
    dice: Dice = ()
    first_throw: Dice = ()
    full_reroll: bool = False
    exempt: bool = False  # turning is optional after this throw 2
    turned: tuple[int, ...] = ()  # positions turned, in order
    timed_out: bool = False

    @property
    def de_mano(self) -> bool:
        """Scoring now is de mano: after throw 1, or after a full re-roll with no die turned (AL-5)."""
        return self.phase == "first" or (self.phase == "second" and self.full_reroll and not self.turned)

    @property
    def must_turn(self) -> bool:
        return self.phase == "second" and not self.exempt and not self.turned


@dataclass(frozen=True)
class TimeCall:
    """Time called on the match (docs/rules.md §9.1, alalay/at_time.py): its policy and the
    turns each seat is to have played before the match ends."""

    policy: str
    turns: tuple[int, ...]


@dataclass(frozen=True)
class State:
    entries: tuple[Entry, ...]
    options: Options
    cards: tuple[Card, ...]
    left: tuple[bool, ...]
    turns_played: tuple[int, ...]  # boxes filled in this match, per seat: picks the member who throws
    turn: TurnState | None  # None once the match is over
    over: bool = False
    winners: tuple[str, ...] = ()
    win_reason: str | None = None
    # Consecutive turns each seat ended on the clock (docs/rules.md §9: 5-second turns from the third).
    timeouts: tuple[int, ...] = ()
    # Every completed turn of the match in order, as (seat, box filled): what a referee's
    # correct-turn and reopen name by turn number (docs/engine.md, "Rulings").
    filled: tuple[tuple[int, str], ...] = ()
    paused: str | None = None
    penalties: tuple[int, ...] = ()  # points deducted, per seat (empty: none)
    disqualified: frozenset[int] = frozenset()
    awarded: tuple[int, ...] | None = None  # an award-result's places, by seat
    reopened: int = 0  # reopens so far: a replayed turn's dice scope is new (never reused)
    physical: bool = False  # a scorekeeper enters every throw; no clock, no automatic play
    # At a physical table: the state before the last entry, which an undo gives back (itself
    # without one: an entry is undone once). None online and after a ruling.
    undo: State | None = None
    # Rounds at time (docs/rules.md §9.1): the time called on the match (alalay/at_time.py).
    time: TimeCall | None = None

    def seat_of(self, name: str) -> int | None:
        for seat, entry in enumerate(self.entries):
            if entry.name == name:
                return seat
        return None

    @property
    def to_act(self) -> str | None:
        return None if self.turn is None else self.entries[self.turn.seat].name

    @property
    def totals(self) -> tuple[int, ...]:
        """Each card's total less its referee's penalties."""
        totals = tuple(card_total(card) for card in self.cards)
        if not self.penalties:
            return totals
        return tuple(total - penalty for total, penalty in zip(totals, self.penalties, strict=True))

    def is_live(self, seat: int) -> bool:
        return not self.left[seat]

    def next_turn(self, after: int, include_self: bool = False) -> TurnState | None:
        """The turn of the first seat after `after` (or from it) that is live with an open box."""
        count = len(self.entries)
        for step in range(0 if include_self else 1, count + 1):
            seat = (after + step) % count
            if not self.left[seat] and not is_full_card(self.cards[seat]):
                throwers = self.entries[seat].throwers
                return TurnState(seat, throwers[self.turns_played[seat] % len(throwers)])
        return None
