"""Helpers for the tournament tests: a club with an organiser, bot fields, a driver that
plays every bot through the real match service until the tournament is over, and one that
finishes every table with results chosen by the test."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.db import transaction

from cacho.services import matches as match_service
from tests.cacho.helpers import command_id, legal_bidding_move, state_of
from tournaments.clubs.members import create_club
from tournaments.models import Club, Table, Tournament
from tournaments.services import advance, register, tables
from tournaments.services.bots import play_bots_until_stuck
from tournaments.services.lifecycle import locked


def club_with_organiser(make_user: Any, slug: str = "club") -> tuple[Club, Any]:
    owner = make_user(f"owner-{slug}")
    return create_club(f"Club {slug}", slug, owner), owner


def register_bots(tournament: Tournament, organiser: Any, count: int, prefix: str = "Bot") -> list[Any]:
    return [
        register(tournament.pk, organiser, name=f"{prefix} {i:02d}", is_bot=True, rating=float(count - i))
        for i in range(1, count + 1)
    ]


def drive(tournament: Tournament, rng: random.Random, max_moves: int = 200_000) -> Tournament:
    """Bots play until the tournament is over: the results and the next rounds follow from
    the matches' own commits (no sweep, no explicit step)."""
    moves = 0
    while moves < max_moves:
        moved = play_bots_until_stuck(tournament, rng)
        moves += moved
        tournament.refresh_from_db()
        if tournament.status == Tournament.FINISHED:
            return tournament
        if not moved:
            raise AssertionError(f"the tournament is stuck after {moves} moves")
    raise AssertionError("too many moves")


def by_seat(table: Table) -> list[dict[str, Any]]:
    """A table's result in seat order (seat 0 wins), the winner with every elimination and
    5 dice left at table 1, 3 elsewhere: results a test can predict."""
    seats = list(table.seats.order_by("index"))
    return [
        {
            "entry": seat.entry_id,
            "placement": place,
            "dice_left": (5 if table.number == 1 else 3) if place == 1 else 0,
            "eliminations": len(seats) - 1 if place == 1 else 0,
        }
        for place, seat in enumerate(seats, start=1)
    ]


def finish_round(
    tournament: Tournament, result_of: Callable[[Table], list[dict[str, Any]]] = by_seat
) -> None:
    """Every table of the latest round finished with `result_of(table)` through the write
    path's own steps (no match is played), then the next round drawn."""
    rnd = tournament.rounds.order_by("-number").first()
    assert rnd is not None
    for table in rnd.tables.filter(status=Table.PLAYING).order_by("number"):
        with transaction.atomic():
            current = locked(tournament.pk)
            tables.finish_table(current, table, result_of(table), match_version=None, actor="test")
            finished = tables.finish_round_if_done(current, table.round)
            tables.standings_after(current, table.round, finished)
    advance(tournament.pk)


def play_scripted(
    tournament: Tournament, result_of: Callable[[Table], list[dict[str, Any]]] = by_seat
) -> Tournament:
    """`finish_round` until the tournament is over."""
    for _ in range(100):
        tournament.refresh_from_db()
        if tournament.status == Tournament.FINISHED:
            return tournament
        finish_round(tournament, result_of)
    raise AssertionError("the tournament does not finish")


def play_bidding_match(match_id: Any, rng: random.Random) -> None:
    """Random legal moves through the match write path until the bidding match is over."""
    for _ in range(5000):
        state = state_of(match_id)
        if state.phase == "over":
            return
        player, command = legal_bidding_move(state, rng)
        match_service.submit(match_id, player, command, command_id())
    raise AssertionError(f"match {match_id} does not end")


def seat_named(match_id: Any, name: str) -> str:
    """The seat `name` plays in the match: an online tournament table or an open table seats
    an account by its player id (`p7`), so the seat of the account called `name`, else of
    the entry called `name` at the match's table, else the seat called `name` itself."""
    from cacho.models import Seat
    from tournaments.models import TableSeat

    seat = Seat.objects.filter(match_id=match_id, user__username=name).first()
    if seat is None:
        held = TableSeat.objects.filter(
            table__match_id=match_id, entry__name=name, match_seat__isnull=False
        ).first()
        if held is not None:
            seat = Seat.objects.filter(match_id=match_id, index=held.match_seat).first()
    return name if seat is None else seat.name
