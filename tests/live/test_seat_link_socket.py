"""A walk-in's seat link over a real socket (uvicorn + PostgreSQL + Redis): the browser
session that claimed the link is that seat's player (its own dice, and no one else's; its
bid accepted), nobody else is, and it is no player once the director re-issues the link."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from tests.live.harness import is_event, open_socket, ws_url
from tests.test_foundation.helpers import Server
from tournaments.clubs.members import create_club
from tournaments.models import Table
from tournaments.services import create_tournament, register, seat_link_desk, start_tournament

pytestmark = [pytest.mark.slow]


def _round_dice(frame: dict[str, Any]) -> set[str]:
    return set(frame["d"]["state"]["round"]["dice"])


def test_the_claimed_session_plays_its_seat_and_sees_only_its_dice(server: Server) -> None:
    organiser = get_user_model().objects.create(username="directora")
    club = create_club("Club", "club", organiser)
    stages = [{"name": "swiss", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
    tournament = create_tournament(club.pk, organiser, name="Jueves", ruleset="dudo", stages=stages)
    for name in ("Ana", "Beto"):
        register(tournament.pk, organiser, name=name)
    start_tournament(tournament.pk, organiser)
    table = Table.objects.get(round__tournament=tournament)
    rows = seat_link_desk.seat_link_rows([table], lambda path: "http://testserver" + path)[table.pk]
    opener = next(row for row in rows if row.seat == 1)
    phone = Client()
    token = opener.url.rstrip("/").rsplit("/", 1)[-1]
    answer = phone.post(
        "/api/seat-links/claim", json.dumps({"token": token}), content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    seat = answer.json()["seat"]
    cookie = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={phone.cookies[settings.SESSION_COOKIE_NAME].value}"}
    url = ws_url(server, table.match_id)

    async def play() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
        mine = await open_socket(url, cookie)
        watcher = await open_socket(url)
        state = await mine.next(lambda f: f["t"] == "state")
        seen = await watcher.next(lambda f: f["t"] == "state")
        await mine.send({"t": "command", "id": "walk-in-1", "d": {"type": "bid", "quantity": 1, "face": 2}})
        ack = await mine.next(lambda f: f["t"] == "ack")
        await watcher.next(lambda f: is_event(f, "bid_made"))
        await mine.close()
        await watcher.close()
        return state, seen, ack, mine.frames

    state, seen, ack, frames = asyncio.run(play())
    assert state["d"]["viewer"] == {"kind": "player", "player": seat}
    assert _round_dice(state) == {seat}  # its own dice, no one else's
    assert seen["d"]["viewer"]["kind"] == "spectator" and _round_dice(seen) == set()
    assert ack["ok"], ack
    for frame in frames:
        if frame.get("t") == "round_started":
            assert set(frame["d"]["dice"]) <= {seat}

    seat_link_desk.reissue(table.pk, opener.entry, organiser)

    async def after() -> dict[str, Any]:
        again = await open_socket(url, cookie)
        frame = await again.next(lambda f: f["t"] == "state")
        await again.send({"t": "command", "id": "walk-in-2", "d": {"type": "dudo"}})
        refused = await again.next(lambda f: f["t"] == "ack")
        await again.close()
        return {"state": frame, "ack": refused}

    later = asyncio.run(after())
    assert later["state"]["d"]["viewer"]["kind"] == "spectator" and _round_dice(later["state"]) == set()
    assert not later["ack"]["ok"] and later["ack"]["code"] == "not-seated"
