"""A match, its seats and the players of its accounts, read as every match request reads
them (the API's views, the socket's opening and state frames). Each is a statement written
once (`cacho.database.plain_reads`) that gives the ORM's own instances; a seat's and a
player's account comes with the two fields the pages show of it (its id and username),
the rest of it deferred."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections

from cacho.database.plain_reads import Columns, Statement, rows
from cacho.models import Match, Player, Seat, SeatPartner

_User = get_user_model()
MATCH = Columns(Match, "m")
SEAT = Columns(Seat, "s")
PLAYER = Columns(Player, "p")
ACCOUNT = Columns(_User, "u", [_User._meta.pk.name, _User.USERNAME_FIELD])


def _table(connection: Any, columns: Columns) -> str:
    return f"{connection.ops.quote_name(columns.table)} {columns.alias}"


def _column(connection: Any, columns: Columns, field: str) -> str:
    return f"{columns.alias}.{connection.ops.quote_name(columns.model._meta.get_field(field).column)}"  # type: ignore[union-attr]


def _account_join(connection: Any, holder: Columns) -> str:
    return (
        f"LEFT JOIN {_table(connection, ACCOUNT)} ON "
        f"{_column(connection, ACCOUNT, _User._meta.pk.name)} = {_column(connection, holder, 'user')}"
    )


_MATCH = Statement(
    lambda c: f"SELECT {MATCH.select(c)} FROM {_table(c, MATCH)} WHERE {_column(c, MATCH, 'id')} = %s"
)
_SEATS = Statement(
    lambda c: (
        f"SELECT {SEAT.select(c)}, {ACCOUNT.select(c)} FROM {_table(c, SEAT)} {_account_join(c, SEAT)} "
        f"WHERE {_column(c, SEAT, 'match')} = %s ORDER BY {_column(c, SEAT, 'index')}"
    )
)
PARTNER = Columns(SeatPartner, "t", ["index", "user"])
_PARTNERS = Statement(
    lambda c: (
        f"SELECT {PARTNER.select(c)} FROM {_table(c, PARTNER)} "
        f"WHERE {_column(c, PARTNER, 'match')} = %s ORDER BY {_column(c, PARTNER, 'id')}"
    )
)


def _connection() -> Any:
    return connections[DEFAULT_DB_ALIAS]


def _match_key(connection: Any, key: uuid.UUID) -> Any:
    return Match._meta.pk.get_db_prep_value(key, connection)  # type: ignore[union-attr]


def match(key: uuid.UUID) -> Match | None:
    """The match of that id, or None."""
    connection = _connection()
    found = _MATCH.rows(connection, [_match_key(connection, key)])
    return MATCH.instance(connection, found[0]) if found else None  # type: ignore[no-any-return]


def _with_account(connection: Any, holder: Columns, row: tuple[Any, ...]) -> Any:
    instance = holder.instance(connection, row[: len(holder)])
    account = row[len(holder) :]
    if account[0] is not None:
        instance.user = ACCOUNT.instance(connection, account)
    return instance


def seats(key: uuid.UUID) -> list[Seat]:
    """The match's seats in index order, each with its account (`seat.user`)."""
    connection = _connection()
    found = _SEATS.rows(connection, [_match_key(connection, key)])
    return [_with_account(connection, SEAT, row) for row in found]


def partners(key: uuid.UUID) -> list[tuple[int, Any]]:
    """(seat index, user id) of the accounts partnering the match's seats, in the order added."""
    connection = _connection()
    return [(int(index), user) for index, user in _PARTNERS.rows(connection, [_match_key(connection, key)])]


def players_of(users: Iterable[Any]) -> list[Player]:
    """The player rows of these accounts, each with its account (`player.user`)."""
    ids = list(users)
    if not ids:
        return []
    connection = _connection()
    sql = (
        f"SELECT {PLAYER.select(connection)}, {ACCOUNT.select(connection)} FROM {_table(connection, PLAYER)} "
        f"{_account_join(connection, PLAYER)} WHERE {_column(connection, PLAYER, 'user')} IN "
        f"({', '.join(['%s'] * len(ids))})"
    )
    return [_with_account(connection, PLAYER, row) for row in rows(connection, sql, ids)]
