"""Past-tense facts of a referee's rulings in an Alalay match (docs/engine.md, "Rulings")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class MatchPaused:
    TYPE: ClassVar[str] = "match_paused"
    reason: str


@dataclass(frozen=True)
class MatchResumed:
    """The turn on hand starts again with a full clock (the service sets its deadline)."""

    TYPE: ClassVar[str] = "match_resumed"
    reason: str


@dataclass(frozen=True)
class RulingUpheld:
    TYPE: ClassVar[str] = "ruling_upheld"
    reason: str


@dataclass(frozen=True)
class TurnCorrected:
    """Turn `turn` (1-based over the match) of `entry` filled `replaced`; it now fills
    `box` with `points` (0: scratched)."""

    TYPE: ClassVar[str] = "turn_corrected"
    turn: int
    entry: str
    replaced: str
    box: str
    points: int
    reason: str


@dataclass(frozen=True)
class PenaltyGiven:
    TYPE: ClassVar[str] = "penalty_given"
    entry: str
    points: int
    reason: str


@dataclass(frozen=True)
class EntryDisqualified:
    TYPE: ClassVar[str] = "entry_disqualified"
    entry: str
    reason: str


@dataclass(frozen=True)
class ResultAwarded:
    TYPE: ClassVar[str] = "result_awarded"
    placements: tuple[tuple[str, int], ...]
    reason: str


@dataclass(frozen=True)
class MatchReopened:
    """Turn `turn` and every turn after it are void: their boxes are open again and play
    goes on from turn `turn`'s entry."""

    TYPE: ClassVar[str] = "match_reopened"
    turn: int
    reason: str


@dataclass(frozen=True)
class TimeCalled:
    """The director called time (docs/rules.md §9.1, T-1, T-3): the match ends at time by
    `policy` (`sheet-as-it-stands`, `finish-round-of-turns`; alalay/at_time.py)."""

    TYPE: ClassVar[str] = "time_called"
    policy: str
    reason: str


RULING_EVENTS_LIST = (
    MatchPaused,
    MatchResumed,
    RulingUpheld,
    TurnCorrected,
    PenaltyGiven,
    EntryDisqualified,
    ResultAwarded,
    MatchReopened,
    TimeCalled,
)
RulingEvent = (
    MatchPaused
    | MatchResumed
    | RulingUpheld
    | TurnCorrected
    | PenaltyGiven
    | EntryDisqualified
    | ResultAwarded
    | MatchReopened
    | TimeCalled
)
RULING_EVENTS: tuple[type[RulingEvent], ...] = RULING_EVENTS_LIST
RULING_TYPES: dict[str, type[RulingEvent]] = {cls.TYPE: cls for cls in RULING_EVENTS}
