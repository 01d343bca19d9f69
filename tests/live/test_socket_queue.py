"""A match socket's one queue (cacho.live.consumer.MatchConsumer.__call__): the client's
messages are read one at a time, each only once the last was handled, and a client side
that fails ends the socket with its error instead of leaving it waiting."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
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


@pytest.mark.sqlite_too
@pytest.mark.usefixtures("committed_db")
def test_a_client_gone_while_its_frame_is_answered_leaves_the_table(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The send of a reply meets the client gone (uvicorn's ClientDisconnected) before the
    reader hands over its `websocket.disconnect`: the seat's presence still ends, the other
    sockets are told, and nothing is logged as a failure."""
    from django.contrib.auth import get_user_model
    from uvicorn.protocols.utils import ClientDisconnected

    from cacho.live import reads
    from cacho.services import matches
    from cacho.services.notices import group_name

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    match = matches.create_match("dudo", ["ana", "beto"], first_seat=0)
    ana = get_user_model().objects.create_user("ana")
    matches.take_seat(match.pk, 0, ana)
    scope = {"type": "websocket", "url_route": {"kwargs": {"match_id": str(match.pk)}}, "user": ana}
    announced: list[list[str]] = []

    async def scenario() -> None:
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        watcher = await layer.new_channel()
        await layer.group_add(group_name(str(match.pk)), watcher)
        client = asyncio.Queue[dict[str, Any]]()
        client.put_nowait({"type": "websocket.connect"})
        client.put_nowait({"type": "websocket.receive", "text": json.dumps({"t": "ping"})})

        gone = False

        async def send(message: dict[str, Any]) -> None:
            nonlocal gone
            gone = gone or '"pong"' in message.get("text", "")
            if gone:  # as uvicorn does on every send once the client has gone
                raise ClientDisconnected

        with contextlib.suppress(ClientDisconnected):
            await asyncio.wait_for(MatchConsumer()(scope, client.get, send), 10)
        while True:
            try:
                notice = await asyncio.wait_for(layer.receive(watcher), 0.5)
            except TimeoutError:
                return
            announced.append(notice["presence"]["players"])

    with caplog.at_level(logging.WARNING, logger="cacho.live"):
        asyncio.run(scenario())
    assert reads.presence(str(match.pk))["players"] == []
    assert announced == [["ana"], []]  # at the table, then gone
    assert caplog.records == []
