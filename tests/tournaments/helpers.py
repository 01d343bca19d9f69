"""Helpers for the tournament tests: a club with an organiser, bot fields, and a driver that
plays every bot through the real match service until the tournament is over."""

from __future__ import annotations

import random
from typing import Any

from tournaments.models import Club, Tournament
from tournaments.projections import project_results
from tournaments.services import create_club, register
from tournaments.services.bots import play_bots_until_stuck
from tournaments.tasks import advance_tournament


def club_with_organiser(make_user: Any, slug: str = "club") -> tuple[Club, Any]:
    owner = make_user(f"owner-{slug}")
    return create_club(f"Club {slug}", slug, owner), owner


def register_bots(tournament: Tournament, organiser: Any, count: int, prefix: str = "Bot") -> list[Any]:
    return [
        register(tournament.pk, organiser, name=f"{prefix} {i:02d}", is_bot=True, rating=float(count - i))
        for i in range(1, count + 1)
    ]


def drive(tournament: Tournament, rng: random.Random, max_moves: int = 200_000) -> Tournament:
    """Bots play, the results projection runs, the advancement task creates rounds."""
    moves = 0
    idle = 0
    while moves < max_moves:
        moved = play_bots_until_stuck(tournament, rng)
        moves += moved
        if moved:
            idle = 0
            continue
        project_results()
        advance_tournament(tournament.pk)  # what the worker does with the task scheduled after commit
        tournament.refresh_from_db()
        if tournament.status == Tournament.FINISHED:
            return tournament
        idle += 1
        if idle > 3:
            raise AssertionError(f"the tournament is stuck after {moves} moves")
    raise AssertionError("too many moves")
