"""Who is connected to which match right now (presence). Not part of the event log:
rows come and go with sockets; the periodic sweep removes those whose socket died
without saying goodbye."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class LiveConnection(models.Model):
    channel_name = models.CharField(max_length=200, primary_key=True)
    match = models.ForeignKey("cacho.Match", on_delete=models.CASCADE, related_name="connections")
    seat_name = models.CharField(max_length=64, blank=True, default="")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE)
    connected_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["match", "seat_name"], name="live_conn_match_seat")]

    def __str__(self) -> str:
        return f"{self.channel_name} on {self.match_id}"


class PresenceChange(models.Model):
    """A seated player's connection to the table changing: `connected` true when the
    seat's first socket opens, false when its last one closes or goes stale. Append-only (the
    database refuses UPDATE and DELETE) and kept out of the match's event stream: presence
    decides no rule, and it is written off the move's path (`cacho.live.presence_log`).
    The referee's review shows these on its timeline."""

    match = models.ForeignKey("cacho.Match", on_delete=models.PROTECT, related_name="presence_changes")
    seat_name = models.CharField(max_length=64)
    connected = models.BooleanField()
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["match", "at"], name="live_presence_match_at")]

    def __str__(self) -> str:
        return f"{self.seat_name} {'connected' if self.connected else 'disconnected'} at {self.at}"
