"""What a player, the scorekeeper or the server asks of a bidding match.

`at` is the time (epoch milliseconds) the shell received the command; the engine
never reads a clock. It is None when replaying a record.
"""

from __future__ import annotations

from dataclasses import dataclass

from cacho.engine.bidding.state import Direction, ResultKind
from cacho.engine.undo import Undo


@dataclass(frozen=True, slots=True)
class StartRound:
    """The dice each seat rolled for the next round (empty for seats that are out)."""

    dice: tuple[tuple[int, ...], ...]
    at: int | None = None


@dataclass(frozen=True, slots=True)
class PlaceBid:
    """An opening bid (with its direction where the starter chooses) or a raise."""

    player: str
    quantity: int
    face: int
    direction: Direction | None = None
    at: int | None = None


@dataclass(frozen=True, slots=True)
class CallDudo:
    player: str
    at: int | None = None


@dataclass(frozen=True, slots=True)
class CallCalza:
    player: str
    at: int | None = None


@dataclass(frozen=True, slots=True)
class AnnouncePaso:
    player: str
    at: int | None = None


@dataclass(frozen=True, slots=True)
class AnnounceSalpicon:
    player: str
    at: int | None = None


@dataclass(frozen=True, slots=True)
class DenySalpicon:
    player: str
    at: int | None = None


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The player's turn ran out: the server plays for them (docs/rules.md §9)."""

    player: str
    at: int | None = None


@dataclass(frozen=True, slots=True)
class Abandon:
    """The player leaves the match for good.

    `direction`: the direction of a round nobody has opened yet, as its record gives it
    (X-6b); None in live play, where such a round runs in the direction it inherited."""

    player: str
    at: int | None = None
    direction: Direction | None = None


@dataclass(frozen=True, slots=True)
class RecordOutcome:
    """A round at a physical table entered by its outcome, without its dice: `player` made
    the call that ended it (`dudo`, `calza`, `paso`: doubted a paso, `salpicon`: denied a
    salpicón) against `against` (None: the player before them in `direction`); `loser`
    lost the die (dudo, paso, salpicon) or the calza was `exact` (calza). `direction`: the
    round's, where the starter chooses it (None: the direction it inherited)."""

    call: ResultKind
    player: str
    loser: str | None = None
    exact: bool | None = None
    against: str | None = None
    direction: Direction | None = None
    at: int | None = None


@dataclass(frozen=True, slots=True)
class StateAtTime:
    """A physical table's state at time (rules.md §9.1, T-6): the dice each player holds
    once the round under way when time was called has ended, for a round nobody entered.
    `direction`: the round's, where the starter chooses it (None: as inherited)."""

    dice: tuple[tuple[str, int], ...]
    direction: Direction | None = None
    at: int | None = None


PlayerCommand = (
    PlaceBid | CallDudo | CallCalza | AnnouncePaso | AnnounceSalpicon | DenySalpicon | TimeOut | Abandon
)
Command = StartRound | PlayerCommand | RecordOutcome | StateAtTime | Undo
