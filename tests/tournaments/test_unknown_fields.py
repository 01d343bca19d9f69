"""A field an endpoint does not know is refused (400 `unknown-field`, nothing stored) on
every module of the tournaments API: a misspelt field would otherwise change nothing and
answer 200."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.helpers import club_with_organiser
from tournaments.models import Club, Entry, Membership, Tournament
from tournaments.seasons.models import League
from tournaments.services import create_tournament

pytestmark = [pytest.mark.django_db]

SWISS = [{"name": "swiss", "format": "swiss", "params": {"rounds": 3, "table_size": 4}}]


def client(user: Any) -> APIClient:
    made = APIClient()
    made.force_authenticate(user)
    return made


def evening(make_user: Callable[..., Any]) -> tuple[Club, Tournament, Any]:
    club, owner = club_with_organiser(make_user)
    tournament = create_tournament(club.pk, owner, name="Martes", ruleset="dudo", stages=SWISS)
    return club, tournament, owner


def stored(tournament: Tournament) -> tuple[Any, ...]:
    return (
        Club.objects.get(pk=tournament.club_id).name,
        Membership.objects.count(),
        Entry.objects.count(),
        Tournament.objects.get(pk=tournament.pk).name,
        League.objects.count(),
    )


@pytest.mark.parametrize(
    ("method", "path", "body", "unknown"),
    [
        ("post", "/api/clubs/{club}/members", {"username": "newcomer", "role": "player", "rol": "x"}, "rol"),
        ("patch", "/api/clubs/{club}", {"name": "Renamed", "colour": "red"}, "colour"),
        ("post", "/api/tournaments/{tournament}/entries/bulk", {"names": "Ana\nBeto", "sort": 1}, "sort"),
        ("patch", "/api/tournaments/{tournament}", {"name": "Jueves", "round_minutes": 30}, "round_minutes"),
        ("post", "/api/leagues", {"name": "Liga", "colour": "red"}, "colour"),
    ],
)
def test_an_unknown_field_is_refused_and_nothing_is_stored(
    make_user: Callable[..., Any], method: str, path: str, body: dict[str, Any], unknown: str
) -> None:
    club, tournament, owner = evening(make_user)
    make_user("newcomer")
    before = stored(tournament)
    url = path.format(club=club.pk, tournament=tournament.pk)
    answer = getattr(client(owner), method)(url, body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "unknown-field"), answer.json()
    assert unknown in answer.json()["message"]
    assert stored(tournament) == before


def test_the_same_body_without_the_unknown_field_is_taken(make_user: Callable[..., Any]) -> None:
    _club, tournament, owner = evening(make_user)
    answer = client(owner).post(
        f"/api/tournaments/{tournament.pk}/entries/bulk", {"names": "Ana\nBeto"}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    assert Entry.objects.filter(tournament=tournament).count() == 2
