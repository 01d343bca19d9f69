"""The event store: an append-only, hash-chained log of every match's events, and the
heads of the match rows that the appends move. All the write path's SQL is here, except
embedded mode's (cacho.eventlog.sqlite_writes).

Appends. One append is one statement (its own transaction outside the caller's): it
updates the match's head only if the head is still at the version the events were built
on (else `StaleStream`, nothing written), and inserts the events after it, with whatever
dice-seed rows the same moves created, drew from or revealed. Appends to different
matches never wait for each other. A new match is one statement too: its row at its new
head, its seats, its first events and seeds. On SQLite (one writer at a time) the same
writes are a plain transaction (cacho.eventlog.sqlite_writes).

Global order. Readers of every stream (`read_all_after`) follow `(txid, position)` up to
the oldest running transaction, which never skips an event committed late: see
cacho.database.log_order. The hash chain: cacho.eventlog.chain.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import JSONField

from cacho.database import databases, django_private, log_order, prepared
from cacho.database.log_order import LogPosition
from cacho.eventlog import sqlite_writes
from cacho.eventlog.chain import canonical_json, from_ms, hash_of_encoded, micros
from cacho.eventlog.rows import NO_SEEDS, AppendedEvent, NewEvent, Seed, SeedWrites
from cacho.models import DiceSeed, Event, Match, Seat

SCHEMA_VERSION = 1

# The match row's fields that every append moves (and a notice carries to other processes).
HEAD_FIELDS = ("version", "last_hash", "status", "pending_scope", "turn_key", "deadline_ms", "finished_at")


@dataclass(slots=True)
class Head:
    """What the write path needs of a match row: what never changes (id, ruleset, turn
    length) and the head that each append moves: the stream's version and last hash, the
    status, the fairness scope committed but not revealed, the turn in progress and its
    deadline. A command decides on a copy; the store saves it with the events."""

    id: Any
    ruleset: str
    turn_seconds: int
    version: int = 0
    last_hash: str = ""
    status: str = Match.STATUS_LIVE
    pending_scope: str = ""
    turn_key: str = ""
    deadline_ms: int | None = None
    finished_at: dt.datetime | None = None
    key: str = field(default="", compare=False)  # the id as text: cache key, stream in the hash

    def __post_init__(self) -> None:
        if not self.key:
            self.key = str(self.id)

    @classmethod
    def of(cls, match: Match) -> Head:
        return cls(
            match.id, match.ruleset, match.turn_seconds, *(getattr(match, name) for name in HEAD_FIELDS)
        )

    def copy(self) -> Head:
        return Head(
            self.id,
            self.ruleset,
            self.turn_seconds,
            self.version,
            self.last_hash,
            self.status,
            self.pending_scope,
            self.turn_key,
            self.deadline_ms,
            self.finished_at,
            self.key,
        )


class StaleStream(Exception):
    """The stream is no longer at the version the append was built on (nothing was written)."""


# ---------------------------------------------------------------- reading


def lock_head(match_id: Any) -> Head | None:
    """The match's head, its row locked until the caller's transaction ends (the appends to
    one stream serialise here); None if there is no such match."""
    try:
        row = Match.objects.select_for_update().filter(pk=match_id).first()
    except (ValueError, ValidationError):  # not an id
        return None
    return None if row is None else Head.of(row)


def is_at(match_id: Any, version: int) -> bool:
    return Match.objects.filter(pk=match_id, version=version).exists()


def current_version(match_id: Any) -> int:
    return Match.objects.filter(pk=match_id).values_list("version", flat=True).first() or 0


def turn_deadline(match_id: Any, version: int) -> int | None:
    """The deadline of the turn waiting at `version` of a live match, if any."""
    return (
        Match.objects.filter(pk=match_id, version=version, status=Match.STATUS_LIVE)
        .exclude(turn_key="")
        .values_list("deadline_ms", flat=True)
        .first()
    )


def due_turns(at_ms: int) -> list[tuple[Any, int]]:
    """(match id, version) of every live match whose turn's deadline is at or before `at_ms`."""
    due = (
        Match.objects.filter(status=Match.STATUS_LIVE, deadline_ms__lte=at_ms)
        .exclude(turn_key="")
        .values_list("pk", "version")
    )
    return list(due)


