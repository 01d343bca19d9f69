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
