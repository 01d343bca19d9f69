"""A signed digest of match chain heads, written from time to time (cacho.anchors.service)."""

from __future__ import annotations

from django.db import models


class HeadDigest(models.Model):
    """The heads ({match id: [version, hash]}) of the matches that moved since the digest
    before, their digest (sha256 of the canonical JSON) and its signature (HMAC-SHA256 with
    CACHO_ANCHOR_KEY). Append-only, as the logs it anchors."""

    made_at = models.DateTimeField()
    heads = models.JSONField()
    digest = models.CharField(max_length=64)
    signature = models.CharField(max_length=64)

    class Meta:
        app_label = "cacho"
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"digest {self.pk} ({len(self.heads)} heads) {self.digest[:12]}"
