"""Seating a tournament table's players at once (`matches.take_seats`): the checks of
`take_seat`, seat by seat, and all or nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from cacho.models import Seat
from cacho.services import matches

pytestmark = [pytest.mark.usefixtures("committed_db"), pytest.mark.sqlite_too]


def accounts(*names: str) -> list[Any]:
    return [get_user_model().objects.create_user(name, password="pw-1234567") for name in names]


def holders(match: Any) -> dict[int, str | None]:
    return {
        seat.index: seat.user.username if seat.user else None
        for seat in Seat.objects.filter(match=match).select_related("user")
    }


def test_the_players_take_their_seats_in_one_step() -> None:
    ana, beto, caro = accounts("ana", "beto", "caro")
    match = matches.create_match("dudo", ["ana", "beto", "caro"])
    taken = matches.take_seats(match.pk, {2: caro, 0: ana, 1: beto})
    assert [seat.index for seat in taken] == [0, 1, 2]
    assert holders(match) == {0: "ana", 1: "beto", 2: "caro"}
    # Taking them again is no change: each already holds its own seat.
    matches.take_seats(match.pk, {0: ana, 1: beto})
    assert holders(match) == {0: "ana", 1: "beto", 2: "caro"}


@pytest.mark.parametrize(
    ("seating", "refusal"),
    [
        ({0: "ana", 5: "beto"}, "no-such-seat"),  # the table has seats 0 and 1
        ({0: "ana", 1: "caro"}, "seat-taken"),  # seat 1 is beto's already
        ({0: "ana", 2: "ana"}, "already-seated"),  # one seat per account
    ],
)
def test_a_refused_seat_takes_none_of_them(seating: dict[int, str], refusal: str) -> None:
    users = {user.username: user for user in accounts("ana", "beto", "caro")}
    match = matches.create_match("dudo", ["ana", "beto", "caro"] if 2 in seating else ["ana", "beto"])
    if refusal == "seat-taken":
        matches.take_seat(match.pk, 1, users["beto"])
    before = holders(match)
    with pytest.raises((LookupError, PermissionError), match=refusal):
        matches.take_seats(match.pk, {index: users[name] for index, name in seating.items()})
    assert holders(match) == before
