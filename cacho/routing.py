"""Websocket routes of the match server, mounted by `tournaments.asgi`.

Live-play consumers add their routes here, e.g.
``path("ws/matches/<uuid:match_id>/", MatchConsumer.as_asgi())``.
"""

from __future__ import annotations

from typing import Any

websocket_urlpatterns: list[Any] = []
