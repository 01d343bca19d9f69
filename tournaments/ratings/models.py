"""The ratings' projections (docs/ratings.md): the rated tables in the fold's order, each
player's rating per game family, and what each rated table did to each rating. Rebuilt from
the match logs by `tournaments.ratings.projection`; Django finds them through
`tournaments.models`."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class RatedMatch(models.Model):
    """Projection: one finished rated table as the rating fold reads it (`ratings.projection`):
    its family, its place in the fold's order (`key`: the global position of its match's
    last event that is not a referee's, then the match id) and its rated players'
    placements `[[user id, placement], ...]` by user id."""

    match_id = models.UUIDField(unique=True)
    family = models.CharField(max_length=16)
    key = models.BigIntegerField()
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    placements = models.JSONField(default=list)

    class Meta:
        ordering = ["family", "key", "match_id"]
        indexes = [models.Index(fields=["family", "key", "match_id"], name="tournaments_ratedmatch_order")]


class PlayerRating(models.Model):
    """Projection: a player's rating in a game family after every rated table so far."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    family = models.CharField(max_length=16)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    tables = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["family", "-ordinal", "user"]
        constraints = [
            models.UniqueConstraint(fields=["user", "family"], name="tournaments_playerrating_one")
        ]
        indexes = [models.Index(fields=["family", "-ordinal"], name="tournaments_rating_board")]


class RatingChange(models.Model):
    """Projection: what one rated table did to one player's rating (the history plot, the
    profile's results and head-to-head records)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    family = models.CharField(max_length=16)
    match_id = models.UUIDField()
    key = models.BigIntegerField()
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    placement = models.PositiveSmallIntegerField()
    table_size = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["family", "key", "match_id", "user"]
        constraints = [
            models.UniqueConstraint(fields=["match_id", "user"], name="tournaments_ratingchange_one")
        ]
        indexes = [
            models.Index(fields=["family", "key", "match_id"], name="tournaments_change_order"),
            models.Index(fields=["user", "family", "key"], name="tournaments_change_player"),
        ]
