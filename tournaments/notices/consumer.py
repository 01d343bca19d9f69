"""`/ws/notices/`: a signed-in player's pages hear that a notice arrived (`{"t": "notice",
"id", "kind", "unread"}`) and read the list through the API (`GET /api/me/notices`). A
nudge over the channel layer like every other (at most once): the list is the truth."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from cacho.observability import metrics
from tournaments.notices.delivery import user_group

CLOSE_NOT_AUTHENTICATED = 4401


class NoticesConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    group: str = ""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_NOT_AUTHENTICATED)
            return
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        metrics.socket_opened("notices")

    async def disconnect(self, code: int) -> None:
        if self.group:
            metrics.socket_closed("notices")
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is asked over this socket (the API answers): whatever comes is ignored."""

    async def notice_new(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {"t": "notice", "id": event["id"], "kind": event["kind"], "unread": event["unread"]}
        )
