"""The last one at a table wins it (rules.md §9 P-3).

Through the API, as an organiser runs an evening of guests (entries without accounts): an
Alalay table of 4 where 3 forfeit ends at once with the 4th placed first, its match over
with no turn clock left running, and the tournament moves on. Forfeiting the last seat of
a table is refused (`last-seat`) in every game while the table waits to be recorded, and
leaves nothing stored. These run on SQLite as well (`sqlite_too`): embedded mode, as
`make run` stores a club's evening."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from cacho.models import Event, Match
from tests.tournaments.helpers import club_with_organiser
from tournaments.models import Round, Table, TableSeat, TournamentEvent
from tournaments.services import log

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]


def api(user: Any) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")  # the site speaks Spanish by default
    client.force_authenticate(user)
    return client


def evening_of_guests(make_user: Any, ruleset: str, slug: str) -> tuple[APIClient, int, dict[str, Any]]:
    """A tournament of 4 guests at one table of 4, started: the organiser's client, the
    tournament id and its first round's one table (as the API shows it)."""
    club, organiser = club_with_organiser(make_user, slug)
    client = api(organiser)
    made = client.post(
        "/api/tournaments",
        {
            "club": club.pk,
            "name": "Martes",
            "ruleset": ruleset,
            "stages": [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 4}}],
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    tournament = made.json()["id"]
    for name in ("Ana", "Beto", "Caro", "Dani"):
        added = client.post(f"/api/tournaments/{tournament}/entries", {"name": name}, format="json")
        assert added.status_code == 201, added.json()
        assert added.json()["user"] is None  # a guest
    started = client.post(f"/api/tournaments/{tournament}/start", {}, format="json")
    assert started.status_code == 200, started.json()
    (first,) = [r for r in client.get(f"/api/tournaments/{tournament}/rounds").json() if r["number"] == 1]
    (table,) = first["tables"]
    assert len(table["seats"]) == 4
    return client, tournament, table


def forfeit(client: APIClient, entry: int, table: int) -> Any:
    return client.post(f"/api/entries/{entry}/forfeit", {"table": table}, format="json")


def test_an_alalay_table_of_four_guests_where_three_forfeit_ends_with_the_fourth_first(
    make_user: Any,
) -> None:
    client, tournament, table = evening_of_guests(make_user, "alalay", "alalay-guests")
    entries = [seat["entry"] for seat in table["seats"]]
    for entry in entries[:2]:
        assert forfeit(client, entry, table["id"]).status_code == 200
    match = client.get(f"/api/matches/{table['match_id']}").json()
    assert match["status"] == "live" and match["deadline"] is not None  # its turn clock runs

    assert forfeit(client, entries[2], table["id"]).status_code == 200
    match = client.get(f"/api/matches/{table['match_id']}").json()
    assert match["status"] == "finished" and match["deadline"] is None  # no clock left running
    last = TableSeat.objects.get(table_id=table["id"], entry_id=entries[3]).match_seat
    assert match["state"]["winners"] == [match["seats"][last]["name"]]
    done = Table.objects.get(pk=table["id"])
    assert done.status == Table.FINISHED
    placed = {line["entry"]: (line["placement"], bool(line.get("forfeit"))) for line in done.result}
    assert placed == {entries[3]: (1, False), **{e: (4, True) for e in entries[:3]}}
    assert Round.objects.filter(tournament_id=tournament, number=2).exists()  # the evening moves on

    late = forfeit(client, entries[3], table["id"])
    assert late.status_code == 400 and late.json()["code"] == "table-finished"


@pytest.mark.parametrize("ruleset", ["alalay", "dudo"])
def test_the_last_seat_of_a_table_cannot_forfeit_it(make_user: Any, settings: Any, ruleset: str) -> None:
    """The table's match is over, its result not yet recorded (the results step is late):
    the one left is refused a forfeit, and nothing is stored."""
    settings.CACHO_MATCH_FINISHED = []  # the results step has not run yet
    client, tournament, table = evening_of_guests(make_user, ruleset, f"last-{ruleset}")
    entries = [seat["entry"] for seat in table["seats"]]
    for entry in entries[:3]:
        assert forfeit(client, entry, table["id"]).status_code == 200
    assert Match.objects.get(pk=table["match_id"]).status == Match.STATUS_FINISHED
    assert Table.objects.get(pk=table["id"]).status == Table.PLAYING  # ended, not recorded
    events = Event.objects.filter(stream_id=table["match_id"]).count()
    logged = TournamentEvent.objects.filter(tournament_id=tournament).count()

    refused = forfeit(client, entries[3], table["id"])
    assert refused.status_code == 400
    assert refused.json()["code"] == "last-seat" and refused.json()["message"]
    assert not TableSeat.objects.get(table_id=table["id"], entry_id=entries[3]).forfeited
    assert Event.objects.filter(stream_id=table["match_id"]).count() == events
    assert TournamentEvent.objects.filter(tournament_id=tournament).count() == logged
    spanish = client.post(
        f"/api/entries/{entries[3]}/forfeit", {"table": table["id"]}, format="json", HTTP_ACCEPT_LANGUAGE="es"
    )
    assert spanish.json()["code"] == "last-seat" and "última" in spanish.json()["message"]
    assert [e["entry"] for e in _forfeits(tournament)] == entries[:3]


def _forfeits(tournament: int) -> list[dict[str, Any]]:
    return [
        e.payload
        for e in TournamentEvent.objects.filter(tournament_id=tournament, type=log.SEAT_FORFEITED).order_by(
            "version"
        )
    ]
