"""The global order of the event log, for the readers that follow every stream
(projections across matches): it must never skip an event that commits late.

A position (bigserial) is drawn when a row is inserted, not when it commits: with
concurrent writers, position 12 can be visible while 11 is still in flight, and a reader
that had moved past 12 would never see 11. Instead of serialising every append behind one
lock (what this store did first, and which also serialised the commits' WAL flushes), each
event keeps the id of the transaction that wrote it (`txid`), and readers:

* order by `(txid, position)`;
* read only events whose `txid` is below the oldest transaction id still running
  (`pg_snapshot_xmin(pg_current_snapshot())`, taken in the reading statement's own snapshot).

Every transaction below that horizon has finished, so its events are all visible in that
snapshot, and any transaction that has not written yet will get a larger id than every
id below the horizon: nothing can ever appear behind a checkpoint. The price is lag, not
loss: a long-running writing transaction holds the horizon (and so the projections) back
until it ends. A reader's own transaction counts as finished for itself only when it is
the oldest one running (a test's enclosing transaction, a projection that appended).
SQLite (embedded mode) has one writer at a time, so position order is commit order
there; its events keep txid 0.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.db.models import BigIntegerField, Func, Q, QuerySet
from django.db.models.expressions import RawSQL

from cacho.database import databases


class CurrentTransactionId(Func):
    """The writing transaction's id as a bigint on PostgreSQL (`xid8` never wraps around);
    0 elsewhere. The event table's column default."""

    output_field = BigIntegerField()

    def as_sql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list[Any]]:
        return "0", []

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list[Any]]:
        return "(pg_current_xact_id()::text::bigint)", []


class LogPosition(NamedTuple):
    """A point in the global order: the last event a reader has seen."""

    txid: int = 0
    position: int = 0


START = LogPosition()

# The oldest running transaction id, or just past it when that is the reader's own
# transaction (its own events are visible to it, and nothing older is still running).
HORIZON_SQL = (
    "(SELECT xmin::text::bigint + (pg_current_xact_id_if_assigned() IS NOT DISTINCT FROM xmin)::int "
    "FROM pg_snapshot_xmin(pg_current_snapshot()) AS xmin)"
)


def after(events: QuerySet[Any], checkpoint: LogPosition) -> QuerySet[Any]:
    """`events` past `checkpoint` that no late commit can precede, in global order."""
    txid, position = checkpoint
    query = events.filter(Q(txid__gt=txid) | Q(txid=txid, position__gt=position))
    if databases.postgresql():
        query = query.filter(txid__lt=RawSQL(HORIZON_SQL, ()))
    return query.order_by("txid", "position")


def of(event: Any) -> LogPosition:
    return LogPosition(event.txid, event.position)
