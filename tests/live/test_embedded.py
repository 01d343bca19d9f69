"""Embedded mode (no PostgreSQL, no Redis): the README's run command gives a playable
platform: SQLite, the in-memory channel layer and in-process turn timers."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live.harness import is_event, open_socket
from tests.test_foundation.helpers import Server, clean_env, manage, serve
from tests.test_foundation.installs import migrate_install

pytestmark = [pytest.mark.slow]

SETUP = """
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from cacho.services import matches
users = [get_user_model().objects.create_user(name) for name in ("ana", "beto")]
match = matches.create_match("dudo", ["ana", "beto"], turn_seconds=2, first_seat=0)
cookies = {}
for index, user in enumerate(users):
    matches.take_seat(match.pk, index, user)
    client = Client()
    client.force_login(user)
    cookies[user.username] = client.cookies[settings.SESSION_COOKIE_NAME].value
print(json.dumps({"match": str(match.pk), "cookies": cookies, "cookie_name": settings.SESSION_COOKIE_NAME}))
"""


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[tuple[dict[str, str], Server]]:
    """A default install's data folder, migrated, and its server started (a fixture: the
    test's turn alone is for what it measures). The match is made in the test: its first
    turn's clock starts then, and the server's sweep finds it in the database."""
    env = clean_env(tmp_path, ALLOWED_HOSTS="127.0.0.1,localhost")
    migrate_install(env)
    with serve(env, tmp_path) as server:
        yield env, server


@pytest.mark.alone  # asserts a latency
def test_embedded_mode_plays_live_with_in_process_timers(serving: tuple[dict[str, str], Server]) -> None:
    env, server = serving
    made = manage(env, "shell", "-c", SETUP)
    assert made.returncode == 0, made.stderr
    info = json.loads(made.stdout.strip().splitlines()[-1])
    headers = {name: {"Cookie": f"{info['cookie_name']}={value}"} for name, value in info["cookies"].items()}
    url = server.url.replace("http://", "ws://") + f"/ws/matches/{info['match']}/"

    async def scenario() -> tuple[dict[str, Any], float, int]:
        ana = await open_socket(url, headers["ana"])
        beto = await open_socket(url, headers["beto"])
        state = await ana.next(lambda f: f["t"] == "state")
        await beto.next(lambda f: f["t"] == "state")
        assert state["d"]["state"]["round"]["to_act"] == "ana"
        # the first turn's deadline was set by another process: the server's sweep plays it
        opened = await beto.next(lambda f: is_event(f, "bid_made"), timeout=10)
        assert opened["d"]["timed_out"] is True
        # beto raises; ana's turn is then left alone: the in-process timer plays it
        await beto.send({"t": "command", "id": "b1", "d": {"type": "bid", "quantity": 2, "face": 2}})
        ack = await beto.next(lambda f: f["t"] == "ack")
        assert ack["ok"], ack
        raised = await ana.next(lambda f: is_event(f, "bid_made") and f["d"]["player"] == "beto")
        deadline = raised["d"]["deadline"]
        auto = await beto.next(lambda f: is_event(f, "bid_made") and f["d"]["player"] == "ana", timeout=10)
        arrived = time.time() * 1000
        for sock in (ana, beto):
            await sock.close()
        return auto, arrived, deadline

    auto, arrived, deadline = asyncio.run(scenario())
    assert auto["d"]["timed_out"] is True and (auto["d"]["quantity"], auto["d"]["face"]) == (3, 2)
    assert arrived - deadline <= 1000, f"played {arrived - deadline:.0f} ms after the deadline"
