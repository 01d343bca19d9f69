"""A round robin in two groups whose first group ends in a three-way cycle: the three are
equal on every criterion, so they share the group's first place, and they share the first
place of the final ranking too (docs/tournaments.md, "The final ranking") in the API, the
standings JSON, the CSV, the XLSX and the printed page: no tie goes by name.

Every match is played through the real match service: the loser leaves, so each win is
worth the same figures and the cycle is exactly even."""

from __future__ import annotations

import csv
import io
import itertools
import re

import openpyxl
import pytest
from rest_framework.test import APIClient

from cacho.models import Match, Seat
from cacho.services import matches as match_service
from tests.tournaments.test_every_format import organise, stage
from tournaments.models import Table, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

_commands = itertools.count(1)


def lose(table: Table, loser: int) -> None:
    """The table's `loser` leaves its match: the other player wins it."""
    index = table.seats.get(entry_id=loser).index
    name = Seat.objects.get(match_id=table.match_id, index=index).name
    match_service.submit(table.match_id, name, {"type": "abandon"}, f"cycle-{next(_commands)}")
    assert not Match.objects.filter(pk=table.match_id, status=Match.STATUS_LIVE).exists()


def play_groups(tournament: Tournament, beats: set[tuple[int, int]]) -> None:
    """Every table of every round, each decided by `beats` (winner, loser)."""
    for _ in range(20):
        tournament.refresh_from_db()
        if tournament.status == Tournament.FINISHED:
            return
        playing = Table.objects.filter(round__tournament=tournament, status=Table.PLAYING).order_by("pk")
        assert playing, "a running tournament with no table in play"
        for table in playing:
            a, b = (s.entry_id for s in table.seats.order_by("index"))
            lose(table, b if (a, b) in beats else a)
    raise AssertionError("the tournament does not finish")


def test_a_three_way_cycle_in_a_group_shares_the_first_place_everywhere() -> None:
    run = organise("dudo", [stage("round_robin", groups=2, table_size=2)], 7, seed=28)
    tournament = run.refresh()
    groups = [[int(e) for e in g] for g in tournament.stages.get().plan["groups"]]
    four, three = sorted(groups, key=len, reverse=True)
    last, *cycle = four  # the first seed loses every match; the others beat each other in turn
    x, y, z = three  # a plain order: x beats y and z, y beats z
    beats = {(cycle[0], cycle[1]), (cycle[1], cycle[2]), (cycle[2], cycle[0])}
    beats |= {(c, last) for c in cycle} | {(x, y), (x, z), (y, z)}
    play_groups(tournament, beats)

    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    base = f"/api/tournaments/{tournament.pk}"
    standings = client.get(f"{base}/standings").json()
    rows = {r["entry"]: r for r in standings["standings"]}
    # The group's standings already share the place: equal on every criterion.
    assert {rows[c]["rank"] for c in cycle} == {1}
    assert len({tuple(sorted(rows[c]["values"].items())) for c in cycle}) == 1
    # x has as many points but fewer opponents' points (Buchholz): it comes next.
    assert rows[x]["points"] == rows[cycle[0]]["points"] == 2

    expected = {**{c: 1 for c in cycle}, x: 4, y: 5, z: 6, last: 7}
    ranking = client.get(f"{base}/ranking").json()["ranking"]
    assert {item["entry"]: item["place"] for item in ranking} == expected
    assert [item["place"] for item in ranking] == sorted(expected.values())
    assert standings["final_ranking"] == ranking

    names = {item["name"]: item["entry"] for item in ranking}
    table = list(csv.reader(io.StringIO(client.get(f"{base}/standings/csv").content.decode("utf-8-sig"))))
    assert {names[row[1]]: int(row[0]) for row in table[1:]} == expected

    book = openpyxl.load_workbook(io.BytesIO(client.get(f"{base}/standings/xlsx").content))
    sheet = list(book.worksheets[0].iter_rows(values_only=True))[1:]
    assert {names[row[1]]: int(row[0]) for row in sheet} == expected

    page = client.get(f"{base}/standings/print").content.decode("utf-8")
    ranking_table = page[page.index("<tbody") : page.index("</tbody>")]
    printed = re.findall(r"<tr><td class=\"num\">(\d+)</td><td>([^<]+)</td>", ranking_table)
    assert {names[n]: int(p) for p, n in printed} == expected
