"""A superuser without the referee role reads no unrevealed die or seed anywhere, during a
live round: not in the Django admin (every page of the match's events, the match, its
summary, the tournament's log), not in the API, not over the match's socket (a real
server: uvicorn, channels-redis). Site staff status alone grants nothing
(docs/disputes.md). Positive control: the club's referee reads those very hands, in the
review's events and over the same socket."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from cacho.models import DiceSeed, Event
from cacho.services.dispatch import DISPATCH
from tests.live.harness import open_socket, session_cookie, ws_url
from tests.test_foundation.helpers import Server
from tournaments.clubs.members import create_club
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Membership, Table, TournamentEvent
from tournaments.services import create_tournament, register, start_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _secrets(match_id: Any) -> tuple[list[str], list[str]]:
    """The hands under the cups (compact JSON lists of 3 dice or more) and the unrevealed seeds."""
    unrevealed = dict(DiceSeed.objects.filter(match_id=match_id, revealed=False).values_list("scope", "seed"))
    hands = [
        json.dumps(hand, separators=(",", ":"))
        for event in Event.objects.filter(stream_id=match_id, type="round_started")
        if f"round-{event.payload['number']}" in unrevealed
        for hand in event.payload["dice"]
        if len(hand) >= 3
    ]
    return hands, list(unrevealed.values())


def _compact(text: str) -> str:
    """Lists as compact JSON writes them, whichever way a page spaced them."""
    return text.replace(", ", ",").replace("[ ", "[").replace(" ]", "]")


def test_a_superuser_reads_no_hidden_die_in_the_admin_the_api_or_the_socket(server: Server) -> None:
    users = get_user_model()
    organiser = users.objects.create(username="organiser")
    club = create_club("Club", "club", organiser)
    referee = users.objects.create(username="rita")
    add_member(club.pk, referee, Membership.REFEREE, organiser)
    root = users.objects.create(username="root", is_staff=True, is_superuser=True)
    stages = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
    tournament = create_tournament(club.pk, organiser, name="Jueves", ruleset="dudo", stages=stages)
    for name in ("ana", "beto"):
        register(tournament.pk, organiser, name=name, user=users.objects.create(username=name))
    start_tournament(tournament.pk, organiser)
    match_id = Table.objects.get(round__tournament=tournament).match_id
    hands, seeds = _secrets(match_id)
    assert hands and seeds, "a round is under the cups"
    secrets = hands + seeds

    DISPATCH.drain()  # the summary's projection is held a quarter of a second on PostgreSQL
    admin = _client(root)
    pages = ["/admin/cacho/event/", "/admin/cacho/match/", f"/admin/cacho/match/{match_id}/change/"]
    pages += [
        f"/admin/cacho/event/{pk}/change/"
        for pk in Event.objects.filter(stream_id=match_id).values_list("pk", flat=True)
    ]
    pages += ["/admin/cacho/matchsummary/", f"/admin/cacho/matchsummary/{match_id}/change/"]
    pages += ["/admin/tournaments/tournamentevent/", f"/admin/tournaments/tournament/{tournament.pk}/change/"]
    pages += [
        f"/admin/tournaments/tournamentevent/{pk}/change/"
        for pk in TournamentEvent.objects.filter(tournament=tournament).values_list("pk", flat=True)
    ]
    api = [
        f"/api/matches/{match_id}",
        f"/api/matches/{match_id}/events?after=0",
        f"/api/matches/{match_id}/events?as=ana",
        f"/api/matches/{match_id}/record",
        f"/api/matches/{match_id}/verify",
        f"/api/matches/{match_id}/disputes",
        "/api/disputes?status=all",
    ]
    for path in pages + api:
        answer = admin.get(path)
        assert answer.status_code in (200, 403, 404, 409), (path, answer.status_code)
        if path.startswith("/admin/"):
            assert answer.status_code == 200, path  # the admin opens for them, without the dice
        text = _compact(answer.content.decode())
        leaked = [secret for secret in secrets if secret in text]
        assert not leaked, (path, leaked)
    assert admin.get(f"/api/matches/{match_id}").json()["viewer"]["kind"] == "spectator"

    async def first_frames(cookie: dict[str, str]) -> str:
        sock = await open_socket(ws_url(server, match_id), cookie)
        try:
            await sock.next(lambda f: f.get("t") == "state", timeout=10.0)
        finally:
            await sock.close()
        return json.dumps(sock.frames, separators=(",", ":"))

    as_root = asyncio.run(first_frames(session_cookie("root")))
    assert not [secret for secret in secrets if secret in as_root]

    # positive control: the referee reads the same hands, in the review and over the socket
    reviewed = _compact(_client(referee).get(f"/api/matches/{match_id}/events?after=0").content.decode())
    assert all(hand in reviewed for hand in hands)
    as_referee = asyncio.run(first_frames(session_cookie("rita")))
    assert any(hand in as_referee for hand in hands), "the referee's socket shows the hands"
