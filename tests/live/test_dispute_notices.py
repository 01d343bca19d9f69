"""`/ws/disputes/` carries no hidden die: over a real socket (uvicorn,
channels-redis), while a dispute on a live table is filed, commented, paused, previewed and
ruled, every frame is `{"t": "dispute", "id", "status"}` and nothing else; the parties hear
of each step, another club's referee and a spectator hear nothing; no frame holds a hand
still under the cups or its seed. Positive control: the club's referee hears every step,
and the same hands are in the events the referee's review reads."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from cacho.models import DiceSeed, Event
from tests.live.harness import open_socket, session_cookie
from tests.test_foundation.helpers import Server
from tournaments.clubs.members import create_club
from tournaments.clubs.members import grant_role as add_member
from tournaments.models import Membership, Table
from tournaments.services import create_tournament, register, start_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _secrets(match_id: Any) -> list[str]:
    unrevealed = dict(DiceSeed.objects.filter(match_id=match_id, revealed=False).values_list("scope", "seed"))
    hands = [
        json.dumps(hand, separators=(",", ":"))
        for event in Event.objects.filter(stream_id=match_id, type="round_started")
        if f"round-{event.payload['number']}" in unrevealed
        for hand in event.payload["dice"]
    ]
    return hands + list(unrevealed.values())


def test_the_disputes_socket_says_only_which_dispute_changed(server: Server) -> None:
    users = get_user_model()
    organiser = users.objects.create(username="organiser")
    club = create_club("Club", "club", organiser)
    referee = users.objects.create(username="rita")
    add_member(club.pk, referee, Membership.REFEREE, organiser)
    elsewhere = create_club("Otro", "otro", organiser)
    outsider = users.objects.create(username="otto")
    add_member(elsewhere.pk, outsider, Membership.REFEREE, organiser)
    users.objects.create(username="zoe")
    stages = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
    tournament = create_tournament(club.pk, organiser, name="Jueves", ruleset="dudo", stages=stages)
    for name in ("ana", "beto"):
        register(tournament.pk, organiser, name=name, user=users.objects.create(username=name))
    start_tournament(tournament.pk, organiser)
    match_id = Table.objects.get(round__tournament=tournament).match_id
    secrets = _secrets(match_id)
    assert secrets, "a round is under the cups"
    url = server.url.replace("http://", "ws://") + "/ws/disputes/"
    ana, rita = _client(users.objects.get(username="ana")), _client(referee)
    api = f"{server.url}/api"

    cookies = {name: session_cookie(name) for name in ("rita", "beto", "otto", "zoe")}

    async def scenario() -> dict[str, list[dict[str, Any]]]:
        sockets = {name: await open_socket(url, cookie) for name, cookie in cookies.items()}
        steps = [
            (ana, f"{api}/matches/{match_id}/disputes", {"reason": "misclick", "round": 1}),
            (ana, "{d}/comments", {"text": "I meant a three"}),
            (rita, "{d}/pause", {"reason": "Reviewing"}),
            (rita, "{d}/preview", {"ruling": {"kind": "uphold"}}),
            (rita, "{d}/rule", {"ruling": {"kind": "uphold"}, "reason": "Play stands"}),
        ]
        dispute = ""
        for who, path, body in steps:
            target = path.format(d=f"{api}/disputes/{dispute}")
            answer = await asyncio.to_thread(who.post, target, body, content_type="application/json")
            assert answer.status_code in (200, 201), (target, answer.json())
            dispute = dispute or str(answer.json()["id"])
        # the ruling's notice is the last: once the referee has it, every notice has been sent
        await sockets["rita"].next(lambda f: f.get("status") == "ruled", timeout=10.0)
        for name in ("beto", "otto", "zoe"):
            with contextlib.suppress(AssertionError, TimeoutError):
                await sockets[name].next(lambda f: f.get("status") == "ruled", timeout=2.0)
        heard = {name: sock.frames for name, sock in sockets.items()}
        for sock in sockets.values():
            await sock.close()
        return heard

    heard = asyncio.run(scenario())
    for name, frames in heard.items():
        for frame in frames:
            assert set(frame) == {"t", "id", "status"} and frame["t"] == "dispute", (name, frame)
            text = json.dumps(frame, separators=(",", ":"))
            assert not any(secret in text for secret in secrets), (name, frame)
    assert [f["status"] for f in heard["rita"]][-1] == "ruled" and len(heard["rita"]) >= 4
    assert heard["beto"], "a party to the table hears of its dispute"
    assert heard["otto"] == [] and heard["zoe"] == []
    # positive control: the same hands are in what the referee's review reads
    reviewed = rita.get(f"/api/matches/{match_id}/events?after=0").content.decode()
    assert all(hand in reviewed for hand in secrets if hand.startswith("["))
