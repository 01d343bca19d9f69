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
