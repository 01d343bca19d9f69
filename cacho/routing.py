"""Websocket routes of the match server, mounted by `project.asgi`."""

from __future__ import annotations

from typing import Any

from django.urls import path

from cacho.live.consumer import MatchConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/matches/<str:match_id>/", MatchConsumer.as_asgi()),
]
