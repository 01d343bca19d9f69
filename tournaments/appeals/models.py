"""Referee-only notes on a dispute. They stay out of the tournament log, which is public
(exports, the trail): only the club's referees read them (`services.referee_tools`).
Append-only: a note is never edited."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class RefereeNote(models.Model):
    dispute = models.ForeignKey("tournaments.Dispute", on_delete=models.CASCADE, related_name="notes")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    text = models.TextField(_("note"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["dispute", "created_at", "id"]
        verbose_name = _("referee note")
        verbose_name_plural = _("referee notes")

    def __str__(self) -> str:
        return f"note {self.pk} on dispute {self.dispute_id}"
