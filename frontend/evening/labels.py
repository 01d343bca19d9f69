"""The words of a club evening's pages, handed to their ES modules under `L.evening`: the
round clock (also on the tournament and match pages), the organiser console, the desk
(entries, check-in, seeding) and a club's management page."""

from __future__ import annotations

from typing import Any

from frontend.evening.clock_labels import clock_labels
from frontend.evening.club_labels import club_labels
from frontend.evening.desk_labels import console_labels, desk_labels


def evening_labels() -> dict[str, Any]:
    return {
        "clock": clock_labels(),
        "console": console_labels(),
        "desk": desk_labels(),
        "club": club_labels(),
    }
