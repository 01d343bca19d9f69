"""Leaving: an account's live matches, its seats forgotten (its player id no longer maps to
it), and the label a deleted player's seat shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cacho.models import Match, Seat
from cacho.services import matches as match_service
from cacho.services import players


def live_matches_of(user: Any) -> list[str]:
    """The matches still played where the account plays a seat: its own, or a team's it
    partners."""
    seats = match_service.seats_of_user(user).filter(match__status=Match.STATUS_LIVE)
    return [str(match_id) for match_id in seats.values_list("match_id", flat=True)]


def forget_player(user: Any) -> int:
    """Mark the account's player deleted (`cacho.services.players`): from now on every
    seat it held shows as "deleted player N", N the number answered. No event changes."""
    return players.forget(user)


def seat_labels(seats: Sequence[Seat]) -> dict[tuple[str, str], str]:
    """(match id, seat name) -> the name shown for it (`cacho.services.players`)."""
    return players.labels_by_match(seats)


def player_deleted(user: Any) -> bool:
    return players.forgotten(user)


def deleted_player_label(number: int) -> str:
    return players.deleted_label(number)
