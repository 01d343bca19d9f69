"""A demo club with one Dudo and one Alalay tournament played by bot entrants.

Creates the club, an organiser, bot users and their entries, then starts round 1 (the
matches are created through the match service). `--play` also drives the bots to the end
(in-process, through the real write path). Running it twice reuses the club (idempotent
by slug) and adds no second pair of tournaments.
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from tournaments.models import Club, Tournament
from tournaments.services import create_club, create_tournament, register, start_tournament, sweep
from tournaments.services.bots import play_bots_until_stuck

SLUG = "demo"


class Command(BaseCommand):
    help = "Create a demo club with a Dudo and an Alalay tournament of bots and start them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--play", action="store_true", help="drive the bots until both tournaments end")
        parser.add_argument("--seed", type=int, default=1, help="the bots' random seed")

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model()
        organiser, _created = users.objects.get_or_create(username="demo-organiser")
        club = Club.objects.filter(slug=SLUG).first() or create_club("Club Demo", SLUG, organiser)
        tournaments = list(club.tournaments.all())
        if not tournaments:
            dudo = create_tournament(
                club.pk,
                organiser,
                name="Dudo demo (Swiss)",
                ruleset="dudo",
                stages=[{"name": "swiss", "format": "swiss", "params": {"rounds": 3, "table_size": 6}}],
            )
            alalay = create_tournament(
                club.pk,
                organiser,
                name="Alalay demo (Cochabamba)",
                ruleset="alalay",
                stages=[
                    {
                        "name": "event",
                        "format": "alalay_event",
                        "params": {"table_size": 4, "qualifying_rounds": 2, "finalists": 4},
                    }
                ],
            )
            for tournament, count in ((dudo, 12), (alalay, 8)):
                for i in range(1, count + 1):
                    bot, _new = users.objects.get_or_create(username=f"bot-{tournament.game}-{i:02d}")
                    register(tournament.pk, organiser, name=f"Bot {i:02d}", user=bot, is_bot=True)
                start_tournament(tournament.pk, organiser)
            tournaments = [dudo, alalay]
        if options["play"]:
            rng = random.Random(options["seed"])
            for tournament in tournaments:
                for _ in range(10_000):
                    play_bots_until_stuck(tournament, rng)
                    sweep()  # with a broker and no worker running, the results wait for it
                    tournament.refresh_from_db()
                    if tournament.status == Tournament.FINISHED:
                        break
        for tournament in tournaments:
            tournament.refresh_from_db()
            self.stdout.write(f"{tournament.name}: {tournament.status} (log v{tournament.version})")
