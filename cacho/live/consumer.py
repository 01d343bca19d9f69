"""`/ws/matches/<id>/`: one socket per viewer of a match (docs/live.md).

A thin consumer: it turns frames into calls of the match service (the one write
path) and events into viewer-filtered frames. A notice says "the match moved to
version N" and carries the new events; a socket that is not exactly one step behind
reads the store instead, so a lost notice costs latency, never correctness. Notices
reach the socket through its process's hub (cacho.live.hub), not a channel of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings

from cacho.edge.limits import Bucket
from cacho.live import commands, reads
from cacho.live.hub import Inbox, hub_for
from cacho.live.protocol import (
    ClientFrame,
    CommandFrame,
    FrameError,
    PingFrame,
    StateRequest,
    SyncFrame,
    TalkFrame,
    ack_ok,
    ack_refused,
    error_frame,
    parse_client_frame,
)
from cacho.live.talk import SocketTalk
from cacho.observability import logs, metrics
from cacho.services.notices import group_name
from cacho.services.state_cache import STATES

logger = logging.getLogger(__name__)

CLOSE_NOT_FOUND = 4404
READER_ENDED: dict[str, Any] = {"type": "reader.ended"}  # in the inbox once the client's reader stopped


class MatchConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    match_id: str
    connection: reads.Connection
    sent_version: int = 0
    seats: list[dict[str, Any]] | None = None
    seats_key = ""  # the seats serialised: what a state shared with other viewers is keyed by
    views = False  # the client asked for the view in the last frame of each write
    role: str  # for the open-sockets gauge (cacho.observability.metrics), once accepted
    # (version, seats, text) of the last state frame sent from the cache: a repeat is free.
    state_memo: tuple[int, Any, str] | None = None
    talk_side: SocketTalk | None = None  # table talk (cacho.live.talk), made on first use
    disconnected = False  # `disconnect` ran: the socket's presence and membership are ended
    client_gone = False  # a send met the client gone: the socket ends, its frame did not fail

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """As AsyncConsumer's, but group messages come from the process's hub (cacho.live.hub)
        into this socket's inbox (no channel-layer channel of its own), and the client's
        messages join them there: one queue, handled one message at a time, in the order
        they came. (Channels' `await_many_dispatch` waits on both sources with
        `asyncio.wait` and a new task per message, dearer than the message's own work.)"""
        self.scope = scope
        self.channel_layer = get_channel_layer()
        self.channel_name = f"socket.{uuid.uuid4().hex}"  # names its presence row
        self.inbox: Inbox = asyncio.Queue()
        self.frames = Bucket(settings.CACHO_LIVE_FRAME_RATE, settings.CACHO_LIVE_FRAME_BURST)
        self.base_send = send
        handled = asyncio.Event()
        reader = asyncio.get_running_loop().create_task(self._read_client(receive, handled))
        # A reader that failed must end the socket with its error, not leave it waiting.
        reader.add_done_callback(lambda done: done.cancelled() or self.inbox.put_nowait(READER_ENDED))
        try:
            with contextlib.suppress(StopConsumer):
                while True:
                    message = await self.inbox.get()
                    if message is READER_ENDED:
                        reader.result()  # its error, if it had one
                        return
                    try:
                        await self.dispatch(message)
                    finally:
                        if message["type"].startswith("websocket."):
                            handled.set()
        finally:
            reader.cancel()
            # A handler that met its client gone (uvicorn raises ClientDisconnected on a
            # send) ends the loop before the reader's `websocket.disconnect` is handled: the
            # socket's presence row, hub membership and presence notice end here instead,
            # or the other players would see the player as still at the table.
            try:
                await self.disconnect(1006)
            except Exception:
                logger.exception("socket cleanup failed on match %s", getattr(self, "match_id", "?"))

    async def _read_client(self, receive: Any, handled: asyncio.Event) -> None:
        """The client's messages into the inbox, the next read only once the last was
        handled: a client that sends faster than its frames are handled is held back by
        the server's own queue and the socket, not by a queue here."""
        while True:
            handled.clear()
            self.inbox.put_nowait(await receive())
            await handled.wait()

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Without AsyncConsumer's database-connection check per message: the handlers that
        # touch the database go through database_sync_to_async, which does it.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.match_id = str(self.scope["url_route"]["kwargs"]["match_id"])
        # `?views=1`: a client that draws from the event frames (the match page) has its
        # view in the last frame of each write, rather than asking for a state.
        self.views = parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get("views") == ["1"]
        connection = await database_sync_to_async(reads.open_connection)(
            self.match_id, self.scope.get("user"), self.channel_name, self.scope.get("session")
        )
        if connection is None:
            # Accepted, then closed with a code the client can read (a refused handshake says only 403).
            await self.accept()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.connection = connection
        self.match_id = connection.match_id
        logs.bind(match=self.match_id, user=connection.user_id)
        await hub_for(self.channel_layer).join(group_name(self.match_id), self.inbox)
        await self.accept()
        self.role = "spectator" if connection.seat is None else "player"
        metrics.socket_opened(self.role)
        await self._send_state()
        if connection.seat is not None:
            await self._announce_presence()

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "connection") or self.disconnected:
            return
        self.disconnected = True
        if hasattr(self, "role"):
            metrics.socket_closed(self.role)
        await hub_for(self.channel_layer).leave(group_name(self.match_id), self.inbox)
        await database_sync_to_async(reads.close_connection)(self.channel_name)
        if self.connection.seat is not None:
            await self._announce_presence()

    # ---------------------------------------------------------------- client frames

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.frames.take():
            # Over the socket's frame rate (CACHO_LIVE_FRAME_RATE): a few bytes, no work.
            await self._send(error_frame("rate-limited", "too many frames: slow down"))
            return
        try:
            frame = parse_client_frame(text_data)
        except FrameError as error:
            await self._send(error_frame(error.code, error.message))
            return
        try:
            await self._handle(frame)
        except Exception:  # a bad frame costs its sender an error frame, never the socket
            if self.client_gone:
                raise
            logger.exception("frame failed on match %s", self.match_id)
            await self._send(error_frame("server-error", "the server could not handle this frame"))

    async def _handle(self, frame: ClientFrame) -> None:
        if isinstance(frame, PingFrame):
            await database_sync_to_async(reads.touch_connection)(self.channel_name)
            await self._send({"t": "pong"})
        elif isinstance(frame, StateRequest):
            await self._send_state()
        elif isinstance(frame, SyncFrame):
            self.sent_version = min(self.sent_version, frame.version)
            await self._catch_up()
        elif isinstance(frame, TalkFrame):
            await self._talk().handle(self, frame)
        else:
            await self._command(frame)

    async def _command(self, frame: CommandFrame) -> None:
        seat = self.connection.seat
        if seat is None:
            await self._send(
                ack_refused(frame.command_id, "not-seated", "only a seated player sends commands")
            )
            return
        outcome = await database_sync_to_async(commands.submit_command)(
            self.match_id,
            seat,
            frame.payload,
            frame.command_id,
            frame.expected_version,
            self.connection.user_id,
        )
        if not await self._send_wire(outcome.wire, outcome.version):
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
        if not await self._send_wire(message.get("events") or [], version):
            await self._catch_up()

    async def match_resync(self, message: dict[str, Any]) -> None:
        """The layer may have lost notices (its Redis restarted: cacho.live.hub): read the store."""
        await self._catch_up()

    async def match_seats(self, message: dict[str, Any]) -> None:
        """Someone took or left a seat: the seats are read again, and sent in a state (a
        page that draws its turns from the event frames would not ask)."""
        self.seats = None
        await self._send_state()

    async def match_presence(self, message: dict[str, Any]) -> None:
        await self._send({"t": "presence", "d": message["presence"]})

    async def match_chat(self, message: dict[str, Any]) -> None:
        await self._talk().deliver(self, message)

    async def match_mutes(self, message: dict[str, Any]) -> None:
        self._talk().mutes_changed(message)

    def _talk(self) -> SocketTalk:
        if self.talk_side is None:
            self.talk_side = SocketTalk(self.connection)
        return self.talk_side

    # ---------------------------------------------------------------- sending

    async def send_text(self, text: str) -> None:
        """One text frame, handed to the server's `send` (`base_send`, which `__call__` keeps)
        as the message channels' `send` would have built, two calls deeper: every frame to
        every socket of a watched table takes this path."""
        try:
            await self.base_send({"type": "websocket.send", "text": text})
        except OSError:  # the server's word for a client gone (uvicorn's ClientDisconnected)
            self.client_gone = True
            raise

    async def _send(self, frame: dict[str, Any]) -> None:
        await self.send_text(reads.dumps(frame))

    async def _send_wire(self, wire: list[dict[str, Any]], version: int) -> bool:
        """Up to date: render the events that came with a notice or an acknowledgement, no
        store read. False when they do not follow what this socket has (it must catch up)."""
        if version <= self.sent_version:
            return True
        if not wire or wire[0]["v"] != self.sent_version + 1 or wire[-1]["v"] != version:
            return False
        state, head = None, None
        if reads.uses_state(self.connection, self.views):
            cached = STATES.get(self.match_id)
            if cached is not None and cached.version == version:
                state, head = cached.state, cached.head
        for text in reads.frames_from_wire(self.connection, wire, state, head, self.views):
            await self.send_text(text)
        self.sent_version = version
        return True

    async def _send_state(self) -> None:
        """From the process's cache of the match when it is at least as new as what this
        socket was sent (kept by the writes and the notices: no database), else from the
        store."""
        cached = STATES.get(self.match_id)
        if cached is not None and cached.version >= self.sent_version and self.seats:
            memo = self.state_memo
            if memo is not None and memo[0] == cached.version and memo[1] is self.seats:
                text = memo[2]  # asked again with nothing new: the same text, no work
            else:
                text = reads.state_text(
                    self.connection, cached.head, cached.state, self.seats, self.seats_key
                )
                self.state_memo = (cached.version, self.seats, text)
            self.sent_version = max(self.sent_version, cached.version)
            await self.send_text(text)
            return
        seats = self.seats
        frame, self.seats = await database_sync_to_async(reads.state_frame)(
            self.match_id, self.connection, self.seats
        )
        if self.seats is not seats:
            self.seats_key = reads.dumps(self.seats)
        self.sent_version = max(self.sent_version, frame["v"])
        await self._send(frame)

    async def _catch_up(self) -> None:
        """Send every event after the last one sent, or a full state when too far behind."""
        cached = STATES.get(self.match_id)
        if cached is not None and cached.version - self.sent_version > reads.catch_up_limit():
            await self._send_state()  # known far behind from the cache: no store read
            return
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
        """Players coming and going are announced (and recorded, `presence_log`); a
        spectator is only counted (announcing each of 500 spectators to the 499 others
        would flood the channel layer)."""
        presence = await database_sync_to_async(reads.seat_presence_changed)(self.match_id)
        group = group_name(self.match_id)
        message = {"type": "match.presence", "group": group, "presence": presence}
        try:
            await self.channel_layer.group_send(group, message)
        except Exception:  # the layer's Redis away: presence is best effort, the socket lives on
            logger.warning("presence notice to %s dropped", group, exc_info=True)
