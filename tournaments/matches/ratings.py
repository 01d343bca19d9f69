"""What the ratings read of matches: the key that orders rated matches, and who sat in them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cacho.models import Event, Seat


def rating_key(match_id: Any) -> int | None:
    """A finished match's place in the ratings' order: the global position of its last
    event that is not a referee's (a ruling on a finished table keeps it where it was
    played; a reopened one moves to where it ends again). None for a match with no events."""
    rows = Event.objects.filter(stream_id=match_id).exclude(metadata__actor__startswith="referee:")
    return rows.order_by("-position").values_list("position", flat=True).first()


def rating_keys(match_ids: Sequence[Any]) -> dict[str, int]:
    """`rating_key` for many matches in one query (a rebuild), by match id."""
    from django.db.models import Max

    rows = (
        Event.objects.filter(stream_id__in=list(match_ids))
        .exclude(metadata__actor__startswith="referee:")
        .values("stream_id")
        .annotate(last=Max("position"))
    )
    return {str(row["stream_id"]): int(row["last"]) for row in rows}


def seat_users_of(match_ids: Sequence[Any]) -> dict[str, set[Any]]:
    """`seat_users` for many matches in one query, by match id."""
    found: dict[str, set[Any]] = {}
    rows = Seat.objects.filter(match_id__in=list(match_ids), user__isnull=False)
    for match_id, user_id in rows.values_list("match_id", "user_id"):
        found.setdefault(str(match_id), set()).add(user_id)
    return found
