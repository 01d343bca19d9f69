"""`manage.py restore_check`: is this database (a restored backup) whole and true?

Verifies every match chain and tournament log, rebuilds the projections from the events
and compares them with the stored ones (tournaments.services.restore). Exit 0 when all is
whole and equal; otherwise every problem is printed and the exit status is 1. Nothing is
changed unless `--write` (then the rebuilt projections are kept)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.services.restore import check


class Command(BaseCommand):
    help = "Verify match chains and tournament logs, rebuild the projections, compare the standings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--write", action="store_true", help="keep the rebuilt projections")

    def handle(self, *args: Any, **options: Any) -> None:
        report = check(write=options["write"])
        for problem in report.problems:
            self.stderr.write(str(problem))
        self.stdout.write(report.summary())
        if not report.ok:
            raise CommandError(f"the restored database has {len(report.problems)} problem(s)")
