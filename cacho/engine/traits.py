"""What differs between the games where the shells draw or sum them up, said by the engine so
that no page, API or list branches on a game's name (`Game.traits`, `Game.table_line`).

`Traits` are a game's fixed facts: what a seat holds during a match (`standing`: "dice"
left in the bidding games, the card's "total" in Alalay), whether a round has a standing
bid, whether each seat keeps a scoresheet whose marks (de mano, de huevo) the events tell,
whether a seat may be a pair or a team (`team_seats`: members taking the turns in rotation,
Alalay's AL-8; in the bidding games every player holds their own dice), the rule terms
the game uses (keys of the pages' glossary of terms), and a scoresheet's boxes as the table
writes them (`sheet_columns`, then `sheet_foot` under them; none without a scoresheet).

The shells key what differs between the games' competitions on `standing` (a game of dice
left is one of elimination, a game of totals one of scores): the tournaments' usual stages
and standings, the formats a game suits.

`TableLine` is a live table in one line, from its spectator view (JSON or not): each seat
with its standing and whether it is out, who acts, the standing bid, the round, and the
`pressure` (0 to 1): how near the play is to deciding something, the standing bid's
quantity over the dice on the table, or the share of the cards' boxes already written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cacho.engine.alalay.scorecard import GRANDE_BOXES, SHEET_COLUMNS


@dataclass(frozen=True)
class Traits:
    standing: str  # the key of a seat's standing in a table line: "dice" or "total"
    bids: bool
    scoresheet: bool
    terms: tuple[str, ...]
    team_seats: bool = False
    sheet_columns: tuple[tuple[str, ...], ...] = ()
    sheet_foot: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "standing": self.standing,
            "bids": self.bids,
            "scoresheet": self.scoresheet,
            "terms": list(self.terms),
            "team_seats": self.team_seats,
            "sheet_columns": [list(column) for column in self.sheet_columns],
            "sheet_foot": list(self.sheet_foot),
        }


BIDDING = Traits(
    standing="dice",
    bids=True,
    scoresheet=False,
    terms=("dudo", "calza", "paso", "salpicon", "palifico", "obligado", "aces"),
)
ALALAY = Traits(
    standing="total",
    bids=False,
    scoresheet=True,
    terms=("de_mano", "de_huevo", "turning", "dormida", "scratch"),
    team_seats=True,
    sheet_columns=SHEET_COLUMNS,
    sheet_foot=GRANDE_BOXES,
)


@dataclass(frozen=True)
class TableLine:
    seats: tuple[dict[str, Any], ...]  # {"name", <standing key>: int, "out": bool}, in seat order
    to_act: str | None
    bid: dict[str, Any] | None  # {"quantity", "face", "by"}
    round: int | None
    pressure: float

    def standings(self, key: str) -> list[float]:
        """The standing of each seat still in the match."""
        return [float(seat.get(key) or 0) for seat in self.seats if not seat["out"]]


def _round_number(view: Mapping[str, Any]) -> int | None:
    number = (view.get("round") or {}).get("number")
    return number if isinstance(number, int) else None


def bidding_line(view: Mapping[str, Any]) -> TableLine:
    seats = tuple(
        {"name": p.get("name"), "dice": p.get("dice", 0), "out": bool(p.get("out") or p.get("abandoned"))}
        for p in view.get("players", [])
    )
    current = view.get("round") or {}
    bid = current.get("bid") or None
    total = view.get("total_dice") or 0
    pressure = min(1.0, (bid or {}).get("quantity", 0) / total) if total else 0.0
    return TableLine(
        seats=seats,
        to_act=current.get("to_act"),
        bid=None if bid is None else {"quantity": bid["quantity"], "face": bid["face"], "by": bid.get("by")},
        round=_round_number(view),
        pressure=pressure,
    )


def alalay_line(view: Mapping[str, Any]) -> TableLine:
    entries = view.get("entries", [])
    seats = tuple(
        {
            "name": e.get("name"),
            "total": e.get("total", 0),
            "out": bool(e.get("left") or e.get("disqualified")),
        }
        for e in entries
    )
    playing = [e for e, seat in zip(entries, seats, strict=True) if not seat["out"]]
    boxes = [value for e in playing for value in (e.get("card") or {}).values()]
    pressure = sum(value is not None for value in boxes) / len(boxes) if boxes else 0.0
    return TableLine(
        seats=seats, to_act=view.get("to_act"), bid=None, round=_round_number(view), pressure=pressure
    )
