"""One row per message to send: the task that delivers it takes its id, so a retry, a
redelivered task or the sweep never sends it twice once `sent_at` is set."""

from __future__ import annotations

from django.db import models


class OutgoingMail(models.Model):
    kind = models.CharField(max_length=64)  # the templates mail/<kind>.{subject.txt,txt,html}
    to = models.EmailField()
    context = models.JSONField(default=dict)
    language = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)
    # A delivery holds the row while it talks to the server; a claim older than
    # `tournaments.mail.delivery.CLAIM_SECONDS` was lost with its worker.
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    failed_at = models.DateTimeField(null=True, blank=True)  # given up: refused or out of retries
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        ordering = ["pk"]
        indexes = [models.Index(fields=["sent_at", "failed_at"], name="tournaments_mail_unsent")]

    def __str__(self) -> str:
        return f"{self.kind} → {self.to}"
