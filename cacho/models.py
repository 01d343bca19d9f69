"""The match server's tables: matches (stream metadata), seats, the append-only event log,
dice seeds, and the projections rebuilt from the log (see docs/event-store.md)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from cacho.database.log_order import CurrentTransactionId


class Match(models.Model):
    """One event stream: what never changes (game, ruleset, options) plus the write
    path's bookkeeping (version, last hash), locked with SELECT … FOR UPDATE on every append."""

    STATUS_LIVE = "live"
    STATUS_FINISHED = "finished"
    STATUS_CHOICES = [(STATUS_LIVE, "live"), (STATUS_FINISHED, "finished")]

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=16)
    ruleset = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    options_hash = models.CharField(max_length=64)
    turn_seconds = models.PositiveIntegerField(default=30)
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=STATUS_LIVE)
    version = models.PositiveIntegerField(default=0)
    last_hash = models.CharField(max_length=64, default="")
    # The fairness scope whose seed is committed but not yet revealed ("" when none).
    pending_scope = models.CharField(max_length=32, blank=True, default="")
    turn_key = models.CharField(max_length=64, blank=True, default="")
    deadline_ms = models.BigIntegerField(null=True, blank=True)
    imported = models.BooleanField(default=False)
    tournament_ref = models.CharField(max_length=64, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.ruleset} match {self.id}"


class Player(models.Model):
    """A person's public pseudonym: matches seat an account as `p<id>` (its `public_id`),
    so the events of a match name this id and never the person. Who `p7` is lives only
    here, outside every chain: deleting the account erases what this row leads to, and
    no event changes (docs/leaving.md)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="cacho_player",
    )
    # When the account was deleted: the player shows as "deleted player <id>" from then on.
    deleted_at = models.DateTimeField(null=True, blank=True)

    @property
    def public_id(self) -> str:
        return f"{PLAYER_PREFIX}{self.pk}"

    def __str__(self) -> str:
        return self.public_id


PLAYER_PREFIX = "p"


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="cacho_seats"
    )
    # A bot plays this seat: its strength (one of the game's `bot_strengths`); "" for a person.
    bot = models.CharField(max_length=16, blank=True, default="", db_default="")  # raw inserts omit it
    # The name pages show for an account's seat, outside the chain, given by whoever made
    # the match (a tournament entry's name: a team's, or a player's as entered); "": the
    # account's username. Blanked when the account is deleted (docs/leaving.md).
    label = models.CharField(max_length=120, blank=True, default="", db_default="")

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="cacho_seat_unique_index"),
            models.UniqueConstraint(fields=["match", "name"], name="cacho_seat_unique_name"),
            models.UniqueConstraint(
                fields=["match", "user"], condition=Q(user__isnull=False), name="cacho_seat_one_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.index})"


class SeatPartner(models.Model):
    """A teammate's account at a seat that is a pair or team (Alalay, rules.md §8 AL-8): it
    plays the seat as the seat's own account does (one account per match, seat or partner)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="partners")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["match", "index", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="cacho_seatpartner_one_per_user")
        ]


class Event(models.Model):
    """Append-only: the database refuses UPDATE and DELETE (trigger, migration 0002)."""

    position = models.BigAutoField(primary_key=True)
    # No foreign key in the database (migration 0006): the append writes events only in
    # the statement that updates their match's row, and a trigger keeps a match with
    # events from being deleted or re-keyed (the ORM's PROTECT says so too).
    stream = models.ForeignKey(
        Match, on_delete=models.PROTECT, related_name="events", db_index=False, db_constraint=False
    )
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=48)
    schema_version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    metadata = models.JSONField(default=dict)
    # The client's command id, on the first event a command caused (UNIQUE per stream).
    command_id = models.CharField(max_length=64, null=True, blank=True)
    recorded_at = models.DateTimeField()
    hash = models.CharField(max_length=64)
    # The id of the transaction that wrote the event (PostgreSQL; 0 on SQLite and for the
    # events stored before it was kept): the global order is (txid, position), read up to
    # the oldest transaction still running (cacho.database.log_order).
    txid = models.BigIntegerField(db_default=CurrentTransactionId(), editable=False)

    class Meta:
        ordering = ["position"]
        indexes = [models.Index(fields=["txid", "position"], name="cacho_event_log_order")]
        constraints = [
            models.UniqueConstraint(fields=["stream", "version"], name="cacho_event_stream_version"),
            models.UniqueConstraint(
                fields=["stream", "command_id"],
                condition=Q(command_id__isnull=False),
                name="cacho_event_stream_command",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stream_id}#{self.version} {self.type}"


class DiceSeed(models.Model):
    """A fairness seed: secret until revealed (never leaves the server before)."""

    # No index of its own: UNIQUE(match, scope) leads with the match (one index fewer to
    # write at every round's seed).
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seeds", db_index=False)
    scope = models.CharField(max_length=32)
    seed = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    drawn = models.PositiveIntegerField(default=0)
    revealed = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "scope"], name="cacho_seed_unique_scope")]


class MatchSummary(models.Model):
    """Projection: one row per match, for lists and standings."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True, related_name="summary")
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=16)
    to_act = models.CharField(max_length=64, blank=True, default="")
    winners = models.JSONField(default=list)
    scores = models.JSONField(default=dict)
    last_event_at = models.DateTimeField(null=True, blank=True)


class LiveTable(models.Model):
    """Projection: the public (spectator) view of the table."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True, related_name="live_table")
    version = models.PositiveIntegerField(default=0)
    view = models.JSONField(default=dict)


class Snapshot(models.Model):
    """A match's engine state at a version (cacho.eventlog.snapshots): a cold process loads the
    newest one and replays only the events after it. A cache, never the truth: one written
    by other engine code (`engine` fingerprint) is ignored, and any can be deleted."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    engine = models.CharField(max_length=64)
    state = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="cacho_snapshot_match_version")
        ]

    def __str__(self) -> str:
        return f"{self.match_id}@{self.version}"


from cacho.anchors.models import HeadDigest  # noqa: E402,F401  anchors of the chains (cacho.anchors)
from cacho.talk.models import ChatMessage, ChatMute, ChatReport  # noqa: E402,F401  table talk's rows