def read_stream(match_id: Any, after: int = 0, limit: int | None = None) -> list[Event]:
    """A stream's events with version > `after`, in version order."""
    query = Event.objects.filter(stream_id=match_id, version__gt=after).order_by("version")
    return list(query[:limit] if limit is not None else query)


def read_all_after(checkpoint: LogPosition, limit: int = 1000) -> list[Event]:
    """Every stream's events after `checkpoint`, in global order, for projections: never
    skips an event committed late (cacho.database.log_order). Resume from `log_order.of(last)`."""
    return list(log_order.after(Event.objects.all(), checkpoint)[:limit])


def caused_by(match_id: Any, command_id: str) -> list[Event]:
    """The events a client command caused in a stream (none if it never ran)."""
    first = Event.objects.filter(stream_id=match_id, command_id=command_id).first()
    if first is None:
        return []
    query = Event.objects.filter(
        stream_id=match_id, version__gte=first.version, metadata__causation=command_id
    )
    return list(query.order_by("version"))


# A round's seed, read by the process that plays a move after another process drew it
# (its first die, its reveal): a prepared statement, as the append is, not an ORM query
# (the query's compilation cost more than the rest of such a move's write).
SEED_SQL = (
    f"SELECT seed, commitment, drawn FROM {DiceSeed._meta.db_table} "
    "WHERE match_id = $1::uuid AND scope = $2::text"
)


def _seed_row(match_id: Any, scope: str) -> tuple[str, str, int] | None:
    db = connections[DEFAULT_DB_ALIAS]
    if not databases.postgresql(db):
        rows = DiceSeed.objects.filter(match_id=match_id, scope=scope)
        row = rows.values_list("seed", "commitment", "drawn").first()
        return None if row is None else (str(row[0]), str(row[1]), int(row[2]))
    for secret, commitment, drawn in prepared.execute(db, SEED_SQL, [match_id, scope]):
        return bytes(secret or b"").decode(), bytes(commitment or b"").decode(), int(drawn or 0)
    return None


def read_seed(match_id: Any, scope: str) -> Seed:
    row = _seed_row(match_id, scope)
    if row is None:
        raise DiceSeed.DoesNotExist(f"no seed {scope} for match {match_id}")
    return Seed(scope, *row)


def seed_secrets(match_id: Any, scopes: Sequence[str]) -> dict[str, tuple[str, str]]:
    """(seed, commitment) of each stored scope."""
    found = {scope: _seed_row(match_id, scope) for scope in scopes}
    return {scope: (row[0], row[1]) for scope, row in found.items() if row is not None}


# ---------------------------------------------------------------- appending


def append(
    head: Head, events: Sequence[NewEvent], at_ms: int, seeds: SeedWrites = NO_SEEDS
) -> list[AppendedEvent]:
    """Insert `events` after `head.version`, recorded at `at_ms`, and save `head` as the match
    row's new head, with `seeds`. `head` moves to the new version and last hash.

    Inside the caller's transaction if there is one, else as its own. Nothing is written
    (`StaleStream`) unless the row is still at the head's version: the optimistic path
    relies on it; the locked path holds the row already. UNIQUE(stream, version) backs the
    check up."""
    db = connections[DEFAULT_DB_ALIAS]
    base, base_hash = head.version, head.last_hash
    rows, encoded = _chained(head, events, at_ms)
    if databases.postgresql(db):
        statements = _seed_statements(head.key, seeds)
        sql = _append_sql(len(rows), tuple(sql for sql, _ in statements))
        params: list[Any] = [getattr(head, name) for name in HEAD_FIELDS]
        params.append(head.key)
        params.append(base)
        for _, extra in statements:
            params += extra
        written = _run(db, sql, params + _event_params(rows, encoded, head.key), rows)
    else:
        moved = {name: getattr(head, name) for name in HEAD_FIELDS}
        written = sqlite_writes.append(db, head.id, base, moved, seeds, rows, encoded)
    if not written:
        head.version, head.last_hash = base, base_hash
        raise StaleStream(base)
    return rows


