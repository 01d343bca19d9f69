"""`manage.py vapid_keys`: a new VAPID key pair for browser push, as environment lines."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.notices.push import generate_keys


class Command(BaseCommand):
    help = "Print a new VAPID key pair (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY) for browser push notices."

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = generate_keys()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
