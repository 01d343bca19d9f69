"""Past-tense facts of a bidding match. Players are named; dice are listed by seat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cacho.engine.bidding.rules import Mode
from cacho.engine.bidding.ruling_events import RULING_EVENTS, RulingEvent
from cacho.engine.bidding.state import Direction, ResultKind
from cacho.engine.undo import EntryUndone


@dataclass(frozen=True, slots=True)
class MatchStarted:
    TYPE: ClassVar[str] = "match_started"
    ruleset: str
    options: tuple[tuple[str, object], ...]
    players: tuple[str, ...]
    dice: tuple[int, ...]
    starter: str
    mode: Mode
    initial_players: int
    calzo_disabled: bool
    turn_seconds: int = 30
    # A setup carries no Palifico history (DU-2), so a new match starts with none used;
    # the field stays for matches stored before that decision, whose replay keeps it.
    palifico_used: tuple[str, ...] = ()
    direction: Direction = "cw"
    # Played at a physical table: a scorekeeper enters the dice (or each round's outcome),
    # nothing runs on a clock (docs/engine.md, "Physical tables"). Stored only when true.
    physical: bool = False


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """Every live player's dice: hidden from the others until a reveal (§10)."""

    TYPE: ClassVar[str] = "round_started"
    number: int
    starter: str
    mode: Mode
    dice: tuple[tuple[int, ...], ...]
    deadline: int | None = None


@dataclass(frozen=True, slots=True)
class BidMade:
    TYPE: ClassVar[str] = "bid_made"
    player: str
    quantity: int
    face: int
    direction: Direction | None = None
    timed_out: bool = False
    deadline: int | None = None


@dataclass(frozen=True, slots=True)
class PasoAnnounced:
    TYPE: ClassVar[str] = "paso_announced"
    player: str
    deadline: int | None = None


@dataclass(frozen=True, slots=True)
class SalpiconAnnounced:
    TYPE: ClassVar[str] = "salpicon_announced"
    player: str
    deadline: int | None = None


@dataclass(frozen=True, slots=True)
class RoundResolved:
    """A dudo, a calza, a doubted paso or a denied salpicón, with its consequences."""

    TYPE: ClassVar[str] = "round_resolved"
    result: ResultKind
    caller: str
    target: str
    quantity: int | None
    face: int | None
    count: int | None
    revealed: tuple[tuple[str, tuple[int, ...]], ...]
    dice_change: tuple[tuple[str, int], ...]
    eliminated: tuple[str, ...]
    next_starter: str | None
    next_mode: Mode | None
    calzo_disabled: bool
    winner: str | None
    timed_out: bool = False
    # Per revealed hand (seat order), the positions of the dice that matched the bid: a
    # dudo's or a calza's count, die by die. None where nothing was counted (a doubted
    # paso, a denied salpicón) and in events stored before the engine said it.
    counted: tuple[tuple[str, tuple[int, ...]], ...] | None = None


@dataclass(frozen=True, slots=True)
class PlayerAbandoned:
    """The player left for good; a round in progress restarts (§9)."""

    TYPE: ClassVar[str] = "player_abandoned"
    player: str
    dice_lost: int
    next_starter: str | None
    next_mode: Mode | None
    calzo_disabled: bool
    winner: str | None
    # The abandoned round's direction (X-6b); None in events stored before it was kept,
    # which were all played in the direction their round had.
    direction: Direction | None = None


@dataclass(frozen=True, slots=True)
class RoundRecorded:
    """A round of a physical table entered by its outcome: no die is known. It starts and
    ends round `number`: `caller` made the call (`result`: dudo, calza, a doubted paso, a
    denied salpicón) against `target`, with the consequences the engine drew from it. A
    `restart` is an abandonment between two rounds (`caller` left, `target` None). An
    `at-time` round is the scorekeeper's state at time (rules.md §9.1, T-6): the dice held
    once the round under way at the call ended, nobody named (`caller`, `target` None)."""

    TYPE: ClassVar[str] = "round_recorded"
    number: int
    starter: str
    mode: Mode
    direction: Direction
    result: ResultKind
    caller: str | None
    target: str | None
    dice_change: tuple[tuple[str, int], ...]
    eliminated: tuple[str, ...]
    next_starter: str | None
    next_mode: Mode | None
    calzo_disabled: bool
    winner: str | None


Event = (
    MatchStarted
    | RoundStarted
    | BidMade
    | PasoAnnounced
    | SalpiconAnnounced
    | RoundResolved
    | PlayerAbandoned
    | RoundRecorded
    | EntryUndone
    | RulingEvent
)
EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        MatchStarted,
        RoundStarted,
        BidMade,
        PasoAnnounced,
        SalpiconAnnounced,
        RoundResolved,
        PlayerAbandoned,
        RoundRecorded,
        EntryUndone,
        *RULING_EVENTS,
    )
}