def create(
    match: Match, head: Head, seats: Sequence[str], events: Sequence[NewEvent], at_ms: int, seeds: SeedWrites
) -> list[AppendedEvent]:
    """Store a new match: its row (`match`, saved at `head` once its events are chained),
    its `seats` and its first `events` and `seeds`. One statement on PostgreSQL."""
    db = connections[DEFAULT_DB_ALIAS]
    rows, encoded = _chained(head, events, at_ms)
    for name in HEAD_FIELDS:
        setattr(match, name, getattr(head, name))
    if databases.postgresql(db):
        statements = [*_seed_statements(head.key, seeds), _seat_rows(head.key, seats)]
        sql = _create_sql(len(rows), tuple(sql for sql, _ in statements))
        params = _new_row_values(match)
        for _, extra in statements:
            params += extra
        _run(db, sql, params + _event_params(rows, encoded, head.key), rows)
        django_private.mark_stored(match, db.alias)
        return rows
    with transaction.atomic(using=db.alias):
        match.save(force_insert=True)
        Seat.objects.bulk_create(
            Seat(match=match, index=index, name=name) for index, name in enumerate(seats)
        )
        sqlite_writes.write(db, match.id, seeds, rows, encoded)
    return rows


def _chained(
    head: Head, events: Sequence[NewEvent], at_ms: int
) -> tuple[list[AppendedEvent], list[tuple[str, str]]]:
    """The events as rows after `head`, each hashed onto the one before; `head` takes the new
    version and last hash. Also each row's payload and metadata as canonical JSON (the
    hash's and the statement's, encoded once)."""
    if not events:
        raise ValueError("an append needs at least one event")
    recorded_at = from_ms(at_ms)
    recorded_micros = micros(recorded_at)
    previous, stream = head.last_hash, head.key
    rows: list[AppendedEvent] = []
    encoded: list[tuple[str, str]] = []
    for offset, new in enumerate(events, 1):
        version = head.version + offset
        payload_json, metadata_json = canonical_json(new.payload), canonical_json(new.metadata)
        previous = hash_of_encoded(
            previous, stream, version, new.type, SCHEMA_VERSION, payload_json, metadata_json, recorded_micros
        )
        encoded.append((payload_json, metadata_json))
        rows.append(
            AppendedEvent(
                head.id,
                version,
                new.type,
                SCHEMA_VERSION,
                new.payload,
                new.metadata,
                new.command_id,
                recorded_at,
                previous,
            )
        )
    head.version += len(rows)
    head.last_hash = previous
    return rows, encoded


def _event_params(rows: list[AppendedEvent], encoded: Sequence[tuple[str, str]], stream: str) -> list[Any]:
    params: list[Any] = []
    recorded_at = rows[0].recorded_at.isoformat()  # one time for the whole append
    for row, (payload_json, metadata_json) in zip(rows, encoded, strict=True):
        params += [
            stream,
            row.version,
            row.type,
            row.schema_version,
            payload_json,
            metadata_json,
            row.command_id,
            recorded_at,
            row.hash,
        ]
    return params


def _run(db: Any, sql: str, params: list[Any], rows: list[AppendedEvent]) -> bool:
    """Send an append's statement: prepared once per connection and shape (cacho.database.prepared).
    True when the head was written, and with it every part and row."""
    returned = prepared.execute(db, sql, params)
    for row, (position, txid) in zip(rows, returned, strict=False):
        row.position = int(position)  # type: ignore[arg-type]
        row.txid = int(txid)  # type: ignore[arg-type]
    return len(returned) == len(rows)


# ---------------------------------------------------------------- PostgreSQL statements
# One data-modifying CTE per append: `head` updates (or inserts) the match row and returns
# a row only if it did; every other part runs only if `head` returned one (`FROM head`,
# `EXISTS (SELECT 1 FROM head)`). Parameters travel as text, each cast in the SQL.

