"""Rebuild the tournaments' projections: record the tables whose match ended unrecorded,
re-derive every table result from its match events (differences are reported) and
rewrite the standings from the tables' results."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.services import sweep
from tournaments.services.rebuild import RebuildReport, rebuild


class Command(BaseCommand):
    help = "Rebuild tournament standings (and check table results) from the match events."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", type=int, help="only this tournament id")

    def handle(self, *args: Any, **options: Any) -> None:
        finished = sweep()
        report = RebuildReport()
        query = Tournament.objects.order_by("pk")
        if options.get("tournament"):
            query = query.filter(pk=options["tournament"])
        for tournament in query:
            rebuild(tournament, report)
        self.stdout.write(
            f"{report.tournaments} tournament(s), {report.tables_checked} table(s) checked, "
            f"{finished} newly finished table(s)"
        )
        if report.mismatches:
            for line in report.mismatches:
                self.stderr.write(line)
            raise CommandError(f"{len(report.mismatches)} table result(s) differ from the match events")
