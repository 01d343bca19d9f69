"""The event store: an append-only, hash-chained log of every match's events.

Global order. Each append is one statement (one transaction) that updates its match's
head only if the head is still at the expected version, and inserts the events after
it; appends to different matches never wait for each other. Readers of every stream
(`read_all_after`) follow the order `(txid, position)` up to the oldest running
transaction, which never skips an event committed late: see cacho.log_order.

Hash chain. `hash = sha256(previous hash + canonical JSON of the event's stream,
version, type, schema version, payload, metadata and recorded time in microseconds)`;
the first event of a stream chains to the empty string. `verify` (services.verify)
recomputes it.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from json import encoder as json_encoder
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import JSONField

from cacho import log_order, prepared
from cacho.log_order import LogPosition
from cacho.models import Event, Match

SCHEMA_VERSION = 1
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


# Canonical JSON: sorted keys, no spaces, UTF-8 text. `json.dumps` with options builds an
# encoder per call, and `JSONEncoder.encode` builds its C encoder and a circular-reference
# memo per call: the C encoder is made once here (the hash chain encodes two values per
# event). Cycles cannot occur (engine events, and JSON parsed from clients).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_C_ENCODER = (
    None
    if json_encoder.c_make_encoder is None
    else json_encoder.c_make_encoder(
        None, _ENCODER.default, json_encoder.encode_basestring, None, ":", ",", True, False, True
    )
)


def canonical_json(value: Any) -> str:
    if _C_ENCODER is None:  # an interpreter without the C accelerator
        return _ENCODER.encode(value)
    return "".join(_C_ENCODER(value, 0))


_MICROSECOND = dt.timedelta(microseconds=1)


def micros(moment: dt.datetime) -> int:
    return (moment - EPOCH) // _MICROSECOND


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
    return hash_of_encoded(
        previous,
        stream,
        version,
        type_,
        schema_version,
        canonical_json(payload),
        canonical_json(metadata),
        micros(recorded_at),
    )


def hash_of_encoded(
    previous: str,
    stream: str,
    version: int,
    type_: str,
    schema_version: int,
    payload_json: str,
    metadata_json: str,
    recorded_micros: int,
) -> str:
    """`event_hash` from the canonical JSON of the payload and metadata, which the append
    also sends as the rows' values (each encoded once). The body is the canonical JSON of
    {stream, version, type, schema, payload, metadata, recorded_at}, written out in its
    sorted key order."""
    body = (
        f'{{"metadata":{metadata_json},"payload":{payload_json},"recorded_at":{recorded_micros},'
        f'"schema":{schema_version},"stream":{_quoted(stream)},"type":{_quoted(type_)},'
        f'"version":{version}}}'
    )
    return hashlib.sha256((previous + body).encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=4096)
def _quoted(text: str) -> str:
    """A stream id or an event type as canonical JSON (the same few strings again and again)."""
    return canonical_json(text)


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


@dataclass(slots=True)
class NewEvent:
    """An event to append: the engine's dict without its "type", and its metadata."""

    type: str
    payload: dict[str, Any]
    metadata: dict[str, Any]
    command_id: str | None = None


@dataclass(slots=True)
class AppendedEvent:
    """An event as it was just stored: the attributes of `cacho.models.Event` that readers
    use, without a model instance's construction cost on the write path."""

    stream_id: Any
    version: int
    type: str
    schema_version: int
    payload: dict[str, Any]
    metadata: dict[str, Any]
    command_id: str | None
    recorded_at: dt.datetime
    hash: str
    position: int | None = None
    txid: int | None = None

    def as_model(self) -> Event:
        return Event(
            stream_id=self.stream_id,
            version=self.version,
            type=self.type,
            schema_version=self.schema_version,
            payload=self.payload,
            metadata=self.metadata,
            command_id=self.command_id,
            recorded_at=self.recorded_at,
            hash=self.hash,
        )


StoredEvent = Event | AppendedEvent  # what readers of an event accept


