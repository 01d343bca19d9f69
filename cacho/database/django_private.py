"""The one module that reaches into Django's private attributes, so that a Django upgrade is
checked here and nowhere else (tests/cacho/test_forks.py and test_store.py cover both uses).

Connections after a fork: a process forked from one that used the database starts without its parent's
connections: the parent's pool (psycopg's, with its worker threads, which a fork does not
copy) and the sockets of the parent's open connections are forgotten in the child, never
closed there (closing them would end the parent's sessions). The child opens its own.

Celery's prefork workers do the same for themselves (its Django fixup closes the pool in
each child); this covers any other fork (multiprocessing in the benchmarks, a management
command's workers)."""

from __future__ import annotations

import os

from django.db.models import Model


def forget_inherited_connections() -> None:
    from django.db import connections
    from django.db.backends.postgresql.base import DatabaseWrapper

    DatabaseWrapper._connection_pools.clear()
    for connection in connections.all(initialized_only=True):
        connection.connection = None  # the parent's socket: left to the parent
        connection.in_atomic_block = False
        connection.needs_rollback = False
        connection.savepoint_ids = []
        connection.run_on_commit = []


def install() -> None:
    os.register_at_fork(after_in_child=forget_inherited_connections)


def mark_stored(instance: Model, alias: str) -> None:
    """`instance`, inserted by the event store's own statement rather than by `save()`, is a
    stored row of `alias` from now on: a later `save()` updates it (Django's `from_db`
    sets the same two attributes on the rows it loads)."""
    instance._state.adding = False
    instance._state.db = alias
