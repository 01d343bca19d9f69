"""The Celery app: turn timers and periodic sweeps run here when REDIS_URL is set.

Run a worker with ``celery -A tournaments worker -c 2`` and the scheduler with
``celery -A tournaments beat`` (see deploy/). In embedded mode tasks run eagerly
in-process (``CELERY_TASK_ALWAYS_EAGER``).
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")

app = Celery("tournaments")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The safety nets of live play: turns whose timer task was lost (a worker died holding
# it: pitfalls.md) and presence rows of sockets that vanished.
app.conf.beat_schedule = {
    "cacho-sweep-deadlines": {"task": "cacho.sweep_deadlines", "schedule": 1.0},
    "cacho-sweep-connections": {"task": "cacho.sweep_connections", "schedule": 60.0},
}

# The tournament results projection catches up with the match log (checkpointed, idempotent).
app.conf.beat_schedule = {
    **(app.conf.beat_schedule or {}),
    "tournaments-project-results": {"task": "tournaments.project_results", "schedule": 5.0},
}