def append(
    match: Match,
    events: Sequence[NewEvent],
    recorded_at: dt.datetime,
    match_fields: Sequence[str] = (),
    also: Sequence[tuple[str, list[Any]]] = (),
    db: Any = None,
    stream: str | None = None,
    create: bool = False,
) -> list[AppendedEvent]:
    """Insert `events` after `match.version` and save the match row's new head.

    Inside the caller's transaction if there is one, else as its own (PostgreSQL: one
    statement). The match row is updated only if it is still at `match.version` (else
    `StaleStream`, nothing written): the optimistic fast path relies on it, the locked path
    holds the row already. `match.version` and `match.last_hash` advance; `match_fields`
    are saved with them. UNIQUE(stream, version) backs the version check up.

    `also` (PostgreSQL only): more data-modifying statements for the same statement, each
    made conditional on the head update by referring to `head` (`... FROM head`,
    `EXISTS (SELECT 1 FROM head)`), with their parameters (`%s` placeholders).
    `db` and `stream` (the Django connection, `str(match.id)`): when the caller has them.
    `create` (PostgreSQL): `match` is new, and its row is inserted, at its new head, by the
    same statement (the first events of a stream need no row to update)."""
    db = connections[DEFAULT_DB_ALIAS] if db is None else db
    previous = match.last_hash
    rows: list[AppendedEvent] = []
    encoded: list[tuple[str, str]] = []
    stream = str(match.id) if stream is None else stream
    recorded_micros = micros(recorded_at)
    for offset, new in enumerate(events):
        version = match.version + 1 + offset
        payload_json, metadata_json = canonical_json(new.payload), canonical_json(new.metadata)
        digest = hash_of_encoded(
            previous, stream, version, new.type, SCHEMA_VERSION, payload_json, metadata_json, recorded_micros
        )
        encoded.append((payload_json, metadata_json))
        rows.append(
            AppendedEvent(
                match.id,
                version,
                new.type,
                SCHEMA_VERSION,
                new.payload,
                new.metadata,
                new.command_id,
                recorded_at,
                digest,
            )
        )
        previous = digest
    if not rows:
        raise ValueError("an append needs at least one event")
    base_version = match.version
    match.version += len(rows)
    match.last_hash = previous
    names = ("version", "last_hash", *(name for name in match_fields if name not in ("version", "last_hash")))
    if db.vendor == "postgresql":
        updated = _append_postgresql(db, match, stream, base_version, names, rows, encoded, also, create)
    elif also or create:
        raise ValueError("statements joined to an append need PostgreSQL")
    else:
        updated = Match.objects.filter(pk=match.pk, version=base_version).update(
            **{name: getattr(match, name) for name in names}
        )
        if updated == 1:
            stored = Event.objects.bulk_create([row.as_model() for row in rows])
            for row, model in zip(rows, stored, strict=True):
                row.position = model.position
                row.txid = 0  # SQLite: one writer at a time (cacho.log_order)
    if updated != 1:
        match.version = base_version
        raise StaleStream(base_version)
    return rows


class StaleStream(Exception):
    """The stream is no longer at the version the append was built on (nothing was written)."""


EVENT_COLUMNS = (
    "stream_id",
    "version",
    "type",
    "schema_version",
    "payload",
    "metadata",
    "command_id",
    "recorded_at",
    "hash",
)
EVENT_VALUE = (
    "(%s::uuid, %s::int, %s::text, %s::int, %s::jsonb, %s::jsonb, %s::text, %s::timestamptz, %s::text)"
)


def numbered(sql: str) -> str:
    """`%s` placeholders as PostgreSQL's `$1`, `$2`, … in order (the SQL has no other `%`)."""
    parts = sql.split("%s")
    return "".join(part + (f"${index}" if index < len(parts) else "") for index, part in enumerate(parts, 1))


