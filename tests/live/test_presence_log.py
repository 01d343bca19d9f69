"""Seated players' connections are recorded durably for the referee's review:
over real sockets (uvicorn, channels-redis), a player who connects, drops and comes back
leaves "connected", "disconnected", "reconnected" in the match's presence log, at their
times, and nothing in the match's event stream; spectators leave no trace; the sweep of
dead sockets records a disconnection when the socket was last heard from."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from cacho.live import presence_log
from cacho.live.models import LiveConnection, PresenceChange
from cacho.live.timers import STALE_CONNECTION, sweep_stale_connections
from cacho.models import Match
from cacho.services import matches
from tests.live.harness import open_socket, session_cookie, wait_for, ws_url
from tests.test_foundation.helpers import Server, http_get

pytestmark = [pytest.mark.slow]


def _match() -> Match:
    match = matches.create_match("dudo", ["ana", "beto"], turn_seconds=600, first_seat=0)
    for index, name in enumerate(("ana", "beto")):
        session_cookie(name)
        matches.take_seat(match.pk, index, get_user_model().objects.get(username=name))
    return match


def _log(server: Server, match: Match) -> list[dict[str, Any]]:
    answer = http_get(f"{server.url}/api/matches/{match.pk}/presence")
    assert answer.status == 200
    changes: list[dict[str, Any]] = json.loads(answer.body)["changes"]
    return changes


def test_a_player_who_drops_and_comes_back_is_on_the_presence_log(server: Server) -> None:
    match = _match()
    version = Match.objects.get(pk=match.pk).version
    url = ws_url(server, match.pk)
    ana, beto = session_cookie("ana"), session_cookie("beto")

    def changes() -> list[tuple[str, str]]:
        return [(c["seat"], c["change"]) for c in _log(server, match)]

    async def scenario() -> tuple[float, float]:
        first = await open_socket(url, ana)
        await first.next(lambda f: f["t"] == "state")
        watcher = await open_socket(url)  # a spectator is counted live, never logged
        await watcher.next(lambda f: f["t"] == "state")
        other = await open_socket(url, beto)
        await other.next(lambda f: f["t"] == "state")
        await asyncio.to_thread(wait_for, lambda: len(changes()) == 2)
        dropped_at = time.time() * 1000
        await other.close()
        await asyncio.to_thread(wait_for, lambda: len(changes()) == 3)
        back_at = time.time() * 1000
        again = await open_socket(url, beto)
        await again.next(lambda f: f["t"] == "state")
        await asyncio.to_thread(wait_for, lambda: len(changes()) == 4)
        for sock in (first, watcher, again):
            await sock.close()
        return dropped_at, back_at

    dropped_at, back_at = asyncio.run(scenario())
    wait_for(lambda: len(_log(server, match)) == 6)  # both players gone at the end
    log = _log(server, match)
    assert [(c["seat"], c["change"]) for c in log[:4]] == [
        ("ana", "connected"),
        ("beto", "connected"),
        ("beto", "disconnected"),
        ("beto", "reconnected"),
    ]
    assert sorted((c["seat"], c["change"]) for c in log[4:]) == [
        ("ana", "disconnected"),
        ("beto", "disconnected"),
    ]
    assert [c["at"] for c in log] == sorted(c["at"] for c in log)
    assert abs(log[2]["at"] - dropped_at) < 5_000 and abs(log[3]["at"] - back_at) < 5_000
    assert Match.objects.get(pk=match.pk).version == version  # not a single match event


@pytest.mark.usefixtures("committed_db")
def test_the_sweep_records_a_dead_socket_when_it_was_last_heard_from() -> None:
    match = _match()
    heard = timezone.now() - dt.timedelta(minutes=5)
    LiveConnection.objects.create(channel_name="socket.dead", match=match, seat_name="ana")
    LiveConnection.objects.filter(channel_name="socket.dead").update(last_seen=heard)
    presence_log.record(match.pk, frozenset({"ana"}), heard - dt.timedelta(minutes=1))
    assert sweep_stale_connections(now=heard + STALE_CONNECTION + dt.timedelta(seconds=1)) == 1
    assert [(c["seat"], c["change"]) for c in presence_log.changes_of(match.pk)] == [
        ("ana", "connected"),
        ("ana", "disconnected"),
    ]
    assert PresenceChange.objects.filter(match=match, connected=False).get().at == heard
    # the log is append-only: the database refuses to change it
    from django.db import DatabaseError, transaction

    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        PresenceChange.objects.filter(match=match).update(connected=True)
