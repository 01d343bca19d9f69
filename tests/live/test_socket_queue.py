"""A match socket's one queue (cacho.live.consumer.MatchConsumer.__call__): the client's
messages are read one at a time, each only once the last was handled, and a client side
that fails ends the socket with its error instead of leaving it waiting."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from cacho.live.consumer import MatchConsumer


class ClientGone(Exception):
    pass


async def test_the_client_is_read_one_message_at_a_time_and_its_failure_ends_the_socket() -> None:
    seen: list[str] = []
    frames = iter(["not json", "[1]"])

    async def receive() -> dict[str, Any]:
        seen.append("read")
        try:
            return {"type": "websocket.receive", "text": next(frames)}
        except StopIteration:
            raise ClientGone from None

    async def send(message: dict[str, Any]) -> None:
        await asyncio.sleep(0.01)  # a slow socket: a reader running ahead would read meanwhile
        seen.append(json.loads(message["text"])["code"])

    with pytest.raises(ClientGone):
        await asyncio.wait_for(MatchConsumer()({"type": "websocket"}, receive, send), 5)
    # Each frame answered (its error frame sent) before the next one is read.
    assert seen == ["read", "bad-json", "read", "bad-frame", "read"]
