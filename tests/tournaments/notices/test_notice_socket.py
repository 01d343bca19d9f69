"""The bell's socket in process (embedded mode: the in-memory channel layer): a signed-in
player's `/ws/notices/` hears `{"t": "notice", "id", "kind", "unread"}` when the round is
drawn, and nothing else (no die, no words: the page reads the list); a visitor who is not
signed in is refused."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from django.conf import settings
from django.test import Client

from project.edge.socket_sessions import socket_auth_stack
from project.routing import websocket_urlpatterns
from tests.tournaments.notices.conftest import Evening
from tournaments.notices.models import Notice
from tournaments.services import start_tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]


@pytest.fixture(autouse=True)
def in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _communicator(cookie: str | None) -> ApplicationCommunicator:
    headers = [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())] if cookie else []
    scope = {
        "type": "websocket",
        "path": "/ws/notices/",
        "headers": headers,
        "subprotocols": [],
        "query_string": b"",
    }
    return ApplicationCommunicator(socket_auth_stack(URLRouter(websocket_urlpatterns)), scope)


def test_the_bell_socket_hears_the_round_drawn(evening: Evening) -> None:
    client = Client()
    client.force_login(evening.players["ana"])
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        visitor = _communicator(None)
        await visitor.send_input({"type": "websocket.connect"})
        refused = await visitor.receive_output(5)
        ana = _communicator(cookie)
        await ana.send_input({"type": "websocket.connect"})
        assert (await ana.receive_output(5))["type"] == "websocket.accept"
        await ana.send_input({"type": "websocket.receive", "text": "{not json"})  # ignored
        await database_sync_to_async(start_tournament)(evening.tournament.pk, evening.organiser)
        out = await ana.receive_output(5)
        assert out["type"] == "websocket.send", out
        await ana.send_input({"type": "websocket.disconnect", "code": 1000})
        await ana.wait(2)
        return refused, json.loads(out["text"])

    refused, frame = asyncio.run(scenario())
    assert (refused["type"], refused["code"]) == ("websocket.close", 4401)
    notice = Notice.objects.get(user=evening.players["ana"])
    assert frame == {"t": "notice", "id": notice.pk, "kind": "table-ready", "unread": 1}
