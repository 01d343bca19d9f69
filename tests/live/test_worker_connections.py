"""A prefork Celery worker on Django's connection pool: its processes keep their pooled
PostgreSQL connections from task to task, and the work a task leaves to the process's
after-commit thread (the next turn's timer) never meets a pool closed under it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from cacho.models import Event
from cacho.services import matches
from tests.live.harness import celery_worker, wait_for

pytestmark = [pytest.mark.slow]

TASKS = 9  # timed-out turns counted


def _sessions_so_far() -> int:
    """Connections ever made to this database (PostgreSQL counts them as they open)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


def test_a_worker_plays_timer_after_timer_on_the_connections_it_keeps(
    env: dict[str, str], tmp_path: Path
) -> None:
    users = get_user_model().objects
    timed_out = []
    for number in range(3):  # nobody moves: every turn is played by its timer
        seats = [f"idle{number}a", f"idle{number}b"]
        match = matches.create_match("dudo", seats, turn_seconds=1, first_seat=0)
        for index, name in enumerate(seats):
            matches.take_seat(match.pk, index, users.create_user(name))
        timed_out.append(Event.objects.filter(stream=match, payload__timed_out=True))

    def played() -> int:
        return sum(events.count() for events in timed_out)

    # No beat: a timer lost on the way (the after-commit thread failing) stops its match.
    with celery_worker(env, tmp_path) as worker:
        # Counted once both processes have served tasks (a pool is opened at its first use).
        wait_for(lambda: all(events.exists() for events in timed_out), 20, worker.output)
        wait_for(lambda: played() >= 6, 20, worker.output)
        before, played_before = _sessions_so_far(), played()
        wait_for(lambda: played() >= played_before + TASKS, 30, worker.output)
        opened = _sessions_so_far() - before
        log = worker.output()
    assert "after-commit call failed" not in log
    # Each process keeps its pool (for its task and its after-commit thread): at most a
    # connection grown now and then, not one or two a task.
    assert opened <= 2, f"{opened} connections opened for {TASKS} tasks"
