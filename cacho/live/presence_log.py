"""The durable record of seated players' presence: when each one's connection to the table
came and went (`PresenceChange`), for the referee's review of a dispute. Not match events:
presence decides no rule, and a flapping connection must never cost a move anything.

The socket's own code only hands over what it just read (`note`: who is connected now,
and when); the after-commit thread compares that with the last change recorded for each
seat and appends the differences. The sweep of dead sockets records its disconnections
itself (`record`), at the moment each socket was last heard from.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from cacho.database import databases
from cacho.live.models import PresenceChange
from cacho.services.dispatch import DISPATCH


def note(match_id: str, connected: Iterable[str], at: dt.datetime) -> None:
    """Record, off the caller's thread, the changes that `connected` (the seats with an open
    socket at `at`) makes to the match's presence."""
    seats = frozenset(connected)
    if not databases.postgresql():  # SQLite allows one writer: no second writing thread
        record(match_id, seats, at)
        return
    DISPATCH.call(lambda: record(match_id, seats, at))


def last_known(match_id: Any) -> dict[str, bool]:
    """Each seat's last recorded state: connected or not."""
    rows = PresenceChange.objects.filter(match_id=match_id).order_by("at", "pk")
    return dict(rows.values_list("seat_name", "connected"))


def record(match_id: Any, connected: frozenset[str], at: dt.datetime) -> list[PresenceChange]:
    """Append a change for each seat whose state differs from its last recorded one (a seat
    never seen before counts as not connected)."""
    known = last_known(match_id)
    changes = [
        PresenceChange(match_id=match_id, seat_name=seat, connected=seat in connected, at=at)
        for seat in sorted(set(known) | connected)
        if (seat in connected) != known.get(seat, False)
    ]
    if changes:
        PresenceChange.objects.bulk_create(changes)
    return changes


def changes_of(match_id: Any) -> list[dict[str, Any]]:
    """The match's presence changes in time order: `seat`, `at` (ms since the epoch, as
    events' `at`) and `change`: `connected` (the seat's first connection), `disconnected`
    or `reconnected`."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for row in PresenceChange.objects.filter(match_id=match_id).order_by("at", "pk"):
        if row.connected:
            change = "reconnected" if row.seat_name in seen else "connected"
            seen.add(row.seat_name)
        else:
            change = "disconnected"
        out.append({"seat": row.seat_name, "at": int(row.at.timestamp() * 1000), "change": change})
    return out
