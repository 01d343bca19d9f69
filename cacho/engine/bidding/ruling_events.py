"""Past-tense facts of a referee's rulings in a bidding match (docs/engine.md, "Rulings").

None carries a die: a voided round's dice stay in its own `round_started`, which only
its reveal (or a referee) shows, and a fresh round draws fresh committed dice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cacho.engine.bidding.rules import Mode


@dataclass(frozen=True, slots=True)
class MatchPaused:
    TYPE: ClassVar[str] = "match_paused"
    reason: str


@dataclass(frozen=True, slots=True)
class MatchResumed:
    """`deadline`: the fresh full turn of the player on turn (None in a replayed record)."""

    TYPE: ClassVar[str] = "match_resumed"
    reason: str
    deadline: int | None = None


@dataclass(frozen=True, slots=True)
class RulingUpheld:
    TYPE: ClassVar[str] = "ruling_upheld"
    reason: str


@dataclass(frozen=True, slots=True)
class RoundVoided:
    """Round `round` and every round after it are void: the table is as it was when
    `round` started; the next round starts with fresh dice. `reopened`: the match was
    over (a `reopen` ruling)."""

    TYPE: ClassVar[str] = "round_voided"
    round: int
    reason: str
    reopened: bool = False


@dataclass(frozen=True, slots=True)
class DiceChanged:
    """A referee changed a player's dice (`adjust-dice`, `penalty`, `disqualify`). A round
    in progress ends unplayed and starts again, as after an abandonment."""

    TYPE: ClassVar[str] = "dice_changed"
    ruling: str  # adjust-dice, penalty or disqualify
    player: str
    delta: int  # the change applied
    reason: str
    next_starter: str | None
    next_mode: Mode | None
    calzo_disabled: bool
    winner: str | None


@dataclass(frozen=True, slots=True)
class ResultAwarded:
    """The match ends with these places (seat order, 1 = best)."""

    TYPE: ClassVar[str] = "result_awarded"
    placements: tuple[tuple[str, int], ...]
    reason: str


@dataclass(frozen=True, slots=True)
class TimeCalled:
    """The director called time (rules.md §9.1, T-1): once the round under way has
    resolved, `policy` decides the table (`dice-left`, `two-more-rounds`, `sudden-death`).
    `round_under_way`: called at a physical table between two entries, where the engine
    cannot see the round the table is playing: that round is owed, and the scorekeeper
    enters it (its outcome, its dice and moves, or the dice held once it ended, T-6)."""

    TYPE: ClassVar[str] = "time_called"
    policy: str
    reason: str
    round_under_way: bool = False


@dataclass(frozen=True, slots=True)
class PlayersSetAside:
    """Sudden death (T-2): these players sit out with the dice they hold, and the players
    level for first play on alone; `next_starter` opens their next round."""

    TYPE: ClassVar[str] = "players_set_aside"
    players: tuple[tuple[str, int], ...]
    next_starter: str


@dataclass(frozen=True, slots=True)
class DecidedAtTime:
    """The table is decided at time (T-2): `standing` holds the dice of every player still
    in (set-aside dice included), who place by them, most first, equal dice sharing."""

    TYPE: ClassVar[str] = "decided_at_time"
    policy: str
    standing: tuple[tuple[str, int], ...]


RulingEvent = (
    MatchPaused
    | MatchResumed
    | RulingUpheld
    | RoundVoided
    | DiceChanged
    | ResultAwarded
    | TimeCalled
    | PlayersSetAside
    | DecidedAtTime
)
RULING_EVENTS: tuple[type[RulingEvent], ...] = (
    MatchPaused,
    MatchResumed,
    RulingUpheld,
    RoundVoided,
    DiceChanged,
    ResultAwarded,
    TimeCalled,
    PlayersSetAside,
    DecidedAtTime,
)
# Events the engine draws from a time call as rounds resolve: never a ruling of their own.
AT_TIME_FOLLOWERS: tuple[type[RulingEvent], ...] = (PlayersSetAside, DecidedAtTime)
