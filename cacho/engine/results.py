"""The result of a match, seat by seat: what a competition ranks and breaks ties with.

Every game reads its own events into `SeatResult`s (`bidding/results.py`,
`alalay/results.py`); the game adapter serves them as `Game.results(events)`.
Placements are a competition ranking: 1 is the winner, seats that share a place
share its number and the next place skips as many (1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result.

    `seat`: the seat's index (the order of the match's players); `name`: its player or
    entry. `placement`: 1 for the winner(s); seats that share a place share its number.
    `dice_left`: dice held at the end (bidding games). `eliminations`: players this seat
    eliminated by winning the resolution (dudo, calza, paso, salpicón) that took their
    last die (bidding games). `alalay_total`: the card's total (Alalay, None otherwise).
    `instant_win`: this seat won the Alalay match at once (dormida, panza de oro, four in
    every number). `left`: the seat abandoned the match. `at_time`: the match was decided
    at time (docs/rules.md §9.1), not played to its end.
    """

    seat: int
    name: str
    placement: int
    dice_left: int = 0
    eliminations: int = 0
    alalay_total: int | None = None
    instant_win: bool = False
    left: bool = False
    at_time: bool = False


def competition_placements(tiers: Iterable[Sequence[int]]) -> dict[int, int]:
    """Seat -> placement from tiers of seats, best first: (a), (b, c), (d) -> 1, 2, 2, 4."""
    placements: dict[int, int] = {}
    place = 1
    for tier in tiers:
        for seat in tier:
            placements[seat] = place
        place += len(tier)
    return placements
