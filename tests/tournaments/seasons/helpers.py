"""Evenings for the season tests: a tournament of the club, everyone at one table, played
to its end with the places the test chooses (through the write path's own steps, no match
played), or with real bidding matches where a ruling has to change a place."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.tournaments.helpers import play_scripted
from tournaments.models import Club, Table, Tournament
from tournaments.services import create_tournament, register, start_tournament


def one_table(size: int) -> list[dict[str, Any]]:
    return [{"name": "evening", "format": "swiss", "params": {"rounds": 1, "table_size": size}}]


def evening(
    club: Club, organiser: Any, name: str, places: Mapping[str, int], users: Mapping[str, Any] | None = None
) -> Tournament:
    """A one-table evening whose final places are `places` (name -> place; equal places
    share, as the table's result shares them); `users` names the entries that are accounts,
    the others are guests."""
    users = users or {}
    tournament = create_tournament(
        club.pk, organiser, name=name, ruleset="dudo", stages=one_table(len(places))
    )
    for player in places:
        register(tournament.pk, organiser, name=player, user=users.get(player))
    start_tournament(tournament.pk, organiser)

    def result(table: Table) -> list[dict[str, Any]]:
        lines = []
        for seat in table.seats.select_related("entry"):
            place = places[seat.entry.name]
            lines.append(
                {
                    "entry": seat.entry_id,
                    "placement": place,
                    "dice_left": len(places) - place,
                    "eliminations": len(places) - place,
                }
            )
        return lines

    return play_scripted(tournament, result)
