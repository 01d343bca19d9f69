"""`manage.py verify_match ID`: the hash chain and every revealed round's dice of a match."""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from cacho.models import Match
from cacho.services.verify import verify_match


class Command(BaseCommand):
    help = "Verify a match: hash chain, events, dice against revealed seeds. Exit 1 when broken."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("match_id")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            match = Match.objects.get(pk=options["match_id"])
        except (Match.DoesNotExist, ValueError, ValidationError) as exc:
            raise CommandError(f"no match {options['match_id']!r}") from exc
        report = verify_match(match)
        self.stdout.write(json.dumps(report, indent=2))
        if not report["valid"]:
            error = report["error"]
            where = f"event {error['version']} ({error['type']})"
            raise CommandError(f"{where}: {error['reason']}: {error['message']}")
