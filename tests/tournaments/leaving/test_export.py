"""A player's data export (`GET /api/me/export`): their own profile, memberships, entries,
matches and ratings; a finished match's events cut for their seat exactly as the match API
cuts them for that player; a match still played without events, so no hand still under a
cup (nor its seed) leaves in it; nothing of another player's account."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cacho.models import DiceSeed, Event, Player
from tests.tournaments.disputes import Club
from tests.tournaments.helpers import play_bidding_match
from tournaments.models import Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]


def _secrets(match_id: Any) -> list[str]:
    unrevealed = dict(DiceSeed.objects.filter(match_id=match_id, revealed=False).values_list("scope", "seed"))
    hands = [
        json.dumps(hand, separators=(",", ":"))
        for event in Event.objects.filter(stream_id=match_id, type="round_started")
        if f"round-{event.payload['number']}" in unrevealed
        for hand in event.payload["dice"]
    ]
    return hands + list(unrevealed.values())


def test_the_export_holds_the_players_own_data_and_no_hidden_die(club: Club) -> None:
    ana = club.client(club.players["ana"])
    live = club.table_of("ana", 1)
    secrets = _secrets(live.match_id)
    assert secrets
    during = ana.get("/api/me/export")
    assert during.status_code == 200
    assert "attachment" in during["Content-Disposition"]
    data = during.json()
    assert data["format"] == "cacho-player-export/1"
    assert data["profile"]["username"] == "ana"
    [match] = data["matches"]
    assert match["match"] == str(live.match_id) and match["events"] is None
    text = json.dumps(data)
    assert not [s for s in secrets if s in text]

    rng = random.Random(3)
    for number in (1, 2):
        for table in Table.objects.filter(round__tournament=club.tournament, round__number=number):
            play_bidding_match(table.match_id, rng)
    data = ana.get("/api/me/export").json()
    mine = {str(club.table_of("ana", n).match_id) for n in (1, 2)}
    assert {m["match"] for m in data["matches"]} == mine
    for match in data["matches"]:
        as_ana = ana.get(f"/api/matches/{match['match']}/events").json()["events"]
        # seated by the pseudonymous player id, the account's name outside the chain
        assert (
            match["events"] == as_ana
            and match["seat"] == Player.objects.get(user=club.players["ana"]).public_id
        )
    assert [e["name"] for e in data["entries"]] == ["ana"]
    assert len(data["ratings"]["current"]) == 1  # the rated tournament's family
    assert {c["match"] for c in data["ratings"]["changes"]} == mine
    others = {u.email for name, u in club.players.items() if name != "ana" and u.email}
    assert not [o for o in others if o in json.dumps(data)]
    assert club.client(None).get("/api/me/export").status_code in (401, 403)


def test_the_profile_page_offers_the_download(club: Club) -> None:
    from django.test import Client

    browser = Client(HTTP_ACCEPT_LANGUAGE="es")
    browser.force_login(club.players["ana"])
    page = browser.get("/me/").content.decode()
    assert 'href="/api/me/export"' in page and "Descargar mis datos (JSON)" in page
    assert 'href="/me/notices/"' in page
