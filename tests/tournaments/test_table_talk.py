"""Table talk at a club's tournament table (docs/table-talk.md): the players' chat is off
unless the organisers switch it on (a stable code when refused, nothing stored), and a
report goes to the club's queue, which the club's referees see and site moderators do not."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission

from cacho.models import ChatMessage, ChatReport
from tests.tournaments.disputes import Club
from tests.tournaments.helpers import club_with_organiser
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Membership

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]


def chat_of(club: Club) -> str:
    return f"/api/matches/{club.table_of('ana').match_id}/chat"


def test_the_players_chat_is_off_for_a_tournament_until_the_organisers_switch_it_on(club: Club) -> None:
    ana = club.client(club.players["ana"])
    refused = ana.post(chat_of(club), {"channel": "players", "phrase": "good-luck"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "chat-off")
    assert ChatMessage.objects.count() == 0
    settings = ana.get(chat_of(club)).json()["settings"]
    assert settings["player_chat"] is False and settings["can_post"] == []
    # The spectators' chat stays open.
    watcher = club.client(club.elsewhere("ana"))
    assert (
        watcher.post(chat_of(club), {"channel": "spectators", "text": "go ana"}, format="json").status_code
        == 201
    )

    assert club.client(club.players["ana"]).patch(
        f"/api/tournaments/{club.tournament.pk}", {"player_chat": True}, format="json"
    ).status_code in (403, 404)  # a player is no organiser
    switched = club.client(club.organiser).patch(
        f"/api/tournaments/{club.tournament.pk}", {"player_chat": True}, format="json"
    )
    assert switched.status_code == 200, switched.content  # the tournament runs: allowed at any time
    assert switched.json()["player_chat"] is True
    said = ana.post(chat_of(club), {"channel": "players", "phrase": "good-luck"}, format="json")
    assert said.status_code == 201, said.content


def test_a_new_tournament_has_the_players_chat_off_unless_asked(make_user: Any) -> None:
    club, organiser = club_with_organiser(make_user, "talk")
    client = Club(None, organiser, None, {}).client(organiser)  # type: ignore[arg-type]
    body = {"club": club.pk, "name": "Quiet", "ruleset": "dudo"}
    assert client.post("/api/tournaments", body, format="json").json()["player_chat"] is False
    loud = client.post("/api/tournaments", {**body, "name": "Loud", "player_chat": True}, format="json")
    assert loud.json()["player_chat"] is True


def test_a_report_at_a_club_table_goes_to_the_clubs_queue(club: Club, make_user: Any) -> None:
    club.client(club.organiser).patch(
        f"/api/tournaments/{club.tournament.pk}", {"player_chat": True}, format="json"
    )
    rival = club.opponent("ana")
    ana = club.client(club.players["ana"])
    first = ana.post(chat_of(club), {"channel": "players", "phrase": "hello"}, format="json").json()
    rude = club.client(rival).post(chat_of(club), {"channel": "players", "text": "you fool"}, format="json")
    filed = ana.post(f"{chat_of(club)}/reports", {"message": rude.json()["id"]}, format="json")
    assert filed.status_code == 201, filed.content
    assert filed.json()["queue"] == "club" and filed.json()["club"] == club.tournament.club_id
    assert [m["id"] for m in filed.json()["context"]] == [first["id"], rude.json()["id"]]

    rita = club.client(club.referee).get("/api/talk/reports").json()["reports"]
    assert [r["message"]["text"] for r in rita] == ["you fool"]
    site = make_user("site-mod")
    site.user_permissions.add(Permission.objects.get(codename="moderate_chat"))
    site_queue = club.client(type(site).objects.get(pk=site.pk)).get("/api/talk/reports")
    assert site_queue.status_code == 200 and site_queue.json()["reports"] == []
    other, owner = club_with_organiser(make_user, "other")
    other_ref = make_user("other-ref")
    add_member(other.pk, other_ref, Membership.REFEREE, owner)
    assert club.client(other_ref).get("/api/talk/reports").json()["reports"] == []
    report = rita[0]["id"]
    refused = club.client(other_ref).post(
        f"/api/talk/reports/{report}/resolve", {"outcome": "acted"}, format="json"
    )
    assert (refused.status_code, refused.json()["code"]) == (404, "chat-report-unknown")
    done = club.client(club.referee).post(
        f"/api/talk/reports/{report}/resolve", {"outcome": "dismissed"}, format="json"
    )
    assert done.status_code == 200 and ChatReport.objects.get().status == "dismissed"
