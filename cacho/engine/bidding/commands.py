"""What a player, the scorekeeper or the server asks of a bidding match.

`at` is the time (epoch milliseconds) the shell received the command; the engine
never reads a clock. It is None when replaying a record.
"""

from __future__ import annotations

from dataclasses import dataclass

from cacho.engine.bidding.state import Direction


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
    """The player's turn ran out: the server plays for them (rules.md §9)."""

    player: str
    at: int | None = None


@dataclass(frozen=True, slots=True)
class Abandon:
    """The player leaves the match for good."""

    player: str
    at: int | None = None


PlayerCommand = (
    PlaceBid | CallDudo | CallCalza | AnnouncePaso | AnnounceSalpicon | DenySalpicon | TimeOut | Abandon
)
Command = StartRound | PlayerCommand
