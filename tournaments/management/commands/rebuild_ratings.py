"""Rebuild the players' ratings from scratch: every rated table's input read again from
the tables and their matches, then folded in order (docs/ratings.md)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from tournaments.models import PlayerRating, RatedMatch
from tournaments.ratings.projection import rebuild


class Command(BaseCommand):
    help = "Rebuild the players' ratings from the finished rated tables."

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        changes = rebuild()
        self.stdout.write(
            f"{RatedMatch.objects.count()} rated tables, {changes} rating changes, "
            f"{PlayerRating.objects.count()} ratings in {time.perf_counter() - started:.2f} s"
        )
