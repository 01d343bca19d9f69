"""The immutable state of a bidding match, rebuilt from its events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cacho.engine.bidding.bids import Bid
from cacho.engine.bidding.rules import Mode, Rules
from cacho.engine.frozen import quick_init

Direction = Literal["cw", "ccw"]
Phase = Literal["awaiting-dice", "bidding", "over"]
ActionKind = Literal["bid", "paso", "salpicon"]
ResultKind = Literal["dudo", "calza", "paso", "salpicon", "restart", "at-time"]


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """What never changes during a match."""

    rules: Rules
    players: tuple[str, ...]
    initial_players: int
    turn_seconds: int
    physical: bool = False  # a scorekeeper enters the dice or the outcomes; no clock

    def seat(self, player: str) -> int:
        return self.players.index(player)


@quick_init
@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A public action of the round so far (bids, pasos, salpicón announcements)."""

    kind: ActionKind
    seat: int
    bid: Bid | None = None
    timed_out: bool = False


@quick_init
@dataclass(frozen=True, slots=True)
class Resolution:
    """How the last round ended: public once it happened, dice included where revealed."""

    result: ResultKind
    caller: int | None
    target: int | None
    bid: Bid | None
    count: int | None
    revealed: tuple[tuple[int, tuple[int, ...]], ...]
    dice_change: tuple[tuple[int, int], ...]
    eliminated: tuple[int, ...]
    next_starter: int | None
    next_mode: Mode | None
    counted: tuple[tuple[int, tuple[int, ...]], ...] | None = None  # by seat, as in RoundResolved


@quick_init
@dataclass(frozen=True, slots=True)
class RoundState:
    """The round being played: hidden dice, whose turn, the bids so far.

    It is rebuilt on every action, so it also carries what changes with each action
    (the timeout counters), keeping the per-action work small."""

    number: int
    mode: Mode
    starter: int
    direction: Direction
    dice: tuple[tuple[int, ...], ...]
    to_act: int
    timeouts: tuple[int, ...]
    actions: tuple[ActionTaken, ...] = ()
    bid: Bid | None = None
    bidder: int | None = None
    pasos: frozenset[int] = frozenset()
    salpicon_by: int | None = None
    salpicon_pending: bool = False
    deadline: int | None = None

    @property
    def last_action(self) -> ActionTaken | None:
        return self.actions[-1] if self.actions else None


@dataclass(frozen=True, slots=True)
class TimeCall:
    """Time called on the table (rules.md §9.1): the `policy` that decides it, the rounds
    started when it was called (`round`; after a void, with the voided rounds it replays:
    ruling_evolve), the dice each seat sits out with in a sudden death
    (`set_aside`, by seat; empty: nobody), and whether the policy has decided the table."""

    policy: str
    round: int
    set_aside: tuple[int, ...] = ()
    decided: bool = False

    def held(self, counts: tuple[int, ...]) -> tuple[int, ...]:
        """The dice each seat holds, those it sits out with included."""
        if not self.set_aside:
            return counts
        return tuple(count + aside for count, aside in zip(counts, self.set_aside, strict=True))


@quick_init
@dataclass(frozen=True, slots=True)
class TableState:
    """What changes only between rounds: dice held, who opens next, the match's end."""

    dice_counts: tuple[int, ...]
    calzo_disabled: bool
    next_starter: int | None
    next_mode: Mode
    direction: Direction
    timeouts: tuple[int, ...]
    palifico_used: frozenset[int] = frozenset()
    abandoned: frozenset[int] = frozenset()
    rounds_started: int = 0
    last_resolution: Resolution | None = None
    winner: int | None = None
    # Referees' rulings (docs/engine.md, "Rulings"): the table as each round still in
    # effect found it (what void-round and reopen restore), the pause's reason, the seats
    # disqualified, and the places an award-result gave (by seat).
    round_starts: tuple[RoundStart, ...] = ()
    paused: str | None = None
    disqualified: frozenset[int] = frozenset()
    awarded: tuple[int, ...] | None = None
    time: TimeCall | None = None  # rounds at time (rules.md §9.1): None until time is called


@quick_init
@dataclass(frozen=True, slots=True)
class RoundStart:
    """Round `number` and the table it started from (its own `round_starts` left empty)."""

    number: int
    table: TableState


@quick_init
@dataclass(frozen=True, slots=True)
class MatchState:
    config: MatchConfig
    table: TableState
    round: RoundState | None = None
    # At a physical table: the state before the last entry, which an undo gives back
    # (itself without one: an entry is undone once). None online and after a ruling.
    undo: MatchState | None = None

    @property
    def rules(self) -> Rules:
        return self.config.rules

    @property
    def phase(self) -> Phase:
        if self.round is not None:
            return "bidding"
        table = self.table
        if table.winner is not None or (table.time is not None and table.time.decided):
            return "over"
        return "awaiting-dice"

    @property
    def dice_counts(self) -> tuple[int, ...]:
        return self.table.dice_counts

    @property
    def total_dice(self) -> int:
        return sum(self.table.dice_counts)

    @property
    def calzo_disabled(self) -> bool:
        return self.table.calzo_disabled

    @property
    def next_starter(self) -> int | None:
        return self.table.next_starter

    @property
    def next_mode(self) -> Mode:
        return self.table.next_mode

    @property
    def direction(self) -> Direction:
        """The direction of the round in play, or of the last one played."""
        return self.round.direction if self.round is not None else self.table.direction

    @property
    def timeouts(self) -> tuple[int, ...]:
        """Consecutive timed-out turns per seat (5-second turns from the third on)."""
        return self.round.timeouts if self.round is not None else self.table.timeouts

    @property
    def palifico_used(self) -> frozenset[int]:
        return self.table.palifico_used

    @property
    def abandoned(self) -> frozenset[int]:
        return self.table.abandoned

    @property
    def rounds_started(self) -> int:
        return self.table.rounds_started

    @property
    def last_resolution(self) -> Resolution | None:
        return self.table.last_resolution

    @property
    def winner(self) -> int | None:
        return self.table.winner

    @property
    def paused(self) -> str | None:
        return self.table.paused

    def live_seats(self) -> list[int]:
        return [seat for seat, count in enumerate(self.table.dice_counts) if count > 0]


def next_live(counts: tuple[int, ...], seat: int, direction: Direction) -> int:
    """The first seat after `seat` in `direction` holding at least one die."""
    step = 1 if direction == "cw" else -1
    size = len(counts)
    for offset in range(1, size + 1):
        candidate = (seat + step * offset) % size
        if counts[candidate] > 0:
            return candidate
    raise ValueError("no live seat")


def dropped_to_one(before: tuple[int, ...], after: tuple[int, ...]) -> tuple[int, ...]:
    """Seats that went from two or more dice to exactly one."""
    return tuple(
        seat for seat, (old, new) in enumerate(zip(before, after, strict=True)) if old >= 2 and new == 1
    )
