"""Deleting an account (`POST /api/me/delete`) after a rated tournament: the player's
personal data goes; the tournament's exports and its matches show "deleted player N";
every match chain and the tournament's chain still verify; the others' ratings keep their
numbers, and a rebuild gives them again. Each refusal answers a stable code and changes
nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from cacho.models import Event, Match, Player, Seat
from cacho.services.verify import verify_match
from tests.tournaments.disputes import Club
from tests.tournaments.helpers import play_bidding_match
from tournaments.accounts.models import Account
from tournaments.models import Entry, PlayerRating, RatingChange, Table, Tournament, TournamentEvent
from tournaments.ratings.projection import rebuild
from tournaments.services import create_tournament, register
from tournaments.services.log import verify_chain

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]

PASSWORD = "pw-1234567"  # tests.tournaments.conftest.make_user's


def _finish(club: Club) -> None:
    rng = random.Random(7)
    for number in (1, 2):
        for table in Table.objects.filter(round__tournament=club.tournament, round__number=number):
            play_bidding_match(table.match_id, rng)
    club.tournament.refresh_from_db()
    assert club.tournament.status == Tournament.FINISHED


def _ratings() -> dict[Any, Any]:
    current = {(r.user_id, r.family): (r.mu, r.sigma, r.tables) for r in PlayerRating.objects.all()}
    changes = {(c.user_id, str(c.match_id)): (c.placement, c.mu, c.sigma) for c in RatingChange.objects.all()}
    return {"current": current, "changes": changes}


def _delete(client: APIClient, password: str = PASSWORD) -> Any:
    return client.post("/api/me/delete", {"password": password}, format="json")


def _unchanged(user: Any) -> None:
    user.refresh_from_db()
    assert user.username == "ana" and user.is_active and user.check_password(PASSWORD)
    assert not Player.objects.filter(user=user, deleted_at__isnull=False).exists()
    assert Entry.objects.filter(user=user).exclude(name="ana").count() == 0


def test_a_deleted_player_leaves_numbers_and_valid_chains_behind(club: Club) -> None:
    ana = club.players["ana"]
    Account.objects.create(user=ana, display_name="Ana María")
    client = club.client(ana)
    events_before = TournamentEvent.objects.count()

    refused = _delete(client)  # a table ana sits at is still played
    assert refused.status_code == 409 and refused.json()["code"] == "seat-in-play"
    _unchanged(ana)

    _finish(club)
    matches = [str(club.table_of("ana", n).match_id) for n in (1, 2)]
    seat = Player.objects.get(user=ana).public_id
    assert set(Seat.objects.filter(user=ana).values_list("label", flat=True)) == {"ana"}  # her entry's name
    for match_id in matches:  # the chain names ana only by her player id
        payloads = json.dumps(
            list(Event.objects.filter(stream_id=match_id).values_list("payload", flat=True))
        )
        assert seat in payloads and '"ana"' not in payloads
    registered = TournamentEvent.objects.get(
        tournament=club.tournament, type="registered", payload__entry=club.tournament.entries.get(user=ana).pk
    )
    assert registered.payload["player"] == seat and "name" not in registered.payload

    export = client.get("/api/me/export").json()  # taken before: her own data only
    assert export["profile"]["username"] == "ana" and {m["seat"] for m in export["matches"]} == {seat}
    assert {m["match"] for m in export["matches"]} == set(matches)
    for match in export["matches"]:
        assert match["events"] == client.get(f"/api/matches/{match['match']}/events").json()["events"]

    wrong = _delete(client, "not-it")
    assert wrong.status_code == 403 and wrong.json()["code"] == "password-wrong"
    _unchanged(ana)

    ratings = _ratings()
    others = {k: v for k, v in ratings["current"].items() if k[0] != ana.pk}
    assert others and any(k[0] == ana.pk for k in ratings["current"])
    events_before = TournamentEvent.objects.filter(tournament=club.tournament).count()
    match_events = Event.objects.count()

    deleted = _delete(client)
    assert deleted.status_code == 200, deleted.content
    number = deleted.json()["deleted_player"]
    label = f"deleted player {number}"
    assert seat == f"p{number}"

    shell = get_user_model().objects.get(pk=ana.pk)
    assert shell.username == f"deleted-player-{number}" and shell.email == ""
    assert not shell.is_active and not shell.has_usable_password()
    assert not Account.objects.filter(user=shell).exists()
    assert club.tournament.entries.get(user=shell).name == label
    assert set(Seat.objects.filter(user=shell).values_list("label", flat=True)) == {""}  # erased too

    # no match event changed; the tournament log only grew (one `entry-renamed`, by id)
    assert Event.objects.count() == match_events
    renamed = TournamentEvent.objects.filter(tournament=club.tournament).order_by("version")[events_before:]
    assert [(e.type, e.payload) for e in renamed] == [
        ("entry-renamed", {"entry": club.tournament.entries.get(user=shell).pk})
    ]
    for match in Match.objects.filter(tournament_ref__startswith=f"t{club.tournament.pk}-"):
        assert verify_match(match)["valid"], match.pk
    assert verify_chain(club.tournament.pk)[0]

    anyone = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    for match_id in matches:  # the replay and the match page read these seats
        seats = anyone.get(f"/api/matches/{match_id}").json()["seats"]
        [hers] = [s for s in seats if s["name"] == seat]
        assert hers["label"] == label and hers["player"] == label
        assert "ana" not in {s["label"] for s in seats} | {s["player"] for s in seats}
    standings = anyone.get(f"/api/tournaments/{club.tournament.pk}/standings").json()
    names = [row["name"] for row in standings["final_ranking"]]
    assert label in names and "ana" not in names
    csv_text = anyone.get(f"/api/tournaments/{club.tournament.pk}/standings/csv").content.decode("utf-8-sig")
    assert label in csv_text and "ana" not in csv_text.split()
    spanish = anyone.get(f"/api/matches/{matches[0]}", HTTP_ACCEPT_LANGUAGE="es").json()["seats"]
    assert f"jugador eliminado {number}" in {s["label"] for s in spanish}

    assert _ratings() == ratings  # every number, hers kept too
    rebuild()
    assert _ratings() == ratings

    again = _delete(club.client(shell))
    assert again.status_code == 409 and again.json()["code"] == "account-deleted"
    assert club.client(None).post("/api/me/delete", {"password": PASSWORD}, format="json").status_code in (
        401,
        403,
    )


def test_an_entry_still_in_play_is_withdrawn_first(club: Club) -> None:
    beto = club.players["beto"]
    _finish(club)
    upcoming = create_tournament(club.tournament.club_id, club.organiser, name="Next", ruleset="dudo")
    register(upcoming.pk, club.organiser, name="beto", user=beto)
    refused = _delete(club.client(beto))
    assert refused.status_code == 409 and refused.json()["code"] == "entry-in-play"
    beto.refresh_from_db()
    assert beto.is_active and beto.username == "beto"
    assert not Player.objects.filter(user=beto, deleted_at__isnull=False).exists()


def test_an_older_match_named_by_username_shows_the_label(club: Club) -> None:
    """A match seated before the player ids carries the name in its events: the page shows
    the label, the event keeps the name (docs/leaving.md)."""
    caro = club.players["caro"]
    _finish(club)
    from cacho.services import matches as match_service

    older = match_service.create_match("dudo", ["caro", "guest"])
    match_service.take_seat(older.pk, 0, caro)
    rng = random.Random(1)
    play_bidding_match(older.pk, rng)
    number = _delete(club.client(caro)).json()["deleted_player"]
    seats = APIClient(HTTP_ACCEPT_LANGUAGE="en").get(f"/api/matches/{older.pk}").json()["seats"]
    assert [s["label"] for s in seats] == [f"deleted player {number}", "guest"]
    assert Seat.objects.get(match=older, index=0).name == "caro"  # the event's name, kept
    assert verify_match(older)["valid"]
