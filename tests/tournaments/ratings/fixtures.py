"""Rated tables for the ratings' API and page tests, stored through the projection's own
`record` (as a finished table's commit stores them): a few players of a club with
histories long enough for some ratings to be settled and others provisional."""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction

from tournaments.models import RatedMatch
from tournaments.ratings.projection import record

# Five tables of four among ana, beto, caro and dani (ana wins them all, beto second ...),
# then one 1v1 of ana and eva: eva is provisional (one table).
TABLES: list[list[tuple[str, int]]] = [
    [("ana", 1), ("beto", 2), ("caro", 3), ("dani", 4)],
    [("ana", 1), ("beto", 2), ("caro", 3), ("dani", 3)],
    [("ana", 1), ("beto", 2), ("dani", 3), ("caro", 4)],
    [("ana", 1), ("caro", 2), ("beto", 3), ("dani", 4)],
    [("ana", 1), ("beto", 2), ("caro", 3), ("dani", 4)],
    [("eva", 1), ("ana", 2)],
]


def rate_tables(users: dict[str, Any], family: str = "dudo", tables: Any = TABLES) -> None:
    for number, lines in enumerate(tables, start=1):
        match = uuid.uuid4()
        placements = sorted([users[name].pk, place] for name, place in lines)
        with transaction.atomic():
            record(match, RatedMatch(match_id=match, family=family, key=number * 10, placements=placements))
