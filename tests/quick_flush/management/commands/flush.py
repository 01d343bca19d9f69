from __future__ import annotations

from typing import Any

from django.core.management.commands import flush
from django.db import DEFAULT_DB_ALIAS

from tests.database import empty_tables


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        database = options["database"]
        if database != DEFAULT_DB_ALIAS:
            super().handle(**options)
            return
        # The content types and permissions are the same for every test: they stay.
        empty_tables()
