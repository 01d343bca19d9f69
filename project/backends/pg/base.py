"""Django's PostgreSQL backend, except for the check its psycopg pool runs on a connection
before lending it (project.backends.db_pool): Django passes the pool its own `check` and takes
none from the settings."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.postgresql import base
from django.db.utils import DEFAULT_DB_ALIAS

from project.backends.db_pool import check_connection


class DatabaseWrapper(base.DatabaseWrapper):  # type: ignore[misc]
    @property
    def pool(self) -> Any:
        options = self.settings_dict["OPTIONS"].get("pool")
        if not options or self.alias != DEFAULT_DB_ALIAS:
            return super().pool
        if self.alias not in self._connection_pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            from psycopg_pool import ConnectionPool

            params = self.get_connection_params()
            params["autocommit"] = True  # as Django's: it sets autocommit itself later
            pool = ConnectionPool(
                kwargs=params,
                open=False,
                configure=self._configure_connection,
                check=check_connection,
                **({} if options is True else options),
            )
            self._connection_pools.setdefault(self.alias, pool)
        return self._connection_pools[self.alias]