EVENT_COLUMNS = (
    '"stream_id", "version", "type", "schema_version", "payload", "metadata", "command_id", '
    '"recorded_at", "hash"'
)
EVENT_VALUE = (
    "(%s::uuid, %s::int, %s::text, %s::int, %s::jsonb, %s::jsonb, %s::text, %s::timestamptz, %s::text)"
)
HEAD_UPDATE = (
    'UPDATE "cacho_match" SET "version" = %s::int, "last_hash" = %s::text, "status" = %s::text, '
    '"pending_scope" = %s::text, "turn_key" = %s::text, "deadline_ms" = %s::bigint, '
    '"finished_at" = %s::timestamptz WHERE "id" = %s::uuid AND "version" = %s::int RETURNING 1'
)
NEW_SEED = (
    "INSERT INTO cacho_diceseed (match_id, scope, seed, commitment, drawn, revealed) "
    "SELECT %s::uuid, %s::text, %s::text, %s::text, %s::int, %s::bool FROM head"
)
SEED_UPDATE = (
    "UPDATE cacho_diceseed SET drawn = %s::int, revealed = %s::bool "
    "WHERE match_id = %s::uuid AND scope = %s::text AND EXISTS (SELECT 1 FROM head)"
)
SEED_REVEAL = (
    "UPDATE cacho_diceseed SET revealed = true "
    "WHERE match_id = %s::uuid AND scope = %s::text AND EXISTS (SELECT 1 FROM head)"
)


def _seed_statements(match_key: str, writes: SeedWrites) -> list[tuple[str, list[Any]]]:
    statements: list[tuple[str, list[Any]]] = []
    for seed in writes.seeds:
        if seed.new:
            params = [match_key, seed.scope, seed.seed, seed.commitment, seed.drawn, seed.revealed]
            statements.append((NEW_SEED, params))
        else:
            statements.append((SEED_UPDATE, [seed.drawn, seed.revealed, match_key, seed.scope]))
    statements += [(SEED_REVEAL, [match_key, scope]) for scope in writes.revealed]
    return statements


def _seat_rows(match_key: str, names: Sequence[str]) -> tuple[str, list[Any]]:
    """A new match's seats, as a part of the statement that inserts the match."""
    values = ", ".join(["(%s::uuid, %s::int, %s::text)"] * len(names))
    params: list[Any] = []
    for index, name in enumerate(names):
        params += [match_key, index, name]
    sql = (
        f'INSERT INTO cacho_seat (match_id, "index", name) SELECT seat.* FROM head, (VALUES {values}) AS seat'
    )
    return sql, params


def _with_events(head: str, count: int, joined: tuple[str, ...]) -> str:
    parts = "".join(f", part_{number} AS ({sql})" for number, sql in enumerate(joined))
    values = ", ".join([EVENT_VALUE] * count)
    return prepared.numbered(
        f"WITH head AS ({head}){parts} "
        f'INSERT INTO "cacho_event" ({EVENT_COLUMNS}) SELECT fresh.* FROM head, (VALUES {values}) AS fresh '
        'RETURNING "position", "txid"'
    )


@functools.lru_cache(maxsize=256)
def _append_sql(count: int, joined: tuple[str, ...]) -> str:
    return _with_events(HEAD_UPDATE, count, joined)


@functools.lru_cache(maxsize=64)
def _create_sql(count: int, joined: tuple[str, ...]) -> str:
    db = connections[DEFAULT_DB_ALIAS]
    fields = Match._meta.concrete_fields
    columns = ", ".join(f'"{field.column}"' for field in fields)
    values = ", ".join(f"%s::{field.db_type(db)}" for field in fields)
    return _with_events(f'INSERT INTO "cacho_match" ({columns}) VALUES ({values}) RETURNING 1', count, joined)


def _new_row_values(match: Match) -> list[Any]:
    """Every column of a match row not stored yet, as text parameters (`pre_save` fills
    the defaults that Django fills on insert, such as `created_at`)."""
    values: list[Any] = []
    for model_field in Match._meta.concrete_fields:
        value = model_field.pre_save(match, add=True)
        if isinstance(model_field, JSONField):
            values.append(json.dumps(value, cls=model_field.encoder))
        elif isinstance(value, dt.datetime):
            values.append(value.isoformat())
        else:
            values.append(value)
    return values
