"""Prepared statements on Django's connection (cacho.database.prepared): prepared once per
connection, inside Django's transactions like any statement, prepared again when the
server forgot them, or not prepared at all when configured so; errors are Django's."""

from __future__ import annotations

import uuid

import pytest
from django.db import IntegrityError, connection, transaction

from cacho.database import prepared

pytestmark = pytest.mark.usefixtures("committed_db")

TABLE = "cacho_prepared_probe"


@pytest.fixture
def probe() -> object:
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (id int PRIMARY KEY, note text)")
        cursor.execute(f"TRUNCATE {TABLE}")
    yield
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {TABLE}")


INSERT = f"INSERT INTO {TABLE} (id, note) VALUES ($1::int, $2::text) RETURNING id, note"


def prepared_on_server() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        return {name for (name,) in cursor.fetchall()}


def stored() -> list[tuple[int, str | None]]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, note FROM {TABLE} ORDER BY id")
        return list(cursor.fetchall())


def test_a_statement_is_prepared_once_per_connection_and_returns_text(probe: object) -> None:
    assert prepared.execute(connection, INSERT, [1, "uno"]) == [(b"1", b"uno")]
    assert prepared.execute(connection, INSERT, [2, None]) == [(b"2", None)]
    name = prepared.statement_name(INSERT).decode()
    assert name in prepared_on_server()
    assert stored() == [(1, "uno"), (2, None)]
    connection.close()  # a new connection knows nothing of the old one's statements
    assert prepared.execute(connection, INSERT, [3, "tres"]) == [(b"3", b"tres")]
    assert name in prepared_on_server()


def test_values_travel_as_text_for_the_casts(probe: object) -> None:
    sql = "SELECT $1::uuid, $2::bool, $3::bool, $4::bigint, $5::text, $6::timestamptz"
    some = uuid.uuid4()
    import datetime as dt

    moment = dt.datetime(2026, 12, 1, 9, 30, 0, 123456, tzinfo=dt.UTC)
    (row,) = prepared.execute(connection, sql, [some, True, False, 2**40, "ñandú", moment.isoformat()])
    assert row == (
        str(some).encode(),
        b"t",
        b"f",
        b"1099511627776",
        "ñandú".encode(),
        b"2026-12-01 09:30:00.123456+00",
    )


def test_the_first_statement_of_an_atomic_block_is_inside_its_transaction(probe: object) -> None:
    """psycopg begins Django's transaction only before a statement sent through a cursor:
    one sent first through libpq must begin it too, or it would commit on its own."""
    with pytest.raises(RuntimeError), transaction.atomic():
        prepared.execute(connection, INSERT, [10, "rolled back"])
        raise RuntimeError("abandon the transaction")
    with transaction.atomic():
        prepared.execute(connection, INSERT, [11, "kept"])
    assert stored() == [(11, "kept")]


def test_a_unique_violation_is_djangos_integrity_error_and_nothing_is_written(probe: object) -> None:
    prepared.execute(connection, INSERT, [20, "first"])
    with pytest.raises(IntegrityError):
        prepared.execute(connection, INSERT, [20, "second"])
    assert stored() == [(20, "first")]
    assert prepared.execute(connection, INSERT, [21, "after"]) == [(b"21", b"after")], "usable after it"


def test_statements_the_server_forgot_are_prepared_again(probe: object) -> None:
    prepared.execute(connection, INSERT, [30, "a"])
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")  # what a pooler's DISCARD ALL does too
    assert prepared.execute(connection, INSERT, [31, "b"]) == [(b"31", b"b")]
    assert stored() == [(30, "a"), (31, "b")]


def test_with_prepared_statements_off_the_same_sql_runs_unprepared(probe: object, settings: object) -> None:
    settings.CACHO_DB_PREPARED = False  # type: ignore[attr-defined]
    connection.close()
    assert prepared.execute(connection, INSERT, [40, "plain"]) == [(b"40", b"plain")]
    assert prepared.statement_name(INSERT).decode() not in prepared_on_server()
    assert stored() == [(40, "plain")]


def test_a_connection_keeps_at_most_max_prepared_statements(probe: object, monkeypatch: object) -> None:
    monkeypatch.setattr(prepared, "MAX_PREPARED", 3)  # type: ignore[attr-defined]
    connection.close()
    for number in range(5):
        prepared.execute(connection, f"SELECT {number} + $1::int", [1])
    names = {name for name in prepared_on_server() if name.startswith("cacho_")}
    assert len(names) == 3
    assert prepared.statement_name("SELECT 4 + $1::int").decode() in names
    assert prepared.execute(connection, "SELECT 0 + $1::int", [1]) == [(b"1",)], "an evicted one comes back"
