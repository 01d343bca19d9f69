"""Site staff act as referees (or organisers) only where they hold the role: a
superuser without a membership sees no queue, rules nothing, manages no tournament and
watches a club's match as a spectator; given the club's referee role, they referee it like
anyone. Django's admin keeps working for them: it checks their staff status on its own."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from cacho.models import Event
from tests.tournaments.disputes import Club
from tournaments.clubs.members import grant_role as add_member
from tournaments.clubs.roles import has_role
from tournaments.models import Dispute, Membership, TournamentEvent
from tournaments.services.disputes import queue, referees_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]


def _filed(club: Club) -> dict[str, Any]:
    table = club.table_of("ana")
    answer = club.client(club.players["ana"]).post(
        f"/api/matches/{table.match_id}/disputes", {"reason": "misclick", "round": 1}
    )
    assert answer.status_code == 201, answer.json()
    body: dict[str, Any] = answer.json()
    return body


def test_a_superuser_without_a_role_referees_nothing(club: Club, make_user: Any) -> None:
    root = make_user("root", is_staff=True, is_superuser=True)
    dispute = _filed(club)
    match_id = club.table_of("ana").match_id
    as_root = club.client(root)

    assert not has_role(root, club.tournament.club_id, Membership.REFEREES)
    assert not has_role(root, club.tournament.club_id, Membership.MANAGERS)
    assert list(queue(root)) == [] and not referees_match(match_id, root)
    assert as_root.get("/api/disputes").json()["disputes"] == []
    assert as_root.get(f"/api/disputes/{dispute['id']}").status_code == 403
    assert as_root.get(f"/api/matches/{match_id}").json()["viewer"]["kind"] == "spectator"
    refused = as_root.get(f"/api/matches/{match_id}/events?as=ana")
    assert (refused.status_code, refused.json()["code"]) == (403, "view-not-allowed")

    before = Event.objects.count(), TournamentEvent.objects.count()
    for path, body in (
        ("pause", {"reason": "root says"}),
        ("preview", {"ruling": {"kind": "uphold"}}),
        ("rule", {"ruling": {"kind": "uphold"}, "reason": "root says"}),
    ):
        answer = as_root.post(f"/api/disputes/{dispute['id']}/{path}", body, format="json")
        assert answer.status_code == 403, (path, answer.json())
    settings_change = as_root.patch(
        f"/api/tournaments/{club.tournament.pk}", {"appeal_minutes": 60}, format="json"
    )
    assert settings_change.status_code == 403, settings_change.json()
    assert (Event.objects.count(), TournamentEvent.objects.count()) == before
    assert Dispute.objects.get(pk=dispute["id"]).status == Dispute.OPEN


def test_a_superuser_with_the_referee_role_referees_that_club(club: Club, make_user: Any) -> None:
    root = make_user("root", is_staff=True, is_superuser=True)
    add_member(club.tournament.club_id, root, Membership.REFEREE, club.organiser)
    dispute = _filed(club)
    as_root = club.client(root)
    assert [d["id"] for d in as_root.get("/api/disputes").json()["disputes"]] == [dispute["id"]]
    match_id = club.table_of("ana").match_id
    assert as_root.get(f"/api/matches/{match_id}").json()["viewer"]["kind"] == "referee"
    ruled = as_root.post(
        f"/api/disputes/{dispute['id']}/rule",
        {"ruling": {"kind": "uphold"}, "reason": "Play stands."},
        format="json",
    )
    assert ruled.status_code == 200, ruled.json()
    assert ruled.json()["status"] == "ruled"


def test_the_admin_works_for_a_superuser_without_a_role(club: Club, make_user: Any) -> None:
    root = make_user("root", is_staff=True, is_superuser=True)
    _filed(club)
    browser = Client()
    browser.force_login(root)
    for path in (
        "/admin/",
        "/admin/tournaments/tournament/",
        f"/admin/tournaments/tournament/{club.tournament.pk}/change/",
        "/admin/tournaments/tournamentevent/",
        "/admin/cacho/match/",
    ):
        assert browser.get(path).status_code == 200, path
