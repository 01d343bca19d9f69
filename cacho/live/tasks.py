"""Periodic safety nets, run by Celery beat every second (project/celery.py)."""

from __future__ import annotations

from celery import shared_task

from cacho.live.timers import sweep_deadlines as sweep
from cacho.live.timers import sweep_stale_connections


@shared_task(name="cacho.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Play the turns whose deadline passed and whose timer task never ran (a dead worker)."""
    return sweep()


@shared_task(name="cacho.sweep_connections", ignore_result=True)
def sweep_connections() -> int:
    return sweep_stale_connections()
