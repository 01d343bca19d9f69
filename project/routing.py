"""Every websocket route of the platform: the match server's and the disputes'."""

from __future__ import annotations

from typing import Any

from django.urls import path

from cacho.routing import websocket_urlpatterns as match_routes
from tournaments.live import DisputesConsumer
from tournaments.notices.consumer import NoticesConsumer
from tournaments.open_tables.live import OpenTablesConsumer

websocket_urlpatterns: list[Any] = [
    *match_routes,
    path("ws/disputes/", DisputesConsumer.as_asgi()),
    path("ws/tables/", OpenTablesConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", OpenTablesConsumer.as_asgi()),
    path("ws/notices/", NoticesConsumer.as_asgi()),
]
