"""Rebuild every season's standings from its tournaments' final rankings (docs/seasons.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.seasons.projection import project_season, rebuild


class Command(BaseCommand):
    help = "Rebuild the seasons' standings from the tournaments' final rankings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--season", type=int, help="only this season id")

    def handle(self, *args: Any, **options: Any) -> None:
        if options.get("season"):
            project_season(options["season"])
            count = 1
        else:
            count = rebuild()
        self.stdout.write(f"{count} season(s) rebuilt")
