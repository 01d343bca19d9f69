"""The tournament event log: its event types, and its records, each of which the seasons
hear of. Append-only, versioned per tournament and hash-chained by the one log primitive
(`tournaments.chained_log`); the tournament row holds the head, and callers hold its row
lock (SELECT … FOR UPDATE).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from cacho.eventlog.chain import digest as json_digest
from tournaments.models import Tournament, TournamentEvent

# Event types
REGISTERED = "registered"
CHECKED_IN = "checked-in"
WITHDRAWN = "withdrawn"
REINSTATED = "reinstated"
ENTRY_RENAMED = "entry-renamed"
MEMBER_SUBSTITUTED = "member-substituted"  # a pair's or team's member replaced between rounds
RATING_SET = "rating-set"
SEAT_FORFEITED = "seat-forfeited"  # an entry forfeits one table (a no-show) and plays on
SETTINGS_CHANGED = "settings-changed"
CREATED = "tournament-created"
DRAW_COMMITTED = "draw-committed"
STARTED = "tournament-started"
NO_SHOWS_DROPPED = "no-shows-dropped"
SEEDED = "seeded"
STAGE_STARTED = "stage-started"
ROUND_CREATED = "round-created"
TABLE_FINISHED = "table-finished"
ROUND_FINISHED = "round-finished"
STAGE_FINISHED = "stage-finished"
FINISHED = "tournament-finished"
DISPUTE_FILED = "dispute-filed"
DISPUTE_COMMENTED = "dispute-commented"
DISPUTE_WITHDRAWN = "dispute-withdrawn"
DISPUTE_RULED = "dispute-ruled"
TABLE_PAUSED = "table-paused"
TABLE_RESUMED = "table-resumed"
TABLE_CORRECTED = "table-corrected"  # a ruling changed a finished table's result
TABLE_REOPENED = "table-reopened"  # a ruling reopened a finished table: it plays on
RANKING_CORRECTED = "ranking-corrected"  # a finished tournament's places after a correction
# The desk and the round clock
ENTRY_REMOVED = "entry-removed"  # before the start: as if it had never registered
DISQUALIFIED = "disqualified"  # out of play by a ruling, ranked after everyone else
ENTRY_CLAIMED = "entry-claimed"  # a guest entry linked to an account
SEEDS_SET = "seeds-set"  # the manual seeding order, before the start
CHECK_IN_UNDONE = "check-in-undone"
CHECK_IN_CLOSED = "check-in-closed"  # the director ended check-in before its deadline
CLOCK_STARTED = "clock-started"
CLOCK_PAUSED = "clock-paused"
CLOCK_RESUMED = "clock-resumed"
CLOCK_EXTENDED = "clock-extended"
CLOCK_RESET = "clock-reset"
TIME_CALLED = "time-called"  # the director (or the round clock) called time on a round
TABLE_MADE_PHYSICAL = "table-made-physical"  # an organiser moved a table to a physical one
TABLE_IMPORTED = "table-imported"  # a physical table's record file became its match
SHEET_CONFIRMED = "sheet-confirmed"  # a player at a physical table confirmed its sheet
TABLE_MADE_ONLINE = "table-made-online"  # an organiser moved a physical table online
SEAT_LINK_CLAIMED = "seat-link-claimed"  # a guest took its seat from its link (no token logged)
SEAT_LINK_REVOKED = "seat-link-revoked"  # the director revoked a guest's seat link
SEAT_LINK_ISSUED = "seat-link-issued"  # … and issued a new one


def sha256_json(value: Any) -> str:
    return json_digest(value)


def event_hash(
    previous: str, tournament_id: int, version: int, type_: str, payload: Any, actor: str, at: dt.datetime
) -> str:
    return TournamentEvent.digest(previous, tournament_id, version, type_, payload, actor, at)


def record(tournament: Tournament, type_: str, payload: dict[str, Any], actor: str = "") -> TournamentEvent:
    """Append one event after the tournament's head (the caller holds the row lock)."""
    event = TournamentEvent.record(tournament, type_, payload, actor)
    # Seasons project the tournaments' final rankings: imported here, as the seasons read
    # the standings that this module's callers write.
    from tournaments.seasons.projection import after_event

    after_event(tournament, type_)
    return event


def verify_chain(tournament_id: int) -> tuple[bool, str]:
    """(valid, head hash) recomputed from the stored events."""
    return TournamentEvent.verify(tournament_id)


def actor_of(user: Any) -> str:
    if user is None:
        return "system"
    return f"user:{user.pk}" if getattr(user, "pk", None) else "system"
