"""The event store: an append-only, hash-chained log of every match's events.

Global order. Every append takes one transaction-level advisory lock
(`pg_advisory_xact_lock(APPEND_LOCK)`) right before it inserts, and holds it until
commit. Global positions (a bigserial) are therefore handed out *and committed* in
the same order: a reader of `read_all_after(position)` can never see position 12
committed while 11 is still in flight and skip it forever. The cost: appends to
different streams serialise for the length of their insert + commit (the decide
step runs before the lock, under the stream's own row lock), which bounds the
write rate of one database to one commit at a time — measured in docs/benchmarks.md.
The alternatives (a reader that waits for transaction ids below `pg_snapshot_xmin`,
or a "safe position" lag) avoid that cost but are easier to get wrong.
SQLite (embedded mode) serialises all writers anyway.

Hash chain. `hash = sha256(previous hash + canonical JSON of the event's stream,
version, type, schema version, payload, metadata and recorded time in microseconds)`;
the first event of a stream chains to the empty string. `verify` (services.verify)
recomputes it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from cacho.models import Event, Match

APPEND_LOCK = 0x0CAC40  # the advisory lock key of the global append order
SCHEMA_VERSION = 1
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def micros(moment: dt.datetime) -> int:
    return (moment - EPOCH) // dt.timedelta(microseconds=1)


def event_hash(
    previous: str,
    stream: str,
    version: int,
    type_: str,
    schema_version: int,
    payload: Any,
    metadata: Any,
    recorded_at: dt.datetime,
) -> str:
    body = canonical_json(
        {
            "stream": stream,
            "version": version,
            "type": type_,
            "schema": schema_version,
            "payload": payload,
            "metadata": metadata,
            "recorded_at": micros(recorded_at),
        }
    )
    return hashlib.sha256((previous + body).encode("utf-8")).hexdigest()


def stored_hash(event: Event, previous: str) -> str:
    return event_hash(
        previous,
        str(event.stream_id),
        event.version,
        event.type,
        event.schema_version,
        event.payload,
        event.metadata,
        event.recorded_at,
    )


@dataclass(frozen=True)
class NewEvent:
    """An event to append: the engine's dict without its "type", and its metadata."""

    type: str
    payload: dict[str, Any]
    metadata: dict[str, Any]
    command_id: str | None = None


def append(
    match: Match, events: Sequence[NewEvent], recorded_at: dt.datetime, match_fields: Sequence[str] = ()
) -> list[Event]:
    """Insert `events` after `match.version` and save the match row's new head.

    Runs inside the caller's transaction. The match row is updated only if it is still at
    `match.version` (else `StaleStream`, nothing written): the optimistic fast path relies on
    it, the locked path holds the row already. `match.version` and `match.last_hash` advance;
    `match_fields` are saved with them. On PostgreSQL the row update also takes the global
    append lock (one round trip), then the events are inserted; UNIQUE(stream, version)
    backs both up."""
    previous = match.last_hash
    rows: list[Event] = []
    stream = str(match.pk)
    for offset, new in enumerate(events):
        version = match.version + 1 + offset
        digest = event_hash(
            previous, stream, version, new.type, SCHEMA_VERSION, new.payload, new.metadata, recorded_at
        )
        rows.append(
            Event(
                stream_id=match.pk,
                version=version,
                type=new.type,
                schema_version=SCHEMA_VERSION,
                payload=new.payload,
                metadata=new.metadata,
                command_id=new.command_id,
                recorded_at=recorded_at,
                hash=digest,
            )
        )
        previous = digest
    base_version = match.version
    match.version += len(rows)
    match.last_hash = previous
    names = ["version", "last_hash", *(name for name in match_fields if name not in ("version", "last_hash"))]
    if connection.vendor == "postgresql":
        columns = [Match._meta.get_field(name).column for name in names]
        values = [
            Match._meta.get_field(name).get_db_prep_save(getattr(match, name), connection) for name in names
        ]
        assignments = ", ".join(f'"{column}" = %s' for column in columns)
        with connection.cursor() as cursor:
            cursor.execute(
                f'UPDATE "cacho_match" SET {assignments} WHERE "id" = %s AND "version" = %s '
                "AND pg_advisory_xact_lock(%s) IS NOT NULL",
                [*values, match.pk, base_version, APPEND_LOCK],
            )
            updated = cursor.rowcount
            if updated == 1:
                _insert(cursor, rows)
    else:
        updated = Match.objects.filter(pk=match.pk, version=base_version).update(
            **{name: getattr(match, name) for name in names}
        )
        if updated == 1:
            Event.objects.bulk_create(rows)
    if updated != 1:
        match.version = base_version
        raise StaleStream(base_version)
    return rows


class StaleStream(Exception):
    """The stream is no longer at the version the append was built on (nothing was written)."""


INSERT_COLUMNS = (
    '"stream_id", "version", "type", "schema_version", "payload", "metadata", "command_id", '
    '"recorded_at", "hash"'
)


def _insert(cursor: Any, rows: list[Event]) -> None:
    """One multi-row INSERT … RETURNING position (PostgreSQL), without the ORM's overhead."""
    placeholders = ", ".join(["(%s, %s, %s, %s, %s::jsonb, %s::jsonb, %s, %s, %s)"] * len(rows))
    params: list[Any] = []
    for row in rows:
        params += [
            row.stream_id,
            row.version,
            row.type,
            row.schema_version,
            json.dumps(row.payload),
            json.dumps(row.metadata),
            row.command_id,
            row.recorded_at,
            row.hash,
        ]
    cursor.execute(
        f'INSERT INTO "cacho_event" ({INSERT_COLUMNS}) VALUES {placeholders} RETURNING "position"', params
    )
    for row, (position,) in zip(rows, cursor.fetchall(), strict=True):
        row.position = position


def read_stream(match_id: Any, after: int = 0, limit: int | None = None) -> list[Event]:
    """A stream's events with version > `after`, in version order."""
    query = Event.objects.filter(stream_id=match_id, version__gt=after).order_by("version")
    return list(query[:limit] if limit is not None else query)


def read_all_after(position: int, limit: int = 1000) -> list[Event]:
    """Every stream's events after a global position, in global order, for projections.

    Never skips an event committed late: see the module docstring (advisory lock)."""
    return list(Event.objects.filter(position__gt=position).order_by("position")[:limit])
