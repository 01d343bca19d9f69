"""Whole tournaments played by bots through the real match service, checked against an
independent recount from the match events."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest

from cacho.models import Event
from tests.tournaments.helpers import club_with_organiser, drive, register_bots
from tournaments.models import Entry, Round, StandingRow, Table, Tournament, TournamentEvent
from tournaments.services import create_tournament, log, start_tournament
from tournaments.services.rebuild import rebuild
from tournaments.services.standings import standing_rows
from tournaments.tasks import advance_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def recount_points(tournament: Tournament) -> dict[int, float]:
    """Points (the default scale: 1 for a win, 0 for last, evenly spaced) recounted from the
    raw match events only."""
    points: dict[int, float] = defaultdict(float)
    for table in Table.objects.filter(round__tournament=tournament).prefetch_related("seats__entry"):
        names = {s.entry.name: s.entry_id for s in table.seats.all()}
        events = list(Event.objects.filter(stream_id=table.match_id).order_by("version"))
        size = len(names)
        if tournament.game == "dudo":
            out_order: list[list[str]] = []
            winner = None
            for e in events:
                if e.type == "round_resolved" and e.payload.get("eliminated"):
                    out_order.append(list(e.payload["eliminated"]))
                if e.type == "player_abandoned":
                    out_order.append([e.payload["player"]])
                if e.type in ("round_resolved", "player_abandoned") and e.payload.get("winner"):
                    winner = e.payload["winner"]
            assert winner is not None
            points[names[winner]] += 1
            place = 2
            for tier in reversed(out_order):
                tier = [n for n in tier if n != winner]
                for name in tier:
                    points[names[name]] += (size - place) / (size - 1)
                place += len(tier)
        else:
            totals: dict[str, int] = dict.fromkeys(names, 0)
            winners: list[str] = []
            for e in events:
                if e.type == "box_scored":
                    totals[e.payload["entry"]] += e.payload["points"]
                if e.type == "match_ended":
                    winners = list(e.payload["winners"])
            assert winners
            for name in winners:
                points[names[name]] += 1
            rest = sorted((n for n in names if n not in winners), key=lambda n: -totals[n])
            place = len(winners) + 1
            i = 0
            while i < len(rest):
                tier = [n for n in rest if totals[n] == totals[rest[i]]]
                for name in tier:
                    points[names[name]] += (size - place) / (size - 1)
                place += len(tier)
                i += len(tier)
    return {entry: round(value, 9) for entry, value in points.items()}


def check_standings_against_recount(tournament: Tournament) -> None:
    recount = recount_points(tournament)
    rows = list(StandingRow.objects.filter(tournament=tournament).order_by("position"))
    assert rows
    assert {r.entry_id: r.points for r in rows if r.played} == recount
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)


def check_rebuild(tournament: Tournament) -> None:
    before = standing_rows(tournament)
    StandingRow.objects.filter(tournament=tournament).delete()
    report = rebuild(tournament)
    assert report.mismatches == []
    assert standing_rows(tournament) == before
    valid, head = log.verify_chain(tournament.pk)
    assert valid and head == Tournament.objects.get(pk=tournament.pk).head_hash


def test_swiss_dudo_24_entries_tables_of_6(make_user: Any, rng: random.Random) -> None:
    club, owner = club_with_organiser(make_user)
    tournament = create_tournament(
        club.pk,
        owner,
        name="Swiss Dudo",
        ruleset="dudo",
        stages=[{"name": "swiss", "format": "swiss", "params": {"rounds": 3, "table_size": 6}}],
    )
    register_bots(tournament, owner, 24)
    start_tournament(tournament.pk, owner)
    assert Table.objects.filter(round__tournament=tournament).count() == 4
    tournament = drive(tournament, rng)
    assert tournament.status == Tournament.FINISHED
    assert Round.objects.filter(tournament=tournament).count() == 3
    assert all(t.status == Table.FINISHED for t in Table.objects.filter(round__tournament=tournament))
    check_standings_against_recount(tournament)
    types = list(TournamentEvent.objects.filter(tournament=tournament).values_list("type", flat=True))
    assert types.count(log.ROUND_CREATED) == 3 and types.count(log.TABLE_FINISHED) == 12
    assert types[-1] == log.FINISHED
    check_rebuild(tournament)
    # The advancement task on a finished tournament does nothing.
    assert advance_tournament(tournament.pk) is None


def test_alalay_event_12_entries(make_user: Any, rng: random.Random) -> None:
    club, owner = club_with_organiser(make_user, "alalay")
    tournament = create_tournament(
        club.pk,
        owner,
        name="Alalay Cochabamba",
        ruleset="alalay",
        stages=[
            {
                "name": "event",
                "format": "alalay_event",
                "params": {"table_size": 4, "qualifying_rounds": 2, "finalists": 4},
            }
        ],
    )
    register_bots(tournament, owner, 12, "Jugador")
    start_tournament(tournament.pk, owner)
    tournament = drive(tournament, rng)
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    assert [r.tables.count() for r in rounds] == [3, 3, 1]
    check_standings_against_recount(tournament)
    final = rounds[-1].tables.get()
    finish = TournamentEvent.objects.get(tournament=tournament, type=log.FINISHED)
    ranking = finish.payload["ranking"]
    assert len(ranking) == 12
    winners = [r["entry"] for r in final.result if r["placement"] == 1]
    assert int(ranking[0]) in winners
    assert Entry.objects.filter(tournament=tournament, status=Entry.FINISHED).count() == 12
    check_rebuild(tournament)
