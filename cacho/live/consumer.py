"""`/ws/matches/<id>/`: one socket per viewer of a match (docs/live.md).

A thin consumer: it turns frames into calls of the match service (the one write
path) and events into viewer-filtered frames. The channel layer only says "the
match moved to version N"; the consumer reads the events from the store, so a lost
notice costs latency, never correctness.
"""

from __future__ import annotations

import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from cacho.live import reads
from cacho.live.protocol import (
    CommandFrame,
    FrameError,
    PingFrame,
    StateRequest,
    SyncFrame,
    ack_ok,
    ack_refused,
    error_frame,
    parse_client_frame,
)
from cacho.services.matches import group_name

logger = logging.getLogger(__name__)

CLOSE_NOT_FOUND = 4404


class MatchConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    match_id: str
    connection: reads.Connection
    sent_version: int = 0

    async def connect(self) -> None:
        self.match_id = str(self.scope["url_route"]["kwargs"]["match_id"])
        connection = await database_sync_to_async(reads.open_connection)(
            self.match_id, self.scope.get("user"), self.channel_name
        )
        if connection is None:
            # Accepted, then closed with a code the client can read (a refused handshake says only 403).
            await self.accept()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.connection = connection
        self.match_id = connection.match_id
        await self.channel_layer.group_add(group_name(self.match_id), self.channel_name)
        await self.accept()
        await self._send_state()
        if connection.seat is not None:
            await self._announce_presence()

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "connection"):
            return
        await self.channel_layer.group_discard(group_name(self.match_id), self.channel_name)
        await database_sync_to_async(reads.close_connection)(self.channel_name)
        if self.connection.seat is not None:
            await self._announce_presence()

    # ---------------------------------------------------------------- client frames

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            frame = parse_client_frame(text_data)
        except FrameError as error:
            await self._send(error_frame(error.code, error.message))
            return
        if isinstance(frame, PingFrame):
            await database_sync_to_async(reads.touch_connection)(self.channel_name)
            await self._send({"t": "pong"})
        elif isinstance(frame, StateRequest):
            await self._send_state()
        elif isinstance(frame, SyncFrame):
            self.sent_version = min(self.sent_version, frame.version)
            await self._catch_up()
        else:
            await self._command(frame)

    async def _command(self, frame: CommandFrame) -> None:
        seat = self.connection.seat
        if seat is None:
            await self._send(
                ack_refused(frame.command_id, "not-seated", "only a seated player sends commands")
            )
            return
        outcome = await database_sync_to_async(reads.submit_command)(
            self.match_id, seat, frame.payload, frame.command_id, frame.expected_version
        )
        await self._catch_up()
        if outcome.ok:
            await self._send(ack_ok(frame.command_id, outcome.version, outcome.repeated))
        else:
            await self._send(ack_refused(frame.command_id, outcome.code, outcome.message, **outcome.extra))

    # ---------------------------------------------------------------- group messages

    async def match_events(self, message: dict[str, Any]) -> None:
        version = int(message.get("version", 0))
        if version <= self.sent_version:
            return
        wire = message.get("events") or []
        if wire and wire[0]["v"] == self.sent_version + 1 and wire[-1]["v"] == version:
            # Up to date: render the events carried by the notice, no store read.
            for frame in reads.frames_from_wire(self.connection, wire):
                await self._send(frame)
            self.sent_version = version
            return
        await self._catch_up()

    async def match_presence(self, message: dict[str, Any]) -> None:
        await self._send({"t": "presence", "d": message["presence"]})

    # ---------------------------------------------------------------- sending

    async def _send(self, frame: dict[str, Any]) -> None:
        await self.send(text_data=reads.dumps(frame))

    async def _send_state(self) -> None:
        version, frame = await database_sync_to_async(reads.state_frame)(self.match_id, self.connection)
        self.sent_version = version
        await self._send(frame)

    async def _catch_up(self) -> None:
        """Send every event after the last one sent, or a full state when too far behind."""
        frames, version = await database_sync_to_async(reads.frames_after)(
            self.match_id, self.connection, self.sent_version
        )
        if frames is None:
            await self._send_state()
            return
        for frame in frames:
            await self._send(frame)
        self.sent_version = max(self.sent_version, version)

    async def _announce_presence(self) -> None:
        """Players coming and going are announced; a spectator is only counted (announcing
        each of 500 spectators to the 499 others would flood the channel layer)."""
        presence = await database_sync_to_async(reads.presence)(self.match_id)
        await self.channel_layer.group_send(
            group_name(self.match_id), {"type": "match.presence", "presence": presence}
        )
