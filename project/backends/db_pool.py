"""The check of a pooled PostgreSQL connection before it is lent (psycopg_pool's `check`).

psycopg_pool checks the connection it is about to lend; one found dead is thrown away and
the next one tried, after a back-off that doubles (1 s, 2 s, 4 s ...). When the server
dropped all of them at once (`pg_terminate_backend`, a restart, a failover) a grown pool
is full of dead connections, and a request went through them one by one until the pool's
timeout: a 10 s stall, then a 500. Here the first dead connection found has the pool check
every idle one (dead ones are replaced by new connections in the background), so that the
pool's immediate second try gets a live one.
"""

from __future__ import annotations

import logging
from typing import Any

from psycopg_pool import ConnectionPool

logger = logging.getLogger(__name__)


def check_connection(conn: Any) -> None:
    try:
        ConnectionPool.check_connection(conn)
    except Exception:
        logger.warning("database: a pooled connection was dead; checking the others")
        from django.db import connections

        connections["default"].pool.check()
        raise
