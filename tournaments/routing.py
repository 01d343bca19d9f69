"""Every websocket route of the platform: the match server's and the disputes'."""

from __future__ import annotations

from typing import Any

from django.urls import path

from cacho.routing import websocket_urlpatterns as match_routes
from tournaments.live import DisputesConsumer

websocket_urlpatterns: list[Any] = [
    *match_routes,
    path("ws/disputes/", DisputesConsumer.as_asgi()),
]
