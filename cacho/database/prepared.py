"""Prepared statements on Django's PostgreSQL connection, through psycopg's libpq layer.

The event store's append runs once per move, so its cost matters more than any other
statement's. Going through a psycopg cursor costs about 80 µs of Python per call
(query conversion, adaptation, the prepared-statement manager, result wrapping); the
same prepared statement sent with `PGconn.exec_prepared` costs about 30 µs, and that
libpq call releases the GIL while it waits for the server. Django sets psycopg's
`prepare_threshold` to None unless the database's OPTIONS name one (this project's do
not, so that poolers work), and with None psycopg prepares nothing, not even with
`prepare=True`: this module prepares its statements itself, by name, once per connection.

Parameters travel as text and the SQL casts each (`$1::uuid`), so no type inference is
needed on either side. Values are `None`, `str`, `int`, `bool` or anything whose `str`
PostgreSQL reads for the cast type (a UUID, an ISO datetime). A database error comes
back as psycopg's exception for its SQLSTATE, which Django's `wrap_database_errors`
turns into Django's (`IntegrityError` for a unique violation).

If the server lost the statement (a pooler's DISCARD ALL, DEALLOCATE), it is prepared
again and the call retried once. With `CACHO_DB_PREPARED=0` (a pooler that cannot keep
prepared statements) the same SQL is sent unprepared, with the same parameters.
"""

from __future__ import annotations

import functools
import hashlib
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from psycopg import errors, pq

from cacho.process.hot_settings import setting

# How many statements a connection keeps prepared (the append has a few dozen shapes).
MAX_PREPARED = 256
NO_SUCH_STATEMENT = "26000"  # invalid_sql_statement_name

_TUPLES_OK = pq.ExecStatus.TUPLES_OK
_COMMAND_OK = pq.ExecStatus.COMMAND_OK
_IDLE = pq.TransactionStatus.IDLE


# The statements prepared on each psycopg connection, oldest first.
Prepared = OrderedDict[bytes, None]
_BY_CONNECTION: weakref.WeakKeyDictionary[Any, Prepared] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1024)
def statement_name(sql: str) -> bytes:
    return b"cacho_" + hashlib.sha1(sql.encode("utf-8")).hexdigest()[:20].encode()


def numbered(sql: str) -> str:
    """`%s` placeholders as PostgreSQL's `$1`, `$2`, … in order (the SQL has no other `%`)."""
    parts = sql.split("%s")
    return "".join(part + (f"${index}" if index < len(parts) else "") for index, part in enumerate(parts, 1))


def encode(value: Any) -> bytes | None:
    """A parameter in PostgreSQL's text format (bytes are taken as already encoded)."""
    kind = type(value)
    if kind is str:
        return value.encode("utf-8")  # type: ignore[no-any-return]
    if kind is int:
        return b"%d" % value
    if value is None or kind is bytes:
        return value  # type: ignore[no-any-return]
    if kind is bool:
        return b"t" if value else b"f"
    return str(value).encode("utf-8")


def execute(db: Any, sql: str, params: Sequence[Any]) -> list[tuple[bytes | None, ...]]:
    """Run `sql` (placeholders `$1`, `$2`, …, each cast) with `params` on the Django
    connection `db` (inside its transaction if one is open); the rows it returns, as
    text bytes."""
    if db.connection is None:  # (ensure_connection's own check, without its async guard)
        db.ensure_connection()
    with db.wrap_database_errors:
        conn = db.connection
        if not conn.autocommit and conn.pgconn.transaction_status == _IDLE:
            # Django opened a transaction (atomic) that psycopg begins only before the
            # first statement sent through a cursor: begin it the same way.
            conn.execute("SELECT 1")
        values = [encode(value) for value in params]
        if not setting("CACHO_DB_PREPARED", True):
            return _rows(conn.pgconn.exec_params(sql.encode("utf-8"), values), conn)
        name = statement_name(sql)
        prepared = _prepared_for(conn)
        if name not in prepared:
            _prepare(conn, prepared, name, sql)
        result = conn.pgconn.exec_prepared(name, values)
        if (
            result.status not in (_TUPLES_OK, _COMMAND_OK)
            and _sqlstate(result) == NO_SUCH_STATEMENT
            and conn.pgconn.transaction_status == _IDLE  # in a transaction, the error aborted it
        ):
            prepared.clear()  # the server forgot them all (DISCARD ALL): start again
            _prepare(conn, prepared, name, sql)
            result = conn.pgconn.exec_prepared(name, values)
        return _rows(result, conn)


def _prepared_for(conn: Any) -> Prepared:
    with _LOCK:
        prepared = _BY_CONNECTION.get(conn)
        if prepared is None:
            prepared = _BY_CONNECTION[conn] = OrderedDict()
        return prepared


def _prepare(conn: Any, prepared: Prepared, name: bytes, sql: str) -> None:
    if len(prepared) >= MAX_PREPARED:
        oldest, _ = prepared.popitem(last=False)
        _check(conn.pgconn.exec_(b"DEALLOCATE " + oldest), conn)
    _check(conn.pgconn.prepare(name, sql.encode("utf-8")), conn)
    prepared[name] = None


def _sqlstate(result: Any) -> str | None:
    state = result.error_field(pq.DiagnosticField.SQLSTATE)
    return state.decode() if state else None


def _check(result: Any, conn: Any) -> Any:
    if result.status not in (_TUPLES_OK, _COMMAND_OK):
        raise errors.error_from_result(result, encoding=conn.info.encoding)
    return result


def _rows(result: Any, conn: Any) -> list[tuple[bytes | None, ...]]:
    _check(result, conn)
    value, columns = result.get_value, range(result.nfields)
    return [tuple([value(row, column) for column in columns]) for row in range(result.ntuples)]
