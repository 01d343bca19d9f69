"""Model instances read by a SELECT written once, for the reads every match request makes.

The ORM compiles a queryset's SQL again at every evaluation. For a one-row read of a match
that is about 0.5 ms of CPU on this project's hosts, against 0.05 ms for the statement
itself, and a match request reads its match, its seats and their players (bench/api_match.py).
`Columns` writes the SELECT list of a model once from its metadata (the documented `_meta`
API). The statement goes through Django's cursor, so the query log, execute wrappers and
error translation still apply. Each value is converted as the ORM converts it (the backend's
converters, then the field's), and the instance is made by the ORM's own `Model.from_db`.
So a caller gets what the queryset would have given it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

from django.db.models import Model

Converter = Callable[[Any, Any, Any], Any]


class Columns:
    """Some of a model's columns (all concrete ones by default) under a table alias."""

    def __init__(self, model: type[Model], alias: str, names: Sequence[str] | None = None) -> None:
        meta = model._meta
        self.model = model
        self.alias = alias
        self.table = meta.db_table
        self.fields = [meta.get_field(name) for name in names] if names else list(meta.concrete_fields)
        self.attnames = [field.attname for field in self.fields]  # type: ignore[union-attr]
        # Per connection object: its backend's converters are bound to it.
        self._converters: weakref.WeakKeyDictionary[Any, list[tuple[Any, list[Converter]]]] = (
            weakref.WeakKeyDictionary()
        )

    def __len__(self) -> int:
        return len(self.fields)

    def select(self, connection: Any) -> str:
        """`alias."column", …` for a SELECT list."""
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(field.column)}" for field in self.fields)  # type: ignore[union-attr]

    def _converters_for(self, connection: Any) -> list[tuple[Any, list[Converter]]]:
        found = self._converters.get(connection)
        if found is None:
            found = []
            for field in self.fields:
                column = field.get_col(self.alias)  # type: ignore[union-attr]
                found.append(
                    (column, connection.ops.get_db_converters(column) + column.get_db_converters(connection))
                )
            self._converters[connection] = found
        return found

    def instance(self, connection: Any, values: Sequence[Any]) -> Any:
        """The model instance of one row's values for these columns (in their order)."""
        converted = list(values)
        for position, (column, converters) in enumerate(self._converters_for(connection)):
            for convert in converters:
                converted[position] = convert(converted[position], column, connection)
        return self.model.from_db(connection.alias, self.attnames, converted)


class Statement:
    """A SELECT written by `write(connection)` once per connection (its quoting is the
    backend's)."""

    def __init__(self, write: Callable[[Any], str]) -> None:
        self._write = write
        self._sql: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()

    def rows(self, connection: Any, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        sql = self._sql.get(connection)
        if sql is None:
            sql = self._sql[connection] = self._write(connection)
        return rows(connection, sql, params)


def rows(connection: Any, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of `sql` (`%s` placeholders) through Django's cursor."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())
