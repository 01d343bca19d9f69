"""The demo club that `make run` seeds (`manage.py seed_demo`), so that a newcomer sees each
use of the platform at once: a live Dudo and a live Alalay tournament whose bots play in
the serving process, a tournament already finished (podium, exports, the bots' ratings),
and a dispute on it that the demo referee has ruled.

Everything goes through the services every caller uses: the finished tournament is
played out by its bots through the match write path, the dispute is filed by a bot at
the table and ruled by the referee. Each part is found by its name, so seeding again adds
nothing, and an older demo club gains the parts it lacks.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model

from tournaments.clubs.members import create_club
from tournaments.clubs.members import grant_role as add_member
from tournaments.errors import TournamentError
from tournaments.models import Club, Dispute, Membership, Table, Tournament
from tournaments.ratings import projection
from tournaments.services import create_tournament, disputes, register, rulings, start_tournament, sweep
from tournaments.services.bots import play_bots_until_stuck

SLUG = "demo"
ORGANISER = "demo-organiser"
REFEREE = "demo-referee"
# Documented in README.md and docs/tournaments.md ("Demo"); set only in development.
REFEREE_PASSWORD = "cacho-demo"

LIVE_DUDO = "Dudo demo (Swiss)"
LIVE_ALALAY = "Alalay demo (Cochabamba)"
FINISHED = "Dudo demo (finished)"

# Far more moves than any demo tournament needs; a bound, so a bug cannot spin forever.
MAX_PASSES = 10_000


@dataclass
class Demo:
    club: Club
    live: list[Tournament]
    finished: Tournament
    dispute: Dispute | None  # None: an old demo whose appeal window closed before it was filed


def _user(username: str) -> Any:
    user, _created = get_user_model().objects.get_or_create(username=username)
    return user


def _referee() -> Any:
    referee = _user(REFEREE)
    if settings.CACHO_ENV == "development":
        if not referee.check_password(REFEREE_PASSWORD):
            referee.set_password(REFEREE_PASSWORD)
            referee.save(update_fields=["password"])
    elif referee.has_usable_password():
        # The demo's login is published: a production install never lets it open.
        referee.set_unusable_password()
        referee.save(update_fields=["password"])
    return referee


def _bots(tournament: Tournament, organiser: Any, count: int) -> None:
    for i in range(1, count + 1):
        bot = _user(f"bot-{tournament.game}-{i:02d}")
        register(tournament.pk, organiser, name=f"Bot {i:02d}", user=bot, is_bot=True)


def _live(club: Club, organiser: Any) -> list[Tournament]:
    found = {t.name: t for t in club.tournaments.filter(name__in=[LIVE_DUDO, LIVE_ALALAY])}
    if LIVE_DUDO not in found:
        dudo = create_tournament(
            club.pk,
            organiser,
            name=LIVE_DUDO,
            round_appeal_minutes=0,  # bots appeal nothing: their rounds follow each other at once
            ruleset="dudo",
            stages=[{"format": "swiss", "params": {"rounds": 3, "table_size": 6}}],
        )
        _bots(dudo, organiser, 12)
        start_tournament(dudo.pk, organiser)
        found[LIVE_DUDO] = dudo
    if LIVE_ALALAY not in found:
        alalay = create_tournament(
            club.pk,
            organiser,
            name=LIVE_ALALAY,
            round_appeal_minutes=0,  # bots appeal nothing: their rounds follow each other at once
            ruleset="alalay",
            stages=[
                {
                    "format": "alalay_event",
                    "params": {"table_size": 4, "qualifying_rounds": 2, "finalists": 4},
                }
            ],
        )
        _bots(alalay, organiser, 8)
        start_tournament(alalay.pk, organiser)
        found[LIVE_ALALAY] = alalay
    return [found[LIVE_DUDO], found[LIVE_ALALAY]]


def play_out(tournament: Tournament, rng: random.Random) -> Tournament:
    """The bots play every table of the tournament to its end, through the write path."""
    for _ in range(MAX_PASSES):
        play_bots_until_stuck(tournament, rng)
        sweep()  # with a broker and no worker running, the results wait for one
        tournament.refresh_from_db()
        if tournament.status == Tournament.FINISHED:
            break
    return tournament


def _rate(tournament: Tournament) -> None:
    """Rate the finished tables now: with a broker and no worker running the rating tasks
    wait for one, and the demo shows its ratings at once (an input stored already changes
    nothing, so a worker arriving later does no harm)."""
    for match_id in Table.objects.filter(round__tournament=tournament, match_id__isnull=False).values_list(
        "match_id", flat=True
    ):
        projection.update_match(match_id)


def _finished(club: Club, organiser: Any, rng: random.Random) -> Tournament:
    tournament = club.tournaments.filter(name=FINISHED).first()
    if tournament is None:
        tournament = create_tournament(
            club.pk,
            organiser,
            name=FINISHED,
            round_appeal_minutes=0,  # bots appeal nothing: their rounds follow each other at once
            ruleset="dudo",
            stages=[{"format": "swiss", "params": {"rounds": 2, "table_size": 4}}],
        )
        # The live Dudo tournament's first eight bots: their profiles show these ratings.
        _bots(tournament, organiser, 8)
        start_tournament(tournament.pk, organiser)
    if tournament.status != Tournament.FINISHED:
        play_out(tournament, rng)
    _rate(tournament)
    return tournament


def _ruled_dispute(tournament: Tournament, referee: Any) -> Dispute | None:
    """A bot at the last round's first table disputes its first round (the last round's
    appeal window is open after the tournament ends) and the referee rules on it."""
    found = Dispute.objects.filter(tournament=tournament).order_by("pk").first()
    if found is not None and found.status != Dispute.OPEN:
        return found
    if found is None:
        table = (
            Table.objects.filter(round__tournament=tournament, match_id__isnull=False)
            .order_by("-round__number", "number")
            .prefetch_related("seats__entry__user")
            .first()
        )
        assert table is not None, "a finished tournament has tables"
        filer = next(seat.entry.user for seat in table.seats.all() if seat.entry.user is not None)
        try:
            found = disputes.file_dispute(
                table.match_id,
                filer,
                reason="misclick",
                text="My bid in round 1 is not the one I meant to send. Can it be taken back?",
                round=1,
            )
        except TournamentError as exc:
            if exc.code != "dispute-window-closed":
                raise
            return None
        disputes.comment(
            found.pk,
            referee,
            "The match log shows the bid sent once and accepted, and the round's dice "
            "match the commitment published before anyone bid.",
        )
    ruled = rulings.rule(
        found.pk,
        referee,
        {"kind": "uphold"},
        "The bid stands: the log shows it sent once, and the table played on it.",
    )
    return ruled


def seed(play: bool = False, seed: int = 1) -> Demo:
    """The demo club with all its parts (idempotent); `play` also plays the live
    tournaments to their end in this process."""
    organiser = _user(ORGANISER)
    club = Club.objects.filter(slug=SLUG).first() or create_club("Club Demo", SLUG, organiser)
    referee = _referee()
    if not Membership.objects.filter(club=club, user=referee, role=Membership.REFEREE).exists():
        add_member(club.pk, referee, Membership.REFEREE, organiser)
    rng = random.Random(seed)
    finished = _finished(club, organiser, rng)
    dispute = _ruled_dispute(finished, referee)
    live = _live(club, organiser)
    if play:
        for tournament in live:
            play_out(tournament, rng)
    return Demo(club=club, live=live, finished=finished, dispute=dispute)


__all__ = ["FINISHED", "REFEREE", "REFEREE_PASSWORD", "SLUG", "Demo", "play_out", "seed"]
