"""Table talk on the match socket (docs/table-talk.md): the `chat` and `chat-history`
frames go to `cacho.talk.service` (the one write path, shared with the REST API), and
each new message reaches the sockets as a `match.chat` group message, which every socket
filters for its own reader: a seated player never receives the spectators' chat while the
table plays, nor the seats they muted.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from cacho.live.protocol import TalkFrame, error_frame
from cacho.live.reads import Connection, dumps
from cacho.talk import service
from cacho.talk.models import ChatMessage

MAX_CHAT_ID = 64


def _speaker(connection: Connection, user: Any) -> service.Speaker:
    """The author of a socket's messages, from what the socket knows (no database)."""
    name = connection.seat
    if name is None and connection.user_id is not None:
        name = user.get_username()
    return service.Speaker(connection.seat, connection.user_id, name or "")


def _post(match_id: str, who: service.Speaker, data: dict[str, Any]) -> dict[str, Any]:
    match = service.match_of(match_id)
    return service.post(match, who, data.get("c"), text=data.get("text"), phrase=data.get("phrase"))


def _history(match_id: str, user: Any, session: Any, after: int) -> dict[str, Any]:
    match = service.match_of(match_id)
    who = service.speaker(match, user, session)
    return {"messages": service.history(match, who, after), "settings": service.chat_settings(match, who)}


class SocketTalk:
    """One socket's side of the table talk."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.muted: set[str] | None = None  # read on first need (seated sockets only)

    async def handle(self, consumer: Any, frame: TalkFrame) -> None:
        scope = consumer.scope
        if frame.kind == "chat-history":
            after = frame.data.get("after", 0)
            if type(after) is not int or after < 0:
                await consumer._send(error_frame("bad-frame", "after is a message id, 0 or more"))
                return
            history = await database_sync_to_async(_history)(
                self.connection.match_id, scope.get("user"), scope.get("session"), after
            )
            self.muted = set(history["settings"]["muted"])
            await consumer._send({"t": "chat-history", "d": history})
            return
        chat_id = frame.data.get("id")
        if chat_id is not None and (not isinstance(chat_id, str) or not 1 <= len(chat_id) <= MAX_CHAT_ID):
            await consumer._send(
                error_frame("bad-frame", f"a chat id is a string of 1 to {MAX_CHAT_ID} characters")
            )
            return
        who = _speaker(self.connection, scope.get("user"))
        try:
            message = await database_sync_to_async(_post)(self.connection.match_id, who, frame.data)
        except service.TalkError as refused:
            ack = {
                "t": "chat-ack",
                "id": chat_id,
                "ok": False,
                "code": refused.code,
                "message": refused.message,
            }
            await consumer._send({**ack, **refused.extra})
            return
        await consumer._send({"t": "chat-ack", "id": chat_id, "ok": True, "m": message["id"]})

    async def deliver(self, consumer: Any, notice: dict[str, Any]) -> None:
        """A new message, if this socket's reader may see it."""
        message = notice["message"]
        seat = self.connection.seat
        if seat is not None:
            if message["c"] == ChatMessage.SPECTATORS and notice.get("during_play", True):
                return  # no hints from the gallery while the table plays
            if message["seat"] is not None:
                if self.muted is None:
                    self.muted = await database_sync_to_async(service.muted_by)(
                        self.connection.match_id, seat
                    )
                if message["seat"] in self.muted:
                    return
        # The same text for every socket of this process: serialised once.
        text = notice.get("text")
        if text is None:
            text = notice["text"] = dumps({"t": "chat", "d": message})
        await consumer.send_text(text)

    def mutes_changed(self, notice: dict[str, Any]) -> None:
        if notice.get("seat") == self.connection.seat:
            self.muted = set(notice.get("muted") or ())
