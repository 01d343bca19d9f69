"""Table talk's rows (docs/table-talk.md). A message is append-only (the database refuses
UPDATE and DELETE) and kept out of the match's event stream: talk decides no rule. A mute
is one player's own choice; a report waits in a queue (a club's, or the site moderators')
until a moderator resolves it."""

from __future__ import annotations

from django.db import models


class ChatMessage(models.Model):
    PLAYERS = "players"
    SPECTATORS = "spectators"
    CHANNELS = (PLAYERS, SPECTATORS)
    CHANNEL_CHOICES = [(PLAYERS, "players"), (SPECTATORS, "spectators")]

    match = models.ForeignKey("cacho.Match", on_delete=models.PROTECT, related_name="chat_messages")
    channel = models.CharField(max_length=16, choices=CHANNEL_CHOICES)
    # The author's seat in the players' chat ("" in the spectators'), and the account, if any
    # (a walk-in holds a seat without one). The user is a plain id: a deleted account must
    # not rewrite an append-only row.
    seat_name = models.CharField(max_length=64, blank=True, default="")
    user_id = models.IntegerField(null=True, blank=True)
    author = models.CharField(max_length=150)
    # Either a quick phrase's key (each reader sees it in their language) or free text.
    phrase = models.CharField(max_length=32, blank=True, default="")
    text = models.CharField(max_length=1000, blank=True, default="")
    # Posted while the table played: a spectators' message then stays hidden from the players
    # until the end.
    during_play = models.BooleanField()
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["match", "channel", "id"], name="cacho_chat_match_channel")]

    def __str__(self) -> str:
        return f"{self.author} in {self.match_id} ({self.channel})"


class ChatMute(models.Model):
    """A seated player no longer sees another seat's messages in this match."""

    match = models.ForeignKey("cacho.Match", on_delete=models.CASCADE, related_name="chat_mutes")
    seat_name = models.CharField(max_length=64)
    muted = models.CharField(max_length=64)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seat_name", "muted"], name="cacho_chat_mute_once")
        ]


class ChatReport(models.Model):
    OPEN = "open"
    DISMISSED = "dismissed"
    ACTED = "acted"
    STATUS_CHOICES = [(OPEN, "open"), (DISMISSED, "dismissed"), (ACTED, "acted")]

    # No database constraint: the messages' table is append-only, emptied by TRUNCATE in the
    # tests, which a referencing constraint would refuse.
    message = models.ForeignKey(
        ChatMessage, on_delete=models.DO_NOTHING, db_constraint=False, related_name="reports"
    )
    match = models.ForeignKey("cacho.Match", on_delete=models.PROTECT, related_name="chat_reports")
    # Whose queue: a club's (its tournament's table; a plain id, cacho never imports the
    # tournaments app) or, when null, the site moderators' (permission `cacho.moderate_chat`).
    club_id = models.IntegerField(null=True, blank=True, db_index=True)
    reporter_id = models.IntegerField(null=True, blank=True)
    reporter = models.CharField(max_length=150)
    reason = models.CharField(max_length=500, blank=True, default="")
    # The messages around the reported one when it was reported, as the reporter could read them.
    context = models.JSONField(default=list)
    at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=STATUS_CHOICES, default=OPEN)
    resolved_by_id = models.IntegerField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        permissions = [("moderate_chat", "Can moderate the table talk of casual tables")]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter_id"], name="cacho_chat_report_once")
        ]
        indexes = [models.Index(fields=["club_id", "status", "id"], name="cacho_chat_report_queue")]

    def __str__(self) -> str:
        return f"report {self.pk} of message {self.message_id} ({self.status})"
