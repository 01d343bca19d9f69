"""`manage.py anchor_heads`: one signed digest of the match heads that moved (cacho.anchors);
what the beat does every 5 minutes, for a deployment without one (cron)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from cacho.anchors.service import anchor_heads


class Command(BaseCommand):
    help = "Anchor the chain heads of the matches that moved since the last digest (signed)."

    def handle(self, *args: Any, **options: Any) -> None:
        made = anchor_heads()
        if made is None:
            self.stdout.write("no head moved since the last digest")
        else:
            self.stdout.write(f"digest {made.pk}: {len(made.heads)} head(s) {made.digest}")
