"""`/ws/disputes/`: the referees' queue and the parties to a dispute hear, as it happens,
that a dispute was filed, commented, paused, ruled or withdrawn (`{"t": "dispute", "id",
"status"}`); the page reads the dispute again through the API. A socket joins the group
of every club its user referees and the user's own group (as a party).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from cacho.observability import metrics
from cacho.services import notices
from tournaments.models import Membership

CLOSE_NOT_AUTHENTICATED = 4401


def club_group(club_id: int) -> str:
    return f"disputes.club.{club_id}"


def user_group(user_id: int) -> str:
    return f"disputes.user.{user_id}"


def groups_of(user: Any) -> list[str]:
    clubs = Membership.objects.filter(user=user, role__in=Membership.REFEREES).values_list(
        "club_id", flat=True
    )
    return [user_group(user.pk), *(club_group(c) for c in sorted(set(clubs)))]


def announce(club_id: int, user_ids: set[int], dispute_id: int, status: str) -> None:
    """Tell the club's referees and the parties (called after commit), through the match
    server's notice loop: it returns at once, from any thread."""
    message = {"type": "dispute.changed", "id": dispute_id, "status": status}
    for group in [club_group(club_id), *(user_group(u) for u in sorted(user_ids))]:
        notices.send(group, message)


class DisputesConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    joined: list[str]

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.joined = []
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_NOT_AUTHENTICATED)
            return
        self.joined = await database_sync_to_async(groups_of)(user)
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        metrics.socket_opened("disputes")

    async def disconnect(self, code: int) -> None:
        if self.joined:  # accepted (an anonymous socket is closed before)
            metrics.socket_closed("disputes")
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def dispute_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"t": "dispute", "id": event["id"], "status": event["status"]})
