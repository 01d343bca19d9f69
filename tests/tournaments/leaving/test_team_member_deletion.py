"""Deleting the account of a pair's member after a rated Alalay tournament of pairs: the
tournament's log and its matches name the member only by its player id, so no event
changes; the entry's members, the standings and exports, the printables and the match
pages show "deleted player N" for it; every chain verifies; the ratings keep their numbers.
While the pair plays, the deletion is refused (`seat-in-play`, `entry-in-play`)."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from typing import Any

import openpyxl
import pytest
from rest_framework.test import APIClient

from cacho.models import Event, Match, Player
from cacho.services.verify import verify_match
from tests.tournaments.helpers import club_with_organiser
from tests.tournaments.test_teams import client_for, create, play_table
from tournaments.models import (
    Entry,
    PlayerRating,
    RatingChange,
    Table,
    TableSeat,
    Tournament,
    TournamentEvent,
)
from tournaments.ratings.projection import rebuild
from tournaments.services.log import verify_chain

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

PASSWORD = "pw-1234567"  # tests.tournaments.conftest.make_user's
PAIRS = {
    "Reds": [{"username": "beto"}, {"username": "ana"}],  # beto holds the seat, ana partners it
    "Blues": [{"username": "caro"}, "Dani"],
    "Greens": [{"username": "eva"}, "Flor"],
    "Golds": [{"username": "gus"}, "Ines"],
}


def _ratings() -> dict[str, Any]:
    current = {(r.user_id, r.family): (r.mu, r.sigma, r.tables) for r in PlayerRating.objects.all()}
    changes = {(c.user_id, str(c.match_id)): (c.placement, c.mu, c.sigma) for c in RatingChange.objects.all()}
    return {"current": current, "changes": changes}


def _words(text: str) -> set[str]:
    return set(re.split(r"[\s,;\"'<>()]+", text))


def _play_round(tid: int, organiser: APIClient, rng: random.Random) -> None:
    for table in Table.objects.filter(round__tournament_id=tid, status=Table.PLAYING).order_by("pk"):
        play_table(table, rng)


def test_a_deleted_pair_member_is_shown_as_deleted_and_no_event_changes(make_user: Any) -> None:
    rng = random.Random(5)
    club, owner = club_with_organiser(make_user)
    organiser = client_for(owner)
    stages = [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]
    tid = create(organiser, club, "alalay", "pair", 2, stages, round_appeal_minutes=5).json()["id"]
    for username in ("ana", "beto", "caro", "eva", "gus"):
        make_user(username)
    for name, members in PAIRS.items():
        made = organiser.post(
            f"/api/tournaments/{tid}/entries", {"name": name, "members": members}, format="json"
        )
        assert made.status_code == 201, made.content
    assert organiser.post(f"/api/tournaments/{tid}/start", {}, format="json").status_code == 200
    ana = Entry.objects.get(tournament_id=tid, name="Reds").members.get(name="ana").user
    ana_client = client_for(ana)

    refused = ana_client.post("/api/me/delete", {"password": PASSWORD}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "seat-in-play"  # she partners a live seat
    _play_round(tid, organiser, rng)
    refused = ana_client.post("/api/me/delete", {"password": PASSWORD}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "entry-in-play"  # between rounds
    assert organiser.post(f"/api/tournaments/{tid}/draw-now", {}, format="json").status_code == 200
    _play_round(tid, organiser, rng)
    assert Tournament.objects.get(pk=tid).status == Tournament.FINISHED

    player = Player.objects.get(user=ana).public_id
    match_ids = [
        str(m) for m in Table.objects.filter(round__tournament_id=tid).values_list("match_id", flat=True)
    ]
    log_before = list(
        TournamentEvent.objects.filter(tournament_id=tid).values_list("type", "payload", "hash")
    )
    match_events = list(Event.objects.filter(stream_id__in=match_ids).values_list("payload", "hash"))
    # The log and the matches name her by her player id only.
    assert '"ana"' not in json.dumps([p for _t, p, _h in log_before])
    assert '"ana"' not in json.dumps([p for p, _h in match_events])
    registered = next(p for t, p, _h in log_before if t == "registered" and p["name"] == "Reds")
    assert registered["members"] == [
        {"player": Player.objects.get(user__username="beto").public_id},
        {"player": player},
    ]
    blues = next(p for t, p, _h in log_before if t == "registered" and p["name"] == "Blues")
    assert blues["members"][1] == {"name": "Dani", "guest": True}
    reds_tables = [s.table for s in TableSeat.objects.filter(entry__name="Reds", entry__tournament_id=tid)]
    started = Event.objects.get(stream_id=reds_tables[0].match_id, type="match_started").payload
    assert any(e["members"][1] == player for e in started["entries"])
    ratings = _ratings()
    assert any(key[0] == ana.pk for key in ratings["current"])

    deleted = ana_client.post("/api/me/delete", {"password": PASSWORD}, format="json")
    assert deleted.status_code == 200, deleted.content
    number = deleted.json()["deleted_player"]
    label = f"deleted player {number}"
    assert player == f"p{number}"

    # Nothing appended, nothing rewritten; every chain verifies.
    assert (
        list(TournamentEvent.objects.filter(tournament_id=tid).values_list("type", "payload", "hash"))
        == log_before
    )
    assert list(Event.objects.filter(stream_id__in=match_ids).values_list("payload", "hash")) == match_events
    assert verify_chain(tid)[0]
    for match in Match.objects.filter(pk__in=match_ids):
        assert verify_match(match)["valid"], match.pk

    # The entry, the tables' line-ups and every output show the label.
    reds = Entry.objects.get(tournament_id=tid, name="Reds")
    assert list(reds.members.values_list("name", flat=True)) == ["beto", label]
    assert all(s.members[1]["name"] == label for s in TableSeat.objects.filter(entry=reds))
    anyone = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    base = f"/api/tournaments/{tid}"
    assert anyone.get(f"/api/entries/{reds.pk}").json()["members"] == ["beto", label]
    ranking = anyone.get(f"{base}/ranking").json()["ranking"]
    assert next(r for r in ranking if r["name"] == "Reds")["members"] == ["beto", label]
    standings = anyone.get(f"{base}/standings").json()
    assert next(r for r in standings["standings"] if r["name"] == "Reds")["members"] == ["beto", label]
    rows = list(csv.reader(io.StringIO(anyone.get(f"{base}/standings/csv").content.decode("utf-8-sig"))))
    assert next(r for r in rows if r[1] == "Reds")[2] == f"beto, {label}"
    book = openpyxl.load_workbook(io.BytesIO(anyone.get(f"{base}/standings/xlsx").content))
    sheet = list(book.worksheets[0].iter_rows(values_only=True))
    assert next(r for r in sheet if r[1] == "Reds")[2] == f"beto, {label}"
    printed = anyone.get(f"{base}/standings/print").content.decode()
    pairings = organiser.get(f"{base}/print/pairings?round=1").content.decode()
    assert label in printed and f"Reds (beto, {label})" in pairings
    texts = [json.dumps(standings), json.dumps(ranking), printed, pairings, json.dumps(rows)]
    assert all("ana" not in _words(text) for text in texts)

    for table in reds_tables:  # the match page: her member name reads as the label
        for language, shown in (("en", label), ("es", f"jugador eliminado {number}")):
            seats = anyone.get(f"/api/matches/{table.match_id}", HTTP_ACCEPT_LANGUAGE=language).json()[
                "seats"
            ]
            members = {m["name"]: m for seat in seats for m in seat["members"]}
            assert members[player] == {"name": player, "label": shown, "deleted": number}
            assert "ana" not in _words(json.dumps(seats))

    assert _ratings() == ratings  # every number, hers and the others'
    rebuild()
    assert _ratings() == ratings
