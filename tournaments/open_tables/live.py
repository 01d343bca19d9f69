"""`/ws/tables/` (the lobby's open tables) and `/ws/tables/<id>/` (one table's page): each
change of an open table, after its commit, as `{"t": "table", "d": <table>}` (the API's
table without `you`: public facts only). The lobby's socket first receives
`{"t": "tables", "d": [...]}`, the public tables waiting for players; a private table's
changes reach only its own page's sockets. Through the match server's notice loop and
the channel layer's groups: the same machinery as the matches' and disputes' sockets."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from cacho.edge.inputs import plain_digits
from cacho.observability import metrics
from cacho.services import notices
from tournaments.open_tables import reads
from tournaments.open_tables.models import OpenTable

LOBBY_GROUP = "open-tables"
CLOSE_NOT_FOUND = 4404


def table_group(table_id: Any) -> str:
    return f"open-table-{table_id}"


def announce(table_id: Any) -> None:
    """Tell the table's page (and, for a public table, the lobby) how the table is now."""
    table = OpenTable.objects.filter(pk=table_id).first()
    if table is None:
        return
    message = {"type": "open.table", "table": reads.table_json(table)}
    groups = [table_group(table.pk)] if table.private else [table_group(table.pk), LOBBY_GROUP]
    for group in groups:
        notices.send(group, message)


def _opening(table_id: str, user: Any, token: str | None) -> dict[str, Any] | None:
    known = plain_digits(table_id) and len(table_id) <= 18  # a bigint at most
    table = OpenTable.objects.filter(pk=int(table_id)).first() if known else None
    if table is None or not reads.visible_to(table, user, token):
        return None
    return reads.table_json(table)


class OpenTablesConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    group: str = ""

    async def connect(self) -> None:
        table_id = self.scope["url_route"]["kwargs"].get("table_id")
        if table_id is None:
            first = {"t": "tables", "d": await database_sync_to_async(reads.public_waiting)()}
            self.group = LOBBY_GROUP
        else:
            query = parse_qs(self.scope.get("query_string", b"").decode())
            token = (query.get("token") or [None])[0]
            table = await database_sync_to_async(_opening)(str(table_id), self.scope.get("user"), token)
            if table is None:
                await self.accept()
                await self.close(code=CLOSE_NOT_FOUND)
                return
            first = {"t": "table", "d": table}
            self.group = table_group(table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        metrics.socket_opened("tables")
        await self.send_json(first)

    async def disconnect(self, code: int) -> None:
        if self.group:
            metrics.socket_closed("tables")
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Read-only: a ping is answered, anything else ignored.
        if text_data is not None and text_data.replace(" ", "") == '{"t":"ping"}':
            await self.send_json({"t": "pong"})

    async def open_table(self, message: dict[str, Any]) -> None:
        await self.send_json({"t": "table", "d": message["table"]})
