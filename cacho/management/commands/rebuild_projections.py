"""`manage.py rebuild_projections`: every match's projections, from its events."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from cacho.eventlog import projections


class Command(BaseCommand):
    help = "Rebuild MatchSummary and LiveTable of every match from the event log."

    def handle(self, *args: Any, **options: Any) -> None:
        count = projections.rebuild_all()
        self.stdout.write(f"rebuilt the projections of {count} match(es)")
