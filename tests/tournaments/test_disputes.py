"""Disputes through the API: who may file (a party to the table), within which window, pinned
to what; the queue of the club's referees; a round under appeal does not finish; the club's
referees (and not site staff) see every die; bad input gets its code and stores nothing."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from cacho.models import Event, Match
from cacho.services import matches as match_service
from tests.tournaments.disputes import Club, club_with_organiser
from tests.tournaments.helpers import seat_named
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Dispute, Membership, Round, Table, Tournament, TournamentEvent

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

_commands = itertools.count(1)
TWO_ROUNDS_1V1 = [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]


def finish(table: Table) -> None:
    leaver = seat_named(table.match_id, table.seats.order_by("index").last().entry.name)
    match_service.submit(table.match_id, leaver, {"type": "abandon"}, f"disputes-{next(_commands)}")


def stored() -> tuple[int, int, int]:
    return Event.objects.count(), TournamentEvent.objects.count(), Dispute.objects.count()


def test_a_player_files_and_the_club_referee_sees_it_in_the_queue(club: Club) -> None:
    table = club.table_of("ana")
    ana = club.client(club.players["ana"])
    answer = ana.post(
        f"/api/matches/{table.match_id}/disputes", {"reason": "misclick", "text": "I meant 3×4", "round": 1}
    )
    assert answer.status_code == 201, answer.json()
    dispute = answer.json()
    assert dispute["status"] == "open" and dispute["pinned"] == {"round": 1, "turn": None, "version": None}
    assert dispute["filed_by"] == "ana" and dispute["can_rule"] is False
    assert [step["type"] for step in dispute["trail"]] == ["filed"]
    event = TournamentEvent.objects.filter(tournament=club.tournament, type="dispute-filed").get()
    assert event.payload["dispute"] == dispute["id"] and event.payload["reason"] == "misclick"

    queue = club.client(club.referee).get("/api/disputes").json()["disputes"]
    assert [d["id"] for d in queue] == [dispute["id"]] and queue[0]["can_rule"] is True
    assert club.client(club.elsewhere("ana")).get("/api/disputes").json()["disputes"] == []
    assert club.client(club.elsewhere("ana")).get(f"/api/disputes/{dispute['id']}").status_code == 403
    assert club.client(club.opponent("ana")).get(f"/api/disputes/{dispute['id']}").status_code == 200

    comment = club.client(club.referee).post(f"/api/disputes/{dispute['id']}/comments", {"text": "Looking."})
    assert comment.status_code == 201
    assert [(s["type"], s["by"], s["text"]) for s in comment.json()["trail"]] == [
        ("filed", "ana", "I meant 3×4"),
        ("comment", "rita", "Looking."),
    ]


def test_the_club_referee_sees_every_die_and_site_staff_alone_does_not(club: Club, make_user: Any) -> None:
    match_id = club.table_of("ana").match_id
    staff = make_user("staffer", is_staff=True)
    assert club.client(club.referee).get(f"/api/matches/{match_id}").json()["viewer"]["kind"] == "referee"
    assert club.client(staff).get(f"/api/matches/{match_id}").json()["viewer"]["kind"] == "spectator"
    assert club.client(staff).get(f"/api/matches/{match_id}/record").json()["code"] == "match-not-finished"
    assert club.client(club.referee).get(f"/api/matches/{match_id}/record").status_code == 200

    # A referee reviewing a round looks as a spectator or as a seated player; nobody else may.
    as_spectator = club.client(club.referee).get(f"/api/matches/{match_id}/events?as=spectator")
    as_referee = club.client(club.referee).get(f"/api/matches/{match_id}/events")
    assert as_spectator.status_code == 200 and as_spectator.json() != as_referee.json()
    assert as_spectator.json() == club.client(None).get(f"/api/matches/{match_id}/events").json()
    seat = seat_named(match_id, "ana")
    as_ana = club.client(club.referee).get(f"/api/matches/{match_id}/events?as={seat}")
    assert as_ana.json() == club.client(club.players["ana"]).get(f"/api/matches/{match_id}/events").json()
    refused = club.client(club.opponent("ana")).get(f"/api/matches/{match_id}/events?as={seat}")
    assert (refused.status_code, refused.json()["code"]) == (403, "view-not-allowed")
    unknown = club.client(club.referee).get(f"/api/matches/{match_id}/events?as=zoe")
    assert (unknown.status_code, unknown.json()["code"]) == (400, "view-unknown")


@pytest.mark.parametrize(
    ("who", "body", "status", "code"),
    [
        ("elsewhere", {"reason": "misclick"}, 403, "dispute-not-at-table"),
        ("stranger", {"reason": "misclick"}, 403, "dispute-not-at-table"),
        ("ana", {"reason": "bad-luck"}, 400, "dispute-reason-unknown"),
        ("ana", {"reason": "misclick", "round": 9}, 400, "dispute-round-unknown"),
        ("ana", {"reason": "misclick", "round": 0}, 400, "dispute-round-unknown"),
        ("ana", {"reason": "misclick", "turn": 1}, 400, "dispute-turn-unknown"),
        ("ana", {"reason": "misclick", "version": 999}, 400, "dispute-version-unknown"),
        ("ana", {"reason": "misclick", "round": 1, "version": 1}, 400, "dispute-pin-invalid"),
        ("ana", {"reason": "misclick", "colour": "red"}, 400, "unknown-field"),
        ("ana", {"reason": "other", "text": "x" * 2001}, 400, "dispute-text-too-long"),
    ],
)
def test_a_bad_dispute_gets_its_code_and_stores_nothing(
    club: Club, make_user: Any, who: str, body: dict[str, Any], status: int, code: str
) -> None:
    user = club.elsewhere("ana") if who == "elsewhere" else club.players.get(who) or make_user(who)
    before = stored()
    answer = club.client(user).post(
        f"/api/matches/{club.table_of('ana').match_id}/disputes", body, format="json"
    )
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert stored() == before


def test_a_match_of_no_tournament_cannot_be_disputed(club: Club) -> None:
    casual = match_service.create_match("dudo", ["ana", "beto"], turn_seconds=30)
    answer = club.client(club.players["ana"]).post(f"/api/matches/{casual.pk}/disputes", {"reason": "other"})
    assert (answer.status_code, answer.json()["code"]) == (404, "dispute-not-tournament")
    assert (
        club.client(club.players["ana"]).post("/api/matches/nope/disputes", {"reason": "other"}).status_code
        == 404
    )


def test_a_round_under_appeal_waits_and_goes_on_once_the_dispute_is_withdrawn(club: Club) -> None:
    table = club.table_of("ana")
    filed = club.client(club.players["ana"]).post(
        f"/api/matches/{table.match_id}/disputes", {"reason": "timeout"}
    )
    for each in Table.objects.filter(round__tournament=club.tournament):
        finish(each)
    assert Table.objects.filter(round__tournament=club.tournament, status=Table.FINISHED).count() == 2
    assert Round.objects.get(tournament=club.tournament, number=1).status == Round.PLAYING
    assert not Round.objects.filter(tournament=club.tournament, number=2).exists()

    stranger = club.client(club.elsewhere("ana")).post(f"/api/disputes/{filed.json()['id']}/withdraw")
    assert (stranger.status_code, stranger.json()["code"]) == (403, "forbidden")
    withdrawn = club.client(club.players["ana"]).post(f"/api/disputes/{filed.json()['id']}/withdraw")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    assert Round.objects.filter(tournament=club.tournament, number=2).exists()  # drawn after the commit
    again = club.client(club.players["ana"]).post(f"/api/disputes/{filed.json()['id']}/withdraw")
    assert (again.status_code, again.json()["code"]) == (409, "dispute-closed")

    # Round 2 is drawn: round 1's tables can no longer be disputed.
    late = club.client(club.players["ana"]).post(
        f"/api/matches/{table.match_id}/disputes", {"reason": "other"}
    )
    assert (late.status_code, late.json()["code"]) == (409, "dispute-window-closed")


def test_the_last_round_stays_open_for_the_appeal_window(club: Club) -> None:
    for number in (1, 2):
        for each in Table.objects.filter(round__tournament=club.tournament, round__number=number):
            finish(each)
    club.tournament.refresh_from_db()
    assert club.tournament.status == Tournament.FINISHED
    last = club.table_of("ana", 2)
    ana = club.client(club.players["ana"])
    answer = ana.post(f"/api/matches/{last.match_id}/disputes", {"reason": "wrong-result"})
    assert answer.status_code == 201 and answer.json()["window_closes_at"] is not None
    Tournament.objects.filter(pk=club.tournament.pk).update(appeal_minutes=0)
    closed = ana.post(f"/api/matches/{last.match_id}/disputes", {"reason": "wrong-result"})
    assert (closed.status_code, closed.json()["code"]) == (409, "dispute-window-closed")
    assert Match.objects.get(pk=last.match_id).status == Match.STATUS_FINISHED


def test_the_queue_is_for_referees_of_the_club(club: Club, make_user: Any) -> None:
    other_referee = make_user("otto")
    other, owner = club_with_organiser(make_user, "other")
    add_member(other.pk, other_referee, Membership.REFEREE, owner)
    table = club.table_of("ana")
    club.client(club.players["ana"]).post(f"/api/matches/{table.match_id}/disputes", {"reason": "collusion"})
    assert club.client(other_referee).get("/api/disputes").json()["disputes"] == []
    assert len(club.client(club.organiser).get("/api/disputes").json()["disputes"]) == 1
    staff = make_user("staff-only", is_staff=True)
    assert club.client(staff).get("/api/disputes").json()["disputes"] == []
    assert club.client(None).get("/api/disputes").status_code in (401, 403)
    bad = club.client(club.referee).get("/api/disputes?status=maybe")
    assert (bad.status_code, bad.json()["code"]) == (400, "status-unknown")


def test_the_appeal_window_is_an_organisers_setting(club: Club) -> None:
    organiser = club.client(club.organiser)
    path = f"/api/tournaments/{club.tournament.pk}"
    assert organiser.get(path).json()["appeal_minutes"] == 15
    changed = organiser.patch(path, {"appeal_minutes": 30}, format="json")
    assert changed.status_code == 200 and changed.json()["appeal_minutes"] == 30  # running: still allowed
    logged = TournamentEvent.objects.filter(tournament=club.tournament, type="settings-changed").last()
    assert logged.payload["changes"] == {"appeal_minutes": 30}
    for bad in (-1, 1441, "soon"):
        refused = organiser.patch(path, {"appeal_minutes": bad}, format="json")
        assert refused.status_code == 400, refused.json()
    assert club.client(club.referee).patch(path, {"appeal_minutes": 5}, format="json").status_code == 403


def test_a_casual_match_lists_no_disputes_and_an_unknown_one_is_not_found(club: Club) -> None:
    casual = match_service.create_match("dudo", ["ana", "beto"], turn_seconds=30)
    ana = club.client(club.players["ana"])
    assert ana.get(f"/api/matches/{casual.pk}/disputes").json() == {"disputes": []}
    missing = ana.get("/api/matches/00000000-0000-0000-0000-000000000000/disputes")
    assert (missing.status_code, missing.json()["code"]) == (404, "dispute-not-tournament")
