"""The Celery app: turn timers and periodic sweeps run here when REDIS_URL is set.

Run a worker with ``celery -A project worker -c 2`` and the scheduler with
``celery -A project beat`` (see deploy/). In embedded mode tasks run eagerly
in-process (``CELERY_TASK_ALWAYS_EAGER``).
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_ready, worker_shutdown

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")

app = Celery("cacho")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The safety nets of live play: turns whose timer task was lost (a worker died holding
# it: docs/pitfalls.md) and presence rows of sockets that vanished.
app.conf.beat_schedule = {
    "cacho-sweep-deadlines": {"task": "cacho.sweep_deadlines", "schedule": 1.0},
    "cacho-sweep-connections": {"task": "cacho.sweep_connections", "schedule": 60.0},
    # The match heads anchored outside the matches (cacho.anchors, CACHO_ANCHOR_EVERY).
    "cacho-anchor-heads": {"task": "cacho.anchor_heads", "schedule": 300.0},
}

# The tournaments' safety net: tables whose match ended without their result being
# recorded (a lost task, a failure) and finished rounds not yet followed by the next.
app.conf.beat_schedule = {
    **(app.conf.beat_schedule or {}),
    "tournaments-sweep": {"task": "tournaments.sweep", "schedule": 5.0},
    # Mail whose task was lost (tournaments.mail.delivery).
    "tournaments-sweep-mail": {"task": "tournaments.sweep_mail", "schedule": 600.0},
}


# ---------------------------------------------------------------- deploy: logs and metrics
# The ids a task works for, for the structured logs (cacho.observability.logs): its first argument.
TASK_IDS = {
    "cacho.expire_turn": "match",
    "cacho.play_bot_turn": "match",
    "tournaments.record_match": "match",
    "tournaments.advance_tournament": "tournament",
}


@task_prerun.connect
def _bind_log_ids(task: Any = None, args: Any = None, **_: Any) -> None:
    from cacho.observability import logs

    name = TASK_IDS.get(getattr(task, "name", ""))
    ids = dict.fromkeys(logs.IDS)
    if name and args:
        ids[name] = args[0]
    logs.bind(**ids)


@task_prerun.connect
@task_postrun.connect
def _connections_as_for_a_request(task: Any = None, **_: Any) -> None:
    """A task's connections are handled as a request's (Django's request_started and
    request_finished): pooled ones go back to the pool, dead ones are dropped. Celery's own
    closing is held off (CELERY_DB_REUSE_MAX): on a prefork worker it would close the pool
    that the process's after-commit thread is using."""
    if task is not None and getattr(task.request, "is_eager", False):
        return  # run in the caller's process, inside its request or test: its connections
    from django.db import close_old_connections

    close_old_connections()


@worker_ready.connect
def _ready(**_: Any) -> None:
    """A worker apart from any web process serves its own figures (CACHO_METRICS_PORT), and
    says it is ready in a file (CACHO_WORKER_READY_FILE: a probe's `test -f`)."""
    from django.conf import settings

    port = getattr(settings, "CACHO_METRICS_PORT", None)
    if port:
        from project.observability.metrics import serve_worker_metrics

        serve_worker_metrics(port)
    ready = getattr(settings, "CACHO_WORKER_READY_FILE", None)
    if ready is not None:
        ready.touch()


@worker_shutdown.connect
def _not_ready(**_: Any) -> None:
    from django.conf import settings

    ready = getattr(settings, "CACHO_WORKER_READY_FILE", None)
    if ready is not None:
        ready.unlink(missing_ok=True)
