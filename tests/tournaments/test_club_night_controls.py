"""The director's controls of a club night: check-in closed before its deadline,
or closed and the tournament started in one step, both in the tournament log; a table made
physical or online before its first move, and refused once play has begun; the console's
seats and byes say which entries are out of play; the round clock refuses in words that say
what to do instead. Each refusal is `{code, message}` and leaves the stored data as it was."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from cacho.services import matches as match_service
from tests.cacho.helpers import command_id, state_of
from tests.tournaments.helpers import club_with_organiser
from tournaments.models import Entry, Membership, Table, Tournament, TournamentEvent
from tournaments.services import create_tournament, register, start_tournament

pytestmark = pytest.mark.django_db(transaction=True)

ONE_TABLE_OF_3 = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 3}}]
TWO_TABLES = [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]


def client(user: Any) -> APIClient:
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        api.force_authenticate(user)
    return api


def logged(tournament_id: int, kind: str) -> list[dict[str, Any]]:
    return list(
        TournamentEvent.objects.filter(tournament_id=tournament_id, type=kind)
        .order_by("version")
        .values_list("payload", flat=True)
    )


def head(tournament_id: int) -> tuple[int, str, Any]:
    t = Tournament.objects.get(pk=tournament_id)
    return t.version, t.status, t.checkin_deadline


def with_check_in(make_user: Any, names: tuple[str, ...] = ("Ana", "Beto", "Caro", "Dora")) -> dict[str, Any]:
    """A tournament whose check-in is open for another hour; every entry but the last checks in."""
    club, owner = club_with_organiser(make_user)
    referee = make_user("referee")
    Membership.objects.create(club=club, user=referee, role=Membership.REFEREE)
    deadline = timezone.now() + dt.timedelta(hours=1)
    tournament = create_tournament(
        club.pk, owner, name="Jueves", ruleset="dudo", stages=TWO_TABLES, checkin_deadline=deadline
    )
    entries = [register(tournament.pk, owner, name=name) for name in names]
    organiser = client(owner)
    for entry in entries[:-1]:
        assert organiser.post(f"/api/entries/{entry.pk}/check-in").status_code == 200
    return {
        "owner": owner,
        "referee": referee,
        "tournament": tournament,
        "entries": entries,
        "deadline": deadline,
    }


def test_check_in_closes_before_its_deadline_and_a_new_deadline_opens_it_again(make_user: Any) -> None:
    night = with_check_in(make_user)
    tid, late = night["tournament"].pk, night["entries"][-1]
    organiser = client(night["owner"])
    assert organiser.get(f"/api/tournaments/{tid}").json()["checkin_open"] is True

    # only the organisers close it; a refusal stores nothing
    before = head(tid)
    for api, status, code in (
        (client(night["referee"]), 403, "forbidden"),
        (client(None), 403, "not-authenticated"),
    ):
        refused = api.post(f"/api/tournaments/{tid}/check-in/close")
        assert (refused.status_code, refused.json()["code"]) == (status, code)
        assert head(tid) == before

    closed = organiser.post(f"/api/tournaments/{tid}/check-in/close")
    assert closed.status_code == 200, closed.content
    assert closed.json()["checkin_open"] is False
    (event,) = logged(tid, "check-in-closed")
    assert event["deadline"] == night["deadline"].isoformat()
    assert (event["checked_in"], event["not_checked_in"]) == (3, 1)
    assert dt.datetime.fromisoformat(event["closed_at"]) <= timezone.now()

    # closed is closed: no second close, no late check-in
    before = head(tid)
    again = organiser.post(f"/api/tournaments/{tid}/check-in/close")
    assert (again.status_code, again.json()["code"]) == (400, "checkin-closed")
    late_check_in = organiser.post(f"/api/entries/{late.pk}/check-in")
    assert (late_check_in.status_code, late_check_in.json()["code"]) == (400, "checkin-closed")
    assert head(tid) == before and Entry.objects.get(pk=late.pk).status == Entry.REGISTERED

    # the deadline stays the organiser's to change until the start: a later one opens check-in again
    reopened = organiser.patch(
        f"/api/tournaments/{tid}",
        {"checkin_deadline": (timezone.now() + dt.timedelta(minutes=30)).isoformat()},
        format="json",
    )
    assert reopened.status_code == 200 and reopened.json()["checkin_open"] is True
    assert organiser.post(f"/api/entries/{late.pk}/check-in").status_code == 200
    assert organiser.post(f"/api/tournaments/{tid}/check-in/close").status_code == 200
    assert len(logged(tid, "check-in-closed")) == 2

    # the start no longer waits for the clock: nobody is dropped, everyone checked in
    started = organiser.post(f"/api/tournaments/{tid}/start", {}, format="json")
    assert started.status_code == 200, started.content
    assert logged(tid, "no-shows-dropped") == [{"entries": []}]
    after_start = organiser.post(f"/api/tournaments/{tid}/check-in/close")
    assert (after_start.status_code, after_start.json()["code"]) == (400, "registration-closed")


def test_a_tournament_without_check_in_has_nothing_to_close(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user)
    tournament = create_tournament(club.pk, owner, name="Sin lista", ruleset="dudo", stages=TWO_TABLES)
    before = head(tournament.pk)
    refused = client(owner).post(f"/api/tournaments/{tournament.pk}/check-in/close")
    assert (refused.status_code, refused.json()["code"]) == (400, "checkin-not-required")
    assert head(tournament.pk) == before
    missing = client(owner).post("/api/tournaments/999999/check-in/close")
    assert (missing.status_code, missing.json()["code"]) == (404, "not-found")


def test_start_before_the_deadline_closes_check_in_in_the_same_step(make_user: Any) -> None:
    night = with_check_in(make_user)
    tid, absent = night["tournament"].pk, night["entries"][-1]
    organiser = client(night["owner"])

    before = head(tid)
    refused = organiser.post(f"/api/tournaments/{tid}/start", {}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "checkin-open")
    assert "close check-in and start" in refused.json()["message"]
    assert head(tid) == before and not logged(tid, "check-in-closed")

    started = organiser.post(f"/api/tournaments/{tid}/start", {"close_check_in": True}, format="json")
    assert started.status_code == 200, started.content
    assert started.json()["status"] == "running"
    kinds = list(
        TournamentEvent.objects.filter(tournament_id=tid, version__gt=before[0])
        .order_by("version")
        .values_list("type", flat=True)
    )
    assert kinds[:3] == ["check-in-closed", "no-shows-dropped", "tournament-started"]
    assert logged(tid, "no-shows-dropped") == [{"entries": [absent.pk]}]
    assert Entry.objects.get(pk=absent.pk).status == Entry.NO_SHOW
    (closed,) = logged(tid, "check-in-closed")
    assert closed["deadline"] == night["deadline"].isoformat() and closed["not_checked_in"] == 1


def test_closing_and_starting_is_one_step_a_refused_start_closes_nothing(make_user: Any) -> None:
    """Too few checked in to play: the start is refused, and check-in stays open."""
    night = with_check_in(make_user, names=("Ana", "Beto"))
    tid = night["tournament"].pk
    before = head(tid)
    refused = client(night["owner"]).post(
        f"/api/tournaments/{tid}/start", {"close_check_in": True}, format="json"
    )
    assert refused.status_code == 400, refused.content
    assert head(tid) == before and not logged(tid, "check-in-closed")


# ---------------------------------------------------------------- physical or online


def one_table(make_user: Any, *, physical: bool = False) -> dict[str, Any]:
    club, owner = club_with_organiser(make_user)
    keeper = make_user("keeper")
    Membership.objects.create(club=club, user=keeper, role=Membership.SCOREKEEPER)
    tournament = create_tournament(
        club.pk, owner, name="Mesa", ruleset="dudo", stages=ONE_TABLE_OF_3, physical=physical
    )
    for name in ("Ana", "Beto", "Caro"):
        register(tournament.pk, owner, name=name)
    start_tournament(tournament.pk, owner)
    return {
        "owner": owner,
        "keeper": keeper,
        "tournament": tournament,
        "table": Table.objects.get(round__tournament=tournament),
    }


def table_head(table: Table) -> tuple[Any, bool, int]:
    table.refresh_from_db()
    return table.match_id, table.physical, Tournament.objects.get(pk=table.round.tournament_id).version


def test_a_table_goes_physical_and_back_online_before_its_first_move(make_user: Any) -> None:
    night = one_table(make_user)
    table, organiser = night["table"], client(night["owner"])
    online = table.match_id

    refused = client(night["keeper"]).post(f"/api/tables/{table.pk}/online")
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    not_physical = organiser.post(f"/api/tables/{table.pk}/online")
    assert (not_physical.status_code, not_physical.json()["code"]) == (409, "table-already-online")

    made = organiser.post(f"/api/tables/{table.pk}/physical")
    assert made.status_code == 200 and made.json()["physical"] is True
    assert made.json()["scorekeeper_url"] == f"/scorekeeper/tables/{table.pk}/"
    back = organiser.post(f"/api/tables/{table.pk}/online")
    assert back.status_code == 200, back.content
    body = back.json()
    assert body["physical"] is False and body["scorekeeper_url"] is None
    assert body["match_id"] not in (str(online), made.json()["match_id"])
    (event,) = logged(night["tournament"].pk, "table-made-online")
    assert event == {"round": 1, "table": 1, "match": body["match_id"], "replaced": made.json()["match_id"]}

    # the new online match is played as any: a move, and the table can no longer change
    table.refresh_from_db()
    state = state_of(table.match_id)
    player = state.config.players[state.round.to_act]
    match_service.submit(table.match_id, player, {"type": "bid", "quantity": 1, "face": 5}, command_id())
    before = table_head(table)
    started = organiser.post(f"/api/tables/{table.pk}/physical")
    assert (started.status_code, started.json()["code"]) == (409, "table-under-way")
    assert "before its first move" in started.json()["message"]
    assert table_head(table) == before


def test_a_physical_table_with_an_entry_stays_physical(make_user: Any) -> None:
    night = one_table(make_user, physical=True)
    table, keeper = night["table"], client(night["keeper"])
    sheet = keeper.get(f"/api/tables/{table.pk}/sheet").json()
    choice = next(o for o in sheet["options"]["outcomes"] if o["call"] == "dudo")
    entered = keeper.post(
        f"/api/tables/{table.pk}/entries",
        {
            "command_id": "e1",
            "type": "outcome",
            "call": "dudo",
            "by": choice["by"],
            "loser": choice["loser"],
            "direction": choice["direction"],
            "expected_version": sheet["version"],
        },
        format="json",
    )
    assert entered.status_code == 201, entered.content
    before = table_head(table)
    refused = client(night["owner"]).post(f"/api/tables/{table.pk}/online")
    assert (refused.status_code, refused.json()["code"]) == (409, "table-under-way")
    assert table_head(table) == before and not logged(night["tournament"].pk, "table-made-online")


# ---------------------------------------------------------------- the console's marks and the clock's words


def test_the_console_marks_entries_out_of_play_at_their_seats(make_user: Any) -> None:
    night = one_table(make_user)
    tid, organiser = night["tournament"].pk, client(night["owner"])
    beto = Entry.objects.get(tournament_id=tid, name="Beto")
    assert organiser.post(f"/api/entries/{beto.pk}/withdraw").status_code == 200
    seats = organiser.get(f"/api/tournaments/{tid}/console").json()["round"]["tables"][0]["seats"]
    status = {seat["name"]: seat["status"] for seat in seats}
    assert status == {"Ana": "active", "Beto": "withdrawn", "Caro": "active"}


def test_the_clock_refuses_in_words_that_say_what_to_do(make_user: Any) -> None:
    night = one_table(make_user)
    organiser = client(night["owner"])
    rnd = night["table"].round
    url = f"/api/rounds/{rnd.pk}/clock"

    def refused(body: dict[str, Any], code: str, lang: str = "en") -> str:
        version = Tournament.objects.get(pk=night["tournament"].pk).version
        answer = organiser.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE=lang)
        assert (answer.status_code, answer.json()["code"]) == (400, code), answer.content
        assert Tournament.objects.get(pk=night["tournament"].pk).version == version
        return str(answer.json()["message"])

    assert "start it" in refused({"action": "pause"}, "clock-not-running")
    # (the guests' seats wait for their players: the director starts anyway)
    started = organiser.post(url, {"action": "start", "minutes": 1, "confirm": True}, format="json")
    assert started.status_code == 200, started.content
    assert "pause it, add time or reset it" in refused({"action": "start", "minutes": 30}, "clock-started")
    words = refused({"action": "extend", "minutes": -5}, "clock-time-invalid")
    assert "cannot end before the time already used" in words and "end it at time instead" in words
    spanish = refused({"action": "extend", "minutes": -5}, "clock-time-invalid", "es")
    assert "tiempo ya usado" in spanish
