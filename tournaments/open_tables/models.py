"""An open table and the seats taken at it before its match starts."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class OpenTable(models.Model):
    """A casual table waiting for players in the lobby; once started, its match."""

    OPEN = "open"
    PLAYING = "playing"
    FINISHED = "finished"
    CLOSED = "closed"  # the host left before the start
    STATUS_CHOICES = [(OPEN, OPEN), (PLAYING, PLAYING), (FINISHED, FINISHED), (CLOSED, CLOSED)]

    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    ruleset = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    size = models.PositiveSmallIntegerField()
    turn_seconds = models.PositiveIntegerField(default=30)
    rated = models.BooleanField(default=False)
    private = models.BooleanField(default=False)
    # The private link's secret (every table has one; only a private table needs it).
    token = models.CharField(max_length=43, unique=True)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=OPEN)
    match_id = models.UUIDField(null=True, blank=True, unique=True)
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    # The accounts a rematch invites (the earlier table's players): they sit without the link.
    invited = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "private", "created_at"], name="tournaments_opentable_lobby")
        ]

    def __str__(self) -> str:
        return f"open table {self.pk} ({self.ruleset}, {self.status})"


class OpenSeat(models.Model):
    """A seat taken at an open table: by an account or by a bot of a strength. A row
    exists only for a taken seat; the unique index lets one of two players take it."""

    table = models.ForeignKey(OpenTable, on_delete=models.CASCADE, related_name="places")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    bot = models.CharField(max_length=16, blank=True, default="")

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="tournaments_openseat_index"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(user__isnull=False),
                name="tournaments_openseat_one_per_user",
            ),
        ]
