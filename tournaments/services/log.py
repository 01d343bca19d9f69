"""The tournament event log: append-only, versioned per tournament, hash-chained.

`hash = sha256(previous hash + canonical JSON of {tournament, version, type, payload,
actor, recorded_at (microseconds)})`; the first event chains to "". The tournament row
holds the head (`version`, `head_hash`); callers hold its row lock (SELECT … FOR UPDATE).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

from django.utils import timezone

from tournaments.models import Tournament, TournamentEvent

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)

# Event types
REGISTERED = "registered"
CHECKED_IN = "checked-in"
WITHDRAWN = "withdrawn"
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


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_json(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def event_hash(
    previous: str, tournament_id: int, version: int, type_: str, payload: Any, actor: str, at: dt.datetime
) -> str:
    body = canonical_json(
        {
            "tournament": tournament_id,
            "version": version,
            "type": type_,
            "payload": payload,
            "actor": actor,
            "recorded_at": (at - EPOCH) // dt.timedelta(microseconds=1),
        }
    )
    return hashlib.sha256((previous + body).encode("utf-8")).hexdigest()


def record(tournament: Tournament, type_: str, payload: dict[str, Any], actor: str = "") -> TournamentEvent:
    """Append one event after the tournament's head (the caller holds the row lock)."""
    at = timezone.now()
    version = tournament.version + 1
    digest = event_hash(tournament.head_hash, tournament.pk, version, type_, payload, actor, at)
    event = TournamentEvent.objects.create(
        tournament=tournament,
        version=version,
        type=type_,
        payload=payload,
        actor=actor,
        recorded_at=at,
        hash=digest,
    )
    tournament.version = version
    tournament.head_hash = digest
    Tournament.objects.filter(pk=tournament.pk).update(version=version, head_hash=digest)
    return event


def verify_chain(tournament_id: int) -> tuple[bool, str]:
    """(valid, head hash) recomputed from the stored events."""
    previous = ""
    expected = 1
    for event in TournamentEvent.objects.filter(tournament_id=tournament_id).order_by("version"):
        if event.version != expected:
            return False, previous
        digest = event_hash(
            previous, tournament_id, event.version, event.type, event.payload, event.actor, event.recorded_at
        )
        if digest != event.hash:
            return False, previous
        previous = digest
        expected += 1
    return True, previous


def actor_of(user: Any) -> str:
    if user is None:
        return "system"
    return f"user:{user.pk}" if getattr(user, "pk", None) else "system"
