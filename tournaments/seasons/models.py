"""Leagues of clubs and seasons (docs/seasons.md).

A season belongs to a club or to a league. Its standings (`SeasonLine`) and each counted
tournament's share of them (`SeasonResult`) are a projection of the tournaments' final
rankings (`tournaments.seasons.projection`): rewritten whenever a counted tournament
finishes or a ruling corrects its ranking, and rebuilt from scratch by
`manage.py rebuild_seasons`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

DEFAULT_POINTS = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


def default_points() -> list[int]:
    return list(DEFAULT_POINTS)


class League(models.Model):
    """Clubs that play one season together; its own owners, organisers and referees."""

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return self.name


class LeagueClub(models.Model):
    """A club invited into a league; it is a member once the club's owner accepts."""

    INVITED = "invited"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    STATUS_CHOICES = [(INVITED, _("invited")), (ACCEPTED, _("member")), (DECLINED, _("declined"))]

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="clubs")
    club = models.ForeignKey("tournaments.Club", on_delete=models.CASCADE, related_name="leagues")
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=INVITED)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["league", "club"]
        constraints = [models.UniqueConstraint(fields=["league", "club"], name="tournaments_leagueclub_once")]


class LeagueRole(models.Model):
    OWNER = "owner"
    ORGANISER = "organiser"
    REFEREE = "referee"
    ROLE_CHOICES = [(OWNER, _("owner")), (ORGANISER, _("organiser")), (REFEREE, _("referee"))]
    MANAGERS = (OWNER, ORGANISER)
    REFEREES = (OWNER, ORGANISER, REFEREE)

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_roles")
    role = models.CharField(_("role"), max_length=16, choices=ROLE_CHOICES)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "user", "role"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user", "role"], name="tournaments_leaguerole_once")
        ]


class Season(models.Model):
    PICKED = "picked"
    DATES = "dates"
    SELECTION_CHOICES = [
        (PICKED, _("the tournaments picked")),
        (DATES, _("every tournament in the dates")),
    ]

    club = models.ForeignKey(
        "tournaments.Club", null=True, blank=True, on_delete=models.PROTECT, related_name="seasons"
    )
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.PROTECT, related_name="seasons"
    )
    name = models.CharField(_("name"), max_length=160)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    selection = models.CharField(max_length=16, choices=SELECTION_CHOICES, default=DATES)
    # Points by final place (1st first); places past the table earn none.
    points = models.JSONField(default=default_points)
    participation = models.FloatField(_("participation points"), default=0)
    best_of = models.PositiveSmallIntegerField(_("best evenings counted"), null=True, blank=True)
    # The final its top entries were drawn into (`qualification`); it never counts itself.
    final = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    qualified = models.PositiveIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    projected_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=Q(club__isnull=False, league__isnull=True)
                | Q(club__isnull=True, league__isnull=False),
                name="tournaments_season_one_owner",
            )
        ]

    def __str__(self) -> str:
        return self.name


class SeasonTournament(models.Model):
    """A tournament picked to count in a season (selection `picked`)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="picked")
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["season", "tournament"]
        constraints = [
            models.UniqueConstraint(fields=["season", "tournament"], name="tournaments_seasontournament_once")
        ]


class SeasonResult(models.Model):
    """Projection: one player's final place in one counted tournament and what it scores."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="results")
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    player = models.CharField(max_length=100)  # "user:<id>" or "guest:<name folded>"
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=64)
    place = models.PositiveIntegerField()
    points = models.FloatField()

    class Meta:
        ordering = ["season", "tournament", "place", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "tournament", "player"], name="tournaments_seasonresult_once"
            )
        ]


class SeasonLine(models.Model):
    """Projection: one player's line of a season's standings."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="lines")
    position = models.PositiveIntegerField()
    rank = models.PositiveIntegerField()
    player = models.CharField(max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    name = models.CharField(max_length=64)
    total = models.FloatField()
    played = models.PositiveIntegerField()
    # [{"tournament", "place", "points", "counted"}] in the season's order of evenings
    evenings = models.JSONField(default=list)
    # The tie this line won against the next: "" | "better-places" | "last-evening", and
    # its detail ({"against", "place", "counts"} or {"against", "tournament", "places"}).
    tiebreak = models.CharField(max_length=16, blank=True, default="")
    tiebreak_detail = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["season", "position"]
        constraints = [
            models.UniqueConstraint(fields=["season", "position"], name="tournaments_seasonline_position"),
            models.UniqueConstraint(fields=["season", "player"], name="tournaments_seasonline_player"),
        ]
