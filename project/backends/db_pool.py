"""The check of a pooled PostgreSQL connection before it is lent (psycopg_pool's `check`).

An idle connection has nothing to say to the server nor the server to it: a server that
drops it (`pg_terminate_backend`, a restart, a failover, a PgBouncer going away) sends its
last message and closes the socket, which makes the socket readable. So a connection whose
socket is not readable is lent as it is, without psycopg_pool's check, a round trip to the
server at every loan (a socket's every command, every request: about 35–45 µs of the caller's
CPU and 70–75 µs of waiting, bench figures in docs/benchmarks.md). A readable one (dropped,
or the server spoke: a notice) gets that check. A connection the server is dropping at the
very moment it is lent (its backend told to end, not yet gone) fails its first statement,
as one dropped while a statement runs does.

A connection found dead is thrown away and the next one tried, after a back-off that
doubles (1 s, 2 s, 4 s ...). When the server dropped all of them at once a grown pool is
full of dead connections, and a request went through them one by one until the pool's
timeout: a 10 s stall, then a 500. Here the first dead connection found has the pool check
every idle one (dead ones are replaced by new connections in the background), so that the
pool's immediate second try gets a live one.
"""

from __future__ import annotations

import logging
import select
from typing import Any

from psycopg_pool import ConnectionPool

logger = logging.getLogger(__name__)


def server_is_quiet(conn: Any) -> bool:
    """Whether the server has said nothing on this idle connection, nor closed it (`poll`,
    not `select`: a web process holding many sockets has descriptors past select's 1,024)."""
    if conn.closed or conn.broken:
        return False
    try:
        watch = select.poll()
        watch.register(conn.fileno(), select.POLLIN | select.POLLPRI)
        return not watch.poll(0)
    except (OSError, ValueError):
        return False


def check_connection(conn: Any) -> None:
    if server_is_quiet(conn):
        return
    try:
        ConnectionPool.check_connection(conn)
    except Exception:
        logger.warning("database: a pooled connection was dead; checking the others")
        from django.db import connections

        connections["default"].pool.check()
        raise
