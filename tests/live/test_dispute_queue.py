"""The referees' queue is live: over a real socket (uvicorn, channels-redis), a club referee
hears of a dispute filed through the API within a second; a player of another table and an
anonymous socket hear nothing of it."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.live.harness import open_socket, session_cookie
from tests.test_foundation.helpers import Server
from tournaments.clubs.members import create_club
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Membership, Table
from tournaments.services import create_tournament, register, start_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

WITHIN = 1.0


@pytest.mark.alone  # asserts a latency
def test_a_club_referee_hears_of_a_dispute_within_a_second(server: Server) -> None:
    users = get_user_model()
    organiser = users.objects.create(username="organiser")
    club = create_club("Club", "club", organiser)
    referee = users.objects.create(username="rita")
    add_member(club.pk, referee, Membership.REFEREE, organiser)
    tournament = create_tournament(
        club.pk,
        organiser,
        name="Jueves",
        ruleset="dudo",
        stages=[{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}],
    )
    players = {name: users.objects.create(username=name) for name in ("ana", "beto", "caro", "dani")}
    for name, user in players.items():
        register(tournament.pk, organiser, name=name, user=user)
    start_tournament(tournament.pk, organiser)
    table = Table.objects.get(round__tournament=tournament, seats__entry__name="ana")
    other = next(n for n in players if not table.seats.filter(entry__name=n).exists())
    filer = Client()  # files in this process: the notice reaches the server's socket through Redis
    filer.force_login(players["ana"])
    # Warm, as a serving process is: the first request of a process loads the URLconf and the API.
    assert filer.get(f"/api/matches/{table.match_id}/disputes").status_code == 200
    url = server.url.replace("http://", "ws://") + "/ws/disputes/"
    referee_cookie, bystander_cookie = session_cookie("rita"), session_cookie(other)

    async def scenario() -> tuple[dict[str, object], float, list[dict[str, object]]]:
        # The consumer joins its groups before it accepts the handshake: a socket that is
        # open has joined them (the event to wait for is the handshake itself).
        queue = await open_socket(url, referee_cookie)
        bystander = await open_socket(url, bystander_cookie)
        started = time.monotonic()
        answer = await asyncio.to_thread(
            filer.post,
            f"{server.url}/api/matches/{table.match_id}/disputes",
            {"reason": "misclick", "round": 1},
            content_type="application/json",
        )
        heard = await queue.next(lambda f: f.get("t") == "dispute", timeout=5.0)
        waited = time.monotonic() - started
        assert answer.status_code == 201, answer.json()
        with contextlib.suppress(AssertionError, TimeoutError):
            await bystander.next(timeout=0.3)
        nothing = bystander.frames
        await queue.close()
        await bystander.close()
        return heard, waited, nothing

    heard, waited, bystander_frames = asyncio.run(scenario())
    assert heard["status"] == "open"
    assert waited < WITHIN, f"the referee heard after {waited * 1000:.0f} ms"
    assert bystander_frames == []
    print(f"the referee's queue heard of the dispute after {waited * 1000:.0f} ms")
