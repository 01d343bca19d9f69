"""The demo club (`tournaments.services.demo_seed`): a live Dudo and a live Alalay
tournament played by bot entrants, a finished tournament with the bots' ratings, and a
dispute on it ruled by the demo referee. `--play` also drives the live tournaments' bots
to the end (in-process, through the real write path). Running it twice adds nothing.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.services import demo_seed


class Command(BaseCommand):
    help = "Create the demo club: live tournaments of bots, a finished one and a ruled dispute."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--play", action="store_true", help="drive the live bots to the end")
        parser.add_argument("--seed", type=int, default=1, help="the bots' random seed")

    def handle(self, *args: Any, **options: Any) -> None:
        demo = demo_seed.seed(play=options["play"], seed=options["seed"])
        for tournament in [demo.finished, *demo.live]:
            tournament.refresh_from_db()
            self.stdout.write(f"{tournament.name}: {tournament.status} (log v{tournament.version})")
        if demo.dispute is not None:
            self.stdout.write(f"Dispute {demo.dispute.pk}: {demo.dispute.status}")
