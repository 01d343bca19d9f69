"""A process forked after the parent used the database opens connections of its own
(cacho.database.django_private), and the parent's connection is untouched by the child."""

from __future__ import annotations

import multiprocessing

import pytest
from django.db import connection

pytestmark = pytest.mark.usefixtures("committed_db")


def backend_pid(queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        queue.put(cursor.fetchone()[0])
    connection.close()


def test_a_forked_child_has_a_connection_of_its_own() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        parent = cursor.fetchone()[0]
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=backend_pid, args=(queue,))
    child.start()
    theirs = queue.get(timeout=30)
    child.join(30)
    assert child.exitcode == 0 and theirs != parent
    with connection.cursor() as cursor:  # the parent's session survived the child's exit
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] == parent
