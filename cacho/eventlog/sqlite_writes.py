"""Embedded mode's writes of an append (SQLite): the match's head moved only if it is still
at the version the events were built on, the fairness seeds' rows, the events; plain
statements through Django's cursor, in one transaction (cacho.eventlog.store writes the
same on PostgreSQL in one prepared statement).

Through the ORM the same writes (an `update`, a `create` per new seed, a `bulk_create`)
took about 2 ms of the 5.7 ms a move cost on SQLite here: an append runs for every move of
a `make run` club's live tables. Each value is prepared for the column as the ORM would
prepare it (`get_db_prep_save`: a UUID as its hex, a time as UTC text); the payload and
metadata go as the canonical JSON the hash chain already encoded.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from cacho.eventlog.rows import AppendedEvent, SeedWrites
from cacho.models import DiceSeed, Event, Match

_EVENT_COLUMNS = (
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
INSERT_EVENT = 'INSERT INTO "{table}" ({columns}) VALUES ({values})'.format(
    table=Event._meta.db_table,
    columns=", ".join(f'"{column}"' for column in _EVENT_COLUMNS),
    values=", ".join(["%s"] * len(_EVENT_COLUMNS)),
)
_SEEDS = DiceSeed._meta.db_table
INSERT_SEED = (
    f'INSERT INTO "{_SEEDS}" ("match_id", "scope", "seed", "commitment", "drawn", "revealed") '
    "VALUES (%s, %s, %s, %s, %s, %s)"
)
UPDATE_SEED = f'UPDATE "{_SEEDS}" SET "drawn" = %s, "revealed" = %s WHERE "match_id" = %s AND "scope" = %s'


@functools.cache
def _head_update(names: tuple[str, ...]) -> tuple[str, list[Any]]:
    """The conditional update of these head fields, and the fields (made once a shape)."""
    fields = [Match._meta.get_field(name) for name in names]
    sql = (
        f'UPDATE "{Match._meta.db_table}" SET '
        + ", ".join(f'"{f.column}" = %s' for f in fields)
        + ' WHERE "id" = %s AND "version" = %s'
    )
    return sql, fields


def move_head(db: Any, match_id: Any, base: int, head: dict[str, Any]) -> bool:
    """Set the match row's `head` fields where it is still at version `base`; whether it was."""
    sql, fields = _head_update(tuple(head))
    values = [f.get_db_prep_save(head[f.name], db) for f in fields]
    with db.cursor() as cursor:
        cursor.execute(sql, [*values, _key(match_id, db), base])
        return cursor.rowcount == 1


def append(
    db: Any,
    match_id: Any,
    base: int,
    head: dict[str, Any],
    seeds: SeedWrites,
    rows: Sequence[AppendedEvent],
    encoded: Sequence[tuple[str, str]],
) -> bool:
    """The head moved, the seeds and the events written, in one transaction; False (nothing
    written) when the head is no longer at `base`."""
    with transaction.atomic(using=db.alias, savepoint=False):
        if not move_head(db, match_id, base, head):
            return False
        write(db, match_id, seeds, rows, encoded)
    return True


def write(
    db: Any,
    match_id: Any,
    seeds: SeedWrites,
    rows: Sequence[AppendedEvent],
    encoded: Sequence[tuple[str, str]],
) -> None:
    """The seed rows and the events, in the caller's transaction; each row learns its
    position (txid 0: one writer at a time, cacho.database.log_order)."""
    key = _key(match_id, db)
    with db.cursor() as cursor:
        for seed in seeds.seeds:
            if seed.new:
                cursor.execute(
                    INSERT_SEED, [key, seed.scope, seed.seed, seed.commitment, seed.drawn, seed.revealed]
                )
            else:
                cursor.execute(UPDATE_SEED, [seed.drawn, seed.revealed, key, seed.scope])
        if seeds.revealed:
            marks = ", ".join(["%s"] * len(seeds.revealed))
            cursor.execute(
                f'UPDATE "{_SEEDS}" SET "revealed" = %s WHERE "match_id" = %s AND "scope" IN ({marks})',
                [True, key, *seeds.revealed],
            )
        if not rows:
            return
        recorded_at = Event._meta.get_field("recorded_at").get_db_prep_save(rows[0].recorded_at, db)
        for row, (payload_json, metadata_json) in zip(rows, encoded, strict=True):
            values = (row.version, row.type, row.schema_version, payload_json, metadata_json, row.command_id)
            cursor.execute(INSERT_EVENT, [key, *values, recorded_at, row.hash])
            row.position = cursor.lastrowid
            row.txid = 0


def _key(match_id: Any, db: Any) -> Any:
    """The match id as its column stores it."""
    return Match._meta.pk.get_db_prep_save(match_id, db)  # type: ignore[union-attr]
