"""A table decided at time is marked so wherever results are read (docs/rules.md §9.1, T-4;
docs/tournaments.md, "Rounds at time" and "Exports"): each standings row and each line of
the final ranking counts the entry's tables that time decided (`decided_at_time`), in the
API, the JSON, CSV and XLSX exports and the printed page (a column, with its legend). A
tournament where time decided nothing keeps its exports as they were."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from openpyxl import load_workbook
from rest_framework.test import APIClient

from tests.tournaments.test_at_time import client_of, current_round, finish_bidding_round, organise
from tournaments.models import Table, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

COLUMN = "Decided at time"


def decide_round_at_time(tournament: Tournament, organiser: Any) -> None:
    """The director calls time on the round in play and its one table ends on dice left."""
    rnd = current_round(tournament)
    assert client_of(organiser).post(f"/api/rounds/{rnd.pk}/call-time").status_code == 200
    table = rnd.tables.get()
    finish_bidding_round(table.match_id)
    table.refresh_from_db()
    assert table.status == Table.FINISHED


def export(client: Any, tournament: Tournament, kind: str, language: str = "en") -> Any:
    return client.get(f"/api/tournaments/{tournament.pk}/standings{kind}", HTTP_ACCEPT_LANGUAGE=language)


def csv_rows(client: Any, tournament: Tournament, language: str = "en") -> list[list[str]]:
    body = export(client, tournament, "/csv", language).content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(body)))


def test_standings_ranking_and_every_export_count_the_tables_decided_at_time() -> None:
    tournament, organiser, _ = organise()
    client = client_of(organiser)
    decide_round_at_time(tournament, organiser)

    # the running stage's standings: one table each, decided at time
    data = client.get(f"/api/tournaments/{tournament.pk}/standings").json()
    assert [row["decided_at_time"] for row in data["standings"]] == [1, 1, 1]
    rows = csv_rows(client, tournament)
    assert rows[0][-1] == COLUMN and [r[-1] for r in rows[1:]] == ["1", "1", "1"]

    decide_round_at_time(tournament, organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.FINISHED

    ranking = client.get(f"/api/tournaments/{tournament.pk}/ranking").json()["ranking"]
    assert len(ranking) == 3 and all(line["decided_at_time"] == 2 for line in ranking)
    data = client.get(f"/api/tournaments/{tournament.pk}/standings").json()
    assert all(line["decided_at_time"] == 2 for line in data["final_ranking"])
    assert all(row["decided_at_time"] == 2 for row in data["standings"])

    rows = csv_rows(client, tournament)  # the final ranking once the tournament is over
    assert rows[0][-1] == COLUMN and [r[-1] for r in rows[1:]] == ["2", "2", "2"]

    book = load_workbook(io.BytesIO(export(client, tournament, "/xlsx").content))
    sheet = book.worksheets[0]
    header = [cell.value for cell in sheet[1]]
    assert header[-1] == COLUMN
    assert [sheet.cell(row=i, column=len(header)).value for i in range(2, 5)] == [2, 2, 2]

    page = export(client, tournament, "/print").content.decode()
    assert f">{COLUMN}</th>" in page and 'id="at-time-legend"' in page

    assert csv_rows(client, tournament, "es")[0][-1] == "Decididas por tiempo"
    page = export(client, tournament, "/print", "es").content.decode()
    assert "Decididas por tiempo: cuántas mesas" in page


def test_without_a_table_decided_at_time_the_exports_have_no_such_column() -> None:
    tournament, organiser, _ = organise(players=2)
    client = client_of(organiser)
    table = current_round(tournament).tables.get()
    while table.status != Table.FINISHED:  # played to its end: a die lost every round
        finish_bidding_round(table.match_id)
        table.refresh_from_db()
    assert not any(line.get("at_time") for line in table.result)
    standings = client.get(f"/api/tournaments/{tournament.pk}/standings").json()["standings"]
    assert [row["decided_at_time"] for row in standings] == [0, 0]
    assert COLUMN not in csv_rows(client, tournament)[0]
    assert "at-time-legend" not in export(client, tournament, "/print").content.decode()


def test_the_replay_reads_the_time_call_and_the_decision_from_the_public_events() -> None:
    tournament, organiser, _ = organise()
    decide_round_at_time(tournament, organiser)
    table = Table.objects.get(round__tournament=tournament, round__number=1)
    anyone = APIClient()
    frames = anyone.get(f"/api/matches/{table.match_id}/events?after=0").json()["events"]
    kinds = [f["t"] for f in frames]
    assert kinds[-1] == "decided_at_time" and "time_called" in kinds
    called = next(f for f in frames if f["t"] == "time_called")
    assert called["d"]["policy"] == "dice-left"
    standing = dict(frames[-1]["d"]["standing"])
    assert sorted(standing.values()) == [4, 5, 5]

    page = anyone.get(f"/matches/{table.match_id}/replay", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    found = re.search(r'<script id="labels" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    words = json.loads(found.group(1))["replay_page"]
    assert words["words"]["time_called"].startswith("Se cumplió el tiempo: %(policy)s")
    assert words["policies"]["dice-left"] == "Dados restantes"
    assert words["decided_at_time"] == "decidida por tiempo"
