"""The "it is your turn" notice: the match server tells (`CACHO_TURN_STARTED`, after the
commit, held a second with PostgreSQL) who is on turn; a player whose match page is hidden
(`HiddenTab`) is told, by the channels they chose for this kind (push by default).

It runs after most turns of every live match, so its usual answer (nobody's tab is hidden)
costs one read: the seat joined to its hidden tab, a prepared statement on PostgreSQL
and the same join through the cursor on SQLite (an ORM query costs several times the
statement's own time here)."""

from __future__ import annotations

import uuid
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.urls import reverse

from cacho.database import databases, prepared
from cacho.models import Seat
from tournaments.notices import kinds
from tournaments.notices.delivery import notify
from tournaments.notices.models import HiddenTab

_HIDDEN_SEAT = (
    f"SELECT seat.user_id FROM {Seat._meta.db_table} seat "
    f"JOIN {HiddenTab._meta.db_table} hidden "
    "ON hidden.match_id = seat.match_id AND hidden.user_id = seat.user_id "
    "WHERE seat.match_id = {match} AND seat.name = {name} LIMIT 1"
)
HIDDEN_SEAT_SQL = _HIDDEN_SEAT.format(match="$1::uuid", name="$2::text")  # prepared, PostgreSQL
# SQLite: the same join through the cursor, its match id as the uuid column stores it (hex).
# The ORM's subquery for it took about 1 ms a turn on SQLite here, the join 30 µs.
HIDDEN_SEAT_PLAIN_SQL = _HIDDEN_SEAT.format(match="%s", name="%s")


def turn_started(match_id: Any, version: int, player: str) -> None:
    user_id = _hidden_seat_user(match_id, player)
    if user_id is None:
        return
    link = reverse("frontend:match", args=[str(match_id)])
    notify([user_id], kinds.YOUR_TURN, f"turn:{match_id}:{version}", {"match": str(match_id)}, link)


def _hidden_seat_user(match_id: Any, player: str) -> int | None:
    """The account seated as `player` when its tab on the match is hidden, else None."""
    db = connections[DEFAULT_DB_ALIAS]
    if databases.postgresql(db):
        for (user_id,) in prepared.execute(db, HIDDEN_SEAT_SQL, [match_id, player]):
            return int(user_id) if user_id is not None else None
        return None
    with db.cursor() as cursor:
        cursor.execute(HIDDEN_SEAT_PLAIN_SQL, [uuid.UUID(str(match_id)).hex, player])
        row = cursor.fetchone()
    return int(row[0]) if row is not None and row[0] is not None else None
