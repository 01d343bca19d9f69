"""Entries are known by their id: a rename is a label (results keep flowing), seeding
ratings are the organisers' alone, a withdrawn entry can be reinstated while its stage has
a place for it, a no-show forfeits one table and plays on; every change is in the log."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from rest_framework.test import APIClient

from cacho.services import matches as match_service
from tests.tournaments.helpers import club_with_organiser
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Entry, Membership, Round, Table, Tournament, TournamentEvent
from tournaments.services import create_tournament, log, register, start_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

_commands = itertools.count(1)
SWISS_1V1 = [{"name": "swiss", "format": "swiss", "params": {"rounds": 3, "table_size": 2}}]
BRACKET = [{"name": "cup", "format": "single_elimination", "params": {}}]


def client(user: Any) -> APIClient:
    made = APIClient()
    made.force_authenticate(user)
    return made


def logged(tournament: Tournament, kind: str) -> list[dict[str, Any]]:
    return [
        e.payload
        for e in TournamentEvent.objects.filter(tournament=tournament, type=kind).order_by("version")
    ]


def end_tables(tournament: Tournament, number: int) -> None:
    for table in Table.objects.filter(
        round__tournament=tournament, round__number=number, status=Table.PLAYING
    ):
        seats = list(table.seats.filter(forfeited=False).order_by("index"))
        if table.match_id and len(seats) > 1:
            name = match_service_seat_name(table.match_id, seats[-1].match_seat)
            match_service.submit(table.match_id, name, {"type": "abandon"}, f"entries-{next(_commands)}")


def match_service_seat_name(match_id: Any, index: int) -> str:
    from cacho.models import Seat

    return Seat.objects.get(match_id=match_id, index=index).name


def field(
    make_user: Any, plan: list[dict[str, Any]], count: int = 4, slug: str = "club"
) -> tuple[Tournament, Any, list[Entry]]:
    club, organiser = club_with_organiser(make_user, slug)
    tournament = create_tournament(club.pk, organiser, name="Cup", ruleset="dudo", stages=plan)
    entries = [register(tournament.pk, organiser, name=f"P{i}") for i in range(1, count + 1)]
    return tournament, organiser, entries


def test_a_player_cannot_seed_themself_but_an_organiser_can(make_user: Any) -> None:
    tournament, organiser, entries = field(make_user, SWISS_1V1)
    player = make_user("player")
    refused = client(player).post(
        f"/api/tournaments/{tournament.pk}/entries", {"name": "Me", "rating": 9999}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["code"] == "rating-organisers-only"
    assert not Entry.objects.filter(tournament=tournament, name="Me").exists()
    mine = client(player).post(f"/api/tournaments/{tournament.pk}/entries", {"name": "Me"}, format="json")
    assert mine.status_code == 201
    own = client(player).patch(f"/api/entries/{mine.json()['id']}", {"rating": 9999}, format="json")
    assert own.status_code == 403 and Entry.objects.get(name="Me").rating is None
    rated = client(organiser).patch(f"/api/entries/{entries[0].pk}", {"rating": 1500}, format="json")
    assert rated.status_code == 200 and rated.json()["rating"] == 1500
    assert logged(tournament, log.RATING_SET) == [{"entry": entries[0].pk, "rating": 1500.0}]
    start_tournament(tournament.pk, organiser)
    late = client(organiser).patch(f"/api/entries/{entries[0].pk}", {"rating": 1}, format="json")
    assert late.status_code == 400 and late.json()["code"] == "registration-closed"


def test_a_rename_mid_tournament_is_a_label_and_results_keep_flowing(make_user: Any) -> None:
    tournament, organiser, entries = field(make_user, SWISS_1V1)
    start_tournament(tournament.pk, organiser)
    renamed = client(organiser).patch(f"/api/entries/{entries[0].pk}", {"name": "Ana María"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Ana María"
    taken = client(organiser).patch(f"/api/entries/{entries[1].pk}", {"name": "Ana María"}, format="json")
    assert taken.status_code == 400 and taken.json()["code"] == "entry-name-taken"
    end_tables(tournament, 1)
    assert Round.objects.filter(tournament=tournament).count() == 2  # the results went through
    lines = [
        line for t in Table.objects.filter(round__tournament=tournament, round__number=1) for line in t.result
    ]
    assert sorted(line["entry"] for line in lines) == sorted(e.pk for e in entries)
    assert logged(tournament, log.ENTRY_RENAMED) == [
        {"entry": entries[0].pk, "from": "P1", "to": "Ana María"}
    ]


def test_settings_changes_are_logged_and_the_rules_freeze_at_the_start(make_user: Any) -> None:
    tournament, organiser, _entries = field(make_user, SWISS_1V1)
    api = client(organiser)
    assert (
        api.patch(f"/api/tournaments/{tournament.pk}", {"turn_seconds": 45}, format="json").status_code == 200
    )
    start_tournament(tournament.pk, organiser)
    frozen = api.patch(
        f"/api/tournaments/{tournament.pk}", {"options": {"calza_out_of_turn": True}}, format="json"
    )
    assert frozen.status_code == 400 and frozen.json()["code"] == "tournament-frozen"
    assert (
        api.patch(f"/api/tournaments/{tournament.pk}", {"name": "Copa Norte"}, format="json").status_code
        == 200
    )
    changes = [e["changes"] for e in logged(tournament, log.SETTINGS_CHANGED)]
    assert changes == [{"turn_seconds": 45}, {"name": "Copa Norte"}]


def test_a_reinstated_entry_plays_on_in_a_swiss_but_not_in_a_bracket_that_moved_on(make_user: Any) -> None:
    tournament, organiser, entries = field(make_user, SWISS_1V1, 5)
    start_tournament(tournament.pk, organiser)
    leaver = entries[0]
    assert client(organiser).post(f"/api/entries/{leaver.pk}/withdraw").status_code == 200
    end_tables(tournament, 1)
    seated = set(
        Table.objects.filter(round__tournament=tournament, round__number=2).values_list(
            "seats__entry", flat=True
        )
    )
    assert leaver.pk not in seated
    back = client(organiser).post(f"/api/entries/{leaver.pk}/reinstate")
    assert back.status_code == 200 and back.json()["status"] == "active"
    end_tables(tournament, 2)
    seated = set(
        Table.objects.filter(round__tournament=tournament, round__number=3).values_list(
            "seats__entry", flat=True
        )
    )
    assert leaver.pk in seated | set(Round.objects.get(tournament=tournament, number=3).byes)
    assert [e["entry"] for e in logged(tournament, log.REINSTATED)] == [leaver.pk]

    cup, cup_organiser, players = field(make_user, BRACKET, 4, "cup")
    start_tournament(cup.pk, cup_organiser)
    client(cup_organiser).post(f"/api/entries/{players[0].pk}/withdraw")
    end_tables(cup, 1)
    late = client(cup_organiser).post(f"/api/entries/{players[0].pk}/reinstate")
    assert late.status_code == 400 and late.json()["code"] == "reinstate-too-late"


def test_a_no_show_forfeits_one_table_and_plays_on(make_user: Any) -> None:
    tournament, organiser, entries = field(make_user, SWISS_1V1)
    referee, player = make_user("referee"), make_user("someone")
    add_member(tournament.club_id, referee, Membership.REFEREE, organiser)
    start_tournament(tournament.pk, organiser)
    table = Table.objects.get(round__tournament=tournament, round__number=1, seats__entry=entries[0])
    body = {"table": table.pk}
    refused = client(player).post(f"/api/entries/{entries[0].pk}/forfeit", body, format="json")
    assert refused.status_code == 403
    done = client(referee).post(f"/api/entries/{entries[0].pk}/forfeit", body, format="json")
    assert done.status_code == 200, done.json()
    table.refresh_from_db()
    assert table.status == Table.FINISHED
    (mine,) = [line for line in table.result if line["entry"] == entries[0].pk]
    assert mine["placement"] == 2
    assert Entry.objects.get(pk=entries[0].pk).status == Entry.ACTIVE
    again = client(referee).post(f"/api/entries/{entries[0].pk}/forfeit", body, format="json")
    assert again.status_code == 400 and again.json()["code"] == "table-finished"
    assert logged(tournament, log.SEAT_FORFEITED) == [{"entry": entries[0].pk, "table": table.pk}]


def test_a_winner_who_withdraws_before_the_table_is_recorded_keeps_the_win(
    make_user: Any, settings: Any
) -> None:
    """The match ended (its result not yet recorded: the listener is late); the winner then
    withdraws. The table's result is recorded first, so the log says the entry withdrew
    after winning it, and the win stands."""
    settings.CACHO_MATCH_FINISHED = []  # the results step has not run yet
    club, organiser = club_with_organiser(make_user, "late")
    tournament = create_tournament(club.pk, organiser, name="Late", ruleset="dudo", stages=SWISS_1V1)
    for name in ("ana", "beto", "caro", "dani"):
        register(tournament.pk, organiser, name=name)
    start_tournament(tournament.pk, organiser)
    table = Table.objects.filter(round__tournament=tournament, round__number=1).first()
    seats = list(table.seats.order_by("index"))
    winner = seats[0].entry
    loser_name = match_service_seat_name(table.match_id, seats[1].match_seat)
    match_service.submit(table.match_id, loser_name, {"type": "abandon"}, f"entries-{next(_commands)}")
    table.refresh_from_db()
    assert table.status == Table.PLAYING  # ended, not recorded

    client(organiser).post(f"/api/entries/{winner.pk}/withdraw")
    types = list(TournamentEvent.objects.filter(tournament=tournament).values_list("type", flat=True))
    assert types.index(log.TABLE_FINISHED) < types.index(log.WITHDRAWN)
    table.refresh_from_db()
    assert {line["entry"]: line["placement"] for line in table.result}[winner.pk] == 1
    assert logged(tournament, log.WITHDRAWN)[0]["forfeited_tables"] == []


def test_an_entry_that_withdraws_mid_match_forfeits_that_table_whatever_the_match_made_of_it(
    make_user: Any,
) -> None:
    """Everyone but one leaves an Alalay table with nothing scored: the one left wins it
    (rules.md §9 P-3), the leavers share the next place (equal totals). The entry that
    withdrew is a forfeit, placed last, whatever its total."""
    club, organiser = club_with_organiser(make_user, "alalay-walk")
    plan = [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 4}}]
    tournament = create_tournament(club.pk, organiser, name="Walk", ruleset="alalay", stages=plan)
    entries = [register(tournament.pk, organiser, name=f"P{i}") for i in range(1, 5)]
    start_tournament(tournament.pk, organiser)
    table = Table.objects.get(round__tournament=tournament, round__number=1)
    gone = entries[0]
    client(organiser).post(f"/api/entries/{gone.pk}/withdraw")
    assert logged(tournament, log.WITHDRAWN)[0]["forfeited_tables"] == [table.pk]
    stayers = list(table.seats.exclude(entry=gone).order_by("index"))
    for seat in stayers[:2]:
        name = match_service_seat_name(table.match_id, seat.match_seat)
        match_service.submit(table.match_id, name, {"type": "abandon"}, f"entries-{next(_commands)}")
    table.refresh_from_db()
    assert table.status == Table.FINISHED
    placed = {line["entry"]: (line["placement"], bool(line.get("forfeit"))) for line in table.result}
    assert placed[gone.pk] == (4, True)
    assert placed[stayers[2].entry_id] == (1, False)
    assert sorted(placed[s.entry_id] for s in stayers[:2]) == [(2, False)] * 2