@functools.lru_cache(maxsize=256)
def _append_sql(names: tuple[str, ...], count: int, also: tuple[str, ...] = (), create: bool = False) -> str:
    db = connections[DEFAULT_DB_ALIAS]
    if create:
        fields = Match._meta.concrete_fields
        columns = ", ".join(f'"{field.column}"' for field in fields)
        values = ", ".join(f"%s::{field.db_type(db)}" for field in fields)
        head = f'INSERT INTO "cacho_match" ({columns}) VALUES ({values}) RETURNING 1'
    else:
        fields = [Match._meta.get_field(name) for name in names]
        assignments = ", ".join(f'"{field.column}" = %s::{field.db_type(db)}' for field in fields)
        head = (
            f'UPDATE "cacho_match" SET {assignments} '
            'WHERE "id" = %s::uuid AND "version" = %s::int RETURNING 1'
        )
    values = ", ".join([EVENT_VALUE] * count)
    columns = ", ".join(f'"{column}"' for column in EVENT_COLUMNS)
    joined = "".join(f", also_{number} AS ({sql})" for number, sql in enumerate(also))
    return numbered(
        f"WITH head AS ({head}){joined} "
        f'INSERT INTO "cacho_event" ({columns}) SELECT fresh.* FROM head, (VALUES {values}) AS fresh '
        'RETURNING "position", "txid"'
    )


def _new_row_values(match: Match) -> list[Any]:
    """Every column of a match row not stored yet, as text parameters (`pre_save` fills
    the defaults that Django fills on insert, such as `created_at`)."""
    values: list[Any] = []
    for field in Match._meta.concrete_fields:
        value = field.pre_save(match, add=True)
        if isinstance(field, JSONField):
            values.append(json.dumps(value, cls=field.encoder))
        elif isinstance(value, dt.datetime):
            values.append(value.isoformat())
        else:
            values.append(value)
    return values


def _append_postgresql(
    db: Any,
    match: Match,
    stream: str,
    base_version: int,
    names: Sequence[str],
    rows: list[AppendedEvent],
    encoded: Sequence[tuple[str, str]],
    also: Sequence[tuple[str, list[Any]]] = (),
    create: bool = False,
) -> int:
    """The head update and the event rows in one statement: outside a transaction it is its
    own (one round trip, one commit). No row updated (the stream moved on): nothing
    inserted, 0 returned. The rows' txid is the column's default (cacho.log_order).

    A prepared statement per shape (cacho.prepared): the JSON travels as parameters, not
    quoted into SQL, and the server plans the statement once per connection. The head's
    values are plain ints, strings, None and datetimes, sent as text for the SQL's casts."""
    sql = _append_sql(tuple(names), len(rows), tuple(statement for statement, _ in also), create)
    if create:
        params = _new_row_values(match)
    else:
        params = [getattr(match, name) for name in names]
        params += [stream, base_version]
    for _, extra in also:
        params += extra
    recorded_at = rows[0].recorded_at.isoformat()  # one time for the whole batch
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
    returned = prepared.execute(db, sql, params)
    if create and returned:  # the instance is a stored row now (a later save() updates it)
        match._state.adding = False
        match._state.db = db.alias
    for row, (position, txid) in zip(rows, returned, strict=False):
        row.position = int(position)  # type: ignore[arg-type]
        row.txid = int(txid)  # type: ignore[arg-type]
    return 1 if len(returned) == len(rows) else 0


def read_stream(match_id: Any, after: int = 0, limit: int | None = None) -> list[Event]:
    """A stream's events with version > `after`, in version order."""
    query = Event.objects.filter(stream_id=match_id, version__gt=after).order_by("version")
    return list(query[:limit] if limit is not None else query)


def read_all_after(checkpoint: LogPosition, limit: int = 1000) -> list[Event]:
    """Every stream's events after `checkpoint`, in global order, for projections: never
    skips an event committed late (cacho.log_order). Resume from `log_order.of(last)`."""
    return list(log_order.after(Event.objects.all(), checkpoint)[:limit])
