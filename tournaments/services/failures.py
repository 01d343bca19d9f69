"""A tournament's background steps (recording a result, drawing the next round) never stop
the others: a step that fails is logged and noted on its tournament (its organisers see
it), and the periodic sweep tries it again; the sweep clears the note once nothing of that
tournament is left behind (`results.sweep`)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from django.utils import timezone

from tournaments.models import Tournament

logger = logging.getLogger(__name__)

T = TypeVar("T")


def run_noted(tournament_id: int, step: str, action: Callable[[], T]) -> T | None:
    """`action()`, its failure logged and noted on the tournament (None then)."""
    try:
        return action()
    except Exception as exc:
        logger.exception("tournament %s: %s failed", tournament_id, step)
        Tournament.objects.filter(pk=tournament_id).update(
            projection_error=f"{step}: {type(exc).__name__}: {exc}"[:2000], projection_error_at=timezone.now()
        )
        return None


def clear_unless(tournament_ids: set[int]) -> None:
    """Clear the notes of the tournaments not in `tournament_ids` (those still behind)."""
    Tournament.objects.exclude(projection_error="").exclude(pk__in=tournament_ids).update(
        projection_error="", projection_error_at=None
    )
